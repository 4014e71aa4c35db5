// registryStatus: fsindex's status for the registry, repositories in place of volumes.
import { z } from 'zod';
import { params } from './common.js';
import { ScanState } from './find-files.js';

export const name = 'registryStatus';
export const description =
  'What the registry holds: every repository with its root, whether that root is on this machine (online), the indexed ' +
  'commit, freshness, entry, file and byte totals, and state; the registry engine, location and size; whether results ' +
  'are complete (scan_state). Call it first to learn the repository names the other tools take, and before trusting an empty answer.';

export const Params = params({});
export type Params = z.input<typeof Params>;

export const RepoStatus = z.object({
  repo: z.string(),
  root: z.string().nullable(),
  online: z.boolean(),
  commit: z.string().nullable(),
  freshness: z.enum(['fresh', 'stale', 'unknown']),
  entries: z.int(),
  files: z.int(),
  dirs: z.int(),
  bytes: z.int(),
  /** ready, stale, indexing, missing (nothing published) or failed (the last run failed and nothing is published). */
  state: z.enum(['ready', 'stale', 'indexing', 'missing', 'failed']),
  /** A live `sextant watch` of this repository: watching (idle), indexing, or none. */
  watcher: z.enum(['none', 'watching', 'indexing']),
  /** What the watcher last did (with when), and whether a change waits for the run under way. */
  watcher_last_event: z.string().nullable(),
  watcher_last_event_at: z.string().nullable(),
  watcher_pending: z.boolean(),
  /** Files whose text is searchable, of files. */
  searchable_files: z.int(),
});

export const Result = z.object({
  version: z.string(),
  pid: z.int(),
  uptime_s: z.int(),
  registry: z.object({
    engine: z.string(),
    location: z.string(),
    bytes: z.int(),
    text_index: z.string().nullable(),
  }),
  totals: z.object({
    repos: z.int(),
    entries: z.int(),
    files: z.int(),
    dirs: z.int(),
    symlinks: z.int(),
    bytes: z.int(),
  }),
  repos: z.array(RepoStatus),
  scan_state: ScanState,
});
export type Result = z.infer<typeof Result>;
