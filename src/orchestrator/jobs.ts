// Reindex jobs: `reindex` (MCP and CLI) and the automatic reindex of a query
// that found an index missing. A job runs the one indexing pipeline
// (indexRepository) in a process of its own, `sextant index --job ID`, so the
// server that asked never blocks and a job outlives the request that started
// it. A job the reindex tool started stops with its MCP server (run-job.ts);
// the CLI's and automatic ones do not. Its row in the registry says where it is; a job
// whose process died is reported failed when read (registry/jobs.ts). The
// indexing code itself is in run-job.ts, loaded only by the process that runs it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { quote, UserError } from '../errors.js';
import { gitRoot } from '../freshness/git.js';
import { projectFile } from '../paths.js';
import type { Engine } from '../registry/engine.js';
import { findJob, latestJob, queueJob, setJobPid } from '../registry/jobs.js';
import { ensureRepo, findRepo } from '../registry/repos.js';
import type { IndexJob, Repo } from '../registry/schema.js';

export type JobOrigin = 'mcp' | 'cli' | 'auto';

/** Names the pid of the MCP server a job process belongs to (see run-job.ts). */
export const JOB_SERVER_ENV = 'SEXTANT_JOB_SERVER';

export interface ReindexTarget {
  /** A registered repository's name. */
  repo?: string | undefined;
  /** A local git worktree: the repository registered at its root, else registered now under the root's folder name. */
  repoPath?: string | undefined;
}

/** The repository a request names and the worktree to index, or a UserError saying how to name one. */
export async function resolveTarget(engine: Engine, target: ReindexTarget): Promise<{ repo: Repo; root: string }> {
  const db = engine.db;
  if (target.repo !== undefined && target.repoPath !== undefined) {
    throw new UserError('pass either a repository name or a worktree path, not both');
  }
  if (target.repoPath !== undefined) {
    const root = await gitRoot(target.repoPath);
    const registered = await db.selectFrom('repos').selectAll().where('root_path', '=', root).executeTakeFirst();
    return { repo: registered ?? (await ensureRepo(db, basename(root), root)), root };
  }
  if (target.repo === undefined) throw new UserError('pass a repository name or a worktree path');
  const repo = await findRepo(db, target.repo);
  if (!repo) {
    const known = (await db.selectFrom('repos').select('slug').orderBy('slug').limit(20).execute()).map((r) => r.slug);
    throw new UserError(
      `unknown repository ${quote(target.repo)} (${known.length ? `known: ${known.join(', ')}` : 'the registry holds none yet'}): pass a registered name, or the worktree path to register it`,
    );
  }
  if (!repo.root_path) {
    throw new UserError(`${repo.slug} was published without a worktree on this machine: pass the path of a local clone to reindex it`);
  }
  if (!existsSync(repo.root_path)) {
    throw new UserError(`${repo.slug}'s worktree ${repo.root_path} no longer exists: pass the path of a local clone to reindex it`);
  }
  return { repo, root: repo.root_path };
}

export interface Requested {
  job: IndexJob;
  repo: Repo;
  /** True when the request joined a job already queued or running. */
  joined: boolean;
}

/** Queues a job for the repository (or joins its active one) and starts its process. */
export async function startReindex(engine: Engine, target: ReindexTarget, origin: JobOrigin): Promise<Requested> {
  const { repo, root } = await resolveTarget(engine, target);
  return startJob(engine, repo, root, origin);
}

/** Queues a job for the repository (or joins its active one), for the caller to run (see run-job.ts). */
export async function queueReindex(engine: Engine, target: ReindexTarget, origin: JobOrigin): Promise<Requested> {
  const { repo, root } = await resolveTarget(engine, target);
  return { ...(await queueJob(engine.db, { repoId: repo.id, rootPath: root, origin })), repo };
}

async function startJob(engine: Engine, repo: Repo, root: string, origin: JobOrigin): Promise<Requested> {
  const { job, joined } = await queueJob(engine.db, { repoId: repo.id, rootPath: root, origin });
  if (joined) return { job, repo, joined };
  // Detached, its output ignored: it outlives the request and reports through its row.
  const child = spawn(
    process.execPath,
    [projectFile('bin', 'sextant.js'), 'index', '--job', String(job.id)],
    {
      cwd: root,
      detached: true,
      stdio: 'ignore',
      // A job the reindex tool started stops with its MCP server. One the CLI started outlives the command, and
      // an automatic one the server (a session may end before the index does; a failed one waits to be retried).
      // The registry goes in the environment, where a URL's credentials stay out of the process list.
      env: {
        ...process.env,
        SEXTANT_REGISTRY: engine.connection,
        ...(origin === 'mcp' ? { [JOB_SERVER_ENV]: String(process.pid) } : {}),
      },
    },
  );
  // A failure to start shows as the job's dead process; nothing to do with the event itself.
  child.on('error', () => undefined);
  child.unref();
  if (child.pid) await setJobPid(engine.db, job.id, child.pid);
  return { job: { ...job, pid: child.pid ?? null }, repo, joined };
}

/**
 * The query layer's automatic reindex (see Navigation): for a registered
 * repository with no index, whose worktree is on this machine, a job is
 * queued (or the active one joined). Off when SEXTANT_AUTO_REINDEX is 0, off
 * or false. A repository whose last automatic job failed is not retried
 * before RETRY_MS, so queries cannot start a failing job in a loop.
 */
export function autoReindexer(engine: Engine, env: NodeJS.ProcessEnv = process.env) {
  if (/^(0|off|false|no)$/i.test(env.SEXTANT_AUTO_REINDEX ?? '')) return undefined;
  return async (repo: Repo): Promise<{ triggered: boolean; job: IndexJob } | null> => {
    if (!repo.root_path || !existsSync(repo.root_path)) return null;
    const last = await latestJob(engine.db, repo.id);
    if (
      last &&
      last.origin === 'auto' &&
      last.state === 'failed' &&
      Date.now() - Date.parse(last.finished_at ?? last.created_at) < RETRY_MS
    ) {
      return { triggered: false, job: last };
    }
    const { job, joined } = await startJob(engine, repo, repo.root_path, 'auto');
    return { triggered: !joined, job };
  };
}

const RETRY_MS = 10 * 60_000;
const POLL_MS = 200;

/** Waits for a job to finish (completed, failed or cancelled). */
export async function waitForJob(engine: Engine, id: number): Promise<IndexJob> {
  for (;;) {
    const job = await findJob(engine.db, id);
    if (!job) throw new Error(`reindex job ${id} disappeared from the registry`);
    if (job.state !== 'queued' && job.state !== 'running') return job;
    await sleep(POLL_MS);
  }
}

/** The lifecycle a job leaves its repository in. */
export async function lifecycleAfter(engine: Engine, job: IndexJob): Promise<'queued' | 'running' | 'ready' | 'failed'> {
  if (job.state === 'queued' || job.state === 'running') return job.state;
  if (job.state === 'completed') return 'ready';
  const repo = await engine.db.selectFrom('repos').select('current_index_id').where('id', '=', job.repo_id).executeTakeFirst();
  return repo?.current_index_id != null ? 'ready' : 'failed';
}
