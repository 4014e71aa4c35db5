// Running a reindex job: the one indexing pipeline (indexRepository), with
// the job's row following it. Kept apart from jobs.ts so that a server that
// only queues jobs does not load the indexing code.
import { UserError } from '../errors.js';
import type { Engine } from '../registry/engine.js';
import { claimJob, findJob, finishJob } from '../registry/jobs.js';
import { indexRepository, type IndexOptions, type IndexReport } from './index-repository.js';
import { Interrupted } from './interrupt.js';

/**
 * Runs a queued job in this process: the `sextant index --job ID` its
 * spawner started, or a blocking CLI reindex. Interrupted (SIGINT, SIGTERM)
 * it is cancelled; any other failure fails it, with the reason.
 */
export async function runJob(
  engine: Engine,
  id: number,
  options: Omit<IndexOptions, 'engine' | 'path' | 'slug' | 'origin'>,
): Promise<IndexReport> {
  const job = await findJob(engine.db, id);
  if (!job) throw new UserError(`no reindex job ${id}: start one with \`sextant reindex\``);
  if (!(await claimJob(engine.db, id))) {
    throw new UserError(`reindex job ${id} is ${job.state}, not queued: start a new one with \`sextant reindex\``);
  }
  try {
    const repo = await engine.db.selectFrom('repos').select('slug').where('id', '=', job.repo_id).executeTakeFirstOrThrow();
    const report = await indexRepository({ ...options, engine, path: job.root_path, slug: repo.slug, origin: 'job' });
    await finishJob(engine.db, id, { state: 'completed', indexId: report.index_id, report });
    return report;
  } catch (error) {
    const state = error instanceof Interrupted ? 'cancelled' : 'failed';
    await finishJob(engine.db, id, { state, error: error instanceof Error ? error.message : String(error) }).catch(() => undefined);
    throw error;
  }
}
