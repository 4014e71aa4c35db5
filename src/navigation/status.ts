// getIndexStatus: what is published, how fresh it is, and what works now.
// Read straight from the registry (and the worktree, when given): a failed
// run can leave navigation available on a previously published index, so the
// last run's outcome and the capabilities are reported separately.
import { sql } from 'kysely';
import { quote } from '../errors.js';
import type { Freshness } from '../freshness/check.js';
import type { Engine } from '../registry/engine.js';
import { Lookups } from '../registry/lookups.js';
import { leaseLive } from '../registry/lease.js';
import { currentLock, INTERRUPTED_REASON, INTERRUPTED_RECOVERY, lastRun } from '../registry/repos.js';
import type { IndexJob, IndexRow, IndexRun, Repo, Upload } from '../registry/schema.js';
import { recentUploads } from '../registry/uploads.js';
import { isOnline } from '../freshness/worktree.js';
import { checkAlive, latestJobRow } from '../registry/jobs.js';
import {
  MAX_PROJECTS,
  MAX_UPLOADS,
  type LanguageTier,
  type Params,
  type ProjectStatus,
  type Result,
  type UploadStatus,
} from '../protocol/index-status.js';
import { publishedWithoutText, textCoverage, TEXTLESS_REASON } from '../registry/search.js';
import { searchOnlyExplanation } from './context.js';
import { syntacticCapability } from './syntactic.js';
import type { Edits } from './adjust.js';

const NO_COVERAGE = 'nothing is published yet, so there is no search coverage to report';
const NO_SEMANTIC = 'sextant builds no semantic (embedding) index';

/**
 * What a status describes: the repository, its published index, its last run,
 * its lock and its latest job, read in one transaction (one snapshot of the
 * registry). Read one by one, a publish landing between two reads would pair
 * the index a commit published with the run that published the next one, and
 * a job ending between them would be reported failed while the lock its run
 * released before it ended still showed held.
 */
export interface StatusSnapshot {
  repo: Repo | undefined;
  index: IndexRow | undefined;
  run: IndexRun | undefined;
  lock: Awaited<ReturnType<typeof currentLock>>;
  job: IndexJob | undefined;
  uploads: Upload[];
}

export async function statusSnapshot(engine: Engine, slug: string): Promise<StatusSnapshot> {
  return engine.readSnapshot(async (trx) => {
    const at = new Lookups(trx);
    const repo = await at.repo(slug);
    if (!repo) return { repo, index: undefined, run: undefined, lock: undefined, job: undefined, uploads: [] };
    const index = repo.current_index_id === null ? undefined : await at.index(repo.current_index_id);
    return {
      repo,
      index,
      run: await lastRun(trx, repo.id),
      lock: await currentLock(trx, repo.id),
      job: await latestJobRow(trx, repo.id),
      uploads: await recentUploads(trx, repo.id, MAX_UPLOADS),
    };
  });
}

