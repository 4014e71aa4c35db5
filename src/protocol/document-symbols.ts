// documentSymbols: the symbols a file defines, nested.
import { z } from 'zod';
import { arg, params, Provenance, Range, SymbolKind, IndexMissing, FreshnessFields, Partial } from './common.js';

export const name = 'documentSymbols';
export const description =
  'List the symbols a file defines (classes, functions, methods, properties, variables, ...), nested by containment, ' +
  'each with its full range and the range of its name (selection_range).';

export const Params = params({ repo: arg.repo(), path: arg.path() });
export type Params = z.infer<typeof Params>;

export interface DocumentSymbol {
  name: string;
  kind: z.infer<typeof SymbolKind>;
  symbol: string;
  detail: string | null;
  range: Range;
  selection_range: Range;
  children: DocumentSymbol[];
}

export const DocumentSymbol: z.ZodType<DocumentSymbol> = z.object({
  name: z.string(),
  kind: SymbolKind,
  symbol: z.string(),
  detail: z.string().nullable(),
  range: Range,
  selection_range: Range,
  get children() {
    return z.array(DocumentSymbol);
  },
});

export const Result = z.object({
  ...Provenance,
  ...IndexMissing,
  ...FreshnessFields,
  ...Partial,
  path: z.string(),
  symbols: z.array(DocumentSymbol),
});
export type Result = z.infer<typeof Result>;
