// typeHierarchy: what a type extends or implements (supertypes), and what extends or implements it (subtypes).
import { z } from 'zod';
import { arg, params, positionArgs, Provenance, Range, SymbolKind } from './common.js';

export const name = 'typeHierarchy';
export const MAX_DEPTH = 5;
export const description =
  'Type hierarchy of the class, interface or type at a position (path, line, column; 1-based): direction "supertypes" lists what it ' +
  'extends or implements, "subtypes" what extends or implements it, across files and every repository in the registry. ' +
  'On a method it lists the methods it overrides, or that override it. depth (default 1, at most 5) follows further levels.';

export const Params = params({
  ...positionArgs(),
  direction: z
    .enum(['supertypes', 'subtypes'], { error: 'direction must be "supertypes" or "subtypes"' })
    .describe('supertypes: what it extends or implements; subtypes: what extends or implements it'),
  depth: arg.depth(MAX_DEPTH),
});
export type Params = z.infer<typeof Params>;

export interface TypeItem {
  name: string;
  kind: z.infer<typeof SymbolKind>;
  symbol: string;
  container: string | null;
  /** null for a type defined outside every indexed repository. */
  repo: string | null;
  path: string | null;
  line: number | null;
  column: number | null;
  end_line: number | null;
  end_column: number | null;
  range: Range | null;
  /** index: the indexer gave the extent; syntax: sextant parsed it. */
  range_source: 'index' | 'syntax' | null;
  detail: string | null;
  /** The next level (depth > 1). */
  types?: TypeItem[];
}

export const TypeItem: z.ZodType<TypeItem> = z.object({
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
  range: Range.nullable(),
  range_source: z.enum(['index', 'syntax']).nullable(),
  detail: z.string().nullable(),
  get types() {
    return z.array(TypeItem).optional();
  },
});

export const Result = z.object({
  ...Provenance,
  item: TypeItem,
  direction: z.enum(['supertypes', 'subtypes']),
  depth: z.int(),
  depth_clamped: z.boolean().optional(),
  types: z.array(TypeItem),
});
export type Result = z.infer<typeof Result>;
