// Shapes shared by the requests of the query layer, declared once with zod:
// the MCP adapter advertises and validates them, the CLI prints them, the
// query layer returns them. Positions are 1-based lines and columns counted
// in UTF-16 code units; paths are repository-relative with '/'.
import { z } from 'zod';
import { quote } from '../errors.js';
import { MAX_LIST_LENGTH, MAX_PATH_LENGTH, MAX_QUERY_LENGTH, MAX_REPO_LENGTH, MAX_SYMBOL_LENGTH } from './limits.js';
import { REF_KINDS } from '../registry/payload.js';
import { SYMBOL_KINDS } from '../scip/kind.js';
import { DEFAULT_MAX_BYTES, MAX_BYTES_CAP, MIN_MAX_BYTES } from '../trust/budget.js';
import { FRESHNESS } from './meta.js';

export { MAX_LIST_LENGTH, MAX_PATH_LENGTH, MAX_QUERY_LENGTH, MAX_REPO_LENGTH, MAX_SYMBOL_LENGTH };

/** Where an answer or a location came from: the index, a parser, a text match, or a live language server (the lsp tier). */
export const SOURCES = ['precise', 'syntactic', 'search', 'lsp'] as const;

/** `.max()` with a message that names the limit (and never echoes the text). */
export function tooLong(field: string, max: number) {
  return {
    // abort: the other checks of a string this long are not worth running or reporting.
    abort: true,
    error: (issue: { input?: unknown }) =>
      typeof issue.input === 'string'
        ? `${field} is too long (${issue.input.length} characters): at most ${max} characters`
        : `${field} is too long: at most ${max} characters`,
  };
}

/**
 * Names and paths never hold a NUL character (and Postgres cannot compare
 * text with one): refused as bad input on every engine.
 */
const noNul = (field: string) => [(s: string) => !s.includes('\0'), { error: `${field} must not contain NUL characters` }] as const;

/** Arguments, with messages that say how to fix a bad value. */
export const arg = {
  repo: () =>
    z
      .string({ error: 'repo is required: the repository name that getIndexStatus and `sextant status` list' })
      .min(1, { error: 'repo must not be empty: pass a repository name' })
      .max(MAX_REPO_LENGTH, tooLong('repo', MAX_REPO_LENGTH))
      .refine(...noNul('repo'))
      .describe('The repository name (slug), as `sextant status` lists it'),
  path: () =>
    z
      .string({ error: 'path must be a string: a repository-relative file path such as src/index.ts' })
      .min(1, { error: 'path must not be empty: pass a repository-relative file path' })
      .max(MAX_PATH_LENGTH, tooLong('path', MAX_PATH_LENGTH))
      .refine(...noNul('path'))
      .describe("Repository-relative file path with '/' separators"),
  line: () =>
    z
      .int({ error: 'line must be a whole number >= 1 (lines are 1-based)' })
      .min(1, { error: 'line must be >= 1 (lines are 1-based)' })
      .describe('1-based line'),
  column: () =>
    z
      .int({ error: 'column must be a whole number >= 1 (columns are 1-based UTF-16 code units)' })
      .min(1, { error: 'column must be >= 1 (columns are 1-based)' })
      .describe('1-based column, in UTF-16 code units'),
  symbol: () =>
    z
      .string({ error: "symbol must be a string: an exact unqualified name such as 'parseConfig'" })
      .min(1, { error: 'symbol must not be empty' })
      .max(MAX_SYMBOL_LENGTH, tooLong('symbol', MAX_SYMBOL_LENGTH))
      .refine(...noNul('symbol'))
      .describe("Exact unqualified symbol name (e.g. 'compute_total', not 'util.compute_total')"),
  query: () =>
    z
      .string({ error: 'query must be a string: part of a symbol name' })
      .max(MAX_QUERY_LENGTH, tooLong('query', MAX_QUERY_LENGTH))
      .trim()
      .refine(...noNul('query'))
      .min(1, { error: 'query must not be empty: pass part of a symbol name' })
      .describe('Part of a symbol name, matched case-insensitively'),
  commit: () =>
    z
      .string({ error: 'commit must be a string: a full 40-hex commit hash' })
      .regex(/^[0-9a-f]{40}$/, { error: 'commit must be a full 40-hex commit hash (git rev-parse HEAD)' })
      .describe(
        'Answer at this commit: its published index, else the nearest published ancestor the registry knows of (flagged nearest_commit). Default: the latest published index',
      ),
  repoPath: () =>
    z
      .string({ error: 'repo_path must be a string: the path of a local git worktree of this repository' })
      .min(1, { error: 'repo_path must not be empty' })
      .max(MAX_PATH_LENGTH, tooLong('repo_path', MAX_PATH_LENGTH))
      .refine(...noNul('repo_path'))
      .describe('Local git working directory: compares the indexed commit against its HEAD and uncommitted changes'),
  depth: (max: number) =>
    z
      .int({ error: `depth must be a whole number from 1 to ${max}` })
      .min(1, { error: `depth must be >= 1 (at most ${max})` })
      .default(1)
      .describe(`Levels to follow, default 1, at most ${max} (larger values are clamped and flagged)`),
  limit: (fallback: number, cap: number) =>
    z
      .int({ error: `limit must be a whole number between 1 and ${cap}` })
      .min(1, { error: `limit must be >= 1 (at most ${cap})` })
      .default(fallback)
      .describe(`Most results to return; default ${fallback}, at most ${cap} (larger values are clamped and flagged)`),
};

