// reindex: (re)index a repository through a job, waiting for it (blocking)
// or not (async). The fields are those of the ChengOS status tool's reindex.
import { z } from 'zod';
import { arg, JOB_STATES, params } from './common.js';
import { LIFECYCLES } from './index-status.js';

export const name = 'reindex';
export const description =
  'Index a repository again (its worktree HEAD, uncommitted changes included) and publish it. ' +
  'Name it by repo (a registered name) or repo_path (a local git worktree; registered if new), not both. ' +
  "mode 'blocking' (default) waits and returns the run's report; 'async' returns job_id and job_state at once: " +
  'follow them with getIndexStatus. A request while a job for the repository is queued or running joins that job. ' +
  'The previous index keeps serving until the new one is published.';

/** Not read-only: it writes the registry (the MCP server advertises it so). */
export const readOnly = false;

export const MODES = ['blocking', 'async'] as const;

export const Params = params({
  repo: arg.repo().optional(),
  repo_path: arg.repoPath().optional(),
  mode: z
    .enum(MODES, { error: "mode must be 'blocking' (wait for the run) or 'async' (return the job at once)" })
    .default('blocking')
    .describe("'blocking' (default): wait and return the report; 'async': return job_id and job_state at once"),
}).superRefine((value, ctx) => {
  if (value.repo !== undefined && value.repo_path !== undefined) {
    ctx.addIssue({ code: 'custom', message: 'pass either repo (a registered name) or repo_path (a local worktree), not both' });
  } else if (value.repo === undefined && value.repo_path === undefined) {
    ctx.addIssue({ code: 'custom', message: 'pass repo (a registered name) or repo_path (a local git worktree)' });
  }
});
export type Params = z.infer<typeof Params>;

export const Result = z.object({
  repo: z.string(),
  job_id: z.string(),
  job_state: z.enum(JOB_STATES),
  /** True when this call ran the reindex to its end (blocking) or queued a new job (async). */
  reindexed: z.boolean(),
  /** True when the call joined a job already queued or running for the repository. */
  joined: z.boolean(),
  lifecycle: z.enum(LIFECYCLES),
  /** The run's report (blocking, once the job completed): what `sextant index --json` prints. */
  report: z.record(z.string(), z.unknown()).optional(),
});
export type Result = z.infer<typeof Result>;
