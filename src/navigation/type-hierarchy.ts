// Type hierarchies from SCIP is_implementation relationships (and, for
// TypeScript interfaces, from heritage clauses sextant parsed at ingest).
// Indexers differ: scip-typescript relates a class to all its ancestors,
// scip-python to its direct bases only; answers list direct neighbours
// either way, by removing what is implied through another neighbour.
import { UserError } from '../errors.js';
import type { Lookups } from '../registry/lookups.js';
import { isStandardLibrarySymbol } from '../scip/symbol.js';
import type { Params, Result, TypeItem } from '../protocol/type-hierarchy.js';
import { MAX_DEPTH } from '../protocol/type-hierarchy.js';
import type { RepoContext } from './context.js';
import { definitionsForHierarchy, definitionsOf, whatItIs } from './definitions.js';
import { definedOutside, definitionItem, externalItem, rootItem } from './items.js';

const TYPE_KINDS: ReadonlySet<string> = new Set(['class', 'interface', 'type', 'enum', 'struct', 'trait']);
const MEMBER_KINDS: ReadonlySet<string> = new Set(['method', 'property', 'field', 'constructor']);

export async function typeHierarchy(lookups: Lookups, ctx: RepoContext, params: Params): Promise<Result> {
  const { definitions, external } = await definitionsForHierarchy(lookups, ctx, params, 'type hierarchy');
  const depth = Math.min(params.depth, MAX_DEPTH);
  if (external) return externalTypeHierarchy(lookups, ctx, params, external.symbols, depth);
  const target = definitions.find((d) => TYPE_KINDS.has(d.kind)) ?? definitions.find((d) => MEMBER_KINDS.has(d.kind));
  if (!target) {
    const d = definitions[0]!;
    throw new UserError(`${whatItIs(d)}: a type hierarchy needs a class, interface or type (or a method, for overrides)`);
  }
  const item = await rootItem(ctx, target);
  const graph = new Graph(lookups, ctx);
  const types = await graph.expand(target.symbol, params.direction, depth, new Set([target.symbol]));
  return {
    repo: ctx.repo.slug,
    commit: ctx.index.commit_sha,
    source: 'precise',
    ...ctx.adjust.fields(),
    item,
    direction: params.direction,
    depth,
    ...(params.depth > MAX_DEPTH ? { depth_clamped: true } : {}),
    types,
  };
}

/**
 * The type hierarchy of a library type no repository defines (`Error`, whose
 * declarations in several lib files are one type): its subtypes are the
 * indexed types that extend or implement it, this repository's alone for a
 * standard library's type (every repository extends `Error`); its supertypes
 * are in no index.
 */
async function externalTypeHierarchy(
  lookups: Lookups,
  ctx: RepoContext,
  params: Params,
  symbols: readonly string[],
  depth: number,
): Promise<Result> {
  const item = externalItem(symbols[0]!);
  const outside = definedOutside(item);
  const base = {
    repo: ctx.repo.slug,
    commit: ctx.index.commit_sha,
    source: 'precise' as const,
    ...ctx.adjust.fields(),
    item,
    direction: params.direction,
    depth,
    ...(params.depth > MAX_DEPTH ? { depth_clamped: true } : {}),
  };
  if (params.direction === 'supertypes') return { ...base, types: [], message: `${outside}: its supertypes are in no index` };
  const graph = new Graph(lookups, ctx);
  const seen = new Set(symbols);
  const ownOnly = isStandardLibrarySymbol(symbols[0]!);
  const found = new Map<string, TypeItem>();
  for (const symbol of symbols) {
    for (const t of await graph.expand(symbol, 'subtypes', depth, seen)) if (!ownOnly || t.repo === ctx.repo.slug) found.set(t.symbol, t);
  }
  return {
    ...base,
    types: sortTypes([...found.values()]),
    message: `${outside}: its subtypes are the types ${ownOnly ? `of ${ctx.repo.slug}` : 'of the indexed repositories'} that extend or implement it`,
  };
}

function sortTypes(items: TypeItem[]): TypeItem[] {
  return items.sort(
    (a, b) => (a.path ?? '\uffff').localeCompare(b.path ?? '\uffff') || (a.line ?? 0) - (b.line ?? 0) || a.name.localeCompare(b.name),
  );
}

class Graph {
  private readonly supertypes = new Map<string, Set<string>>();

  constructor(
    private readonly lookups: Lookups,
    private readonly ctx: RepoContext,
  ) {}

  async expand(symbol: string, direction: Params['direction'], depth: number, seen: ReadonlySet<string>): Promise<TypeItem[]> {
    const neighbours = direction === 'supertypes' ? await this.directSupertypes(symbol) : await this.directSubtypes(symbol);
    const items: TypeItem[] = [];
    for (const next of [...neighbours].sort()) {
      const definitions = await definitionsOf(this.lookups, this.ctx, [next]);
      // A type whose name is on a line changed since the index is left out (adjust.ts counts it).
      const moved = definitions[0] ? await this.ctx.adjust.row(definitions[0]) : undefined;
      if (definitions[0] && !moved) continue;
      const item: TypeItem = moved ? definitionItem(moved) : externalItem(next);
      if (depth > 1 && !seen.has(next)) item.types = await this.expand(next, direction, depth - 1, new Set([...seen, next]));
      items.push(item);
    }
    return sortTypes(items);
  }

  /** The current index of every repository: relationships may cross repositories. */
  private allIndexes(): number[] {
    return [this.ctx.index.id, ...this.ctx.others];
  }

  private async allSupertypes(symbol: string): Promise<Set<string>> {
    let known = this.supertypes.get(symbol);
    if (!known) {
      known = new Set(await this.lookups.supertypesOf(this.allIndexes(), [symbol]));
      known.delete(symbol);
      this.supertypes.set(symbol, known);
    }
    return known;
  }

  /** Supertypes not implied through another supertype. */
  private async directSupertypes(symbol: string): Promise<Set<string>> {
    const all = await this.allSupertypes(symbol);
    const direct = new Set(all);
    for (const s of all) for (const implied of await this.allSupertypes(s)) direct.delete(implied);
    return direct;
  }

  private async directSubtypes(symbol: string): Promise<Set<string>> {
    const candidates = await this.lookups.subtypesOf(this.allIndexes(), [symbol]);
    const direct = new Set<string>();
    for (const c of candidates) if ((await this.directSupertypes(c)).has(symbol)) direct.add(c);
    return direct;
  }
}
