// workspaceSymbols over the syntactic tier: an in-memory table of an index's
// ctags definitions, ranked like the precise table (exact, prefix, then
// substring; source before tests; declarations before members; short names
// first), and merged with the
// precise answer when a repository has both tiers. The symbols answered are
// placed in the current text, like the precise tier's (adjust.ts).
import { Lru } from '../lru.js';
import type { Lookups } from '../registry/lookups.js';
import { SyntaxLookups } from '../registry/syntactic.js';
import type { Params, Result } from '../protocol/workspace-symbols.js';
import { CAP } from '../protocol/workspace-symbols.js';
import type { Range as Range0 } from '../scip/range.js';
import type { RepoContext } from './context.js';
import { range1 } from './locations.js';
import { syntacticSymbolItem } from './syntactic.js';
import { TEST_PATH } from './workspace-symbols.js';

type Item = Result['symbols'][number];
type Match = Item['match'];

interface Entry {
  item: Omit<Item, 'match'>;
  lower: string;
}

/**
 * Kinds a name is usually looked up for: without types, a parser cannot tell
 * a struct's field `Logger` from the struct `Logger`, so the struct ranks first.
 */
const DECLARATIONS: ReadonlySet<string> = new Set([
  'class',
  'struct',
  'interface',
  'trait',
  'enum',
  'type',
  'function',
  'method',
  'module',
  'namespace',
  'macro',
]);

export class SyntacticSymbolTables {
  private readonly tables = new Lru<number, Promise<Entry[]>>(4);

  constructor(readonly lookups: Lookups) {}

  get(ctx: RepoContext): Promise<Entry[]> {
    let table = this.tables.get(ctx.index.id);
    if (!table) {
      table = this.build(ctx);
      this.tables.set(ctx.index.id, table);
    }
    return table;
  }

  private async build(ctx: RepoContext): Promise<Entry[]> {
    const rows = await new SyntaxLookups(this.lookups.db).all(ctx.index.id);
    return rows
      .map((d) => ({
        item: { ...syntacticSymbolItem(ctx.repo.slug, d), source: 'syntactic' as const },
        lower: d.name.toLowerCase(),
        test: TEST_PATH.test(d.path),
        member: !DECLARATIONS.has(d.kind),
      }))
      .sort(
        (a, b) =>
          Number(a.test) - Number(b.test) ||
          Number(a.member) - Number(b.member) ||
          a.item.name.length - b.item.name.length ||
          (a.item.path < b.item.path ? -1 : a.item.path > b.item.path ? 1 : a.item.line - b.item.line),
      )
      .map(({ item, lower }) => ({ item, lower }));
  }
}

/** Matching entries by rank: exact, exact ignoring case, prefix, substring. */
async function ranked(tables: SyntacticSymbolTables, ctx: RepoContext, params: Params): Promise<Item[][]> {
  const entries = await tables.get(ctx);
  const lower = params.query.toLowerCase();
  const buckets: Item[][] = [[], [], [], []];
  for (const e of entries) {
    if (params.kind && e.item.kind !== params.kind) continue;
    const at = e.lower.indexOf(lower);
    if (at < 0) continue;
    const rank = at > 0 ? 3 : e.lower.length > lower.length ? 2 : e.item.name === params.query ? 0 : 1;
    buckets[rank]!.push({ ...e.item, match: MATCHES[rank]! });
  }
  return buckets;
}

const MATCHES: readonly Match[] = ['exact', 'exact', 'prefix', 'substring'];

/** Items in the file as it is now: one whose name is on a line changed since the index is left out (and counted in the answer). */
async function placed(lookups: Lookups, ctx: RepoContext, items: readonly Item[]): Promise<Item[]> {
  const out: Item[] = [];
  for (const item of items) {
    const file = await lookups.file(ctx.index.id, item.path);
    const range: Range0 = [item.line - 1, item.column - 1, item.end_line - 1, item.end_column - 1];
    const place = file ? await ctx.adjust.place({ repo: ctx.repo.slug, path: item.path, blob: file.blob_sha }, range) : undefined;
    if (file && !place) continue;
    out.push(place?.adjusted ? { ...item, ...range1(place.range), adjusted: true } : item);
  }
  return out;
}

/** workspaceSymbols of a repository whose only navigable tier is syntactic. */
export async function syntacticWorkspaceSymbols(tables: SyntacticSymbolTables, ctx: RepoContext, params: Params): Promise<Result> {
  const limit = Math.min(params.limit, CAP);
  const all = (await ranked(tables, ctx, params)).flat();
  const symbols = await placed(tables.lookups, ctx, all.slice(0, limit));
  return {
    repo: ctx.repo.slug,
    commit: ctx.index.commit_sha,
    source: 'syntactic',
    ...ctx.adjust.fields(),
    symbols,
    total: all.length,
    truncated: all.length > limit,
    limit,
    ...(params.limit > CAP ? { limit_clamped: true } : {}),
  };
}

/**
 * A precise answer with the syntactic tier's matches merged in, rank by rank
 * (precise first within a rank); each syntactic item says `source: "syntactic"`.
 */
export async function withSyntacticSymbols(
  precise: Result,
  tables: SyntacticSymbolTables,
  ctx: RepoContext,
  params: Params,
): Promise<Result> {
  const buckets = await ranked(tables, ctx, params);
  const extra = buckets.flat();
  if (extra.length === 0) return precise;
  const order: Record<Match, number> = { exact: 0, prefix: 1, substring: 2 };
  const shown = await placed(tables.lookups, ctx, extra.slice(0, precise.limit));
  const merged = [...precise.symbols.map((s, i) => ({ s, i, tier: 0 })), ...shown.map((s, i) => ({ s, i, tier: 1 }))]
    .sort((a, b) => order[a.s.match] - order[b.s.match] || a.tier - b.tier || a.i - b.i)
    .map((x) => x.s)
    .slice(0, precise.limit);
  const total = precise.total + extra.length;
  return {
    ...precise,
    // The syntactic symbols placed may have moved or dropped some: the answer's adjustments, all of them.
    ...ctx.adjust.fields(),
    source: merged.every((s) => s.source === 'syntactic') ? 'syntactic' : precise.source,
    symbols: merged,
    total,
    truncated: total > precise.limit,
  };
}
