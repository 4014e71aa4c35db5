// Indexer manifests: one JSON file per indexer under indexers/ (and, for
// indexers of your own, under $SEXTANT_INDEXERS), declaring its languages, how
// to run it and how long to let it run. Language servers' manifests lie beside
// them as NAME.lsp.json (src/lsp/manifests.ts reads those).
import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { projectFile } from '../paths.js';
import { quote, UserError } from '../errors.js';

export const BUILTIN_DIR = projectFile('indexers');
/** The ending of a language server's manifest, which lies beside the indexers'. */
export const LSP_SUFFIX = '.lsp.json';

// An indexer's manifest. Its shape is checked by hand (manifestFrom, below):
// `sextant index` reads the manifests as it starts, and zod (290 KB, which the
// MCP server loads for its protocol) was two fifths of the JavaScript `sextant
// index` loaded, about 50 ms of its start, for this one shape. Unknown keys
// are refused: a misspelt one would otherwise be ignored.
export interface IndexerManifest {
  /** Letters, digits, `_`, `.` and `-`. */
  name: string;
  /** At least one. */
  languages: string[];
  command: { npm: string; bin: string } | { path: string };
  /** Placeholders: {root} {output} {slug} {projects}. */
  args: string[];
  projects?: { configFiles: string[]; inferred?: { fileName: string; compilerOptions: Record<string, unknown> } };
  /** Positive. */
  timeoutSeconds: number;
  recovery: { missing?: string; failed?: string; empty?: string; timeout?: string };
}

export function loadManifests(env: NodeJS.ProcessEnv = process.env): IndexerManifest[] {
  const byName = new Map<string, IndexerManifest>();
  for (const dir of [BUILTIN_DIR, env.SEXTANT_INDEXERS].filter((d): d is string => Boolean(d))) {
    if (!existsSync(dir)) throw new UserError(`SEXTANT_INDEXERS points at ${dir}, which does not exist: fix or unset it`);
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.json') && !f.endsWith(LSP_SUFFIX))
      .sort()) {
      const path = join(dir, file);
      let parsed: unknown;
      try {
        parsed = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        throw new UserError(`indexer manifest ${path} is not valid JSON (${(error as Error).message}): fix it`);
      }
      let manifest: IndexerManifest;
      try {
        manifest = manifestFrom(parsed);
      } catch (error) {
        if (!(error instanceof ShapeError)) throw error;
        throw new UserError(`indexer manifest ${path}: ${error.at}: ${error.message}: fix it`);
      }
      byName.set(manifest.name, manifest);
    }
  }
  return [...byName.values()];
}

/** The program and leading arguments that run an indexer; undefined when it is not installed. */
export function resolveCommand(manifest: Pick<IndexerManifest, 'command'>, env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  const command = manifest.command;
  if ('npm' in command) {
    try {
      const require = createRequire(projectFile('package.json'));
      const packageJson = require.resolve(`${command.npm}/package.json`);
      const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { bin?: string | Record<string, string> };
      const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[command.bin];
      if (!bin) return undefined;
      const script = join(dirname(packageJson), bin);
      return existsSync(script) ? [process.execPath, script] : undefined;
    } catch {
      return undefined;
    }
  }
  const found = isAbsolute(command.path)
    ? [command.path]
    : (env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((d) => join(d, command.path));
  const executable = found.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  return executable ? [executable] : undefined;
}

/** Where in a manifest it is not of its shape, and how. */
class ShapeError extends Error {
  constructor(
    readonly at: string,
    message: string,
  ) {
    super(message);
  }
}

function manifestFrom(value: unknown): IndexerManifest {
  const m = object(value, 'manifest', ['name', 'languages', 'command', 'args', 'projects', 'timeoutSeconds', 'recovery']);
  const name = string(m.name, 'name');
  if (!/^[\w.-]+$/.test(name)) throw new ShapeError('name', 'expected letters, digits, "_", "." and "-" only');
  const manifest: IndexerManifest = {
    name,
    languages: strings(m.languages, 'languages', 1),
    command: commandFrom(m.command),
    args: strings(m.args, 'args'),
    timeoutSeconds: positive(m.timeoutSeconds, 'timeoutSeconds'),
    recovery: {},
  };
  if (m.projects !== undefined) manifest.projects = projectsFrom(m.projects);
  if (m.recovery !== undefined) {
    const recovery = object(m.recovery, 'recovery', ['missing', 'failed', 'empty', 'timeout']);
    for (const [key, text] of Object.entries(recovery))
      manifest.recovery[key as keyof IndexerManifest['recovery']] = string(text, `recovery.${key}`);
  }
  return manifest;
}

function commandFrom(value: unknown): IndexerManifest['command'] {
  const command = object(value, 'command', ['npm', 'bin', 'path']);
  if ('path' in command && !('npm' in command) && !('bin' in command)) return { path: string(command.path, 'command.path') };
  if ('npm' in command && 'bin' in command && !('path' in command))
    return { npm: string(command.npm, 'command.npm'), bin: string(command.bin, 'command.bin') };
  throw new ShapeError('command', 'expected either "npm" and "bin" (an npm package\'s bin) or "path" (a program)');
}

function projectsFrom(value: unknown): NonNullable<IndexerManifest['projects']> {
  const projects = object(value, 'projects', ['configFiles', 'inferred']);
  const out: NonNullable<IndexerManifest['projects']> = { configFiles: strings(projects.configFiles, 'projects.configFiles', 1) };
  if (projects.inferred !== undefined) {
    const inferred = object(projects.inferred, 'projects.inferred', ['fileName', 'compilerOptions']);
    out.inferred = {
      fileName: string(inferred.fileName, 'projects.inferred.fileName'),
      compilerOptions: object(inferred.compilerOptions, 'projects.inferred.compilerOptions'),
    };
  }
  return out;
}

/** An object, with only `keys` when given. */
function object(value: unknown, at: string, keys?: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ShapeError(at, 'expected an object');
  const unknown = keys && Object.keys(value).find((key) => !keys.includes(key));
  if (unknown !== undefined) throw new ShapeError(at, `unknown key ${quote(unknown)} (expected ${keys!.join(', ')})`);
  return value as Record<string, unknown>;
}

function string(value: unknown, at: string): string {
  if (typeof value !== 'string') throw new ShapeError(at, `expected a string, not ${describe(value)}`);
  return value;
}

function strings(value: unknown, at: string, least = 0): string[] {
  if (!Array.isArray(value)) throw new ShapeError(at, `expected an array of strings, not ${describe(value)}`);
  if (value.length < least) throw new ShapeError(at, `expected at least ${least} string${least === 1 ? '' : 's'}`);
  return value.map((item, i) => string(item, `${at}.${i}`));
}

function positive(value: unknown, at: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new ShapeError(at, `expected a positive number, not ${describe(value)}`);
  return value;
}

function describe(value: unknown): string {
  return value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'string'
        ? 'a string'
        : typeof value === 'object'
          ? 'an object'
          : String(value);
}
