// Read queries over published indexes, shared by every adapter through the
// navigation layer. Only published indexes are ever consulted.
import { sql, type Kysely } from 'kysely';
import { Lru } from '../lru.js';
import { decodeOccurrences, type Occurrence } from './payload.js';
import { PreparedQueries } from './prepared.js';
import type { Database, IndexRow, Repo } from './schema.js';

export interface StoredDocument {
  id: number;
  symbols: string[];
  /** Sorted by start position. */
  occurrences: Occurrence[];
}

export interface IndexFileRow {
  path: string;
  blob_sha: string;
  document_id: number | null;
  language: string | null;
  /** Set for a file of the syntactic tier: its ctags definitions. */
  syntax_id: number | null;
}

export interface DefinitionRow {
  repo: string;
  index_id: number;
  commit_sha: string;
  path: string;
  blob_sha: string;
  document_id: number;
  symbol: string;
  name: string;
  kind: string;
  callable: number;
  container: string | null;
  start_line: number;
  start_char: number;
  end_line: number;
  end_char: number;
  enclosing_start_line: number | null;
  enclosing_start_char: number | null;
  enclosing_end_line: number | null;
  enclosing_end_char: number | null;
  enclosing_source: string | null;
  min_arguments: number | null;
  max_arguments: number | null;
  signature: string | null;
}

export interface SymbolRefsRow {
  repo: string;
  index_id: number;
  path: string;
  blob_sha: string;
  document_id: number;
  symbol_id: number;
  /** Packed ranges (see payload.ts), decoded by the caller as far as it needs. */
  ranges: Buffer;
}

export class Lookups {
  private readonly documents = new Lru<number, StoredDocument>(512);
  private readonly documentDefinitions = new Lru<string, DefinitionRow[]>(512);
  private readonly lineCache = new Lru<string, string[] | null>(1024);

  /** The lookups a query answers with, each compiled once per shape. */
  private readonly prepared: PreparedQueries;

  constructor(readonly db: Kysely<Database>) {
    this.prepared = new PreparedQueries(db);
  }

  async repo(slug: string): Promise<Repo | undefined> {
    const rows = await this.prepared.rows('repo', [slug], ([v]) => this.db.selectFrom('repos').selectAll().where('slug', '=', v!));
    return rows[0];
  }

  async repoSlugs(): Promise<string[]> {
    return (await this.db.selectFrom('repos').select('slug').orderBy('slug').execute()).map((r) => r.slug);
  }

  async index(id: number): Promise<IndexRow | undefined> {
    const rows = await this.prepared.rows('index', [id], ([v]) =>
      this.db.selectFrom('indexes').selectAll().where('id', '=', v!).where('state', '=', 'published'),
    );
    return rows[0];
  }

  /** A repository's published indexes, newest first: the commits navigation can answer from. */
  async publishedIndexes(repoId: number): Promise<{ id: number; commit_sha: string }[]> {
    return this.prepared.rows('publishedIndexes', [repoId], ([v]) =>
      this.db
        .selectFrom('indexes')
        .select(['id', 'commit_sha'])
        .where('repo_id', '=', v!)
        .where('state', '=', 'published')
        .orderBy('id', 'desc'),
    );
  }

  async file(indexId: number, path: string): Promise<IndexFileRow | undefined> {
    const rows = await this.prepared.rows('file', [indexId, path], ([i, p]) =>
      this.db
        .selectFrom('index_files')
        .select(['path', 'blob_sha', 'document_id', 'language', 'syntax_id'])
        .where('index_id', '=', i!)
        .where('path', '=', p!),
    );
    return rows[0];
  }

  /** Up to `limit` indexed paths that end with `name`, for "did you mean". */
  async similarPaths(indexId: number, name: string, limit = 5): Promise<string[]> {
    const rows = await this.db
      .selectFrom('index_files')
      .select('path')
      .where('index_id', '=', indexId)
      // A suffix comparison, not LIKE: a pattern built from the caller's text could be too complex for SQLite.
      // substr from a computed start reads the same on every engine (a negative start does not).
      .where(sql<boolean>`substr(path, length(path) - length(cast(${name} as text)) + 1) = ${name}`)
      .limit(limit)
      .execute();
    return rows.map((r) => r.path);
  }

  async document(id: number): Promise<StoredDocument> {
    const cached = this.documents.get(id);
    if (cached) return cached;
    const [row] = await this.prepared.rows('document', [id], ([v]) =>
      this.db.selectFrom('documents').select(['symbols', 'payload']).where('id', '=', v!),
    );
    if (!row) throw new Error(`document ${id} is not in the registry`);
    const doc = { id, symbols: JSON.parse(row.symbols) as string[], occurrences: decodeOccurrences(row.payload) };
    this.documents.set(id, doc);
    return doc;
  }

