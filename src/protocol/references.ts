// findReferences: every use of a symbol, by position or by exact name.
import { z } from 'zod';
import * as limits from './limits.js';
import { arg, params, Location, positionOrSymbol, Provenance, RefKind, SymbolItem, IndexMissing, FreshnessFields, Partial } from './common.js';

export const name = 'findReferences';
export const { LIMIT, CAP } = limits.references;
export const description =
  'Find every reference to a symbol: by position (path, line, column; 1-based) or by exact unqualified name (symbol). ' +
  'Each reference says how it uses the symbol (kind: call, type, import, write, identifier; definition for declarations), ' +
  'and which symbol it is of when the answer covers several (else it is the one symbols names). ' +
  `Filter with kind; include_declaration (default true) adds the declarations. limit defaults to ${LIMIT}, at most ${CAP}. ` +
  'For a language indexed syntactic (getIndexStatus language_tiers), the references are whole-word text matches (source "search"), without kinds, ' +
  'as they are at a name the index resolved to nothing (a property of an untyped JavaScript value). ' +
  'For a language in the lsp tier (no SCIP indexer, a live language server such as clangd for C), a live server answers from the worktree ' +
  '(source "lsp"), and says partial while it is still loading the project.';

export const Params = params({
  repo: arg.repo(),
  path: arg.path().optional(),
  line: arg.line().optional(),
  column: arg.column().optional(),
  symbol: arg.symbol().optional(),
  include_declaration: z
    .boolean({ error: 'include_declaration must be true or false' })
    .default(true)
    .describe('Include the declarations themselves (default true)'),
  kind: z
    .enum(['call', 'type', 'import', 'identifier', 'write'], { error: 'kind must be one of call, type, import, identifier, write' })
    .optional()
    .describe('Only references of this kind: call, type, import, identifier (a plain read) or write'),
  limit: arg.limit(LIMIT, CAP),
  commit: arg.commit().optional(),
}).superRefine(positionOrSymbol);
export type Params = z.infer<typeof Params>;

export const Reference = Location.extend({
  kind: z.union([RefKind, z.literal('definition')]),
  is_definition: z.boolean(),
  /** The index has no occurrence here; sextant resolved the name from the source (a shorthand property, a doc comment). */
  from_source: z.literal(true).optional(),
});
export type Reference = z.infer<typeof Reference>;

export const Result = z.object({
  ...Provenance,
  ...IndexMissing,
  ...FreshnessFields,
  ...Partial,
  /** The symbols whose references these are, with where each is defined. */
  symbols: z.array(SymbolItem),
  references: z.array(Reference),
  total: z.int(),
  truncated: z.boolean(),
  limit: z.int(),
  limit_clamped: z.boolean().optional(),
  message: z.string().optional(),
});
export type Result = z.infer<typeof Result>;
