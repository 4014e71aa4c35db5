// getIndexStatus: whether a repository has a published index, how fresh it
// is, and what works right now. The fields are those of the jarvis
// getIndexStatus contract, plus what the SRC and ChengOS status tools report.
import { z } from 'zod';
import { arg, JOB_STATES, NearestCommit, params } from './common.js';

export const name = 'getIndexStatus';
export const description =
  'Whether a repository has a published index, its commit and freshness, what each language can answer ' +
  '(precise navigation or search only, and why), the last index run, and storage health. ' +
  'Pass repo_path (a local git worktree) to compare the indexed commit against its HEAD and uncommitted changes; ' +
  'without it, freshness is not checked. Call this first when a lookup comes back empty.';

export const Params = params({
  repo: arg.repo(),
  repo_path: arg.repoPath().optional(),
});
export type Params = z.infer<typeof Params>;

export const STATUSES = ['indexed', 'partial', 'failed', 'search-only', 'indexing'] as const;
export const LIFECYCLES = ['missing', 'queued', 'running', 'ready', 'stale', 'failed'] as const;

const Capability = z.object({ available: z.boolean(), reason: z.string().nullable(), recovery: z.string().nullable().optional() });

export const LanguageTier = z.object({
  tier: z.enum(['precise', 'lsp', 'syntactic', 'search-only']),
  /** `lsp` when a language server built the precise index (`sextant index --lsp`). */
  origin: z.literal('lsp').optional(),
  files: z.int(),
  indexed_files: z.int(),
  indexer: z.string().nullable(),
  reason: z.string().nullable(),
  recovery: z.string().nullable(),
});
export type LanguageTier = z.infer<typeof LanguageTier>;

export const SERVER_STATES = ['not_started', 'starting', 'loading', 'ready', 'failed', 'stopped'] as const;

/** A language server of the lsp tier that could answer for this repository, and what it is doing. */
export const LanguageServerStatus = z.object({
  server: z.string(),
  languages: z.array(z.string()),
  state: z.enum(SERVER_STATES),
  /** Why it failed or stopped. */
  reason: z.string().nullable(),
  pid: z.int().nullable(),
  /** Resident memory of its process group, as last polled. */
  memory_mb: z.number().nullable(),
  /** Seconds it has been starting or loading its project, while it is. */
  loading_seconds: z.number().nullable(),
  restarts: z.int(),
  requests: z.int(),
});
export type LanguageServerStatus = z.infer<typeof LanguageServerStatus>;

/** At most this many projects are listed; `projects_total` counts them all. */
export const MAX_PROJECTS = 100;

export const ProjectStatus = z.object({
  indexer: z.string(),
  /**
   * Repository-relative tsconfig.json/jsconfig.json, or a config one references
   * (tsconfig.app.json); null for the project inferred for files no config includes.
   */
  config: z.string().nullable(),
  files: z.int(),
  indexed_files: z.int(),
  problem: z.string().nullable(),
  /** How the run that built the index indexed it: all its files, only its changed ones, or none (unchanged); absent in indexes from before. */
  granularity: z.enum(['project', 'files', 'kept']).optional(),
  /** How many of its files that run gave the indexer. */
  files_run: z.int().optional(),
  /** Why it ran whole rather than narrower (orchestrator/incremental.ts), else null. */
  fallback: z.string().nullable().optional(),
});
export type ProjectStatus = z.infer<typeof ProjectStatus>;

export const FreshnessEvidence = z.object({
  checked_against: z.string(),
  head: z.string().nullable(),
  indexed_commit: z.string(),
  commits_since_index: z.int().nullable(),
  changed_files: z.array(z.string()),
  changed_files_total: z.int(),
  uncommitted_changes: z.boolean(),
});

/** The states of an upload (`sextant publish`): see src/registry/uploads.ts. */
export const UPLOAD_STATES = ['queued', 'processing', 'completed', 'errored'] as const;

/** At most this many uploads are listed, newest first. */
export const MAX_UPLOADS = 10;

