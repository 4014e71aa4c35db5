// The items of hierarchies: a symbol with where it is defined and how far its
// definition extends, or, for a symbol no indexed repository defines, what the
// symbol string says of it.
import { UserError } from '../errors.js';
import type { DefinitionRow } from '../registry/lookups.js';
import type { RepoContext } from './context.js';
import { whatItIs } from './definitions.js';
import type { HierarchyItem as Item } from '../protocol/common.js';
import { displayName, parseSymbol } from '../scip/symbol.js';
import { asSymbolKind, definitionRange, enclosingRange, range1, signatureLine } from './locations.js';

/** The item of a definition; of one moved through edits (see adjust.ts), marked adjusted. */
export function definitionItem(d: DefinitionRow & { adjusted?: true }): Item {
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
    ...(d.adjusted ? { adjusted: true } : {}),
  };
}

/** The item a hierarchy is rooted at, in the current text; an error when its line changed since the index. */
export async function rootItem(ctx: RepoContext, target: DefinitionRow): Promise<Item> {
  const row = await ctx.adjust.row(target);
  if (!row) {
    throw new UserError(
      `${whatItIs(target)} defined at ${target.path}:${target.start_line + 1} of the index (${ctx.repo.slug}@${ctx.index.commit_sha.slice(0, 12)}), ` +
        'a line changed (or a file deleted) since: the index cannot place it now; reindex (`sextant reindex`) and ask again',
    );
  }
  return definitionItem(row);
}

/** "stringify is defined outside the indexed code (typescript@5.9.3)": how a hierarchy rooted at an external item begins its note. */
export function definedOutside(item: Item): string {
  return `${item.name} is defined outside the indexed code${item.detail ? ` (${item.detail})` : ''}`;
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
