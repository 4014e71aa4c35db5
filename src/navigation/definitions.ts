// Definitions of symbols: by position, by exact name, across repositories.
import { quote, UserError } from '../errors.js';
import { isLocalSymbol, isParameterSymbol, parseSymbol } from '../scip/symbol.js';
import { SymbolRole } from '../scip/schema.js';
import { rangeTouches } from '../scip/range.js';
import type { DefinitionRow, Lookups } from '../registry/lookups.js';
import type { Definition, Params, Result } from '../protocol/definition.js';
import type { SymbolItem } from '../protocol/common.js';
import {
  checkPosition,
  namesOnLine,
  occurrencesAt,
  openFile,
  openRepo,
  requirePrecise,
  type FileContext,
  type RepoContext,
} from './context.js';
import { definitionPartners } from './related.js';
import { asSymbolKind, definitionRange, enclosingRange, location, range1 } from './locations.js';

/** The symbols at a 1-based position of a request, with the file they were found in. */
export async function symbolsAtPosition(
  lookups: Lookups,
  ctx: RepoContext,
  p: { path: string; line: number; column: number },
): Promise<{ file: FileContext; symbols: string[]; declared: Set<string>; argumentCounts: Map<string, number>; message?: string }> {
  const file = await openFile(lookups, ctx, p.path);
  const line = p.line - 1;
  const column = p.column - 1;
  checkPosition(file, line, column);
  const hits = occurrencesAt(file.document, line, column);
  const symbols = [...new Set(hits.map((o) => file.document.symbols[o.symbol]!))];
  const declared = new Set(hits.filter((o) => o.roles & SymbolRole.Definition).map((o) => file.document.symbols[o.symbol]!));
  const argumentCounts = new Map(hits.filter((o) => o.argumentCount >= 0).map((o) => [file.document.symbols[o.symbol]!, o.argumentCount]));
  if (symbols.length === 0) {
    return {
      file,
      symbols,
      declared,
      argumentCounts,
      message: `no symbol at ${file.file.path}:${p.line}:${p.column} (whitespace, a keyword, a literal or a comment)${namesOnLine(file, line)}`,
    };
  }
  return { file, symbols, declared, argumentCounts };
}

/**
 * Definitions of `symbols`: local ones in the file they belong to, global
 * ones in this index first, then in the current index of every other
 * repository (the same global symbol string is the same entity anywhere).
 */
export async function definitionsOf(
  lookups: Lookups,
  ctx: RepoContext,
  symbols: readonly string[],
  file?: FileContext,
): Promise<DefinitionRow[]> {
  const out: DefinitionRow[] = [];
  const locals = symbols.filter(isLocalSymbol);
  if (locals.length && file) {
    const inFile = await lookups.definitionsInFile(ctx.index.id, file.document.id, file.file.path);
    out.push(...inFile.filter((d) => locals.includes(d.symbol)));
  }
  const globals = symbols.filter((s) => !isLocalSymbol(s));
  if (globals.length === 0) return out;
  const ids = await lookups.symbolIds(globals);
  const here = await lookups.definitionsOf([ctx.index.id], [...ids.values()]);
  out.push(...here);
  const defined = new Set(here.map((d) => d.symbol));
  const missing = [...ids].filter(([s]) => !defined.has(s)).map(([, id]) => id);
  if (missing.length) out.push(...(await lookups.definitionsOf(await lookups.otherCurrentIndexes(ctx.repo.id), missing)));
  return out;
}

export async function toDefinition(lookups: Lookups, d: DefinitionRow): Promise<Definition> {
  const lines = await lookups.lines(d.blob_sha);
  const enclosing = enclosingRange(d);
  return {
    ...location(d.repo, d.path, definitionRange(d), lines, { symbol: d.symbol }),
    name: d.name,
    kind: asSymbolKind(d.kind),
    container: d.container,
    signature: d.signature,
    enclosing_range: enclosing ? range1(enclosing) : null,
    enclosing_source: (d.enclosing_source as Definition['enclosing_source']) ?? null,
  };
}

export function toSymbolItem(d: DefinitionRow): SymbolItem {
  return {
    name: d.name,
    kind: d.kind,
    container: d.container,
    symbol: d.symbol,
    repo: d.repo,
    path: d.path,
    ...range1(definitionRange(d)),
  };
}

/**
 * One symbol declared several times in one file is an overload group (its
 * signatures, then the implementation; scip-typescript also gives the
 * same-named parameters of all signatures one symbol). A language server
 * answers with the declaration at hand, and so does sextant:
 * - at one of the declarations, that declaration and the implementation;
 * - at a use of a parameter (which only the implementation's body can
 *   have), the implementation's parameter, the last declared;
 * - at a call, the signatures its argument count fits (TypeScript resolves
 *   one overload with types; the count is what syntax knows), or all of them
 *   when none fits.
 */
