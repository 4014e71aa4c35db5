// Command-line parsing, kept apart from what commands do. Options are declared
// per command; anything undeclared is rejected with the command's usage.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { MAX_PATH_LENGTH } from '../protocol/limits.js';
import { QUOTE_MAX, quote, UserError } from '../errors.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface CommandSpec {
  name: string;
  summary: string;
  usage: string;
  /** Lines of help after the usage. */
  details: string[];
  options: OptionSpec;
  /** Most positional arguments accepted. */
  maxPositionals: number;
}

/** Options every command takes. */
export const COMMON_OPTIONS: OptionSpec = {
  registry: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export const COMMON_HELP = [
  '  --registry PATH   the registry: a file or a postgres:// URL (default $SEXTANT_REGISTRY,',
  '                    else $SEXTANT_HOME/registry.db, SEXTANT_HOME=~/.sextant)',
  '  --json            print the result as JSON on stdout',
  '  -h, --help        show this help',
];

/** The longest command-line argument: a path, with room for a :LINE:COL after it. */
export const MAX_ARGUMENT_LENGTH = MAX_PATH_LENGTH + 32;

/** node's parseArgs quotes the offending option in '...': cut it like any echoed argument. */
function clipQuoted(message: string): string {
  return message.replace(/'([^']*)'/g, (whole, inner: string) => (inner.length > QUOTE_MAX ? quote(inner) : whole));
}

export class UsageError extends UserError {
  override name = 'UsageError';

  override get exitCode(): number {
    return 2;
  }
}

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export function parseCommand(spec: CommandSpec, argv: string[]): Parsed {
  const long = argv.findIndex((a) => a.length > MAX_ARGUMENT_LENGTH);
  if (long >= 0) {
    throw new UsageError(`argument ${long + 1} is too long (${argv[long]!.length} characters): at most ${MAX_ARGUMENT_LENGTH}`);
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...COMMON_OPTIONS, ...spec.options }, allowPositionals: true, strict: true });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new UsageError(`${clipQuoted(message)} (usage: ${spec.usage}; see \`sextant ${spec.name} --help\`)`);
  }
  if (parsed.positionals.length > spec.maxPositionals) {
    throw new UsageError(`unexpected argument ${quote(parsed.positionals[spec.maxPositionals]!)} (usage: ${spec.usage})`);
  }
  return { values: parsed.values as Parsed['values'], positionals: parsed.positionals };
}

export function helpText(spec: CommandSpec): string {
  return [
    `usage: ${spec.usage}`,
    '',
    spec.summary,
    '',
    ...spec.details,
    ...(spec.details.length ? [''] : []),
    'options:',
    ...COMMON_HELP,
  ].join('\n');
}

/** A whole number option, at least `min` (larger values are left to the request, which clamps and says so). */
export function wholeNumberOption(value: string | boolean | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !Number.isInteger(n) || n < min) {
    throw new UsageError(`--${name} must be a whole number >= ${min}, got ${quote(String(value))}`);
  }
  return n;
}

/** A positive number of seconds, fractions allowed. */
export function secondsOption(value: string | boolean | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !Number.isFinite(n) || n <= 0) {
    throw new UsageError(`--${name} must be a number of seconds > 0, got ${quote(String(value))}`);
  }
  return n;
}

/** The PATH:LINE:COL a command needs as its argument. */
export function positionArgument(positionals: readonly string[], spec: CommandSpec): { path: string; line: number; column: number } {
  const target = positionals[0] ? parseTarget(positionals[0]) : undefined;
  if (!target || 'symbol' in target) throw new UsageError(`pass a position PATH:LINE:COL (usage: ${spec.usage})`);
  return target;
}

/** PATH:LINE:COL, or a bare symbol name. */
export function parseTarget(text: string): { path: string; line: number; column: number } | { symbol: string } {
  const m = /^(.+):(\d+):(\d+)$/.exec(text);
  if (m) return { path: m[1]!, line: Number(m[2]), column: Number(m[3]) };
  if (/^(.+):\d+$/.test(text))
    throw new UsageError(`${quote(text)} has a line but no column: write PATH:LINE:COL (1-based), e.g. src/a.ts:12:5`);
  return { symbol: text };
}
