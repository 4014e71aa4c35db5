// The symbols a file defines, nested by containment.
import { isLocalSymbol, ownerSymbol, parseSymbol } from '../scip/symbol.js';
import { rangeContains, rangeHull, type Range } from '../scip/range.js';
import type { DefinitionRow, Lookups } from '../registry/lookups.js';
import type { DocumentSymbol, Params, Result } from '../protocol/document-symbols.js';
import { openFile, requirePrecise, type RepoContext } from './context.js';
import { asSymbolKind, definitionRange, enclosingRange, range1, signatureLine } from './locations.js';

/** Kinds an outline leaves out: they belong to the signature of what they are in. */
const HIDDEN: ReadonlySet<string> = new Set(['parameter', 'type_parameter']);
/**
 * Local symbols worth an outline entry, and a workspace symbol search's:
 * named functions and classes inside functions, and methods (scip-typescript
 * gives an object literal's methods, `{ setup(n) {…} }`, local symbols; a
 * language server outlines them and finds them by name).
 */
export const LOCAL_SHOWN: ReadonlySet<string> = new Set(['function', 'method', 'class', 'interface', 'enum', 'type']);
/**
 * How the signature of a local accessor begins (`get size: number`): an
 * object literal's getters and setters are shown beside its methods, though
 * their kind is a property's (the members of local object types are not).
 */
export const LOCAL_ACCESSOR_SIGNATURES = ['get ', 'set '] as const;

export async function documentSymbols(lookups: Lookups, ctx: RepoContext, params: Params): Promise<Result> {
  requirePrecise(ctx);
  const file = await openFile(lookups, ctx, params.path);
  const indexed = (await lookups.definitionsInFile(ctx.index.id, file.document.id, file.file.path)).filter(shown);
  // In the file as it is now: symbols whose names are on lines changed since the index are left out (and counted).
  const rows = (await Promise.all(indexed.map((d) => ctx.adjust.row(d)))).filter((d) => d !== undefined);
  return {
    repo: ctx.repo.slug,
    commit: ctx.index.commit_sha,
    source: 'precise',
    ...ctx.adjust.fields(),
    path: file.file.path,
    symbols: nest(rows),
  };
}

function shown(d: DefinitionRow): boolean {
  if (HIDDEN.has(d.kind)) return false;
  if (isLocalSymbol(d.symbol))
    return LOCAL_SHOWN.has(d.kind) || (d.kind === 'property' && LOCAL_ACCESSOR_SIGNATURES.some((s) => d.signature?.startsWith(s)));
  // The file's own module definition is the outline itself, not an entry in it.
  return !(d.kind === 'module' && d.start_line === d.end_line && d.start_char === d.end_char);
}

interface Node {
  row: DefinitionRow;
  name: Range;
  span: Range;
  out: DocumentSymbol;
}

/**
 * Each symbol goes under the symbol that owns it by its descriptors (a class
 * for its members, even `self.x` assigned in a method) when that is defined in
 * the file; otherwise under the innermost symbol whose span contains its name.
 */
export function nest(rows: readonly DefinitionRow[]): DocumentSymbol[] {
  const nodes: Node[] = rows.map((row) => {
    const name = definitionRange(row);
    // An outline's range holds its name (LSP requires it of selectionRange): the
    // extent of `const f = () => ...` is the arrow function's, after the name.
    const enclosing = enclosingRange(row);
    const span = enclosing ? rangeHull(enclosing, name) : name;
    return {
      row,
      name,
      span,
      out: {
        name: row.name,
        kind: asSymbolKind(row.kind),
        symbol: row.symbol,
        detail: signatureLine(row.signature),
        range: range1(span),
        selection_range: range1(name),
        children: [],
      },
    };
  });
  // Outer spans first, so parents are placed before their children.
  nodes.sort((a, b) => a.span[0] - b.span[0] || a.span[1] - b.span[1] || b.span[2] - a.span[2] || b.span[3] - a.span[3]);
  // A symbol may have several definitions: merged declarations (`interface X` and `class X`), Python's overloads.
  const bySymbol = new Map<string, Node[]>();
  for (const n of nodes) {
    const list = bySymbol.get(n.row.symbol);
    if (list) list.push(n);
    else bySymbol.set(n.row.symbol, [n]);
  }
  const roots: DocumentSymbol[] = [];
  const stack: Node[] = [];
  for (const node of nodes) {
    while (stack.length && !rangeContains(stack[stack.length - 1]!.span, node.name)) stack.pop();
    const owner = ownerOf(node.row.symbol);
    const owners = owner !== undefined ? bySymbol.get(owner) : undefined;
    // Of an owner's definitions, the one around the member: an interface's members stay under the interface.
    const parent =
      (owners && (owners.find((o) => rangeContains(o.span, node.name)) ?? owners[owners.length - 1])) ?? stack[stack.length - 1];
    (parent ? parent.out.children : roots).push(node.out);
    // A symbol without a span of its own (a property, say) cannot contain others.
    if (node.span !== node.name) stack.push(node);
  }
  return roots;
}

function ownerOf(symbol: string): string | undefined {
  if (isLocalSymbol(symbol)) return undefined;
  try {
    return ownerSymbol(symbol, parseSymbol(symbol));
  } catch {
    return undefined;
  }
}
