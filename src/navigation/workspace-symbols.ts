// Workspace symbol search over an in-memory table of an index's definitions.
// An index never changes once published, so its table is built once (on the
// first query) and a query is a scan of lowercase names: a few milliseconds
// even for a hundred thousand definitions.
import { Lru } from '../lru.js';
import type { Lookups } from '../registry/lookups.js';
import type { Params, Result } from '../protocol/workspace-symbols.js';
import { CAP } from '../protocol/workspace-symbols.js';
import { requirePrecise, type RepoContext } from './context.js';
import { LOCAL_ACCESSOR_SIGNATURES, LOCAL_SHOWN } from './document-symbols.js';
import { asSymbolKind, range1 } from './locations.js';
import type { Range as Range0 } from '../scip/range.js';

interface Entry {
  name: string;
  lower: string;
  kind: string;
  container: string | null;
  symbol: string;
  path: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
}

/** An index's searchable definitions, in tie-break order: source before tests, short names first. */
export interface SymbolTable {
  entries: Entry[];
}

export const TEST_PATH =
  /(^|\/)(tests?|__tests__|specs?|testing)\/|[._-](test|spec)s?\.[cm]?[jt]sx?$|(^|\/)test_[^/]*\.py$|_test\.(py|go)$/i;
const MATCHES = ['exact', 'exact', 'prefix', 'substring'] as const;

export class SymbolTables {
  private readonly tables = new Lru<number, Promise<SymbolTable>>(4);

  constructor(private readonly lookups: Lookups) {}

  get(indexId: number): Promise<SymbolTable> {
    let table = this.tables.get(indexId);
    if (!table) {
      table = this.build(indexId);
      this.tables.set(indexId, table);
    }
    return table;
  }

  private async build(indexId: number): Promise<SymbolTable> {
    const rows = await this.lookups.searchableDefinitions(indexId, [...LOCAL_SHOWN], LOCAL_ACCESSOR_SIGNATURES);
    const entries = rows
      .map((r) => ({
        name: r.name,
        lower: r.name.toLowerCase(),
        kind: r.kind,
        container: r.container,
        symbol: r.symbol,
        path: r.path,
        line: r.start_line + 1,
        column: r.start_char + 1,
        end_line: r.end_line + 1,
        end_column: r.end_char + 1,
        test: TEST_PATH.test(r.path),
      }))
      .sort(
        (a, b) =>
          Number(a.test) - Number(b.test) ||
          a.name.length - b.name.length ||
          (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line),
      );
    return { entries: entries.map(({ test: _test, ...e }) => e) };
  }
}

export async function workspaceSymbols(lookups: Lookups, tables: SymbolTables, ctx: RepoContext, params: Params): Promise<Result> {
  requirePrecise(ctx);
  const limit = Math.min(params.limit, CAP);
  const { entries } = await tables.get(ctx.index.id);
  const query = params.query;
  const lower = query.toLowerCase();
  const n = entries.length;
  // The table is already in tie-break order, so one pass that drops each
  // match into its rank's bucket (exact, exact ignoring case, prefix,
  // substring) yields the ranking without sorting.
  const buckets: number[][] = [[], [], [], []];
  for (let i = 0; i < n; i++) {
    const e = entries[i]!;
    if (params.kind && e.kind !== params.kind) continue;
    const at = e.lower.indexOf(lower);
    if (at < 0) continue;
    buckets[at > 0 ? 3 : e.lower.length > lower.length ? 2 : e.name === query ? 0 : 1]!.push(i);
  }
  const total = buckets.reduce((sum, b) => sum + b.length, 0);
  const top: { index: number; rank: number }[] = [];
  for (let rank = 0; rank < buckets.length && top.length < limit; rank++) {
    for (const index of buckets[rank]!.slice(0, limit - top.length)) top.push({ index, rank });
  }
  const symbols: Result['symbols'] = [];
  for (const { index, rank } of top) {
    const { lower: _lower, ...item } = entries[index]!;
    // In the file as it is now: a symbol whose name is on a line changed since the index is left out (and counted).
    const file = await lookups.file(ctx.index.id, item.path);
    const range: Range0 = [item.line - 1, item.column - 1, item.end_line - 1, item.end_column - 1];
    const place = file ? await ctx.adjust.place({ repo: ctx.repo.slug, path: item.path, blob: file.blob_sha }, range) : undefined;
    if (file && !place) continue;
    const symbol = { ...item, kind: asSymbolKind(item.kind), repo: ctx.repo.slug, match: MATCHES[rank]! };
    symbols.push(place?.adjusted ? { ...symbol, ...range1(place.range), adjusted: true } : symbol);
  }
  return {
    repo: ctx.repo.slug,
    commit: ctx.index.commit_sha,
    source: 'precise',
    ...ctx.adjust.fields(),
    symbols,
    total,
    truncated: total > limit,
    limit,
    ...(params.limit > CAP ? { limit_clamped: true } : {}),
  };
}
