// A real corpus indexed once for the whole suite: its checkout, the raw output
// of its indexer, and `sextant index` of it in a SQLite registry. Several test
// files hold sextant's answers on rxjs against a reference (the raw index, a
// language server, `sextant publish` of the same commit); each ran both
// indexers over it again, and those runs were a tenth of the suite's CPU. Only
// what none of them writes is shared: the checkout is no test's to change, and
// the registry is opened to read (a corpus some test commits to, as publish
// does to requests, gets a checkout of its own).
//
// An entry is built under a lock by the first test file that asks, in place
// (the registry records the checkout's path, so it cannot be built aside and
// renamed), and the others wait for it. It is named by a hash of the built
// CLI: another build of sextant indexes anew, and removes the entries of
// other builds a day old (a checkout of another build may be running its
// suite meanwhile, on its own entry). Entries live in the system's temporary directory, as every
// test repository does: under the project, TypeScript would take the
// project's node_modules/@types into the corpus's programs.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rxjsRepo } from './corpus.js';
import { PROJECT_ROOT } from './paths.js';
import { newRegistry } from './registry.js';
import { indexOrThrow } from './sextant.js';

export interface IndexedCorpus {
  /** The checkout, a git repository named as the corpus: read it, never change it. */
  repo: string;
  /** The raw indexer's output for the checkout, run as a CI job would run it. */
  scip: string;
  /** The SEXTANT_HOME whose SQLite registry holds `sextant index` of the checkout (registryFile(home) opens it). */
  home: string;
}

const CORPORA = {
  rxjs: {
    checkout: rxjsRepo,
    indexer: (root: string, out: string) => run('scip-typescript', ['index', '--cwd', root, '--output', out, '--no-progress-bar'], root),
  },
} as const;

/** How old another build's entry is before a new entry removes it. */
const KEPT_MS = 24 * 3600_000;
/** How long a test file waits for another to finish an entry before it gives up. */
const WAIT_MS = 15 * 60_000;
const READY = '.ready';

function run(bin: string, args: string[], cwd: string): void {
  execFileSync(join(PROJECT_ROOT, 'node_modules', '.bin', bin), args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** What an entry was indexed by, hashed: the built CLI's bundle, the indexers' manifests and the installed versions. */
function buildHash(): string {
  const hash = createHash('sha256');
  for (const dir of [join(PROJECT_ROOT, 'dist', 'bundle'), join(PROJECT_ROOT, 'indexers')]) {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isFile()) hash.update(name).update(readFileSync(path));
    }
  }
  hash.update(readFileSync(join(PROJECT_ROOT, 'package-lock.json')));
  return hash.digest('hex').slice(0, 16);
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export function indexedCorpus(name: keyof typeof CORPORA): IndexedCorpus {
  const root = join(tmpdir(), 'sextant-indexed-corpora');
  const dir = join(root, `${name}-${buildHash()}`);
  const entry = { repo: join(dir, 'checkout', name), scip: join(dir, 'index.scip'), home: join(dir, 'home') };
  newRegistry(entry.home, 'sqlite');
  const lock = `${dir}.lock`;
  const deadline = Date.now() + WAIT_MS;
  mkdirSync(root, { recursive: true });
  while (!existsSync(join(dir, READY))) {
    try {
      mkdirSync(lock);
    } catch {
      // Another test file builds it: wait, unless that process is gone (its entry is then incomplete: built anew).
      const holder = Number(readFileSafe(join(lock, 'pid')));
      if (holder && !alive(holder)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS / 60_000} minutes for ${dir} (locked by process ${holder})`);
      else sleep(250);
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      // An incomplete entry of this build (its builder died) goes, and so do other builds' entries a day old.
      rmSync(dir, { recursive: true, force: true });
      for (const other of readdirSync(root)) {
        const path = join(root, other);
        if (other.startsWith(`${name}-`) && !other.endsWith('.lock') && Date.now() - statSync(path).mtimeMs > KEPT_MS)
          rmSync(path, { recursive: true, force: true });
      }
      build(name, dir, entry);
      writeFileSync(join(dir, READY), '');
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return entry;
}

function build(name: keyof typeof CORPORA, dir: string, entry: IndexedCorpus): void {
  const corpus = CORPORA[name];
  const fresh = corpus.checkout();
  mkdirSync(join(dir, 'checkout'), { recursive: true });
  // A fresh checkout lies in a temporary directory of its own: moved here, where the registry will record it.
  execFileSync('mv', [fresh, join(dir, 'checkout', name)]);
  rmSync(join(fresh, '..'), { recursive: true, force: true });
  corpus.indexer(entry.repo, entry.scip);
  mkdirSync(entry.home, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, SEXTANT_HOME: entry.home };
  delete env.SEXTANT_REGISTRY;
  indexOrThrow(entry.repo, env, '--repo', name);
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
