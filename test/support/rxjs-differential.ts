// The common setting of the differential tests on rxjs: the corpus as a git
// repository, indexed by the real CLI into a registry, the raw SCIP index of
// the same indexer read without sextant (the three are the suite's shared ones:
// support/indexed-corpus.ts), the query layer over the registry, and a live
// typescript-language-server on the pinned TypeScript.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Navigation } from '../../src/navigation/index.js';
import { openRegistry } from '../../src/registry/open.js';
import type { Engine } from '../../src/registry/engine.js';
import { indexedCorpus } from './indexed-corpus.js';
import { readRawIndex, type RawIndex } from './raw-scip.js';
import { registryFile } from './sextant.js';
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
  /** Stops the server and closes the registry (the shared corpus stays for the other test files). */
  stop(): Promise<void>;
}

export async function startRxjsDifferential(): Promise<RxjsDifferential> {
  const shared = indexedCorpus('rxjs');
  const repo = shared.repo;
  const slug = 'rxjs';
  let engine: Engine | undefined;
  let starting: Promise<TypeScriptLanguageServer> | undefined;
  const stop = async () => {
    await (await starting?.catch(() => undefined))?.stop();
    await engine?.close();
  };
  try {
    starting = TypeScriptLanguageServer.start(repo);
    const [server, raw] = await Promise.all([starting, readRawIndex(shared.scip)]);
    engine = await openRegistry({ registry: registryFile(shared.home) });
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
