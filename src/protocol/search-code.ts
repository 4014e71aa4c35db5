// searchCode: text search over the stored files of every indexed repository.
import { z } from 'zod';
import { arg, FreshnessFields, Location, MAX_PATH_LENGTH, MAX_QUERY_LENGTH, params, stringList, tooLong } from './common.js';

export const name = 'searchCode';
export const LIMIT = 100;
export const CAP = 2000;
export const MAX_CONTEXT = 10;
/** Previews and context lines longer than this are cut around the match. */
export const PREVIEW_CHARS = 300;
export const TRUNCATION_REASONS = ['limit', 'match_budget', 'time_budget'] as const;

export const description =
  "Search the text of the tracked files of indexed repositories (at each one's indexed commit), like grep: a literal " +
  'string by default, or an RE2 regular expression (linear time) with regex: true. Case-insensitive unless ' +
  'case_sensitive. Narrow with repo, a path glob (src/**/*.ts; a glob without "/" matches file names) and extensions. ' +
  `Returns one match per matching span with its line; limit defaults to ${LIMIT}, at most ${CAP}. total counts the ` +
  'matches (a lower bound when total_exact is false: counting past limit stops after 8 MiB more text); truncated and ' +
  'truncated_reason say when the answer is partial (limit reached, match or time budget spent). ' +
  'Files whose text is not stored (binary, over 1 MiB) are not searched: getIndexStatus reports them in searchCoverage; ' +
  'nor are repositories published without their file texts (unsearchable lists them). ' +
  'A match in a file edited since the index moves to its line now (adjusted: true), or, on a changed line, is dropped and counted (dropped_locations).';

export const Params = params({
  query: z
    .string({ error: 'query must be a string: the text (or, with regex: true, the RE2 pattern) to find' })
    .max(MAX_QUERY_LENGTH, tooLong('query', MAX_QUERY_LENGTH))
    .min(1, { error: 'query must not be empty: pass the text to find' })
    .refine((q) => !/[\r\n]/.test(q), { error: 'query must be one line: matches never span lines' })
    .describe('The text to find; an RE2 regular expression when regex is true'),
  repo: arg.repo().optional().describe('Only this repository (default: every repository in the registry)'),
  regex: z.boolean({ error: 'regex must be true or false' }).default(false).describe('Treat query as an RE2 regular expression'),
  case_sensitive: z.boolean({ error: 'case_sensitive must be true or false' }).default(false).describe('Match case exactly'),
  path: z
    .string({ error: 'path must be a glob string such as src/**/*.ts' })
    .max(MAX_PATH_LENGTH, tooLong('path', MAX_PATH_LENGTH))
    .min(1, { error: 'path must not be empty: pass a glob such as src/**/*.ts, or leave it out' })
    .optional()
    .describe('Glob on the repository-relative path (src/**/*.ts); without "/", it matches the file name at any depth'),
  extensions: stringList('extensions', MAX_PATH_LENGTH, 'extensions must be a list of file extensions such as ["ts", ".py"]')
    .optional()
    .describe('Only files with these extensions, with or without the dot (["ts", ".py"])'),
  context: z
    .int({ error: `context must be a whole number from 0 to ${MAX_CONTEXT}` })
    .min(0, { error: `context must be >= 0 (at most ${MAX_CONTEXT})` })
    .max(MAX_CONTEXT, { error: `context must be at most ${MAX_CONTEXT}` })
    .default(0)
    .describe(`Lines of context before and after each match, at most ${MAX_CONTEXT}`),
  limit: arg.limit(LIMIT, CAP),
});
export type Params = z.input<typeof Params>;

export const Match = Location.pick({ repo: true, path: true, line: true, column: true, end_line: true, end_column: true }).extend({
  /** The line, cut to PREVIEW_CHARS around the match when longer. */
  preview: z.string(),
  /** The column the preview starts at, when it does not start the line. */
  preview_column: z.int().optional(),
  before: z.array(z.string()).optional(),
  after: z.array(z.string()).optional(),
  /** The file was edited since the index: the match moved to its line now (its preview and context are the indexed text's). */
  adjusted: z.boolean().optional(),
});
export type Match = z.infer<typeof Match>;

export const Result = z.object({
  matches: z.array(Match),
  total: z.int(),
  /** false when counting stopped at a budget, or after limit once 8 MiB of further text was read: total is then a lower bound. */
  total_exact: z.boolean(),
  truncated: z.boolean(),
  truncated_reason: z.enum(TRUNCATION_REASONS).nullable(),
  searched: z.array(z.object({ repo: z.string(), commit: z.string() })),
  /** Repositories asked of (repo omitted) whose index holds no file texts (published without --root): not searched, and why. */
  unsearchable: z.array(z.object({ repo: z.string(), commit: z.string(), reason: z.string() })).optional(),
  /** Files whose text was read and matched. */
  files_searched: z.int(),
  /** index: the substring index chose the files; scan: the query had no literal it could use, every file was read. */
  strategy: z.enum(['index', 'scan']),
  source: z.literal('search'),
  limit: z.int(),
  limit_clamped: z.boolean().optional(),
  duration_ms: z.int(),
  /** Set when a file with matches was edited since the index (see followEdits in src/search/code.ts). */
  ...FreshnessFields,
});
export type Result = z.infer<typeof Result>;