/** A list argument of at most MAX_LIST_LENGTH strings, each of 1 to `max` characters. */
export function stringList(field: string, max: number, error: string) {
  // An empty list filters nothing out: agents send [] for an option they leave alone, not to match no file.
  return z
    .array(
      z
        .string({ error })
        .min(1, { error: `${field} must not contain empty strings` })
        .max(max, tooLong(`each of ${field}`, max))
        .refine(...noNul(`each of ${field}`)),
      { error },
    )
    .max(MAX_LIST_LENGTH, { error: `${field} holds at most ${MAX_LIST_LENGTH} items` })
    .transform((list) => (list.length === 0 ? undefined : list));
}

/** The arguments that name a position in a repository's file. */
export function positionArgs() {
  return { repo: arg.repo(), path: arg.path(), line: arg.line(), column: arg.column() };
}

export const Range = z.object({
  line: z.int(),
  column: z.int(),
  end_line: z.int(),
  end_column: z.int(),
});
export type Range = z.infer<typeof Range>;

export const Location = z.object({
  repo: z.string(),
  path: z.string(),
  line: z.int(),
  column: z.int(),
  end_line: z.int(),
  end_column: z.int(),
  symbol: z.string().optional(),
  kind: z.string().optional(),
  preview: z.string().optional(),
  /** Mapped through edits made since the index: the position is in the file as it is now. */
  adjusted: z.boolean().optional(),
  /** Where this location came from, when an answer mixes sources (a live language server's are `lsp`). */
  source: z.enum(SOURCES).optional(),
});
export type Location = z.infer<typeof Location>;

/**
 * An answer a language server gave while still loading its project: it may
 * miss what the server has not reached yet, and says so (never an empty,
 * unflagged "nothing found").
 */
export const Partial = {
  partial: z.boolean().optional(),
  partial_reason: z.string().optional(),
};

export const SymbolKind = z.enum(SYMBOL_KINDS);
export const RefKind = z.enum(REF_KINDS);

/** Where an answer came from and at which commit: every answer says so. */
export const Provenance = {
  repo: z.string(),
  commit: z.string(),
  source: z.enum(SOURCES),
};

/**
 * Set when the commit an answer is for (the request's `commit`, else the
 * worktree's HEAD) has no index and its nearest indexed ancestor answers:
 * which, and how many commits back.
 */
export const NearestCommit = z.object({
  requested: z.string(),
  commit: z.string(),
  distance: z.int(),
});
export type NearestCommit = z.infer<typeof NearestCommit>;

/** The states of a reindex job (see src/registry/jobs.ts). */
export const JOB_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;

/**
 * The ChengOS fields a navigation answer carries when it found the
 * repository's index missing: it says so and names the reindex it scheduled
 * (or joined) instead of waiting for it.
 */
export const IndexMissing = {
  index_missing: z.boolean().optional(),
  auto_reindex_triggered: z.boolean().optional(),
  job_id: z.string().nullable().optional(),
  job_state: z.enum(JOB_STATES).nullable().optional(),
};

/**
 * How a precise answer stands against the worktree it is asked about: the
 * files it mapped through edits made since the index (uncommitted, or in
 * commits since), the locations it dropped because their lines changed, and
 * the ancestor whose index answered when HEAD has none.
 */
