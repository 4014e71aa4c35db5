// Rows as a sextant process on another host leaves them: what the registry
// holds of a run it cannot check by pid, only by the lease the run renews.
import type { Engine } from '../../src/registry/engine.js';
import { now } from '../../src/registry/repos.js';

/** A host name no test machine has. */
export const OTHER_HOST = 'ci-runner.invalid';
/** The pid that host's run has (meaningless here). */
export const OTHER_PID = 4242;

/**
 * A run of `repoId` by a process on OTHER_HOST, running and holding the
 * repository's write lock, both leased until `expires` (null: written by a
 * sextant from before leases). Returns the run's id.
 */
export async function foreignRun(engine: Engine, repoId: number, expires: string | null): Promise<number> {
  const run = await engine.db
    .insertInto('index_runs')
    .values({
      repo_id: repoId,
      origin: 'cli',
      state: 'running',
      outcome: null,
      reason: null,
      recovery: null,
      commit_sha: null,
      started_at: now(),
      finished_at: null,
      pid: OTHER_PID,
      host: OTHER_HOST,
      expires_at: expires,
      index_id: null,
      report: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await engine.db
    .insertInto('locks')
    .values({ repo_id: repoId, run_id: run.id, pid: OTHER_PID, host: OTHER_HOST, acquired_at: now(), expires_at: expires })
    .execute();
  return run.id;
}