export const UploadStatus = z.object({
  id: z.int(),
  commit: z.string(),
  indexer: z.string(),
  indexer_version: z.string().nullable(),
  state: z.enum(UPLOAD_STATES),
  /** Why it errored. */
  reason: z.string().nullable(),
  /** Whether file texts came from a checkout (--root): without one, navigation only. */
  with_root: z.boolean(),
  file_bytes: z.number(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** The index it published (retired later by a newer upload of the same commit and indexer, or by retention). */
  index_id: z.int().nullable(),
});
export type UploadStatus = z.infer<typeof UploadStatus>;

export const Result = z.object({
  repo: z.string(),
  indexed: z.boolean(),
  status: z.enum(STATUSES).nullable(),
  commit: z.string().nullable(),
  generated_at: z.string().nullable(),
  stale: z.boolean(),
  freshness: z.enum(['fresh', 'stale', 'unknown']),
  freshness_reason: z.string().nullable(),
  freshness_evidence: FreshnessEvidence.nullable(),
  checked_at: z.string(),
  searchCoverage: z
    .object({
      expected: z.int(),
      indexed: z.int(),
      complete: z.boolean(),
      /** Tracked files whose text is not searchable, by reason, with a few of their paths. */
      skipped: z.array(
        z.object({
          reason: z.enum(['binary', 'over_size_cap', 'unreadable', 'changed_while_indexing']),
          files: z.int(),
          examples: z.array(z.string()),
        }),
      ),
    })
    .nullable(),
  searchCoverageReason: z.string().optional(),
  last_index_run: z
    .object({
      outcome: z.string().nullable(),
      origin: z.string(),
      reason: z.string().nullable(),
      recovery: z.string().nullable(),
      state: z.enum(['running', 'finished']),
      commit: z.string().nullable(),
      started_at: z.string(),
      finished_at: z.string().nullable(),
    })
    .nullable(),
  capabilities: z
    .object({
      navigation: Capability,
      search: Capability,
      semantic: Capability,
    })
    .nullable(),
  languages: z.record(z.string(), z.int()),
  language_tiers: z.record(z.string(), LanguageTier),
  /** The projects each indexer was given (a file answers from the one that owns it), with their files. */
  projects: z.array(ProjectStatus),
  projects_total: z.int(),
  totalFiles: z.int(),
  storage_bytes: z.int(),
  registry_bytes: z.int(),
  write_lock_present: z.boolean(),
  corrupt: z.boolean(),
  corrupt_reason: z.string().nullable(),
  lifecycle: z.enum(LIFECYCLES),
  index_missing: z.boolean(),
  /** Files of the published index that some tier navigates (precise documents and syntactic definitions). */
  indexed_files: z.int(),
  /** The indexers and parsers that built the published index, with their versions. */
  parser_version: z.string().nullable(),
  /** Definitions (symbols defined) and occurrences of the precise index. */
  total_symbols: z.int(),
  total_references: z.int(),
  /** The worktree the repository is registered at, else its name. */
  workspace_id: z.string(),
  /** The repository's newest reindex job (queued, running or finished), if it has one. */
  job_id: z.string().nullable(),
  job_state: z.enum(JOB_STATES).nullable(),
  /** Why that job failed or was cancelled. */
  job_error: z.string().nullable(),
  /**
   * Set when the worktree's HEAD has no index: navigation answers from the
   * nearest indexed ancestor, `distance` commits back, through the diffs.
   */
  nearest_commit: NearestCommit.nullable(),
  root_path: z.string().nullable(),
  /** Whether the repository's worktree is on this machine (false for one fed from CI: no root here). */
  online: z.boolean(),
  /** The repository's newest uploads (`sextant publish`), at most MAX_UPLOADS, newest first. */
  uploads: z.array(UploadStatus),
  /** The language servers of the lsp tier for this repository's languages (none where the tier is not available). */
  language_servers: z.array(LanguageServerStatus).optional(),
  message: z.string().optional(),
});
export type Result = z.infer<typeof Result>;
