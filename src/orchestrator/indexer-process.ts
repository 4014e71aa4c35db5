// How an indexer's process is started: its command line and environment, its
// work directory, and an indexer that runs on node started ahead of its run.
// Kept apart from run-indexer.ts (which reads the index as it is written) so
// that `sextant index` can start the indexer before it loads the rest.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PARSED_LANGUAGES } from '../languages.js';
import { FACTS_FILE_ENV } from '../syntax/facts-file.js';
import { ARGUMENTS_ENV, type IndexerArguments } from './indexer-arguments.js';
import { loadManifests, resolveCommand, type IndexerManifest } from './manifests.js';

/** A run's work directories are `sextant-<sextant's pid>-<indexer>-*` in the temporary directory (see run-indexer.ts's sweep). */
const WORK_PREFIX = 'sextant-';
/** The indexer's pid, in its work directory: whom to stop when the sextant that started it died. */
export const INDEXER_PID = 'indexer.pid';
/** Names the indexer's work directory in its environment, which /proc shows: the pid file cannot be trusted alone. */
export const WORK_DIR_ENV = 'SEXTANT_INDEXER_WORK_DIR';

export function makeWorkDir(manifest: IndexerManifest): string {
  return mkdtempSync(join(tmpdir(), `${WORK_PREFIX}${process.pid}-${manifest.name}-`));
}

/**
 * What an indexer that runs on node (an npm package's bin) is started with:
 * the code cache's preload, where it was built, and V8 told not to inline
 * when it optimizes. TypeScript's checker (and pyright) are large enough that
 * V8's optimizing compiler, on its own threads, took 4.8 of the 12 s of CPU a
 * raw scip-typescript run on kysely used; without inlining it takes about 2 s
 * less, and the main thread is no slower. On two cores that time is the
 * second core, which sextant's ingest needs: with the flag `sextant index`
 * took 1.075 times the raw indexer on the monorepo instead of 1.185, and 1.199
 * instead of 1.257 on kysely (3 alternating runs each). The index written is
 * byte for byte the same.
 */
function nodeOptions(preload: URL | undefined): string[] {
  return ['--no-turbo-inlining', ...(preload ? ['--import', preload.href] : [])];
}

/** The code cache's preload (indexer-preload.ts), for a command that runs node; undefined where it was not built. */
export function indexerPreload(command: readonly string[]): URL | undefined {
  if (command[0] !== process.execPath) return undefined;
  const preload = new URL('./indexer-preload.js', import.meta.url);
  return existsSync(preload) ? preload : undefined;
}

/** Where the preload writes the files' syntax facts: only it writes them, and only for languages sextant parses. */
export function factsFileOf(manifest: IndexerManifest, workDir: string, preload: URL | undefined): string | undefined {
  return preload && manifest.languages.some((l) => PARSED_LANGUAGES.has(l)) ? join(workDir, 'syntax-facts') : undefined;
}

export function indexerEnv(base: NodeJS.ProcessEnv, workDir: string, factsFile: string | undefined): NodeJS.ProcessEnv {
  return { ...base, [WORK_DIR_ENV]: workDir, ...(factsFile ? { [FACTS_FILE_ENV]: factsFile } : {}) };
}

/**
 * Starts `command` with `args` in a process group of its own, so that a
 * timeout stops the helpers it spawns too, and records its pid in its work
 * directory: whom run-indexer.ts's sweep stops if sextant dies without
 * cleaning up. An indexer that runs on node gets `nodeOptions`.
 */
export function spawnIndexer(
  command: readonly string[],
  args: readonly string[],
  options: { workDir: string; preload: URL | undefined; env: NodeJS.ProcessEnv; cwd?: string; stdin: 'pipe' | 'ignore' },
): ChildProcess {
  const [program, ...leading] = command;
  const child = spawn(program!, [...(program === process.execPath ? nodeOptions(options.preload) : []), ...leading, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: [options.stdin, 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid) writeFileSync(join(options.workDir, INDEXER_PID), String(child.pid));
  return child;
}

/**
 * An indexer that runs on node, started before its run is planned: node's
 * start, the preload and the indexer's TypeScript (about 0.4 s) overlap
 * sextant's own start, its registry and its planning, instead of following
 * them. The process waits for its arguments (indexer-arguments.ts); a run
 * with the same command takes it, once.
 */
export class IndexerAhead {
  private state: 'waiting' | 'taken' | 'gone' = 'waiting';

  private constructor(
    readonly command: readonly string[],
    readonly child: ChildProcess,
    readonly workDir: string,
    readonly factsFile: string | undefined,
  ) {
    child.once('exit', () => {
      if (this.state === 'waiting') this.state = 'gone';
    });
    // A child that died before it was given its arguments: the run is reported by the exit, not by a broken pipe.
    child.stdin?.on('error', () => undefined);
  }

  /** Starts `command`'s process ahead, where it runs node with the preload; undefined otherwise. */
  static start(manifest: IndexerManifest, command: readonly string[], env: NodeJS.ProcessEnv = process.env): IndexerAhead | undefined {
    const preload = indexerPreload(command);
    if (!preload) return undefined;
    const workDir = makeWorkDir(manifest);
    const factsFile = factsFileOf(manifest, workDir, preload);
    const child = spawnIndexer(command, [], {
      workDir,
      preload,
      env: { ...indexerEnv(env, workDir, factsFile), [ARGUMENTS_ENV]: 'stdin' },
      stdin: 'pipe',
    });
    return new IndexerAhead(command, child, workDir, factsFile);
  }

  /** Whether a run of `command` may take it: the same command, and no run took it yet. */
  waitingFor(command: readonly string[]): boolean {
    const same = command.length === this.command.length && command.every((c, i) => c === this.command[i]);
    return same && this.state === 'waiting' && this.child.pid !== undefined;
  }

  /** The process, given its arguments; undefined if it died meanwhile (the run then starts its own, in the same directory). */
  take(args: IndexerArguments): ChildProcess | undefined {
    if (this.state !== 'waiting') return undefined;
    this.state = 'taken';
    this.child.stdin!.end(`${JSON.stringify(args)}\n`);
    return this.child;
  }

  /** Stops the process and removes its work directory if no run took them (a taken one is its run's to clean). */
  dispose(): void {
    if (this.state === 'taken') return;
    this.state = 'taken';
    try {
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      // It is gone already.
    }
    rmSync(this.workDir, { recursive: true, force: true });
  }
}

/** Files that make a JavaScript or TypeScript project likely: worth starting its indexer ahead. */
const PROJECT_MARKERS = ['tsconfig.json', 'jsconfig.json', 'package.json'];

/** Whether `path`, or a folder above it up to its repository's root (the first with a `.git`), holds one of the markers. */
function looksLikeTypescript(path: string): boolean {
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    if (PROJECT_MARKERS.some((marker) => existsSync(join(dir, marker)))) return true;
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return false;
  }
}

/**
 * The TypeScript indexer started ahead for `sextant index PATH`, where PATH
 * looks like a JavaScript or TypeScript project; undefined otherwise, or
 * where anything about it is wrong (the run reports that itself). A guess
 * that proves wrong (no such files, or none changed since the last index)
 * costs a process stopped after a fraction of a second of the other core.
 */
export function startTypescriptIndexerAhead(path: string): IndexerAhead | undefined {
  try {
    if (!looksLikeTypescript(path)) return undefined;
    const manifest = loadManifests().find((m) => m.languages.includes('typescript'));
    const command = manifest && resolveCommand(manifest);
    return command ? IndexerAhead.start(manifest, command) : undefined;
  } catch {
    return undefined;
  }
}