  /** The lines of a stored file; null when its text was not kept. */
  async lines(blobSha: string): Promise<string[] | null> {
    const cached = this.lineCache.get(blobSha);
    if (cached !== undefined) return cached;
    const [row] = await this.prepared.rows('blob', [blobSha], ([v]) => this.db.selectFrom('blobs').select('content').where('sha', '=', v!));
    const lines = row?.content == null ? null : row.content.split(/\r\n|\r|\n/);
    this.lineCache.set(blobSha, lines);
    return lines;
  }

  async symbolIds(symbols: readonly string[]): Promise<Map<string, number>> {
    if (symbols.length === 0) return new Map();
    const rows = await this.prepared.rows(`symbolIds:${symbols.length}`, symbols, (v) =>
      this.db.selectFrom('symbols').select(['id', 'symbol']).where('symbol', 'in', v),
    );
    return new Map(rows.map((r) => [r.symbol, r.id]));
  }

  /**
   * Occurrences of global symbols in the given indexes, by document, unordered.
   * A popular symbol has a row in thousands of files: the query joins only
   * what each row needs, and the repository's name comes from a small map.
   */
  async symbolRefs(indexIds: readonly number[], symbolIds: readonly number[]): Promise<SymbolRefsRow[]> {
    if (symbolIds.length === 0 || indexIds.length === 0) return [];
    const rows = await this.prepared.rows(`symbolRefs:${indexIds.length}:${symbolIds.length}`, [...indexIds, ...symbolIds], (v) =>
      this.db
        .selectFrom('symbol_refs as r')
        .innerJoin('index_files as f', 'f.document_id', 'r.document_id')
        .select(['f.index_id', 'f.path', 'f.blob_sha', 'r.document_id', 'r.symbol_id', 'r.ranges'])
        .where('f.index_id', 'in', v.slice(0, indexIds.length))
        .where('r.symbol_id', 'in', v.slice(indexIds.length)),
    );
    const repoOf = await this.repoSlugsOfIndexes(indexIds);
    return rows.map((r) => ({ ...r, repo: repoOf.get(r.index_id)! }));
  }

  private async repoSlugsOfIndexes(indexIds: readonly number[]): Promise<Map<number, string>> {
    const rows = await this.prepared.rows(`repoSlugsOfIndexes:${indexIds.length}`, indexIds, (v) =>
      this.db.selectFrom('indexes as i').innerJoin('repos as p', 'p.id', 'i.repo_id').select(['i.id', 'p.slug']).where('i.id', 'in', v),
    );
    return new Map(rows.map((r) => [r.id, r.slug]));
  }

  /** Definitions of symbols in the given indexes. */
  async definitionsOf(indexIds: readonly number[], symbolIds: readonly number[]): Promise<DefinitionRow[]> {
    if (symbolIds.length === 0 || indexIds.length === 0) return [];
    return this.prepared.rows(`definitionsOf:${indexIds.length}:${symbolIds.length}`, [...indexIds, ...symbolIds], (v) =>
      this.definitionQuery(v.slice(0, indexIds.length)).where('d.symbol_id', 'in', v.slice(indexIds.length)),
    );
  }

  /** Definitions in one file of an index. */
  async definitionsInFile(indexId: number, documentId: number, path: string): Promise<DefinitionRow[]> {
    const key = `${indexId}:${documentId}:${path}`;
    const cached = this.documentDefinitions.get(key);
    if (cached) return cached;
    const rows = await this.prepared.rows('definitionsInFile', [indexId, documentId, path], ([i, d, p]) =>
      this.definitionQuery([i!]).where('d.document_id', '=', d!).where('f.path', '=', p!),
    );
    this.documentDefinitions.set(key, rows);
    return rows;
  }

  /** Symbols these symbols implement or extend (supertypes, overridden methods). */
  async supertypesOf(indexIds: readonly number[], symbolIds: readonly number[]): Promise<string[]> {
    return this.related(indexIds, symbolIds, 'symbol_id', 'target_symbol_id', 'is_implementation');
  }

  /** Symbols that implement or extend these (subtypes, overriding methods). */
  async subtypesOf(indexIds: readonly number[], symbolIds: readonly number[]): Promise<string[]> {
    return this.related(indexIds, symbolIds, 'target_symbol_id', 'symbol_id', 'is_implementation');
  }