export const Freshness = z.object({
  /** fresh: HEAD's index, and every file the answer read is as indexed; stale: not; unknown: no worktree on this machine. */
  index_freshness: z.enum(FRESHNESS),
  /** The ChengOS field: index_freshness is stale. */
  stale: z.boolean(),
  /** Files the answer mapped through edits (repo:path for another repository's), at most 100. */
  adjusted_files: z.array(z.string()),
  /** Locations left out: on lines changed since the index, or in files deleted since. */
  dropped_locations: z.object({ on_changed_lines: z.int(), in_deleted_files: z.int(), reason: z.string() }).optional(),
  /** The commit asked about (or HEAD) has no index: the nearest indexed ancestor answered, `distance` commits back. */
  nearest_commit: NearestCommit.optional(),
});
export type Freshness = z.infer<typeof Freshness>;

/** The Freshness fields, optional: a live language server's answers (of the worktree as it is) do not carry them. */
export const FreshnessFields = Freshness.partial().shape;

/** A symbol in a list, as the DESIGN contract names its fields. */
export const SymbolItem = z.object({
  name: z.string(),
  kind: z.string(),
  container: z.string().nullable(),
  symbol: z.string(),
  repo: z.string(),
  path: z.string(),
  line: z.int(),
  column: z.int(),
  end_line: z.int(),
  end_column: z.int(),
  adjusted: z.boolean().optional(),
});
export type SymbolItem = z.infer<typeof SymbolItem>;

/** The first few unknown argument names, each quoted within bounds. */
function unknownKeys(keys: readonly string[]): string {
  const shown = keys.slice(0, 5).map(quote).join(', ');
  return keys.length > 5 ? `${shown} and ${keys.length - 5} more` : shown;
}

/** The reply budget every tool takes: past it, the answer is cut at whole items and flagged truncated. */
export const maxBytesArg = () =>
  z
    .int({ error: `max_bytes must be a whole number from ${MIN_MAX_BYTES} to ${MAX_BYTES_CAP}` })
    .min(MIN_MAX_BYTES, { error: `max_bytes must be >= ${MIN_MAX_BYTES}` })
    .optional()
    .describe(`Most bytes of JSON in the reply; default ${DEFAULT_MAX_BYTES}, at most ${MAX_BYTES_CAP} (larger values are clamped)`);

/** A tool's arguments: unknown ones are rejected with the list of known ones. Every tool takes max_bytes. */
export function params<S extends z.ZodRawShape>(fields: S) {
  const shape = { ...fields, max_bytes: maxBytesArg() };
  const known = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown argument${issue.keys.length > 1 ? 's' : ''} ${unknownKeys(issue.keys)}: the arguments are ${known}`
        : `arguments must be an object with ${known}`,
  });
}

/**
 * A symbol in a hierarchy: where it is defined and how far its definition
 * extends. Location fields are null for a symbol no indexed repository defines.
 */
export const HierarchyItem = z.object({
  name: z.string(),
  kind: SymbolKind,
  symbol: z.string(),
  container: z.string().nullable(),
  repo: z.string().nullable(),
  path: z.string().nullable(),
  line: z.int().nullable(),
  column: z.int().nullable(),
  end_line: z.int().nullable(),
  end_column: z.int().nullable(),
  /** The whole definition; null when no extent is known. */
  range: Range.nullable(),
  /** index: the indexer gave the extent; syntax: sextant parsed it; lsp: a live language server gave it. */
  range_source: z.enum(['index', 'syntax', 'lsp']).nullable(),
  /** The signature's first line, or the package of a symbol defined elsewhere. */
  detail: z.string().nullable(),
  /** Mapped through edits made since the index. */
  adjusted: z.boolean().optional(),
});
export type HierarchyItem = z.infer<typeof HierarchyItem>;

/** Requires either a position (path, line, column) or a symbol name, not both. */
export function positionOrSymbol(
  value: { path?: unknown; line?: unknown; column?: unknown; symbol?: unknown },
  ctx: z.RefinementCtx,
): void {
  const position = [value.path, value.line, value.column].filter((v) => v !== undefined).length;
  if (value.symbol !== undefined && position > 0) {
    ctx.addIssue({ code: 'custom', message: 'pass either path+line+column or symbol, not both' });
  } else if (value.symbol === undefined && position < 3) {
    ctx.addIssue({ code: 'custom', message: 'pass path, line and column (a position), or symbol (an exact name)' });
  }
}