/** The status of a repository; of `snapshot` when the caller has read one (to add its own fields from the same moment). */
export async function indexStatus(
  engine: Engine,
  lookups: Lookups,
  params: Params,
  snapshot?: StatusSnapshot,
  edits?: Edits,
): Promise<Result> {
  const checkedAt = new Date().toISOString();
  const registryBytes = await engine.sizeBytes();
  const { repo, index, run, lock, job: recorded, uploads } = snapshot ?? (await statusSnapshot(engine, params.repo));
  if (!repo) {
    const known = await lookups.repoSlugs();
    return {
      repo: params.repo,
      indexed: false,
      status: null,
      commit: null,
      generated_at: null,
      stale: false,
      freshness: 'unknown',
      freshness_reason: 'the repository is not registered',
      freshness_evidence: null,
      checked_at: checkedAt,
      searchCoverage: null,
      searchCoverageReason: NO_COVERAGE,
      last_index_run: null,
      capabilities: null,
      languages: {},
      language_tiers: {},
      projects: [],
      projects_total: 0,
      totalFiles: 0,
      storage_bytes: 0,
      registry_bytes: registryBytes,
      write_lock_present: false,
      corrupt: false,
      corrupt_reason: null,
      lifecycle: 'missing',
      index_missing: true,
      indexed_files: 0,
      parser_version: null,
      total_symbols: 0,
      total_references: 0,
      workspace_id: params.repo,
      job_id: null,
      job_state: null,
      job_error: null,
      nearest_commit: null,
      root_path: null,
      online: false,
      uploads: [],
      message: `no repository named ${quote(params.repo)} is registered${known.length ? ` (known: ${known.slice(0, 20).join(', ')})` : ''}: index it with \`sextant index PATH\``,
    };
  }

  const lockIsLive = lock !== undefined && leaseLive(lock);
  const running = run?.state === 'running' && leaseLive(run);
  // A job whose process died is recorded failed here.
  const job = recorded && (await checkAlive(lookups.db, recorded));
  const tiers: Record<string, LanguageTier> = index ? JSON.parse(index.languages) : {};
  const precise = Object.values(tiers).some((t) => t.tier === 'precise');
  const projects = index ? projectsOf(index) : [];
  // Real symbols from a parser, no navigable positions: "partial" in the jarvis contract.
  const syntactic = Object.values(tiers).some((t) => t.tier === 'syntactic');
  // Loaded on demand: git tooling is not needed to answer without a worktree.
  const freshness: Freshness =
    index && params.repo_path
      ? await (await import('../freshness/check.js')).checkFreshness(lookups.db, index, params.repo_path)
      : {
          freshness: 'unknown',
          reason: index
            ? 'not checked: pass repo_path (a local worktree) to compare the index against its HEAD and changes'
            : 'nothing is published yet',
          evidence: null,
        };
  const corruption = index ? await corruptionOf(lookups, index) : null;
  const textless = index !== undefined && publishedWithoutText(index.tools);
  // The index navigation answers from for the worktree's HEAD, when it is not HEAD's own.
  const selection = index && edits ? await edits.select(repo, index) : undefined;
  const coverage = index && !textless ? await searchCoverage(lookups, index) : null;

  let status: Result['status'] = null;
  if (running) status = 'indexing';
  else if (index) status = !precise ? 'search-only' : index.occurrence_count === 0 && index.definition_count > 0 ? 'partial' : 'indexed';
  else if (run?.outcome === 'failed' || run?.state === 'running') status = 'failed';
  if (status === 'search-only' && syntactic) status = 'partial';

  let lifecycle: Result['lifecycle'] = 'missing';
  if (running || job?.state === 'running') lifecycle = 'running';
  else if (job?.state === 'queued') lifecycle = 'queued';
  else if (index) lifecycle = freshness.freshness === 'stale' ? 'stale' : 'ready';
  else if (run || job) lifecycle = 'failed';

  const navigation = index
    ? navigationCapability(repo, tiers)
    : { available: false, reason: 'no index is published', recovery: 'run `sextant index` in the repository' };

  return {
    repo: repo.slug,
    indexed: Boolean(index) && (precise || syntactic),
    status,
    commit: index?.commit_sha ?? null,
    generated_at: index?.generated_at ?? null,
    stale: freshness.freshness === 'stale',
    freshness: freshness.freshness,
    freshness_reason: freshness.reason,
    freshness_evidence: freshness.evidence,
    checked_at: checkedAt,
    searchCoverage: coverage?.coverage ?? null,
    // A reason only where coverage is missing or incomplete: a complete one needs none.
    searchCoverageReason: textless ? TEXTLESS_REASON : coverage ? coverage.reason : NO_COVERAGE,
    last_index_run: run ? describeRun(run, running) : null,
    capabilities: {
      navigation,
      search: textless
        ? { available: false, reason: TEXTLESS_REASON, recovery: 'publish again with --root DIR (a checkout of the commit)' }
        : index
          ? { available: true, reason: coverage?.reason ?? null }
          : { available: false, reason: 'no index is published', recovery: 'run `sextant index` in the repository' },
      semantic: { available: false, reason: NO_SEMANTIC },
    },
    languages: Object.fromEntries(Object.entries(tiers).map(([language, t]) => [language, t.files])),
    language_tiers: tiers,
    projects: projects.slice(0, MAX_PROJECTS),
    projects_total: projects.length,
    totalFiles: index?.total_files ?? 0,
    storage_bytes: Number(index?.storage_bytes ?? 0),
    registry_bytes: registryBytes,
    write_lock_present: lockIsLive,
    corrupt: corruption !== null,
    corrupt_reason: corruption,
    lifecycle,
    index_missing: !index,
    indexed_files: Object.values(tiers).reduce((n, t) => n + (t.tier === 'search-only' ? 0 : t.indexed_files), 0),
    parser_version: index ? parserVersion(index) : null,
    total_symbols: index?.definition_count ?? 0,
    total_references: index?.occurrence_count ?? 0,
    workspace_id: repo.root_path ?? repo.slug,
    ...jobFields(job),
    nearest_commit: selection?.nearest ?? null,
    ...(selection?.unrelated
      ? {
          message: `HEAD ${selection.worktree!.head.slice(0, 12)} has no index, nor has any of its last ${edits!.bound} ancestors: navigation answers from the latest index (${index!.commit_sha.slice(0, 12)}) through the diffs; run \`sextant index\` to index HEAD`,
        }
      : {}),
    root_path: repo.root_path,
    online: isOnline(repo.root_path),
    uploads: uploads.map(uploadStatus),
  };
}

/** An index every upload of which came without a checkout: no file of it has text in the registry. */
function uploadStatus(u: Upload): UploadStatus {
  return {
    id: u.id,
    commit: u.commit_sha,
    indexer: u.indexer,
    indexer_version: u.indexer_version,
    state: u.state as UploadStatus['state'],
    reason: u.reason,
    with_root: u.with_root === 1,
    file_bytes: Number(u.file_bytes),
    created_at: u.created_at,
    finished_at: u.finished_at,
    index_id: u.index_id,
  };
}