  /**
   * Symbols related to these by a relationship flag, from `from` to `to`,
   * declared in documents of the given indexes (joined, so that only the
   * relationships of these symbols are read, not every document of the indexes).
   */
  private async related(
    indexIds: readonly number[],
    symbolIds: readonly number[],
    from: 'symbol_id' | 'target_symbol_id',
    to: 'symbol_id' | 'target_symbol_id',
    flag: 'is_reference' | 'is_implementation' | 'is_definition',
  ): Promise<string[]> {
    if (symbolIds.length === 0 || indexIds.length === 0) return [];
    const shape = `related:${from}:${to}:${flag}:${symbolIds.length}:${indexIds.length}`;
    const rows = await this.prepared.rows(shape, [...symbolIds, ...indexIds], (v) =>
      this.db
        .selectFrom('relationships as r')
        .innerJoin('index_files as f', 'f.document_id', 'r.document_id')
        .innerJoin('symbols as s', 's.id', `r.${to}`)
        .select('s.symbol')
        .distinct()
        .where(`r.${from}`, 'in', v.slice(0, symbolIds.length))
        .where(`r.${flag}`, '=', 1)
        .where('f.index_id', 'in', v.slice(symbolIds.length)),
    );
    return rows.map((r) => r.symbol);
  }

  /** Definitions named exactly `name` (global symbols only) in an index. */
  async definitionsNamed(indexId: number, name: string): Promise<DefinitionRow[]> {
    return this.definitionQuery([indexId])
      .where('d.name', '=', name)
      .where('s.symbol', 'not like', 'local %')
      .where('d.kind', 'not in', ['parameter', 'type_parameter'])
      .execute();
  }

  /** Definitions worth finding by name: no locals, parameters or file modules. */
  async searchableDefinitions(indexId: number) {
    return this.db
      .selectFrom('definitions as d')
      .innerJoin('index_files as f', 'f.document_id', 'd.document_id')
      .innerJoin('symbols as s', 's.id', 'd.symbol_id')
      .select(['d.name', 'd.kind', 'd.container', 's.symbol', 'f.path', 'd.start_line', 'd.start_char', 'd.end_line', 'd.end_char'])
      .where('f.index_id', '=', indexId)
      .where('d.kind', 'not in', ['parameter', 'type_parameter'])
      .where('s.symbol', 'not like', 'local %')
      .where((eb) =>
        eb.or([
          eb('d.kind', '!=', 'module'),
          eb('d.start_char', '!=', eb.ref('d.end_char')),
          eb('d.start_line', '!=', eb.ref('d.end_line')),
        ]),
      )
      .execute();
  }

  /** The current index of every repository except `exceptRepoId`. */
  async otherCurrentIndexes(exceptRepoId: number): Promise<number[]> {
    const rows = await this.prepared.rows('otherCurrentIndexes', [exceptRepoId], ([v]) =>
      this.db.selectFrom('repos').select('current_index_id').where('id', '!=', v!).where('current_index_id', 'is not', null),
    );
    return rows.map((r) => r.current_index_id!);
  }

  /** Symbols related to these by is_reference relationships, in either direction, within the given indexes. */
  async referenceRelated(indexIds: readonly number[], symbolIds: readonly number[]): Promise<string[]> {
    const forward = await this.related(indexIds, symbolIds, 'symbol_id', 'target_symbol_id', 'is_reference');
    const backward = await this.related(indexIds, symbolIds, 'target_symbol_id', 'symbol_id', 'is_reference');
    return [...new Set([...forward, ...backward])];
  }

  /** Symbols whose definitions are also a symbol's (SCIP is_definition), both directions. */
  async definitionRelated(indexIds: readonly number[], symbolIds: readonly number[]): Promise<string[]> {
    const forward = await this.related(indexIds, symbolIds, 'symbol_id', 'target_symbol_id', 'is_definition');
    const backward = await this.related(indexIds, symbolIds, 'target_symbol_id', 'symbol_id', 'is_definition');
    return [...new Set([...forward, ...backward])];
  }

  async fileCount(indexId: number): Promise<number> {
    const row = await this.db
      .selectFrom('index_files')
      .select(sql<number>`count(*)`.as('n'))
      .where('index_id', '=', indexId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private definitionQuery(indexIds: readonly number[]) {
    return this.db
      .selectFrom('definitions as d')
      .innerJoin('index_files as f', 'f.document_id', 'd.document_id')
      .innerJoin('indexes as i', 'i.id', 'f.index_id')
      .innerJoin('repos as p', 'p.id', 'i.repo_id')
      .innerJoin('symbols as s', 's.id', 'd.symbol_id')
      .select([
        'p.slug as repo',
        'f.index_id',
        'i.commit_sha',
        'f.path',
        'f.blob_sha',
        'd.document_id',
        's.symbol',
        'd.name',
        'd.kind',
        'd.callable',
        'd.container',
        'd.start_line',
        'd.start_char',
        'd.end_line',
        'd.end_char',
        'd.enclosing_start_line',
        'd.enclosing_start_char',
        'd.enclosing_end_line',
        'd.enclosing_end_char',
        'd.enclosing_source',
        'd.min_arguments',
        'd.max_arguments',
        'd.signature',
      ])
      .where('f.index_id', 'in', indexIds)
      .orderBy('f.path')
      .orderBy('d.start_line')
      .orderBy('d.start_char');
  }
}
