// Definitions of symbols: by position, by exact name, across repositories.
import { isLocalSymbol, parseSymbol } from '../scip/symbol.js';
import { SymbolRole } from '../scip/schema.js';
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
): Promise<{ file: FileContext; symbols: string[]; declared: Set<string>; message?: string }> {
  const file = await openFile(lookups, ctx, p.path);
  const line = p.line - 1;
  const column = p.column - 1;
  checkPosition(file, line, column);
  const hits = occurrencesAt(file.document, line, column);
  const symbols = [...new Set(hits.map((o) => file.document.symbols[o.symbol]!))];
  const declared = new Set(hits.filter((o) => o.roles & SymbolRole.Definition).map((o) => file.document.symbols[o.symbol]!));
  if (symbols.length === 0) {
    return {
      file,
      symbols,
      declared,
      message: `no symbol at ${file.file.path}:${p.line}:${p.column} (whitespace, a keyword, a literal or a comment)${namesOnLine(file, line)}`,
    };
  }
  return { file, symbols, declared };
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

function dedupe(rows: DefinitionRow[]): DefinitionRow[] {
  const seen = new Set<string>();
  return rows.filter((d) => {
    const key = `${d.repo}\0${d.path}\0${d.start_line}:${d.start_char}\0${d.symbol}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Says where an undefined symbol comes from: an external package, usually. */
export function undefinedSymbolMessage(symbols: readonly string[]): string {
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
  const ctx = await openRepo(lookups, params.repo);
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
            message: `no definition named exactly "${params.symbol}" in ${ctx.repo.slug}: names are case-sensitive and unqualified; try workspaceSymbols for a substring search`,
          }),
    };
  }
  const at = await symbolsAtPosition(lookups, ctx, { path: params.path!, line: params.line!, column: params.column! });
  if (at.symbols.length === 0) return { ...base, found: false, definitions: [], symbols: [], message: at.message! };
  const partners = at.symbols.flatMap((s) => definitionPartners(s, at.declared.has(s))).filter((s) => !at.symbols.includes(s));
  const rows = dedupe([...(await definitionsOf(lookups, ctx, at.symbols, at.file)), ...(await definitionsOf(lookups, ctx, partners))]);
  const definitions = await Promise.all(rows.map((d) => toDefinition(lookups, d)));
  return {
    ...base,
    found: definitions.length > 0,
    definitions,
    symbols: at.symbols,
    ...(definitions.length ? {} : { message: undefinedSymbolMessage(at.symbols) }),
  };
}
