// Repositories, index runs and the per-repository write lock.
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import { quote, UserError } from '../errors.js';
import type { Engine } from './engine.js';
import { dropLease, holdLease, leaseEnd, leaseLive } from './lease.js';
import type { Database, IndexRun, Repo } from './schema.js';

export const SLUG_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function now(): string {
  return new Date().toISOString();
}

export async function findRepo(db: Kysely<Database>, slug: string): Promise<Repo | undefined> {
  return db.selectFrom('repos').selectAll().where('slug', '=', slug).executeTakeFirst();
}

/** The repository registered at a worktree root (the first registered, should it have several names). */
export async function repoAt(db: Kysely<Database>, rootPath: string): Promise<Repo | undefined> {
  return db.selectFrom('repos').selectAll().where('root_path', '=', rootPath).orderBy('id').executeTakeFirst();
}

/** The repository named `slug`, registered at `rootPath` if it is new. */
export async function ensureRepo(db: Kysely<Database>, slug: string, rootPath: string | null): Promise<Repo> {
  if (!SLUG_PATTERN.test(slug)) {
    throw new UserError(
      `${quote(slug)} is not a usable repository name: use at most 128 letters, digits, '.', '_' or '-' (pass --repo NAME)`,
    );
  }
  const existing = await findRepo(db, slug);
  if (existing) {
    if (rootPath && existing.root_path && existing.root_path !== rootPath && existsSync(existing.root_path)) {
      throw new UserError(
        `a repository named "${slug}" is already registered at ${existing.root_path}: pass --repo NAME to index ${rootPath} under another name`,
      );
    }
    if (rootPath && existing.root_path !== rootPath) {
      await db.updateTable('repos').set({ root_path: rootPath }).where('id', '=', existing.id).execute();
      return { ...existing, root_path: rootPath };
    }
    return existing;
  }
  await db
    .insertInto('repos')
    .values({ slug, root_path: rootPath, current_index_id: null, created_at: now() })
    .onConflict((oc) => oc.column('slug').doNothing())
    .execute();
  return (await findRepo(db, slug))!;
}

/** This process's runs: what ends each one's lease renewal and writer hold. */
const heldRuns = new Map<number, () => Promise<void>>();

/** Stops renewing the run's lock and releases its writer hold; after its last transaction (publish or failure). */
export async function releaseRun(runId: number): Promise<void> {
  const release = heldRuns.get(runId);
  heldRuns.delete(runId);
  await release?.();
}

export interface RunStart {
  repoId: number;
  origin: string;
  commit: string | null;
}

/**
 * Records a new run and takes the repository's write lock in one step. A lock
 * left by a process that died (or whose lease ran out) is taken over, and its
 * run marked interrupted. The run holds off garbage collection and renews its
 * lease until releaseRun.
 */
export async function startRun(engine: Engine, start: RunStart): Promise<IndexRun> {
  const release = await engine.writers.hold();
  let run: IndexRun;
  try {
    run = await takeLock(engine.db, start);
  } catch (error) {
    await release();
    throw error;
  }
  // The run's lock and its row are renewed by the registry's heartbeat until releaseRun.
  holdLease(engine.db, 'runs', run.id);
  heldRuns.set(run.id, async () => {
    dropLease(engine.db, 'runs', run.id);
    await release();
  });
  return run;
}

