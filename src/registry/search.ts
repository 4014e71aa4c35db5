// Registry reads behind code and file search. Engine-neutral: the one
// engine-specific part, the substring index, comes from the engine adapter.
import { sql, type Kysely } from 'kysely';
import type { Engine } from './engine.js';
import type { Database } from './schema.js';
import type { TextQuery } from './text-query.js';

/** A repository with its current published index. */
export interface SearchedIndex {
  repo: string;
  repoId: number;
  root: string | null;
  indexId: number;
  commit: string;
  /** Unix seconds; null for indexes published before it was recorded. */
  commitTime: number | null;
  generatedAt: string;
  /** Every upload of the index came without --root: the registry holds none of its file texts. */
  textless: boolean;
}

export const TEXTLESS_REASON =
  'the index was published without --root (from CI, navigation only): the registry holds no file texts, so nothing is searchable; publish with --root DIR to search';

/** Whether an index (its `tools` column) was published only from uploads without --root, so holds no file texts. */
export function publishedWithoutText(tools: string): boolean {
  const parsed = JSON.parse(tools) as { upload?: { with_root: boolean } }[];
  return parsed.length > 0 && parsed.every((t) => t.upload?.with_root === false);
}

/** The current index of each repository (of `slugs`, when given), ordered by repository name. */
export async function currentIndexes(db: Kysely<Database>, slugs?: readonly string[]): Promise<SearchedIndex[]> {
  let query = db
    .selectFrom('repos as r')
    .innerJoin('indexes as i', 'i.id', 'r.current_index_id')
    .select(['r.slug', 'r.id as repo_id', 'r.root_path', 'i.id as index_id', 'i.commit_sha', 'i.commit_time', 'i.generated_at', 'i.tools'])
    .where('i.state', '=', 'published')
    .orderBy('r.slug');
  if (slugs) query = query.where('r.slug', 'in', slugs.length ? [...slugs] : ['']);
  const rows = await query.execute();
  return rows.map((r) => ({
    repo: r.slug,
    repoId: r.repo_id,
    root: r.root_path,
    indexId: r.index_id,
    commit: r.commit_sha,
    commitTime: r.commit_time === null ? null : Number(r.commit_time),
    generatedAt: r.generated_at,
    textless: publishedWithoutText(r.tools),
  }));
}

export interface CandidateFile {
  indexId: number;
  path: string;
  blobSha: string;
  /** Bytes of the blob, to read texts in batches of bounded size. */
  size: number;
}

/**
 * The files of `indexIds` whose stored text may satisfy `query`, unordered:
 * narrowed by the engine's substring index when the query has a literal
 * it can use, otherwise every file with text. `indexed` says which it was.
 */
export async function candidateFiles(
  engine: Engine,
  indexIds: readonly number[],
  query: TextQuery,
): Promise<{ files: CandidateFile[]; indexed: boolean }> {
  if (indexIds.length === 0) return { files: [], indexed: true };
  const narrowed = engine.textIndex?.candidates(query) ?? null;
  const listings = await Promise.all(indexIds.map((id) => searchableFiles(engine, id)));
  if (!narrowed) return { files: listings.flatMap((l) => [...l.values()].flat()), indexed: false };
  const files: CandidateFile[] = [];
  for (const { sha } of (await narrowed.execute(engine.db)).rows)
    for (const listing of listings) {
      const found = listing.get(sha);
      if (found) files.push(...found);
    }
  return { files, indexed: true };
}

/**
 * Files held in memory at most (about 150 bytes each). An index's files never
 * change once it is published, so a server lists each index once instead of
 * walking its files for every search.
 */
const LISTED_FILES = 500_000;

interface Listing {
  byBlob: Map<string, CandidateFile[]>;
  files: number;
}

const listingCaches = new WeakMap<Engine, Map<number, Listing>>();

