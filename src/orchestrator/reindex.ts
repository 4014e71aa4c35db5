// The reindex request (MCP tool and CLI): queue a job or join the active one,
// then return at once (async) or wait for it (blocking). A job that fails or
// is cancelled fails the blocking request, with the job named in the error.
import { UserError } from '../errors.js';
import type { Engine } from '../registry/engine.js';
import type * as Reindex from '../protocol/reindex.js';
import type { IndexJob } from '../registry/schema.js';
import { lifecycleAfter, startReindex, waitForJob, type JobOrigin, type ReindexTarget } from './jobs.js';

export async function reindex(engine: Engine, params: Reindex.Params, origin: JobOrigin = 'mcp'): Promise<Reindex.Result> {
  const target: ReindexTarget = { repo: params.repo, repoPath: params.repo_path };
  const { job, repo, joined } = await startReindex(engine, target, origin);
  if (params.mode === 'async') return answer(engine, repo.slug, job, joined, !joined);
  return finished(engine, repo.slug, await waitForJob(engine, job.id), joined);
}

/** A blocking request's answer once its job ended: the report, or an error naming the job. */
export async function finished(engine: Engine, slug: string, job: IndexJob, joined: boolean): Promise<Reindex.Result> {
  const result = await answer(engine, slug, job, joined, job.state === 'completed');
  if (job.state === 'completed') return { ...result, report: JSON.parse(job.report ?? '{}') };
  throw new UserError(
    `reindex job ${job.id} of ${slug} ${job.state === 'cancelled' ? 'was cancelled' : 'failed'}: ${job.error ?? 'no reason recorded'} (fix the cause, then reindex again)`,
    { repo: slug, job_id: result.job_id, job_state: result.job_state, reindexed: false, joined, lifecycle: result.lifecycle },
  );
}

async function answer(engine: Engine, slug: string, job: IndexJob, joined: boolean, reindexed: boolean): Promise<Reindex.Result> {
  return {
    repo: slug,
    job_id: String(job.id),
    job_state: job.state as Reindex.Result['job_state'],
    reindexed,
    joined,
    lifecycle: await lifecycleAfter(engine, job),
  };
}
