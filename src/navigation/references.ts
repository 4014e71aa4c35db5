// References of symbols: by position or by exact name, with their kinds.
import { isLocalSymbol } from '../scip/symbol.js';
import { SymbolRole } from '../scip/schema.js';
import { DERIVED_ROLE, REF_KINDS } from '../registry/payload.js';
import type { Lookups } from '../registry/lookups.js';
import { CAP, type Params, type Reference, type Result } from '../protocol/references.js';
import { openRepo, requirePrecise, type FileContext } from './context.js';
import { definitionsOf, symbolsAtPosition, toSymbolItem } from './definitions.js';
import { classOfConstructorCall, referenceFamily } from './related.js';
import { location } from './locations.js';
import type { Range } from '../scip/range.js';

export async function findReferences(lookups: Lookups, params: Params): Promise<Result> {
  const ctx = await openRepo(lookups, params.repo);
  requirePrecise(ctx);
  const limit = Math.min(params.limit, CAP);
  const base = {
    repo: ctx.repo.slug,
    commit: ctx.index.commit_sha,
    source: 'precise' as const,
    limit,
    ...(params.limit > CAP ? { limit_clamped: true } : {}),
  };

  let symbols: string[];
  let file: FileContext | undefined;
  if (params.symbol !== undefined) {
    const named = await lookups.definitionsNamed(ctx.index.id, params.symbol);
    symbols = [...new Set(named.map((d) => d.symbol))];
    if (symbols.length === 0) {
      return {
        ...base,
        symbols: [],
        references: [],
        total: 0,
        truncated: false,
        message: `no definition named exactly "${params.symbol}" in ${ctx.repo.slug}: names are case-sensitive and unqualified; try workspaceSymbols for a substring search`,
      };
    }
  } else {
    const at = await symbolsAtPosition(lookups, ctx, { path: params.path!, line: params.line!, column: params.column! });
    if (at.symbols.length === 0) return { ...base, symbols: [], references: [], total: 0, truncated: false, message: at.message! };
    // At `new X()` the index names X's constructor; the person means the class.
    symbols = [...new Set([...at.symbols, ...at.symbols.flatMap((s) => (at.declared.has(s) ? [] : classOfConstructorCall(s)))])];
    file = at.file;
  }

  // Collected bare, previews added only to what is returned.
  const found: {
    path: string;
    blob: string | null;
    range: Range;
    kind: Reference['kind'];
    symbol: string;
    derived: boolean;
  }[] = [];
  const seen = new Set<string>();
  const add = (path: string, blob: string | null, r: Range, roles: number, refKind: number, symbol: string) => {
    const isDefinition = (roles & SymbolRole.Definition) !== 0;
    const kind = isDefinition ? 'definition' : (REF_KINDS[refKind] ?? 'identifier');
    if (isDefinition && !params.include_declaration) return;
    if (params.kind && kind !== params.kind) return;
    const key = `${path}\0${r.join(',')}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ path, blob, range: r, kind, symbol, derived: (roles & DERIVED_ROLE) !== 0 });
  };

  // Local symbols live in one document: their references are its occurrences.
  const locals = symbols.filter(isLocalSymbol);
  if (locals.length && file) {
    for (const o of file.document.occurrences) {
      const symbol = file.document.symbols[o.symbol]!;
      if (locals.includes(symbol)) add(file.file.path, file.file.blob_sha, o.range, o.roles, o.refKind, symbol);
    }
  }
  const globals = symbols.filter((s) => !isLocalSymbol(s));
  if (globals.length) {
    const family = await referenceFamily(lookups, [ctx.index.id], globals);
    const ids = [...(await lookups.symbolIds(family.symbols)).values()];
    for (const row of await lookups.symbolRefs(ctx.index.id, ids)) {
      const usesOnly = family.usesOnly.has(row.symbol);
      for (const r of row.ranges) {
        if (usesOnly && r.roles & SymbolRole.Definition) continue;
        add(row.path, row.blob_sha, r.range, r.roles, r.refKind, row.symbol);
      }
    }
  }
  found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.range[0] - b.range[0] || a.range[1] - b.range[1]));
  const references: Reference[] = [];
  for (const f of found.slice(0, limit)) {
    const lines = f.blob ? await lookups.lines(f.blob) : null;
    references.push({
      ...location(ctx.repo.slug, f.path, f.range, lines, { symbol: f.symbol }),
      kind: f.kind,
      is_definition: f.kind === 'definition',
    });
  }

  const definitions = await definitionsOf(lookups, ctx, symbols, file);
  return {
    ...base,
    symbols: definitions.map(toSymbolItem),
    references,
    total: found.length,
    truncated: found.length > limit,
  };
}
