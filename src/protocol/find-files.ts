// findFiles: the tracked files (and the directories they imply) of indexed
// repositories, filtered, sorted and paged as fsindex's search tool does, with
// repositories in place of volumes.
import { z } from 'zod';
import { MAX_PATH_LENGTH, MAX_REPO_LENGTH, params, stringList, tooLong } from './common.js';

export const name = 'findFiles';
export const LIMIT = 100;
export const CAP = 5000;
export const SORTS = ['name', 'path', 'size', 'mtime', 'kind', 'extension'] as const;
export const KINDS = ['file', 'dir', 'symlink'] as const;

const text = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .max(MAX_PATH_LENGTH, tooLong(what, MAX_PATH_LENGTH))
    .min(1, { error: `${what} must not be empty: leave it out to match everything` });
const seconds = (what: string) => z.int({ error: `${what} must be a whole number of Unix seconds` }).describe(`${what}: Unix seconds`);
const bytes = (what: string) => z.int({ error: `${what} must be a whole number of bytes >= 0` }).min(0, { error: `${what} must be >= 0` });

/** The filters findFiles and countFiles share, all combined with AND. */
export const filters = {
  name: text('name').optional().describe('Substring of the file name (of the whole path with search_path)'),
  path: text('path').optional().describe('Substring of the repository-relative path'),
  regex: z.boolean({ error: 'regex must be true or false' }).default(false).describe('name and path are RE2 regular expressions'),
  case_sensitive: z.boolean({ error: 'case_sensitive must be true or false' }).default(false).describe('Match name and path case exactly'),
  search_path: z.boolean({ error: 'search_path must be true or false' }).default(false).describe('Match name against the whole path'),
  repos: stringList('repos', MAX_REPO_LENGTH, 'repos must be a list of repository names, as registryStatus lists them')
    .optional()
    .describe('Only these repositories (names as registryStatus lists them)'),
  repo_names: stringList('repo_names', MAX_PATH_LENGTH, 'repo_names must be a list of strings')
    .optional()
    .describe('Only repositories whose name or root path contains one of these'),
  kind: z
    .enum(KINDS, { error: `kind must be one of ${KINDS.join(', ')}` })
    .optional()
    .describe('file, dir or symlink'),
  extensions: stringList('extensions', MAX_PATH_LENGTH, 'extensions must be a list such as ["ts", ".py"]')
    .optional()
    .describe('File extensions, with or without the dot'),
  min_size: bytes('min_size').optional().describe('Minimum size in bytes'),
  max_size: bytes('max_size').optional().describe('Maximum size in bytes'),
  modified_after: seconds('modified_after').optional(),
  modified_before: seconds('modified_before').optional(),
  include_offline: z
    .boolean({ error: 'include_offline must be true or false' })
    .default(false)
    .describe('Include repositories whose worktree is not on this machine'),
};

export const description =
  'Find the tracked files of indexed repositories, and the directories they imply, by name, path, kind, extension, size ' +
  'and modification time (fsindex search, repositories in place of volumes). Sort by name, path, size, mtime, kind or ' +
  `extension; page with offset and limit (default ${LIMIT}, at most ${CAP}). mtime is the worktree's when the repository ` +
  "is on this machine, else the indexed commit's time. Call registryStatus for the repositories.";

export const Params = params({
  ...filters,
  sort: z
    .enum(SORTS, { error: `sort must be one of ${SORTS.join(', ')}` })
    .default('name')
    .describe('Sort key, default name'),
  desc: z.boolean({ error: 'desc must be true or false' }).default(false).describe('Reverse the order'),
  offset: z.int({ error: 'offset must be a whole number >= 0' }).min(0, { error: 'offset must be >= 0' }).default(0),
  limit: z
    .int({ error: `limit must be a whole number between 1 and ${CAP}` })
    .min(1, { error: `limit must be >= 1 (at most ${CAP})` })
    .max(CAP, { error: `limit must be at most ${CAP}` })
    .default(LIMIT)
    .describe(`Page size, default ${LIMIT}, at most ${CAP}`),
});
export type Params = z.input<typeof Params>;

export const ScanState = z.object({
  /** indexing while some repository in scope is being indexed. */
  state: z.enum(['idle', 'indexing']),
  /** true when every repository in scope has a published index and none is being indexed. */
  complete: z.boolean(),
  indexing: z.array(z.string()),
  unindexed: z.array(z.string()),
  /** Repositories left out because their worktree is not on this machine (include_offline brings them in). */
  offline_excluded: z.array(z.string()),
});
export type ScanState = z.infer<typeof ScanState>;

export const Hit = z.object({
  repo: z.string(),
  path: z.string(),
  name: z.string(),
  kind: z.enum(KINDS),
  /** Bytes (0 for a directory); null when unknown: an index published without --root keeps no file's blob. */
  size: z.int().nullable(),
  mtime: z.int(),
  extension: z.string(),
  blob: z.string().nullable(),
});
export type Hit = z.infer<typeof Hit>;

export const Result = z.object({
  hits: z.array(Hit),
  total: z.int(),
  offset: z.int(),
  limit: z.int(),
  duration_ms: z.int(),
  scan_state: ScanState,
});
export type Result = z.infer<typeof Result>;
