// Reindex jobs as rows: created queued, taken by the process that runs them,
// finished completed, failed or cancelled. A job whose process is gone (on
// another host: whose lease ran out, see lease.ts) is found out when it is
// read, and recorded failed then: nothing else would ever finish it.
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import { deathOf, dropLease, holdLease, leaseEnd, leaseLive } from './lease.js';
import { now } from './repos.js';
import type { Database, IndexJob } from './schema.js';

export const JOB_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];
const ACTIVE = ['queued', 'running'];

/** A queued job whose spawner died before recording the process it started is given up after this long. */
const UNCLAIMED_MS = 60_000;

/** Why a job whose process is judged dead failed: how it was found dead, named by deathOf. */
export function deadJobReason(death: string): string {
  return `the process running this job died before it finished (killed or crashed): ${death}; the previous index, if any, is still served`;
}

const UNCLAIMED_REASON = deadJobReason('the process started for it never took it up');

export async function findJob(db: Kysely<Database>, id: number): Promise<IndexJob | undefined> {
  const job = await db.selectFrom('index_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return job && checkAlive(db, job);
}

/** The repository's newest job (active or finished), its state checked against its process. */
export async function latestJob(db: Kysely<Database>, repoId: number): Promise<IndexJob | undefined> {
  const job = await latestJobRow(db, repoId);
  return job && checkAlive(db, job);
}

/** The repository's latest job as recorded, its process not checked (a read in a snapshot; see checkAlive). */
export function latestJobRow(db: Kysely<Database>, repoId: number): Promise<IndexJob | undefined> {
  return db.selectFrom('index_jobs').selectAll().where('repo_id', '=', repoId).orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/** The repository's queued or running job whose process is alive, if any. */
export async function activeJob(db: Kysely<Database>, repoId: number): Promise<IndexJob | undefined> {
  const job = await db.selectFrom('index_jobs').selectAll().where('repo_id', '=', repoId).where('state', 'in', ACTIVE).executeTakeFirst();
  const checked = job && (await checkAlive(db, job));
  return checked && ACTIVE.includes(checked.state) ? checked : undefined;
}

/**
 * A new queued job for the repository, or the active one it joins. The
 * partial unique index on active jobs settles two requests that race.
 */
export async function queueJob(
  db: Kysely<Database>,
  job: { repoId: number; rootPath: string; origin: string },
): Promise<{ job: IndexJob; joined: boolean }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const active = await activeJob(db, job.repoId);
    if (active) return { job: active, joined: true };
    try {
      const created = await db
        .insertInto('index_jobs')
        .values({
          repo_id: job.repoId,
          root_path: job.rootPath,
          origin: job.origin,
          state: 'queued',
          created_at: now(),
          started_at: null,
          finished_at: null,
          pid: null,
          host: hostname(),
          expires_at: leaseEnd(),
          index_id: null,
          error: null,
          report: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { job: created, joined: false };
    } catch (error) {
      // Another request queued one between our read and our insert: join it.
      if (!/UNIQUE|duplicate key/i.test((error as Error).message)) throw error;
    }
  }
  throw new Error('could not queue a reindex job: the active job kept changing');
}

/** Records the process that will run a queued job. */
export async function setJobPid(db: Kysely<Database>, id: number, pid: number): Promise<void> {
  await db.updateTable('index_jobs').set({ pid, host: hostname() }).where('id', '=', id).where('state', '=', 'queued').execute();
}

/**
 * Takes a queued job for this process, its lease renewed until finishJob;
 * false when it is no longer queued (given up, or taken).
 */
export async function claimJob(db: Kysely<Database>, id: number): Promise<boolean> {
  const r = await db
    .updateTable('index_jobs')
    .set({ state: 'running', started_at: now(), pid: process.pid, host: hostname(), expires_at: leaseEnd() })
    .where('id', '=', id)
    .where('state', '=', 'queued')
    .executeTakeFirst();
  const claimed = Number(r.numUpdatedRows) === 1;
  if (claimed) holdLease(db, 'jobs', id);
  return claimed;
}

export async function finishJob(
  db: Kysely<Database>,
  id: number,
  end: { state: Exclude<JobState, 'queued' | 'running'>; indexId?: number | null; error?: string | null; report?: unknown },
): Promise<void> {
  dropLease(db, 'jobs', id);
  await db
    .updateTable('index_jobs')
    .set({
      state: end.state,
      finished_at: now(),
      index_id: end.indexId ?? null,
      error: end.error ?? null,
      report: end.report === undefined ? null : JSON.stringify(end.report),
    })
    .where('id', '=', id)
    .where('state', 'in', ACTIVE)
    .execute();
}

/** The job as it really is: an active job without a live process is recorded failed, with how it was found dead. */
export async function checkAlive(db: Kysely<Database>, job: IndexJob): Promise<IndexJob> {
  if (!ACTIVE.includes(job.state)) return job;
  const { pid } = job;
  const alive = pid === null ? Date.now() - Date.parse(job.created_at) < UNCLAIMED_MS : leaseLive({ ...job, pid });
  if (alive) return job;
  const error = pid === null ? UNCLAIMED_REASON : deadJobReason(deathOf({ ...job, pid }));
  await finishJob(db, job.id, { state: 'failed', error });
  return (await db.selectFrom('index_jobs').selectAll().where('id', '=', job.id).executeTakeFirst()) ?? job;
}
