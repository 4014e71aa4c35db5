// The items of hierarchies: a symbol with where it is defined and how far its
// definition extends, or, for a symbol no indexed repository defines, what the
// symbol string says of it.
import type { DefinitionRow } from '../registry/lookups.js';
import type { HierarchyItem as Item } from '../protocol/common.js';
import { displayName, parseSymbol } from '../scip/symbol.js';
import { asSymbolKind, definitionRange, enclosingRange, range1, signatureLine } from './locations.js';

export function definitionItem(d: DefinitionRow): Item {
  const span = enclosingRange(d);
  return {
    name: d.name,
    kind: asSymbolKind(d.kind),
    symbol: d.symbol,
    container: d.container,
    repo: d.repo,
    path: d.path,
    ...range1(definitionRange(d)),
    range: span ? range1(span) : null,
    range_source: span ? ((d.enclosing_source as Item['range_source']) ?? 'index') : null,
    detail: signatureLine(d.signature),
  };
}

/** A symbol defined outside every indexed repository: its name (as written at a use, when known), its package as detail. */
export function externalItem(symbol: string, writtenName?: string): Item {
  let name = writtenName ?? symbol;
  let detail: string | null = null;
  try {
    const parsed = parseSymbol(symbol);
    name = writtenName || displayName(parsed);
    detail = [parsed.packageName, parsed.version].filter(Boolean).join('@') || null;
  } catch {
    // An unparseable symbol is shown as it is.
  }
  return {
    name,
    kind: 'unknown',
    symbol,
    container: null,
    repo: null,
    path: null,
    line: null,
    column: null,
    end_line: null,
    end_column: null,
    range: null,
    range_source: null,
    detail,
  };
}
