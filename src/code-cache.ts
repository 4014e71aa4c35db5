// Large CommonJS modules compiled through V8's code cache. Compiling a
// module of megabytes, and then the functions its first work compiles, costs
// a few hundred ms of CPU in every process that loads it; what V8 compiled can
// be saved and loaded back in a fraction of that. The cache lives in the
// user's cache directory, $XDG_CACHE_HOME/sextant or ~/.cache/sextant
// (SEXTANT_CODE_CACHE_DIR names another): never beside the install, which may
// be inside the repository being indexed, and not under SEXTANT_HOME, which
// holds registries, not caches. A file's name carries what identifies the
// source (the caller's choice) and V8's tag for its version, flags and CPU
// (each command sets flags of its own, so `index` and `watch` keep a cache
// each). V8 checks the tag, and of the source only its length: the name must
// tell sources apart. A missing or refused cache is written anew, replacing
// the family's caches for other sources under the same tag; one that cannot
// be written (no home, a read-only one) only means the module compiles as
// before.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cachedDataVersionTag } from 'node:v8';
import { Script } from 'node:vm';

export interface CachedScript {
  script: Script;
  /**
   * Writes the cache if none was usable; does nothing otherwise, or the second
   * time. Call once the process has done some of its work: V8 saves the
   * functions compiled so far, not only the module's top level.
   */
  save(): void;
}

/**
 * `source` (a module already wrapped as CommonJS wraps it) compiled with the
 * cache `${family}-${id}-<V8 tag>.v8`, where `id` names this source among the
 * family's (a version, a hash of the text).
 */
export function compileCached(filename: string, source: string, family: string, id: string): CachedScript {
  const dir = process.env.SEXTANT_CODE_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'sextant');
  const tag = cachedDataVersionTag().toString(16);
  const name = `${family}-${id}-${tag}.v8`;
  const cacheFile = join(dir, name);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // None yet: compiled from source, and saved later.
  }
  const script = new Script(source, { filename, cachedData });
  let pending = cachedData === undefined || script.cachedDataRejected === true;
  const save = () => {
    if (!pending) return;
    pending = false;
    const temporary = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    try {
      mkdirSync(dir, { recursive: true });
      for (const entry of readdirSync(dir)) {
        // Copies a killed writer left before renaming them, and the family's caches of other sources under this
        // tag (an older version): a writer racing this one loses its rename, and only that.
        const stale = entry.startsWith(`${name}.`) || (entry !== name && entry.startsWith(`${family}-`) && entry.endsWith(`-${tag}.v8`));
        if (stale) rmSync(join(dir, entry), { force: true });
      }
      writeFileSync(temporary, script.createCachedData());
      // Renamed into place: another process reading it never sees half a file.
      renameSync(temporary, cacheFile);
    } catch {
      // The cache is only a shortcut: without it, the module compiles from source.
      try {
        rmSync(temporary, { force: true });
      } catch {
        // Not even a directory to remove it from.
      }
    }
  };
  return { script, save };
}
