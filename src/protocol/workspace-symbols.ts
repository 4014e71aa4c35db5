// workspaceSymbols: defined symbols whose name contains a string.
import { z } from 'zod';
import * as limits from './limits.js';
import { arg, params, Provenance, SOURCES, SymbolItem, SymbolKind, IndexMissing, FreshnessFields, Partial } from './common.js';

export const name = 'workspaceSymbols';
export const { LIMIT, CAP } = limits.workspaceSymbols;
export const description =
  'Search the symbols a repository defines by case-insensitive substring of their name. Ranked: exact name, then prefix, ' +
  `then substring; source files before tests. Optional kind filter (class, interface, function, method, ...). limit defaults to ${LIMIT}, at most ${CAP}.`;

export const Params = params({
  repo: arg.repo(),
  query: arg.query(),
  kind: z
    .enum(SymbolKind.options, { error: `kind must be one of ${SymbolKind.options.join(', ')}` })
    .optional()
    .describe('Only symbols of this kind'),
  limit: arg.limit(LIMIT, CAP),
});
export type Params = z.infer<typeof Params>;

export const Result = z.object({
  ...Provenance,
  ...IndexMissing,
  ...FreshnessFields,
  symbols: z.array(
    SymbolItem.extend({
      match: z.enum(['exact', 'prefix', 'substring']),
      /** Set on a symbol of the syntactic tier (definitions from a parser), which an answer may mix with precise ones. */
      source: z.enum(SOURCES).optional(),
    }),
  ),
  total: z.int(),
  truncated: z.boolean(),
  limit: z.int(),
  limit_clamped: z.boolean().optional(),
  /** Files changed since the index that hold the query but that no language server searched, and why. */
  message: z.string().optional(),
  ...Partial,
});
export type Result = z.infer<typeof Result>;
