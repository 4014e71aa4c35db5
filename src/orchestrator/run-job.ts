// Running a reindex job: the one indexing pipeline (indexRepository), with
// the job's row following it. Kept apart from jobs.ts so that a server that
// only queues jobs does not load the indexing code.
import { UserError } from '../errors.js';
import type { Engine } from '../registry/engine.js';
import { claimJob, findJob, finishJob } from '../registry/jobs.js';
import { indexRepository, type IndexOptions, type IndexReport } from './index-repository.js';
import { processAlive } from '../registry/lease.js';
import { Interrupted } from './interrupt.js';
import { JOB_SERVER_ENV } from './jobs.js';

/** How often a job checks that the MCP server it belongs to is alive. */
const SERVER_CHECK_MS = 500;

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
  // A job an MCP server started stops when that server does, as a SIGTERM
  // would stop it (nothing published), and is reported failed.
  const server = Number(process.env[JOB_SERVER_ENV]) || undefined;
  const orphaned = new AbortController();
  const check = server
    ? setInterval(() => processAlive(server) || orphaned.abort('SIGTERM'), SERVER_CHECK_MS)
    : undefined;
  const signal = options.signal ? AbortSignal.any([options.signal, orphaned.signal]) : orphaned.signal;
  try {
    const repo = await engine.db.selectFrom('repos').select('slug').where('id', '=', job.repo_id).executeTakeFirstOrThrow();
    const report = await indexRepository({ ...options, signal, engine, path: job.root_path, slug: repo.slug, origin: 'job' });
    await finishJob(engine.db, id, { state: 'completed', indexId: report.index_id, report });
    return report;
  } catch (error) {
    if (orphaned.signal.aborted) {
      const reason = `the MCP server that started the job (pid ${server}) stopped, and the job with it: nothing was published; the previous index, if any, is still served`;
      await finishJob(engine.db, id, { state: 'failed', error: reason }).catch(() => undefined);
      throw new UserError(reason);
    }
    const state = error instanceof Interrupted ? 'cancelled' : 'failed';
    await finishJob(engine.db, id, { state, error: error instanceof Error ? error.message : String(error) }).catch(() => undefined);
    throw error;
  } finally {
    clearInterval(check);
  }
}
