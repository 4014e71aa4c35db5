// Upload rows: one per `sextant publish` that passed validation. Created
// queued, processing once the repository's write lock is taken, then
// completed (inside the publishing transaction, so the state and the index
// become visible together) or errored with the reason. Its process renews
// its lease while it works on it (lease.ts); one left unfinished by a process
// judged dead reads errored.
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import { deathOf, leaseEnd, leaseLive } from './lease.js';
import { now } from './repos.js';
import type { Database, Upload } from './schema.js';

export interface NewUpload {
  repoId: number;
  commit: string;
  indexer: string;
  indexerVersion: string | null;
  fileSha256: string;
  fileBytes: number;
  withRoot: boolean;
}

/** A queued upload of this process; its publisher renews its lease (holdLease) until it is completed or errored. */
export async function createUpload(db: Kysely<Database>, u: NewUpload): Promise<Upload> {
  return db
    .insertInto('uploads')
    .values({
      repo_id: u.repoId,
      commit_sha: u.commit,
      indexer: u.indexer,
      indexer_version: u.indexerVersion,
      state: 'queued',
      reason: null,
      file_sha256: u.fileSha256,
      file_bytes: u.fileBytes,
      with_root: u.withRoot ? 1 : 0,
      created_at: now(),
      started_at: null,
      finished_at: null,
      index_id: null,
      pid: process.pid,
      host: hostname(),
      expires_at: leaseEnd(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function markProcessing(db: Kysely<Database>, id: number): Promise<void> {
  await db.updateTable('uploads').set({ state: 'processing', started_at: now() }).where('id', '=', id).execute();
}

/** Call inside the publishing transaction. */
export async function markCompleted(db: Kysely<Database>, id: number, indexId: number): Promise<void> {
  await db.updateTable('uploads').set({ state: 'completed', finished_at: now(), index_id: indexId }).where('id', '=', id).execute();
}

export async function markErrored(db: Kysely<Database>, id: number, reason: string): Promise<void> {
  await db.updateTable('uploads').set({ state: 'errored', reason, finished_at: now() }).where('id', '=', id).execute();
}

/** Why an unfinished upload whose process is judged dead reads errored: how it was found dead, named by deathOf. */
export function deadUploadReason(death: string): string {
  return `the publishing process stopped before it finished (killed or crashed): ${death}; nothing of this upload was published, the previous index, if any, is still served`;
}

/** The repository's newest uploads, newest first; one whose process is judged dead unfinished reads errored. */
export async function recentUploads(db: Kysely<Database>, repoId: number, limit: number): Promise<Upload[]> {
  const rows = await db.selectFrom('uploads').selectAll().where('repo_id', '=', repoId).orderBy('id', 'desc').limit(limit).execute();
  return rows.map((u) =>
    (u.state === 'queued' || u.state === 'processing') && !leaseLive(u) ? { ...u, state: 'errored', reason: deadUploadReason(deathOf(u)) } : u,
  );
}
