// TypeScript, compiled through V8's code cache (src/code-cache.ts).
// typescript.js is a 9 MB CommonJS module: compiling it, and then the parser
// functions a first parse compiles, took 0.25-0.3 s of CPU in each thread that
// loads it (the parsing worker of every `sextant index`, and planning where
// there are tsconfigs), beside the indexer, which needs the cores; loaded from
// the cache, about a seventh of that. The parsing worker saves it (after its
// first file, so that it holds the parser); planning loads it too. One cache
// per TypeScript version and V8 flags.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type * as ts from 'typescript';
import { compileCached } from '../code-cache.js';

const require = createRequire(import.meta.url);

let loaded: { ts: typeof ts; save: () => void } | undefined;

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
 * Makes `module` this thread's typescript module, where none is loaded yet
 * and it is the version sextant's own would be: in an indexer's process
 * (orchestrator/syntax-facts-patch.ts), the indexer's, whose trees
 * typescript.ts then walks (their kinds are that module's), and which is not
 * loaded a second time. False when it cannot be.
 */
export function useTypescript(module: typeof ts): boolean {
  if (loaded) return loaded.ts === module;
  if (module.version !== installedVersion()) return false;
  loaded = { ts: module, save: () => {} };
  return true;
}

/**
 * Writes the code cache if loading found none it could use (once). Called once the
 * thread has done some of its work: V8 saves the functions compiled so far,
 * so the cache then holds the parser's functions too, not only the module's
 * top level.
 */
export function saveTypescriptCache(): void {
  loaded?.save();
}

function load(): { ts: typeof ts; save: () => void } {
  const file = require.resolve('typescript');
  const version = installedVersion();
  // The wrapper Node's CommonJS loader puts around a module. The text is read as bytes and then decoded, the same
  // string: on node 20, 60-65 ms for typescript.js against 95-100 ms through readFileSync's own 'utf8'.
  const source = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(file).toString('utf8')}\n});`;
  const { script, save } = compileCached(file, source, 'typescript', version);
  const module = { exports: {} as typeof ts };
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    module.exports,
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  return { ts: module.exports, save };
}

function installedVersion(): string {
  const manifest = require.resolve('typescript/package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}
