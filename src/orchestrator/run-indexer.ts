// Runs one indexer as a subprocess with a timeout, and streams the documents
// of its SCIP output to the caller while the indexer is still writing them.
// The output goes to a temporary directory outside the user's tree.
import type { ChildProcess } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { getPriority, setPriority, tmpdir } from 'node:os';
import { processAlive } from '../registry/lease.js';
import { join } from 'node:path';
import { decodeDocument, decodeMetadata } from '../scip/decode.js';
import { IndexField, type ScipDocument, type ScipMetadata } from '../scip/schema.js';
import { readIndexFields } from '../scip/stream.js';
import { watchGroup } from '../process-group.js';
import { FactsFileReader, type IndexerFacts } from '../syntax/facts-file.js';
import {
  factsFileOf,
  indexerEnv,
  indexerPreload,
  INDEXER_PID,
  makeWorkDir,
  spawnIndexer,
  WORK_DIR_ENV,
  type IndexerAhead,
} from './indexer-process.js';
import type { IndexerManifest } from './manifests.js';

export type IndexerStatus = 'ok' | 'failed' | 'timeout' | 'empty';

export interface IndexerResult {
  status: IndexerStatus;
  /** One line: what went wrong, from the indexer's own output where it said. */
  reason: string | null;
  documents: number;
  metadata: ScipMetadata | undefined;
  durationMs: number;
  /** From the start until the indexer exited; durationMs also counts the documents still ingested after it (the caller's share). */
  exitMs: number;
}

export interface IndexerInvocation {
  manifest: IndexerManifest;
  command: string[];
  root: string;
  slug: string;
  /** Project config files to pass, relative to root; empty for the indexer's default. */
  projects: string[];
  /** Configs to write in the temporary directory and pass after `projects` (derived and inferred projects). */
  generatedConfigs?: { fileName: string; content: string }[] | undefined;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** Lower this process's CPU priority once the indexer runs (see below). */
  yieldCpu?: boolean | undefined;
  /** Aborted when the run is interrupted: the indexer is stopped (and the run fails). */
  signal?: AbortSignal | undefined;
  /** The indexer started ahead (`sextant index`): taken by a run of its command, once. */
  ahead?: IndexerAhead | undefined;
  /**
   * Called once the indexer is started: work the caller held back so as not to
   * delay it may begin. `syntaxFacts`: the indexer was asked to write its
   * files' syntax facts (see syntax-facts-patch.ts), which come with their
   * documents.
   */
  onSpawn?: ((spawned: { syntaxFacts: boolean }) => void) | undefined;
}

/**
 * sextant ingests documents while the indexer is still writing them, on the
 * same cores. The indexer is the critical path: once it has started (it keeps
 * the priority it was born with), sextant steps back, and its own work fills
 * the idle capacity instead of slowing the indexer down.
 */
function yieldCpuToChildren(): void {
  if (getPriority() >= YIELDED_NICENESS) return;
  // On Linux a nice value belongs to a thread: V8's garbage collector and
  // libuv's workers already run, so each thread of the process is reniced.
  const threads = readdirSyncOrEmpty('/proc/self/task').map(Number);
  for (const thread of threads.length ? threads : [0]) {
    try {
      setPriority(thread, YIELDED_NICENESS);
    } catch {
      // Not permitted, or the thread ended: it keeps its priority.
    }
  }
}

function readdirSyncOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
const YIELDED_NICENESS = 10;

/** A document of the index, with its file's syntax facts when the indexer wrote them. */
export type DocumentSink = (document: ScipDocument, bytes: Buffer, facts: IndexerFacts | undefined) => Promise<void>;

