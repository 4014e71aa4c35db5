// goToDefinition: where a symbol is defined, by position or by exact name.
import { z } from 'zod';
import { arg, params, Location, positionOrSymbol, Provenance, Range, SymbolKind, IndexMissing, FreshnessFields, Partial } from './common.js';

export const name = 'goToDefinition';
export const description =
  'Find where a symbol is defined: by position (path, line, column; 1-based) or by exact unqualified name (symbol). ' +
  'Returns each definition with its name position, its full definition span (enclosing_range), kind and signature. ' +
  'Several definitions come back when a name is ambiguous or declarations merge; none is picked silently. ' +
  'At a name the index resolved to nothing (a property of an untyped JavaScript value), the definitions of that spelling come back, source "search". ' +
  "A name imported from a module the indexer could not resolve (a package not installed) is defined by its import, of kind unknown, its signature the module (from 'redux').";

export const Params = params({
  repo: arg.repo(),
  path: arg.path().optional(),
  line: arg.line().optional(),
  column: arg.column().optional(),
  symbol: arg.symbol().optional(),
  commit: arg.commit().optional(),
}).superRefine(positionOrSymbol);
export type Params = z.infer<typeof Params>;

export const Definition = Location.extend({
  name: z.string(),
  kind: SymbolKind,
  container: z.string().nullable(),
  signature: z.string().nullable(),
  enclosing_range: Range.nullable(),
  /** index: the indexer gave the span; syntax: sextant parsed it. */
  enclosing_source: z.enum(['index', 'syntax']).nullable(),
});
export type Definition = z.infer<typeof Definition>;

export const Result = z.object({
  ...Provenance,
  ...IndexMissing,
  ...FreshnessFields,
  ...Partial,
  found: z.boolean(),
  definitions: z.array(Definition),
  /** The symbols the position or name resolved to. */
  symbols: z.array(z.string()),
  /** Why nothing was found, when nothing was. */
  message: z.string().optional(),
});
export type Result = z.infer<typeof Result>;
