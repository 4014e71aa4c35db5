// sextant reindex [PATH] [--async]: index a repository again through a job,
// as the MCP reindex tool does. Blocking (the default), this process runs the
// job itself (or waits for the one already running); --async starts it in a
// process of its own and returns its id at once.
import { UserError } from '../../errors.js';
import { lifecycleAfter, queueReindex, startReindex, waitForJob, type ReindexTarget } from '../../orchestrator/jobs.js';
import { finished } from '../../orchestrator/reindex.js';
import { abortOnSignals, Interrupted } from '../../orchestrator/interrupt.js';
import { runJob } from '../../orchestrator/run-job.js';
import { terminalProgress } from '../../progress.js';
import * as Reindex from '../../protocol/reindex.js';
import { openRegistry } from '../../registry/open.js';
import { findJob } from '../../registry/jobs.js';
import type { IndexReport } from '../../orchestrator/index-repository.js';
import { request } from '../request.js';
import type { CommandSpec, Parsed } from '../parse.js';
import { print, printAnswer } from '../output.js';
import { describe } from './index.js';

export const spec: CommandSpec = {
  name: 'reindex',
  summary: 'Index a repository again as a job: wait for it, or (--async) return its id at once (the MCP reindex tool).',
  usage: 'sextant reindex [PATH | --repo NAME] [--async] [--json]',
  details: [
    'PATH (default: the current directory) is a git worktree; --repo names a registered repository instead.',
    'A reindex while a job for the repository is queued or running joins that job (same job id).',
    'Follow an --async job with `sextant status` (lifecycle, job_id, job_state); the previous index serves until it publishes.',
    '  --repo NAME   the registered repository to reindex (at the worktree it is registered at)',
    '  --async       start the job in the background and print its id',
  ],
  options: { repo: { type: 'string' }, async: { type: 'boolean' } },
  maxPositionals: 1,
};

export async function run({ values, positionals }: Parsed): Promise<number> {
  if (positionals[0] !== undefined && values.repo !== undefined) {
    throw new UserError('pass either PATH (a worktree) or --repo NAME (a registered repository), not both');
  }
  const params = request(Reindex.Params, {
    ...(values.repo !== undefined ? { repo: values.repo as string } : { repo_path: positionals[0] ?? '.' }),
    mode: values.async ? 'async' : 'blocking',
  });
  const target: ReindexTarget = { repo: params.repo, repoPath: params.repo_path };
  const engine = await openRegistry({ registry: values.registry as string | undefined });
  const interrupt = abortOnSignals();
  try {
    let result: Reindex.Result;
    if (params.mode === 'async') {
      const { job, repo, joined } = await startReindex(engine, target, 'cli');
      result = {
        repo: repo.slug,
        job_id: String(job.id),
        job_state: job.state as Reindex.Result['job_state'],
        reindexed: !joined,
        joined,
        lifecycle: await lifecycleAfter(engine, job),
      };
    } else {
      const { job, repo, joined } = await queueReindex(engine, target, 'cli');
      if (!joined) {
        // This process runs the job; a failure is recorded on it and reported by finished().
        await runJob(engine, job.id, {
          signal: interrupt.signal,
          progress: values.json ? undefined : terminalProgress(),
          yieldCpu: true,
        }).catch((error: unknown) => {
          // Ctrl-C: exit as interrupted (130 / 143); the job is recorded cancelled.
          if (error instanceof Interrupted) throw error;
        });
      }
      const ended = joined ? await waitForJob(engine, job.id) : await findJob(engine.db, job.id);
      result = await finished(engine, repo.slug, ended!, joined);
    }
    if (values.json) printAnswer(result);
    else if (result.report) describe(result.report as unknown as IndexReport);
    else
      print(
        `${result.joined ? 'joined' : 'started'} reindex job ${result.job_id} of ${result.repo} (${result.job_state}): follow it with \`sextant status ${result.repo}\``,
      );
    return 0;
  } finally {
    await engine.close();
    interrupt.dispose();
  }
}