function jobFields(job: IndexJob | undefined): Pick<Result, 'job_id' | 'job_state' | 'job_error'> {
  return { job_id: job ? String(job.id) : null, job_state: (job?.state as Result['job_state']) ?? null, job_error: job?.error ?? null };
}

/** "scip-typescript 0.3.14, universal-ctags 5.9.0": what built the index, as recorded. */
function parserVersion(index: IndexRow): string | null {
  const tools = JSON.parse(index.tools) as { name: string; version?: string | null; status?: string }[];
  const used = tools.filter((t) => t.status === undefined || t.status === 'ok').map((t) => (t.version ? `${t.name} ${t.version}` : t.name));
  return used.length ? used.join(', ') : null;
}

/** The projects recorded with each indexer that ran (indexes published before projects were recorded list none). */
export function projectsOf(index: IndexRow): ProjectStatus[] {
  const tools = JSON.parse(index.tools) as { name: string; projects?: Omit<ProjectStatus, 'indexer'>[] }[];
  return tools.flatMap((t) => (t.projects ?? []).map((p) => ({ indexer: t.name, ...p })));
}

const SKIP_REASONS: Record<string, NonNullable<Result['searchCoverage']>['skipped'][number]['reason']> = {
  binary: 'binary',
  'larger than 1 MiB': 'over_size_cap',
  'changed while indexing': 'changed_while_indexing',
};

/**
 * What navigation can do with a published index whose languages sit in these
 * tiers: each tier below precise says what answers it (the lsp tier's, set by
 * withLiveTiers, what its server answers live).
 */
export function navigationCapability(
  repo: Repo,
  tiers: Record<string, LanguageTier>,
): { available: boolean; reason: string | null; recovery: string | null } {
  const degraded = Object.entries(tiers).filter(([, t]) => t.tier !== 'precise');
  const recovery = degraded.find(([, t]) => t.recovery)?.[1].recovery ?? null;
  const has = (tier: string) => Object.values(tiers).some((t) => t.tier === tier);
  if (has('precise') || has('lsp')) {
    return {
      available: true,
      reason: degraded.length ? degraded.map(([language, t]) => `${language} is ${t.tier}: ${t.reason}`).join('; ') : null,
      recovery,
    };
  }
  if (has('syntactic')) return { available: true, reason: syntacticCapability({ repo, languages: tiers }), recovery };
  return { available: false, reason: searchOnlyExplanation({ repo, languages: tiers })!, recovery };
}

/** Tracked files against those whose text is searchable, and why the rest are not. */
async function searchCoverage(
  lookups: Lookups,
  index: IndexRow,
): Promise<{ coverage: NonNullable<Result['searchCoverage']>; reason?: string }> {
  const text = await textCoverage(lookups.db, index.id);
  const skipped = text.skipped.map((s) => ({ reason: SKIP_REASONS[s.reason] ?? 'unreadable', files: s.files, examples: s.examples }));
  const coverage = { expected: text.files, indexed: text.withText, complete: text.withText === text.files, skipped };
  if (coverage.complete) return { coverage };
  const reasons = skipped.map((s) => `${s.files} ${s.reason.replaceAll('_', ' ')}`).join(', ');
  return { coverage, reason: `${text.files - text.withText} of ${text.files} tracked files are not searchable (${reasons})` };
}

function describeRun(run: IndexRun, running: boolean): NonNullable<Result['last_index_run']> {
  const interrupted = run.state === 'running' && !running;
  return {
    outcome: running ? 'indexing' : interrupted ? 'failed' : run.outcome,
    origin: run.origin,
    reason: interrupted ? INTERRUPTED_REASON : run.reason,
    recovery: interrupted ? INTERRUPTED_RECOVERY : run.recovery,
    state: running ? 'running' : 'finished',
    commit: run.commit_sha,
    started_at: run.started_at,
    finished_at: run.finished_at,
  };
}

/** A cheap consistency check of a published index; the problem, or null. */
async function corruptionOf(lookups: Lookups, index: IndexRow): Promise<string | null> {
  const files = await lookups.fileCount(index.id);
  if (files !== index.total_files) return `the index lists ${files} files but recorded ${index.total_files}: run \`sextant index\` again`;
  const missing = await lookups.db
    .selectFrom('index_files as f')
    .leftJoin('documents as d', 'd.id', 'f.document_id')
    .select(sql<number>`count(*)`.as('n'))
    .where('f.index_id', '=', index.id)
    .where('f.document_id', 'is not', null)
    .where('d.id', 'is', null)
    .executeTakeFirstOrThrow();
  if (Number(missing.n) > 0) return `${missing.n} indexed documents are missing from the registry: run \`sextant index\` again`;
  return null;
}