export async function runIndexer(inv: IndexerInvocation, onDocument: DocumentSink): Promise<IndexerResult> {
  const started = performance.now();
  await sweepAbandonedRuns();
  // An indexer started ahead for this command brings its work directory, named as this run's would be.
  const ahead = inv.ahead?.waitingFor(inv.command) ? inv.ahead : undefined;
  const workDir = ahead?.workDir ?? makeWorkDir(inv.manifest);
  let facts: FactsFileReader | undefined;
  try {
    const output = join(workDir, 'index.scip');
    const projects = [...inv.projects];
    for (const generated of inv.generatedConfigs ?? []) {
      const config = join(workDir, generated.fileName);
      await writeFile(config, generated.content);
      projects.push(config);
    }
    const args = inv.manifest.args.flatMap((a) => {
      if (a === '{projects}') return projects;
      return [a.replaceAll('{root}', inv.root).replaceAll('{output}', output).replaceAll('{slug}', inv.slug)];
    });

    const taken = ahead?.take({ args, cwd: inv.root });
    let child: ChildProcess;
    if (taken) {
      child = taken;
      facts = ahead!.factsFile ? new FactsFileReader(ahead!.factsFile) : undefined;
    } else {
      const preload = indexerPreload(inv.command);
      const factsFile = factsFileOf(inv.manifest, workDir, preload);
      facts = factsFile ? new FactsFileReader(factsFile) : undefined;
      child = spawnIndexer(inv.command, args, {
        workDir,
        preload,
        env: indexerEnv(inv.env ?? process.env, workDir, factsFile),
        cwd: inv.root,
        stdin: 'ignore',
      });
    }
    if (inv.yieldCpu) yieldCpuToChildren();
    const tail = new OutputTail();
    child.stdout!.on('data', (chunk: Buffer) => tail.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => tail.push(chunk));

    inv.onSpawn?.({ syntaxFacts: facts !== undefined });
    const { exited, kill: killGroup, timedOut } = watchGroup(child, inv.timeoutMs);
    let exitMs = NaN;
    void exited.then(() => (exitMs = performance.now() - started));
    // If the run is interrupted, do not leave the indexer running. (The
    // process's signal handling belongs to the caller: see interrupt.ts.)
    inv.signal?.addEventListener('abort', killGroup, { once: true });
    if (inv.signal?.aborted) killGroup();

    let documents = 0;
    let metadata: ScipMetadata | undefined;
    let streamError: Error | undefined;
    try {
      for await (const field of readIndexFields(output, { finished: exited })) {
        if (field.field === IndexField.metadata) metadata = decodeMetadata(field.bytes);
        else if (field.field === IndexField.documents) {
          const document = decodeDocument(field.bytes);
          await onDocument(document, field.bytes, facts?.take(document.relativePath));
          documents++;
        }
      }
    } catch (error) {
      streamError = error as Error;
      killGroup();
    }
    const exit = await exited;
    inv.signal?.removeEventListener('abort', killGroup);

    const durationMs = performance.now() - started;
    const result = (status: IndexerStatus, reason: string | null): IndexerResult => ({
      status,
      reason,
      documents,
      metadata,
      durationMs,
      exitMs: Math.min(exitMs, durationMs),
    });
    const name = inv.manifest.name;
    if (exit.error) return result('failed', `${name} could not start: ${exit.error.message}`);
    if (inv.signal?.aborted) return result('failed', `${name} was stopped: the run was interrupted by ${String(inv.signal.reason)}`);
    if (timedOut()) return result('timeout', `${name} did not finish within ${+(inv.timeoutMs / 1000).toFixed(3)} s and was stopped`);
    if (exit.code !== 0) {
      const said = tail.lastMeaningfulLine();
      if (/no files got indexed/i.test(said ?? '')) return result('empty', `${name} found no files to index: ${said}`);
      const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      return result('failed', `${name} ${how}${said ? `: ${said}` : ''}`);
    }
    if (streamError) return result('failed', `${name} wrote an unreadable index: ${streamError.message}`);
    if (documents === 0) {
      // A successful run's last line is progress chatter, not a cause: only an error line says why.
      const said = tail.lastMeaningfulLine(false);
      return result(
        'empty',
        `${name} ran but indexed no files (are they excluded by its project configuration?)${said ? `: ${said}` : ''}`,
      );
    }
    return result('ok', null);
  } finally {
    facts?.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * A sextant killed outright (SIGKILL, a crash) cannot stop its indexer, which
 * runs in a process group of its own. The next run does: it removes the work
 * directories of sextant processes that no longer exist, and stops their
 * indexers if they are still running (identified by their environment, which
 * names the work directory, so an unrelated process that reused the pid is
 * left alone; an indexer started ahead has no more on its command line than
 * its main module).
 */
async function sweepAbandonedRuns(): Promise<void> {
  const dir = tmpdir();
  for (const entry of await readdir(dir).catch(() => [] as string[])) {
    const owner = /^sextant-(\d+)-/.exec(entry)?.[1];
    if (!owner || processAlive(Number(owner))) continue;
    const workDir = join(dir, entry);
    const indexerPid = Number(await readFile(join(workDir, INDEXER_PID), 'utf8').catch(() => ''));
    if (indexerPid > 0 && processAlive(indexerPid)) {
      const environment = await readFile(`/proc/${indexerPid}/environ`, 'utf8').catch(() => '');
      if (environment.split('\0').includes(`${WORK_DIR_ENV}=${workDir}`)) {
        try {
          process.kill(-indexerPid, 'SIGKILL');
        } catch {
          // It ended on its own meanwhile.
        }
      }
    }
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The last few kilobytes an indexer printed, for its failure reason. */
class OutputTail {
  private text = '';

  push(chunk: Buffer): void {
    this.text = (this.text + chunk.toString('utf8')).slice(-8192);
  }

  /** The last line that says "error", else the last line at all (when `anyLine`). */
  lastMeaningfulLine(anyLine = true): string | undefined {
    const lines = this.text
      .split('\n')
      .map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim())
      .filter((l) => l && !/^\s*at\s/.test(l) && !/^done\b/.test(l));
    const errorLine = [...lines].reverse().find((l) => /error/i.test(l));
    const line = errorLine ?? (anyLine ? lines[lines.length - 1] : undefined);
    return line && line.length > 300 ? line.slice(0, 297) + '...' : line;
  }
}