function narrowOverloads(
  rows: DefinitionRow[],
  at: { path: string; line: number; column: number; declared: ReadonlySet<string>; argumentCounts: ReadonlyMap<string, number> },
): DefinitionRow[] {
  const groups = new Map<string, DefinitionRow[]>();
  for (const d of rows) {
    const key = `${d.symbol}\0${d.repo}\0${d.path}`;
    const group = groups.get(key);
    if (group) group.push(d);
    else groups.set(key, [d]);
  }
  const kept = new Set<DefinitionRow>(rows);
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const symbol = group[0]!.symbol;
    let chosen: DefinitionRow[] | undefined;
    if (at.declared.has(symbol)) {
      const here = group.find((d) => d.path === at.path && rangeTouches(definitionRange(d), at.line, at.column));
      chosen = here ? [...new Set([here, group[group.length - 1]!])] : undefined;
    } else if (isParameterSymbol(symbol)) {
      chosen = [group[group.length - 1]!];
    } else {
      const count = at.argumentCounts.get(symbol);
      if (count !== undefined && group.every((d) => d.min_arguments !== null)) {
        const fitting = group
          .slice(0, -1)
          .filter((d) => count >= d.min_arguments! && (d.max_arguments === null || count <= d.max_arguments));
        chosen = fitting.length ? fitting : undefined;
      }
    }
    if (chosen) for (const d of group) if (!chosen.includes(d)) kept.delete(d);
  }
  return rows.filter((d) => kept.has(d));
}

function dedupe(rows: DefinitionRow[]): DefinitionRow[] {
  const seen = new Set<string>();
  return rows.filter((d) => {
    const key = `${d.repo}\0${d.path}\0${d.start_line}:${d.start_char}\0${d.symbol}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The definitions of what is at a request's position, for a hierarchy rooted
 * there; a clear error when the position names nothing or nothing defined.
 */
export async function definitionsForHierarchy(
  lookups: Lookups,
  params: { repo: string; path: string; line: number; column: number },
  hierarchy: string,
): Promise<{ ctx: RepoContext; definitions: DefinitionRow[] }> {
  const ctx = await openRepo(lookups, params.repo);
  requirePrecise(ctx);
  const at = await symbolsAtPosition(lookups, ctx, params);
  if (at.symbols.length === 0) throw new UserError(at.message!);
  const definitions = await definitionsOf(lookups, ctx, at.symbols, at.file);
  if (definitions.length === 0) throw new UserError(`cannot build a ${hierarchy}: ${undefinedSymbolMessage(at.symbols)}`);
  return { ctx, definitions };
}

/** "countDown is a function", "Red is an enum_member": what a hierarchy's root turned out to be. */
export function whatItIs(d: DefinitionRow): string {
  return `${d.name} is ${/^[aeiou]/.test(d.kind) ? 'an' : 'a'} ${d.kind}`;
}

/** Says where an undefined symbol comes from: an external package, usually. */
export function undefinedSymbolMessage(symbols: readonly string[]): string {
  if (symbols.every(isLocalSymbol)) {
    return 'the index records no declaration for this local name (the indexer gave its declaration another symbol, as scip-typescript does for methods of object literals)';
  }
  const packages = new Set<string>();
  for (const s of symbols) {
    try {
      const p = parseSymbol(s);
      if (!p.local) packages.add([p.packageName, p.version].filter(Boolean).join('@') || p.scheme);
    } catch {
      // Unparseable symbols say nothing about their package.
    }
  }
  const where = packages.size ? ` (package ${[...packages].join(', ')})` : '';
  return `the symbol is defined outside the indexed code${where}, and no repository in the registry defines it: index that package's source to navigate into it`;
}

export async function goToDefinition(lookups: Lookups, params: Params): Promise<Result> {
  const ctx = await openRepo(lookups, params.repo, params.commit);
  requirePrecise(ctx);
  const base = { repo: ctx.repo.slug, commit: ctx.index.commit_sha, source: 'precise' as const };
  if (params.symbol !== undefined) {
    const rows = await lookups.definitionsNamed(ctx.index.id, params.symbol);
    const definitions = await Promise.all(rows.map((d) => toDefinition(lookups, d)));
    return {
      ...base,
      found: definitions.length > 0,
      definitions,
      symbols: [...new Set(rows.map((r) => r.symbol))],
      ...(definitions.length
        ? {}
        : {
            message: `no definition named exactly ${quote(params.symbol)} in ${ctx.repo.slug}: names are case-sensitive and unqualified; try workspaceSymbols for a substring search`,
          }),
    };
  }
  const at = await symbolsAtPosition(lookups, ctx, { path: params.path!, line: params.line!, column: params.column! });
  if (at.symbols.length === 0) return { ...base, found: false, definitions: [], symbols: [], message: at.message! };
  // At a use of a declared member, the object-literal member implementing it is a definition too (see orchestrator/prepare.ts).
  const used = at.symbols.filter((s) => !at.declared.has(s));
  const implementations = used.length ? await lookups.definitionRelated([ctx.index.id], [...(await lookups.symbolIds(used)).values()]) : [];
  const partners = [...new Set([...at.symbols.flatMap((s) => definitionPartners(s, at.declared.has(s))), ...implementations])].filter(
    (s) => !at.symbols.includes(s),
  );
  const rows = narrowOverloads(
    dedupe([...(await definitionsOf(lookups, ctx, at.symbols, at.file)), ...(await definitionsOf(lookups, ctx, partners))]),
    { ...at, path: at.file.file.path, line: params.line! - 1, column: params.column! - 1 },
  );
  const definitions = await Promise.all(rows.map((d) => toDefinition(lookups, d)));
  return {
    ...base,
    found: definitions.length > 0,
    definitions,
    symbols: at.symbols,
    ...(definitions.length ? {} : { message: undefinedSymbolMessage(at.symbols) }),
  };
}