/** The files of an index whose text is stored, by blob. */
async function searchableFiles(engine: Engine, indexId: number): Promise<Map<string, CandidateFile[]>> {
  let cache = listingCaches.get(engine);
  if (!cache) listingCaches.set(engine, (cache = new Map()));
  const cached = cache.get(indexId);
  if (cached) {
    // Most recently used last.
    cache.delete(indexId);
    cache.set(indexId, cached);
    return cached.byBlob;
  }
  const rows = await engine.db
    .selectFrom('index_files as f')
    .innerJoin('blobs as b', 'b.sha', 'f.blob_sha')
    .select(['f.path', 'f.blob_sha', 'b.byte_size'])
    .where('f.index_id', '=', indexId)
    .where('b.skipped', 'is', null)
    .execute();
  const listing = new Map<string, CandidateFile[]>();
  for (const r of rows) {
    const file = { indexId, path: r.path, blobSha: r.blob_sha, size: Number(r.byte_size) };
    const same = listing.get(r.blob_sha);
    if (same) same.push(file);
    else listing.set(r.blob_sha, [file]);
  }
  cache.set(indexId, { byBlob: listing, files: rows.length });
  let held = 0;
  for (const l of cache.values()) held += l.files;
  for (const [id, l] of cache) {
    if (held <= LISTED_FILES || id === indexId) break;
    cache.delete(id);
    held -= l.files;
  }
  return listing;
}

export interface TrackedFile {
  path: string;
  blobSha: string;
  /** Bytes; null when the registry has no blob of the file (an index published without --root). */
  size: number | null;
}

/** Every file an index lists, with its size, by path. */
export async function trackedFiles(db: Kysely<Database>, indexId: number): Promise<TrackedFile[]> {
  const rows = await db
    .selectFrom('index_files as f')
    .leftJoin('blobs as b', 'b.sha', 'f.blob_sha')
    .select(['f.path', 'f.blob_sha', 'b.byte_size'])
    .where('f.index_id', '=', indexId)
    .orderBy('f.path')
    .execute();
  return rows.map((r) => ({ path: r.path, blobSha: r.blob_sha, size: r.byte_size === null ? null : Number(r.byte_size) }));
}

export interface TextCoverage {
  files: number;
  withText: number;
  bytes: number;
  /** Files whose text is not searchable, by the reason stored with their blob. */
  skipped: { reason: string; files: number; examples: string[] }[];
}

/** How much of an index's files have searchable text, and why the rest do not. */
export async function textCoverage(db: Kysely<Database>, indexId: number, examples = 5): Promise<TextCoverage> {
  const totals = await db
    .selectFrom('index_files as f')
    .leftJoin('blobs as b', 'b.sha', 'f.blob_sha')
    .select([
      sql<number>`count(*)`.as('files'),
      sql<number>`sum(case when b.sha is not null and b.skipped is null then 1 else 0 end)`.as('with_text'),
      sql<number>`coalesce(sum(b.byte_size), 0)`.as('bytes'),
    ])
    .where('f.index_id', '=', indexId)
    .executeTakeFirstOrThrow();
  const skipped = await db
    .selectFrom('index_files as f')
    .leftJoin('blobs as b', 'b.sha', 'f.blob_sha')
    .select([sql<string>`coalesce(b.skipped, 'unreadable')`.as('reason'), 'f.path'])
    .where('f.index_id', '=', indexId)
    .where((eb) => eb.or([eb('b.sha', 'is', null), eb('b.skipped', 'is not', null)]))
    .orderBy('f.path')
    .execute();
  const byReason = new Map<string, { reason: string; files: number; examples: string[] }>();
  for (const row of skipped) {
    const entry = byReason.get(row.reason) ?? { reason: row.reason, files: 0, examples: [] };
    entry.files++;
    if (entry.examples.length < examples) entry.examples.push(row.path);
    byReason.set(row.reason, entry);
  }
  return {
    files: Number(totals.files),
    withText: Number(totals.with_text ?? 0),
    bytes: Number(totals.bytes),
    skipped: [...byReason.values()],
  };
}
