// sextant's command line: find the command, parse its options, run it, and
// turn failures into one line on stderr with a non-zero exit.
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { boundedMessage, quote, UserError } from '../errors.js';
import { helpText, parseCommand, type CommandSpec, type Parsed } from './parse.js';
import { VERSION } from './version.js';

interface CommandModule {
  spec: CommandSpec;
  run(parsed: Parsed): Promise<number>;
}

// Loaded on demand, so `sextant mcp` does not pay for the indexing code.
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  index: () => import('./commands/index.js'),
  publish: () => import('./commands/publish.js'),
  reindex: () => import('./commands/reindex.js'),
  status: () => import('./commands/status.js'),
  def: () => import('./commands/def.js'),
  refs: () => import('./commands/refs.js'),
  symbols: () => import('./commands/symbols.js'),
  calls: () => import('./commands/calls.js'),
  types: () => import('./commands/types.js'),
  search: () => import('./commands/search.js'),
  files: () => import('./commands/files.js'),
  watch: () => import('./commands/watch.js'),
  mcp: () => import('./commands/mcp.js'),
};

/**
 * V8's heap growth for commands that ingest indexes. V8 lets the heap grow to a
 * multiple of what survived the last full collection (up to 4x) before it
 * collects again; ingest turns over megabytes of short-lived rows per batch, so
 * its peak memory was set by when V8 happened to collect: 140 to 220 MB for the
 * same publish, and more as the index grew. A growth of 30% collects the
 * garbage sooner; its peak then follows what ingest really holds (no slower,
 * measured with scripts/bench-scale.ts).
 */
const INGEST_HEAP_GROWTH = '--heap-growing-percent=30';

/**
 * V8's interrupt budget for `sextant index`, 16 times its default (67,584
 * bytes of bytecode run before a function is considered for optimization). An
 * index run is short and its code mostly cold, and it shares the cores with the
 * indexer: with the default, optimizing compilations (on V8's background
 * threads) took a third of sextant's CPU during ingest, more than they saved.
 * Hot loops of a large ingest still get optimized, later.
 */
const INDEX_INTERRUPT_BUDGET = `--interrupt-budget=${16 * 67_584}`;

/**
 * V8 flags by command, set before the command's code is loaded: they are
 * process-wide, so worker threads started later (the parsing worker) have them too.
 */
const V8_FLAGS: Readonly<Record<string, readonly string[]>> = {
  index: [INGEST_HEAP_GROWTH, INDEX_INTERRUPT_BUDGET],
  publish: [INGEST_HEAP_GROWTH],
  reindex: [INGEST_HEAP_GROWTH],
  watch: [INGEST_HEAP_GROWTH],
};

/** Where the build writes the usage text, beside the bundle's chunks. */
export const PREBUILT_USAGE = 'usage.txt';

/**
 * `sextant --help`: the text the build rendered (scripts/bundle.ts), else
 * rendered here. Rendering it loads every command's module, and with them
 * most of sextant (zod, kysely, the indexing code): several times the time
 * node takes to start.
 */
async function usage(): Promise<string> {
  try {
    return readFileSync(new URL(`./${PREBUILT_USAGE}`, import.meta.url), 'utf8');
  } catch {
    return renderUsage();
  }
}

/** The usage text, from every command's spec. */
export async function renderUsage(): Promise<string> {
  const lines = [`sextant ${VERSION}: precise code navigation from SCIP indexes`, '', 'usage: sextant COMMAND [options]', '', 'commands:'];
  for (const load of Object.values(COMMANDS)) {
    const { spec } = await load();
    lines.push(`  ${spec.name.padEnd(8)} ${spec.summary}`);
  }
  lines.push('', 'Run `sextant COMMAND --help` for its options.');
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  // The bundle's main chunk is loaded: a step of the cold start breakdown (scripts/bench-cold.ts).
  performance.mark('sextant:main');
  // `sextant refs x | head` closes stdout early: that is the reader's choice, not a failure.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    if (name === 'help' && rest[0] && COMMANDS[rest[0]]) {
      process.stdout.write(helpText((await COMMANDS[rest[0]]!()).spec) + '\n');
    } else {
      process.stdout.write((await usage()) + '\n');
    }
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(VERSION + '\n');
    return 0;
  }
  // Own keys only: `constructor` or `toString` is not a command.
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    process.stderr.write(`sextant: unknown command ${quote(name)}: run \`sextant --help\` for the commands\n`);
    return 2;
  }
  for (const flag of Object.hasOwn(V8_FLAGS, name) ? V8_FLAGS[name]! : []) setFlagsFromString(flag);
  const command = await load();
  // A failure outside the command's own awaits (work it started and did not wait for) ends the process as one
  // line too: node's own report prints the throwing line of the bundle, a hundred kilobytes of minified code.
  const died = (error: unknown) => {
    process.stderr.write(`sextant ${name}: internal error: ${internalDetail(error)}\n`);
    process.exit(70);
  };
  process.on('uncaughtException', died);
  process.on('unhandledRejection', died);
  try {
    const parsed = parseCommand(command.spec, rest);
    if (parsed.values.help) {
      process.stdout.write(helpText(command.spec) + '\n');
      return 0;
    }
    return await command.run(parsed);
  } catch (error) {
    const message = error instanceof UserError ? boundedMessage(error.message) : `internal error: ${internalDetail(error)}`;
    process.stderr.write(`sextant ${name}: ${message}\n`);
    // Loaded here: the printer's envelope code stays off the start path of every command.
    if (rest.includes('--json')) (await import('./output.js')).printJsonError(message);
    return error instanceof UserError ? error.exitCode : 70;
  }
}

/** An unexpected error's message, bounded; its stack with SEXTANT_DEBUG set. */
function internalDetail(error: unknown): string {
  if (process.env.SEXTANT_DEBUG && error instanceof Error && error.stack) return error.stack;
  return boundedMessage(error instanceof Error ? error.message : String(error));
}
