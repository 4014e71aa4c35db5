// TypeScript, compiled through V8's code cache. typescript.js is a 9 MB
// CommonJS module: compiling it, and then the parser functions a first parse
// compiles, took 0.25-0.3 s of CPU in each thread that loads it (the parsing
// worker of every `sextant index`, and planning where there are tsconfigs),
// beside the indexer, which needs the cores. What V8 compiled can be saved and
// loaded back in about a seventh of that. The parsing worker saves it (after
// its first file, so that it holds the parser); planning loads it too. The
// cache lives in the user's cache directory, $XDG_CACHE_HOME/sextant or
// ~/.cache/sextant (SEXTANT_CODE_CACHE_DIR names another): never beside the
// install, which may be inside the repository being indexed, and not under
// SEXTANT_HOME, which holds registries, not caches. Its files are named by
// TypeScript's version and V8's tag for its version,
// flags and CPU (each command sets flags of its own, so `index` and `watch`
// keep a cache each). V8 checks the tag and the source again and refuses a
// cache that does not fit; a missing or refused cache is written anew, and one
// that cannot be written (no home, a read-only one) only means the module compiles
// as before.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { cachedDataVersionTag } from 'node:v8';
import { Script } from 'node:vm';
import type * as ts from 'typescript';

const require = createRequire(import.meta.url);

let loaded: { ts: typeof ts; save: (() => void) | undefined } | undefined;

/**
 * The typescript module, loaded once per thread, as `require('typescript')`
 * would (a CommonJS module, not an ES import: Node would first scan all of it
 * for its exports, about 0.2 s).
 */
export function loadTypescript(): typeof ts {
  loaded ??= load();
  return loaded.ts;
}

/**
 * Writes the code cache if loading found none it could use. Called once the
 * thread has done some of its work: V8 saves the functions compiled so far,
 * so the cache then holds the parser's functions too, not only the module's
 * top level.
 */
export function saveTypescriptCache(): void {
  const save = loaded?.save;
  if (!save || !loaded) return;
  loaded.save = undefined;
  save();
}

function load(): { ts: typeof ts; save: (() => void) | undefined } {
  const file = require.resolve('typescript');
  const manifest = require.resolve('typescript/package.json');
  const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  const dir = process.env.SEXTANT_CODE_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'sextant');
  const cacheFile = join(dir, `typescript-${version}-${cachedDataVersionTag().toString(16)}.v8`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // None yet: compiled from source, and saved later.
  }
  // The wrapper Node's CommonJS loader puts around a module.
  const source = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(file, 'utf8')}\n});`;
  const script = new Script(source, { filename: file, cachedData });
  const module = { exports: {} as typeof ts };
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    module.exports,
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  const usable = cachedData !== undefined && !script.cachedDataRejected;
  const save = usable
    ? undefined
    : () => {
        const temporary = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}`;
        try {
          mkdirSync(dir, { recursive: true });
          // Copies a killed process left before renaming them (a writer racing this one loses its rename, and only that).
          for (const entry of readdirSync(dir)) if (entry.startsWith(`${basename(cacheFile)}.`)) rmSync(join(dir, entry), { force: true });
          writeFileSync(temporary, script.createCachedData());
          // Renamed into place: another process reading it never sees half a file.
          renameSync(temporary, cacheFile);
        } catch {
          // The cache is only a shortcut: without it, TypeScript compiles from source.
          try {
            rmSync(temporary, { force: true });
          } catch {
            // Not even a directory to remove it from.
          }
        }
      };
  return { ts: module.exports, save };
}