async function takeLock(db: Kysely<Database>, start: RunStart): Promise<IndexRun> {
  return db.transaction().execute(async (trx) => {
    const held = await trx.selectFrom('locks').selectAll().where('repo_id', '=', start.repoId).executeTakeFirst();
    if (held) {
      if (leaseLive(held)) {
        throw new UserError(
          `another sextant run (pid ${held.pid} on ${held.host}, started ${held.acquired_at}) is indexing this repository: wait for it to finish or stop it`,
        );
      }
      await markInterrupted(trx, held.run_id);
      await trx.deleteFrom('locks').where('repo_id', '=', start.repoId).execute();
    }
    const run = await trx
      .insertInto('index_runs')
      .values({
        repo_id: start.repoId,
        origin: start.origin,
        state: 'running',
        outcome: null,
        reason: null,
        recovery: null,
        commit_sha: start.commit,
        started_at: now(),
        finished_at: null,
        pid: process.pid,
        host: hostname(),
        expires_at: leaseEnd(),
        index_id: null,
        report: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('locks')
      .values({ repo_id: start.repoId, run_id: run.id, pid: process.pid, host: hostname(), acquired_at: run.started_at, expires_at: leaseEnd() })
      .execute();
    return run;
  });
}

export const INTERRUPTED_REASON = 'the run stopped before it published (killed or crashed); the previous index, if any, is still served';
export const INTERRUPTED_RECOVERY = 'run `sextant index` again';

async function markInterrupted(db: Kysely<Database>, runId: number): Promise<void> {
  await db
    .updateTable('index_runs')
    .set({ state: 'finished', outcome: 'failed', reason: INTERRUPTED_REASON, recovery: INTERRUPTED_RECOVERY, finished_at: now() })
    .where('id', '=', runId)
    .where('state', '=', 'running')
    .execute();
}

export interface RunEnd {
  outcome: string;
  reason: string | null;
  recovery: string | null;
  indexId: number | null;
  report: unknown;
}

/** Finishes a run that did not publish, and releases the lock. */
export async function failRun(db: Kysely<Database>, run: IndexRun, end: RunEnd): Promise<void> {
  try {
    await db.transaction().execute(async (trx) => {
      await finishRun(trx, run, end);
    });
  } finally {
    await releaseRun(run.id);
  }
}

/** Records the end of a run and releases its lock; call inside the publishing transaction when there is one. */
export async function finishRun(db: Kysely<Database>, run: IndexRun, end: RunEnd): Promise<void> {
  await db
    .updateTable('index_runs')
    .set({
      state: 'finished',
      outcome: end.outcome,
      reason: end.reason,
      recovery: end.recovery,
      finished_at: now(),
      index_id: end.indexId,
      report: JSON.stringify(end.report),
    })
    .where('id', '=', run.id)
    .execute();
  await db.deleteFrom('locks').where('repo_id', '=', run.repo_id).where('run_id', '=', run.id).execute();
}

export async function lastRun(db: Kysely<Database>, repoId: number): Promise<IndexRun | undefined> {
  return db.selectFrom('index_runs').selectAll().where('repo_id', '=', repoId).orderBy('id', 'desc').limit(1).executeTakeFirst();
}

export async function currentLock(db: Kysely<Database>, repoId: number) {
  return db.selectFrom('locks').selectAll().where('repo_id', '=', repoId).executeTakeFirst();
}

/** Repositories a live run is indexing now. */
export async function currentLocks(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('locks as l')
    .innerJoin('repos as r', 'r.id', 'l.repo_id')
    .select(['r.slug', 'l.pid', 'l.host', 'l.expires_at'])
    .execute();
  return rows.filter(leaseLive).map((r) => r.slug);
}

/** Records this process as a watcher of the repository, its lease renewed until unregisterWatcher; rows of watchers that died are cleared. */
export async function registerWatcher(db: Kysely<Database>, repoId: number): Promise<void> {
  const rows = await db.selectFrom('watchers').selectAll().where('repo_id', '=', repoId).execute();
  for (const dead of rows.filter((w) => !leaseLive(w)))
    await db.deleteFrom('watchers').where('repo_id', '=', repoId).where('pid', '=', dead.pid).where('host', '=', dead.host).execute();
  await db
    .insertInto('watchers')
    .values({ repo_id: repoId, pid: process.pid, host: hostname(), started_at: now(), state: 'watching', pending: 0, last_event: null, last_event_at: null, expires_at: leaseEnd() })
    .onConflict((oc) => oc.columns(['repo_id', 'pid', 'host']).doNothing())
    .execute();
  holdLease(db, 'watchers', repoId);
}

export async function unregisterWatcher(db: Kysely<Database>, repoId: number): Promise<void> {
  dropLease(db, 'watchers', repoId);
  await db.deleteFrom('watchers').where('repo_id', '=', repoId).where('pid', '=', process.pid).where('host', '=', hostname()).execute();
}

/** What this process's watcher of the repository is doing, for status. */
export async function updateWatcher(
  db: Kysely<Database>,
  repoId: number,
  change: { state?: string; pending?: boolean; event?: string },
): Promise<void> {
  await db
    .updateTable('watchers')
    .set({
      ...(change.state ? { state: change.state } : {}),
      ...(change.pending !== undefined ? { pending: change.pending ? 1 : 0 } : {}),
      ...(change.event ? { last_event: change.event, last_event_at: now() } : {}),
    })
    .where('repo_id', '=', repoId)
    .where('pid', '=', process.pid)
    .where('host', '=', hostname())
    .execute();
}

export interface WatcherState {
  state: string;
  pending: boolean;
  last_event: string | null;
  last_event_at: string | null;
}

/** The live `sextant watch` of each watched repository, by slug (the latest started, if several). */
export async function watchedRepos(db: Kysely<Database>): Promise<Map<string, WatcherState>> {
  const rows = await db
    .selectFrom('watchers')
    .innerJoin('repos', 'repos.id', 'watchers.repo_id')
    .select([
      'repos.slug',
      'watchers.pid',
      'watchers.host',
      'watchers.expires_at',
      'watchers.state',
      'watchers.pending',
      'watchers.last_event',
      'watchers.last_event_at',
    ])
    .orderBy('watchers.started_at')
    .execute();
  const out = new Map<string, WatcherState>();
  for (const w of rows.filter(leaseLive))
    out.set(w.slug, { state: w.state, pending: w.pending === 1, last_event: w.last_event, last_event_at: w.last_event_at });
  return out;
}
