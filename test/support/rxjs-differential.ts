// The common setting of the differential tests on rxjs: the corpus as a fresh
// git repository, indexed by the real CLI into a private registry, the raw
// SCIP index of the same indexer read without sextant, the query layer over
// the registry, and a live typescript-language-server on the pinned TypeScript.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Navigation } from '../../src/navigation/index.js';
import { openRegistry } from '../../src/registry/open.js';
import type { Engine } from '../../src/registry/engine.js';
import { rxjsRepo } from './corpus.js';
import { PROJECT_ROOT } from './paths.js';
import { readRawIndex, type RawIndex } from './raw-scip.js';
import { removeDir, tempDir } from './repos.js';
import { indexOrThrow, registryFile, testHome } from './sextant.js';
import { TypeScriptLanguageServer } from './typescript-language-server.js';

export interface RxjsDifferential {
  repo: string;
  /** The repository's name in the registry. */
  slug: string;
  engine: Engine;
  navigation: Navigation;
  server: TypeScriptLanguageServer;
  raw: RawIndex;
  /** The lines of a repository file, read once. */
  lines(path: string): string[];
  /** Stops the server, closes the registry and removes every temporary directory. */
  stop(): Promise<void>;
}

export async function startRxjsDifferential(): Promise<RxjsDifferential> {
  const repo = rxjsRepo();
  const registry = testHome();
  const scipDir = tempDir('sextant-differential-');
  const cleanup = [dirname(repo), registry.home, scipDir];
  let engine: Engine | undefined;
  let starting: Promise<TypeScriptLanguageServer> | undefined;
  let indexing: Promise<unknown> | undefined;
  const stop = async () => {
    await indexing?.catch(() => {});
    await (await starting?.catch(() => undefined))?.stop();
    await engine?.close();
    // The repository sits in a temporary directory of its own.
    for (const dir of cleanup) removeDir(dir);
  };
  try {
    const scipFile = join(scipDir, 'index.scip');
    // The indexer is run the way sextant runs it, from the repository root: from elsewhere
    // TypeScript would also pick up the @types packages of the working directory.
    indexing = promisify(execFile)(
      join(PROJECT_ROOT, 'node_modules', '.bin', 'scip-typescript'),
      ['index', '--cwd', repo, '--output', scipFile, '--no-progress-bar'],
      { cwd: repo },
    );
    starting = TypeScriptLanguageServer.start(repo);
    const slug = indexOrThrow(repo, registry.env).repo as string;
    const [server] = await Promise.all([starting, indexing]);
    const raw = await readRawIndex(scipFile);
    engine = await openRegistry({ registry: registryFile(registry.home) });
    const fileLines = new Map<string, string[]>();
    const lines = (path: string) => {
      if (!fileLines.has(path)) fileLines.set(path, readFileSync(join(repo, path), 'utf8').split(/\r\n|\r|\n/));
      return fileLines.get(path)!;
    };
    return { repo, slug, engine, navigation: new Navigation(engine), server, raw, lines, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
