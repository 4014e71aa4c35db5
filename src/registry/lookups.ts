// Read queries over published indexes, shared by every adapter through the
// navigation layer. Only published indexes are ever consulted.
import { sql, type Compilable, type Kysely } from 'kysely';
import { Lru } from '../lru.js';
import { isLocalSymbol, isNamedOnlyInItsFile } from '../scip/symbol.js';
import { Occurrences, rangeRecords } from './payload.js';
import { padded, PreparedQueries } from './prepared.js';
import type { Database, IndexRow, Repo } from './schema.js';
import type { EngineReads } from './engine.js';
import { literal } from './text-query.js';
import { splitLines } from '../lines.js';

export interface StoredDocument {
  id: number;
  symbols: string[];
  /** Sorted by start position. */
  occurrences: Occurrences;
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
  symbol: string;
  /** Packed ranges (see payload.ts), decoded by the caller as far as it needs. */
  ranges: Buffer;
}

/** A row of `symbolRefsInOrder`: `symbol` is the symbol at place `which` of the list asked about. */
export interface RefRowInOrder extends Omit<SymbolRefsRow, 'document_id'> {
  which: number;
  /** `ranges` as ints (payload.ts rangeRecords), made once for the cached row rather than on every walk over it. */
  ints: Int32Array;
}

/** A repository, its current index when published, and the current index of every other repository. */
export interface CurrentRepo {
  repo: Repo;
  index: IndexRow | undefined;
  others: number[];
}

/** Rows of symbol_refs kept (see Lookups.refRows), a few MB. */
const REF_ROWS_CACHED = 20_000;
/** Symbols whose is_reference relatives are kept. */
const RELATIVES_CACHED = 16_384;
/** Where scip-typescript's symbols of TypeScript's standard library sort (`scip-typescript npm typescript 5.9.3 lib/...`), and the first string past them. */
const TYPESCRIPT_LIBRARY = 'scip-typescript npm typescript ';
const TYPESCRIPT_LIBRARY_END = 'scip-typescript npm typescript!';
/** Files whose lines one query reads (see Lookups.preloadLines). */
const LINES_PER_QUERY = 128;

export class Lookups {
  private readonly documents = new Lru<number, StoredDocument>(512);
  private readonly documentDefinitions = new Lru<string, DefinitionRow[]>(512);
  /** callersInFile by file: an incoming call hierarchy reads them for every file its uses are in. */
  private readonly fileCallers = new Lru<string, DefinitionRow[]>(512);
  /** globalSymbolsDefinedIn by document. */
  private readonly definedSymbols = new Lru<number, string[]>(512);
  /** localDefinitions by document and symbols: goToDefinition at a local reads its one definition, not the file's. */
  private readonly localDefinitionRows = new Lru<string, DefinitionRow[]>(RELATIVES_CACHED);
  /** definitionsNamed and membersNamedOnlyInTheirFiles by index and name, bounded by rows. */
  private readonly namedDefinitions = new Lru<string, DefinitionRow[]>(REF_ROWS_CACHED, (rows) => rows.length + 1);
  private readonly lineCache = new Lru<string, string[] | null>(1024);
  private readonly files = new Lru<string, IndexFileRow>(4096);
  private readonly slugs = new Lru<number, string>(256);
  /**
   * Per set of indexes and symbol: its rows of symbol_refs, and the symbols it
   * has is_reference relationships with. Published indexes never change and
   * their ids are never reused, so neither goes stale; a call hierarchy asks
   * for the same callers' references on every walk through them.
   */
  private readonly refRows = new Lru<string, SymbolRefsRow[]>(REF_ROWS_CACHED, (rows) => rows.length + 1);
  private readonly referenceRelatives = new Lru<string, string[]>(RELATIVES_CACHED);
  /** definedAs by scope and symbol. */
  private readonly definitionTargets = new Lru<string, string[]>(RELATIVES_CACHED);
  /** exportsOf by scope and symbol. */
  private readonly exportsFor = new Lru<string, string[]>(RELATIVES_CACHED);
  /** definitionRelated by scope and symbol: asked on every goToDefinition at a use. */
  private readonly definitionRelatives = new Lru<string, string[]>(RELATIVES_CACHED);
  /** implementedBy by scope and symbol. */
  private readonly implementations = new Lru<string, string[]>(RELATIVES_CACHED);
  /** supertypesOf and subtypesOf by scope and symbol. */
  private readonly supertypes = new Lru<string, string[]>(RELATIVES_CACHED);
  private readonly subtypes = new Lru<string, string[]>(RELATIVES_CACHED);
  private readonly objectMembers = new Map<string, string[]>();
  /** localReferenceTargets by document and symbol: asked for every local caller of a call hierarchy level. */
  private readonly localRelatives = new Lru<string, string[]>(RELATIVES_CACHED);
  /** definitionsOf's and symbolRefsInOrder's answers, for the same reason: findReferences on a popular symbol reads thousands of rows. */
  private readonly definitionRows = new Lru<string, DefinitionRow[]>(REF_ROWS_CACHED, (rows) => rows.length + 1);
  private readonly refRowsInOrder = new Lru<string, RefRowInOrder[]>(REF_ROWS_CACHED, (rows) => rows.length + 1);

  /** The lookups a query answers with, each compiled once per shape. */
  private readonly prepared: PreparedQueries;

  /** current's answers, each with the registry's change token when it was read (see Engine.changeToken). */
  private readonly currents = new Lru<string, { token: string; current: CurrentRepo | undefined }>(256);

  constructor(
    readonly db: Kysely<Database>,
    /**
     * The engine these reads run on (db may be one of its transactions). With
     * it, current() reads the registry again only once the engine's change
     * token moved, and the text queries below can run.
     */
    private readonly engine?: EngineReads,
  ) {
    this.prepared = new PreparedQueries(db);
  }

  /**
   * The blobs of the registry whose stored text may contain `text` (a
   * superset), or null when the text index cannot narrow by it: under three
   * characters, or an engine without one.
   */
  async blobsContaining(text: string): Promise<Set<string> | null> {
    const query = this.engine?.textIndex?.candidates(literal(text));
    if (!query) return null;
    return new Set((await query.execute(this.db)).rows.map((r) => r.sha));
  }

  /**
   * An index's files of these languages whose stored text holds `text`, case
   * and all, in path order: the candidates of a whole-word text search. A
   * case-insensitive test let through 300 of kysely's 562 files for `TYPES`
   * (its 4 and every `types`), each then stat'ed and read.
   */
  async filesContaining(indexId: number, languages: readonly string[], text: string): Promise<{ path: string; blob_sha: string }[]> {
    if (languages.length === 0) return [];
    if (!this.engine) throw new Error('filesContaining needs the lookups built with their engine');
    // The text index (case-insensitive, a superset) narrows first where the text has a trigram to ask.
    const indexed = this.engine.textIndex?.candidates(literal(text));
    let query = this.db
      .selectFrom('index_files as f')
      .innerJoin('blobs as b', 'b.sha', 'f.blob_sha')
      .select(['f.path', 'f.blob_sha'])
      .where('f.index_id', '=', indexId)
      .where('f.language', 'in', languages)
      .where(sql<boolean>`${sql.raw(this.engine.capabilities.textPosition)}(b.content, ${text}) > 0`);
    if (indexed) query = query.where(sql<boolean>`b.sha in (${indexed})`);
    return query.orderBy('f.path').execute();
  }

  async repo(slug: string): Promise<Repo | undefined> {
    const rows = await this.prepared.rows('repo', [slug], ([v]) => this.db.selectFrom('repos').selectAll().where('slug', '=', v!));
    return rows[0];
  }

  /**
   * A repository with its current index (when published), and the current
   * index of every other repository, in one query: every request starts
   * here, and on Postgres each query is a round trip. Remembered while the
   * engine's change token stays put (no publish, no new repository): a first
   * answer in a file read it in 0.2-0.3 ms, the token takes a tenth of that.
   */
  async current(slug: string): Promise<CurrentRepo | undefined> {
    // Taken before the read: a commit during the read moves it, and the next call reads again.
    const token = this.engine?.changeToken() ?? null;
    const cached = token === null ? undefined : this.currents.get(slug);
    if (cached && cached.token === token) return cached.current;
    const current = await this.readCurrent(slug);
    if (token !== null) this.currents.set(slug, { token, current });
    return current;
  }

  private async readCurrent(slug: string): Promise<CurrentRepo | undefined> {
    const rows = await this.prepared.rows('current', [slug, slug], ([a, b]) =>
      this.db
        .selectFrom('repos as p')
        // Only the named repository's index row is joined: the others need only their index id.
        .leftJoin('indexes as i', (join) =>
          join.onRef('i.id', '=', 'p.current_index_id').on('i.state', '=', 'published').on('p.slug', '=', a!),
        )
        .select([
          'p.id',
          'p.slug',
          'p.root_path',
          'p.current_index_id',
          'p.created_at',
          'i.id as i_id',
          'i.repo_id as i_repo_id',
          'i.commit_sha as i_commit_sha',
          'i.dirty as i_dirty',
          'i.worktree_fingerprint as i_worktree_fingerprint',
          'i.state as i_state',
          'i.origin as i_origin',
          'i.generated_at as i_generated_at',
          'i.languages as i_languages',
          'i.tools as i_tools',
          'i.total_files as i_total_files',
          'i.document_count as i_document_count',
          'i.occurrence_count as i_occurrence_count',
          'i.definition_count as i_definition_count',
          'i.storage_bytes as i_storage_bytes',
          'i.commit_time as i_commit_time',
        ])
        .where((eb) => eb.or([eb('p.slug', '=', b!), eb('p.current_index_id', 'is not', null)])),
    );
    const row = rows.find((r) => r.slug === slug);
    if (!row) return undefined;
    const repo: Repo = {
      id: row.id,
      slug: row.slug,
      root_path: row.root_path,
      current_index_id: row.current_index_id,
      created_at: row.created_at,
    };
    const index: IndexRow | undefined =
      row.i_id === null
        ? undefined
        : {
            id: row.i_id,
            repo_id: row.i_repo_id!,
            commit_sha: row.i_commit_sha!,
            dirty: row.i_dirty!,
            worktree_fingerprint: row.i_worktree_fingerprint,
            state: row.i_state!,
            origin: row.i_origin!,
            generated_at: row.i_generated_at!,
            languages: row.i_languages!,
            tools: row.i_tools!,
            total_files: row.i_total_files!,
            document_count: row.i_document_count!,
            occurrence_count: row.i_occurrence_count!,
            definition_count: row.i_definition_count!,
            storage_bytes: row.i_storage_bytes!,
            commit_time: row.i_commit_time,
          };
    const others = rows.filter((r) => r !== row && r.current_index_id !== null).map((r) => r.current_index_id!);
    return { repo, index, others };
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

  /** A file of an index. Cached: a published index's files never change, and index ids are never reused. */
  async file(indexId: number, path: string): Promise<IndexFileRow | undefined> {
    const key = `${indexId}\0${path}`;
    const cached = this.files.get(key);
    if (cached) return cached;
    const rows = await this.prepared.rows('file', [indexId, path], ([i, p]) =>
      this.db
        .selectFrom('index_files')
        .select(['path', 'blob_sha', 'document_id', 'language', 'syntax_id'])
        .where('index_id', '=', i!)
        .where('path', '=', p!),
    );
    // A path the index lacks is not cached: misses are errors, and the cache stays bounded by real files.
    if (rows[0]) this.files.set(key, rows[0]);
    return rows[0];
  }

  /**
   * What a first answer in a file of an index reads, read ahead
   * (Navigation.prime): the file's row, its document and its lines. False,
   * reading nothing, once the caches are full: reading further would only
   * evict what answers or earlier reads kept.
   */
  async prefetch(indexId: number, file: IndexFileRow): Promise<boolean> {
    if (this.files.full || this.documents.full || this.lineCache.full) return false;
    const key = `${indexId}\0${file.path}`;
    if (!this.files.peek(key)) this.files.set(key, file);
    if (file.document_id !== null) await this.document(file.document_id);
    await this.lines(file.blob_sha);
    return true;
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
    const doc = { id, symbols: JSON.parse(row.symbols) as string[], occurrences: new Occurrences(row.payload) };
    this.documents.set(id, doc);
    return doc;
  }

  /** The lines of a stored file; null when its text was not kept. */
  async lines(blobSha: string): Promise<string[] | null> {
    const cached = this.lineCache.get(blobSha);
    if (cached !== undefined) return cached;
    const [row] = await this.prepared.rows('blob', [blobSha], ([v]) => this.db.selectFrom('blobs').select('content').where('sha', '=', v!));
    return this.keepLines(blobSha, row?.content);
  }

  /**
   * Reads the lines of the files not cached among these, a batch per query:
   * an answer about a popular symbol previews lines in a hundred files, and
   * a hundred round trips cost a first answer about a millisecond.
   */
  async preloadLines(blobShas: readonly string[]): Promise<void> {
    const missing = [...new Set(blobShas.filter((sha) => this.lineCache.get(sha) === undefined))];
    for (let at = 0; at < missing.length; at += LINES_PER_QUERY) {
      const batch = missing.slice(at, at + LINES_PER_QUERY);
      const rows = await this.prepared.rowsIn('blobs', [batch], ([shas]) =>
        this.db.selectFrom('blobs').select(['sha', 'content']).where('sha', 'in', shas!),
      );
      const found = new Map(rows.map((row) => [row.sha, row.content]));
      for (const sha of batch) this.keepLines(sha, found.get(sha));
    }
  }

  private keepLines(blobSha: string, content: string | null | undefined): string[] | null {
    const lines = content == null ? null : splitLines(content);
    this.lineCache.set(blobSha, lines);
    return lines;
  }

  /**
   * Occurrences of global symbols in the given indexes: by symbol (in byte
   * order, as SQLite's index walks them), then by document. A popular symbol
   * has a row in thousands of files: the query joins only what each row
   * needs, and the repository's name comes from a small map. Symbols are
   * matched by name in the same query (one round trip, not two), and only
   * those not cached are asked for.
   */
  async symbolRefs(indexIds: readonly number[], symbols: readonly string[]): Promise<SymbolRefsRow[]> {
    if (symbols.length === 0 || indexIds.length === 0) return [];
    const scope = indexIds.join(',');
    // Each symbol's bytes made once, not two per comparison.
    const ordered = [...new Set(symbols)]
      .map((symbol) => ({ symbol, bytes: Buffer.from(symbol) }))
      .sort((a, b) => Buffer.compare(a.bytes, b.bytes))
      .map((s) => s.symbol);
    const bySymbol = new Map<string, SymbolRefsRow[]>();
    const missing: string[] = [];
    for (const symbol of ordered) {
      const cached = this.refRows.get(`${scope}\0${symbol}`);
      if (cached) bySymbol.set(symbol, cached);
      else missing.push(symbol);
    }
    if (missing.length > 0) {
      // The repositories first: an index a reindex retires meanwhile (another process, between two queries) loses
      // its files and its row together, so rows read after this all have their repository, and an index already
      // retired has none to read.
      const repoOf = await this.repoSlugsOfIndexes(indexIds);
      const live = indexIds.filter((id) => repoOf.has(id));
      const rows =
        live.length === 0
          ? []
          : await this.prepared.rowsIn('symbolRefs', [live, missing], ([ids, named]) =>
              this.db
                .selectFrom('symbols as s')
                .innerJoin('symbol_refs as r', 'r.symbol_id', 's.id')
                .innerJoin('index_files as f', 'f.document_id', 'r.document_id')
                .select(['f.index_id', 'f.path', 'f.blob_sha', 'r.document_id', 's.symbol', 'r.ranges'])
                .where('f.index_id', 'in', ids!)
                .where('s.symbol', 'in', named!),
            );
      for (const symbol of missing) bySymbol.set(symbol, []);
      // Set in place, not copied: a popular symbol has thousands of rows, and copies are as many objects again.
      for (const r of rows as SymbolRefsRow[]) {
        r.repo = repoOf.get(r.index_id)!;
        bySymbol.get(r.symbol)!.push(r);
      }
      for (const symbol of missing) this.refRows.set(`${scope}\0${symbol}`, bySymbol.get(symbol)!);
    }
    return ordered.flatMap((symbol) => bySymbol.get(symbol)!);
  }

  /**
   * The documents of an index that refer to any of these global symbols:
   * the files symbolRefs would list, without its rows. A member found by its
   * name asks it of every file declaring a rival member, for all the symbols
   * that file defines: trpc's `type` read 869 reference rows of 514 symbols,
   * with their ranges, to learn which files refer to seven rival files.
   */
  async documentsReferringTo(indexId: number, symbols: readonly string[]): Promise<Set<number>> {
    if (symbols.length === 0) return new Set();
    const rows = await this.prepared.rowsIn('documentsReferringTo', [[indexId], [...new Set(symbols)]], ([ids, named]) =>
      this.db
        .selectFrom('symbols as s')
        .innerJoin('symbol_refs as r', 'r.symbol_id', 's.id')
        .innerJoin('index_files as f', 'f.document_id', 'r.document_id')
        .select('r.document_id')
        .distinct()
        .where('f.index_id', 'in', ids!)
        .where('s.symbol', 'in', named!),
    );
    return new Set(rows.map((r) => r.document_id));
  }

  /**
   * `symbolRefs` in the order an answer lists references: the first index's
   * repository first, then the others by name, files by path (byte order: a
   * Postgres registry is created with LC_COLLATE 'C'), a file's rows by
   * symbol. The caller then walks files as they come, with no map of them
   * to build and sort: a popular symbol has a row in thousands of files.
   */
  async symbolRefsInOrder(indexIds: readonly number[], symbols: readonly string[]): Promise<RefRowInOrder[]> {
    if (symbols.length === 0 || indexIds.length === 0) return [];
    const repoOf = await this.repoSlugsOfIndexes(indexIds);
    const [first, ...rest] = indexIds;
    const bySlug = (a: number, b: number) => (repoOf.get(a)! < repoOf.get(b)! ? -1 : repoOf.get(a)! > repoOf.get(b)! ? 1 : a - b);
    const ordered = [first!, ...rest.sort(bySlug)];
    const key = `${ordered.join(',')}\0${symbols.join('\0')}`;
    const cached = this.refRowsInOrder.get(key);
    if (cached) return cached;
    // A padded list repeats its last value in a later `when`, which never wins: each value keeps its first place.
    const rows = await this.prepared.rowsIn('symbolRefsInOrder', [ordered, symbols], ([ids, named]) => {
      const rank = sql.join(
        ids!.map((id, i) => sql`when ${id} then ${sql.lit(i)}`),
        sql` `,
      );
      // Each row names its symbol by its place in the list, not by its text: a popular symbol's rows are thousands.
      const which = sql.join(
        named!.map((symbol, i) => sql`when ${symbol} then ${sql.lit(i)}`),
        sql` `,
      );
      return this.db
        .selectFrom('symbols as s')
        .innerJoin('symbol_refs as r', 'r.symbol_id', 's.id')
        .innerJoin('index_files as f', 'f.document_id', 'r.document_id')
        .select(['f.index_id', 'f.path', 'f.blob_sha', 'r.ranges', sql<number>`case s.symbol ${which} end`.as('which')])
        .where('f.index_id', 'in', ids!)
        .where('s.symbol', 'in', named!)
        .orderBy(sql`case f.index_id ${rank} end`)
        .orderBy('f.path')
        .orderBy('s.symbol');
    });
    // Set in place, not copied: copies would be as many objects again.
    const out = rows as unknown as RefRowInOrder[];
    for (const row of out) {
      row.repo = repoOf.get(row.index_id)!;
      row.symbol = symbols[row.which]!;
      row.ints = rangeRecords(row.ranges);
    }
    this.refRowsInOrder.set(key, out);
    return out;
  }

  /** The repository of each index. Cached: an index belongs to one repository for good, and slugs never change. */
  private async repoSlugsOfIndexes(indexIds: readonly number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    const missing: number[] = [];
    for (const id of indexIds) {
      const slug = this.slugs.get(id);
      if (slug === undefined) missing.push(id);
      else out.set(id, slug);
    }
    if (missing.length === 0) return out;
    const rows = await this.prepared.rowsIn('repoSlugsOfIndexes', [missing], ([ids]) =>
      this.db.selectFrom('indexes as i').innerJoin('repos as p', 'p.id', 'i.repo_id').select(['i.id', 'p.slug']).where('i.id', 'in', ids!),
    );
    for (const r of rows) {
      this.slugs.set(r.id, r.slug);
      out.set(r.id, r.slug);
    }
    return out;
  }

  /** Definitions of global symbols, by name, in the given indexes. Cached as asked: an outgoing walk asks again on every walk. */
  async definitionsOf(indexIds: readonly number[], symbols: readonly string[]): Promise<DefinitionRow[]> {
    if (symbols.length === 0 || indexIds.length === 0) return [];
    const key = `${indexIds.join(',')}\0${symbols.join('\0')}`;
    const cached = this.definitionRows.get(key);
    if (cached) return cached;
    const rows = await this.prepared.rowsIn('definitionsOf', [indexIds, symbols], ([ids, named]) =>
      this.definitionQuery(ids!).where('s.symbol', 'in', named!),
    );
    this.definitionRows.set(key, rows);
    return rows;
  }

  /** Definitions in one file of an index. */
  definitionsInFile(indexId: number, documentId: number, path: string): Promise<DefinitionRow[]> {
    return this.fileDefinitions('all', indexId, documentId, path);
  }

  /**
   * The global symbols one document defines, without the rest of their rows:
   * what a file offers other files. A member found by its name asks it of
   * every file that declares a member of that name (unnamed-members.ts), and
   * whole rows, 23 columns each, made those first asks slow.
   */
  async globalSymbolsDefinedIn(documentId: number): Promise<string[]> {
    const cached = this.definedSymbols.get(documentId);
    if (cached) return cached;
    const rows = await this.prepared.rows('globalSymbolsDefinedIn', [documentId], ([d]) =>
      this.db
        .selectFrom('definitions as d')
        .innerJoin('symbols as s', 's.id', 'd.symbol_id')
        .select('s.symbol')
        .distinct()
        .where('d.document_id', '=', d!),
    );
    const symbols = rows.map((r) => r.symbol).filter((symbol) => !isLocalSymbol(symbol));
    this.definedSymbols.set(documentId, symbols);
    return symbols;
  }

  /**
   * The definitions of one file that a call in it can be made by: callables
   * and classes with an extent, and the module (for calls at the top level).
   * An incoming call hierarchy reads them for every file its uses are in;
   * the rest of a file's definitions (parameters, properties, types: 70% of
   * kysely's) it has no use for.
   */
  callersInFile(indexId: number, documentId: number, path: string): Promise<DefinitionRow[]> {
    return this.fileDefinitions('callers', indexId, documentId, path);
  }

  /** One file's definitions, all or only its possible callers, each list remembered per file. */
  private async fileDefinitions(which: 'all' | 'callers', indexId: number, documentId: number, path: string): Promise<DefinitionRow[]> {
    const cache = which === 'all' ? this.documentDefinitions : this.fileCallers;
    const key = `${indexId}:${documentId}:${path}`;
    const cached = cache.get(key);
    if (cached) return cached;
    const rows = await this.prepared.rows(`fileDefinitions:${which}`, [indexId, documentId, path], ([i, d, p]) => {
      const inFile = this.definitionQuery([i!]).where('d.document_id', '=', d!).where('f.path', '=', p!);
      return which === 'all'
        ? inFile
        : inFile.where((eb) =>
            eb.or([
              eb('d.kind', '=', 'module'),
              eb.and([eb.or([eb('d.callable', '=', 1), eb('d.kind', '=', 'class')]), eb('d.enclosing_start_line', 'is not', null)]),
            ]),
          );
    });
    cache.set(key, rows);
    return rows;
  }

  /**
   * The definitions of local symbols of one document (a local is its
   * document's own). Read through the document's definitions: a local's
   * symbol row (`local 3`) is shared by every document that has one, so
   * starting from it would walk as many rows as there are documents.
   */
  async localDefinitions(indexId: number, documentId: number, path: string, symbols: readonly string[]): Promise<DefinitionRow[]> {
    const key = `${indexId}:${documentId}:${path}\0${symbols.join('\0')}`;
    const cached = this.localDefinitionRows.get(key);
    if (cached) return cached;
    const named = padded(symbols);
    const rows = await this.prepared.rows(`localDefinitions:${named.length}`, [indexId, documentId, path, ...named], ([i, d, p, ...n]) =>
      this.definitionQuery([i!], { byDocument: true }).where('d.document_id', '=', d!).where('f.path', '=', p!).where('s.symbol', 'in', n),
    );
    this.localDefinitionRows.set(key, rows);
    return rows;
  }

  /**
   * The global symbols a local symbol of one document shares references with
   * (is_reference): a method of a class declared inside a function overrides
   * `Map#set` as any other class's would. Locals are their document's own.
   */
  async localReferenceTargets(documentId: number, symbol: string): Promise<string[]> {
    const key = `${documentId}\0${symbol}`;
    const cached = this.localRelatives.get(key);
    if (cached) return cached;
    const rows = await this.prepared.rows('localReferenceTargets', [documentId, symbol], ([d, s]) =>
      this.db
        .selectFrom('relationships as r')
        .innerJoin('symbols as s', 's.id', 'r.symbol_id')
        .innerJoin('symbols as t', 't.id', 'r.target_symbol_id')
        .select('t.symbol')
        .where('r.document_id', '=', d!)
        .where('s.symbol', '=', s!)
        .where('r.is_reference', '=', 1),
    );
    const targets = rows.map((r) => r.symbol).filter((t) => !isLocalSymbol(t));
    this.localRelatives.set(key, targets);
    return targets;
  }

  /**
   * Symbols these symbols implement or extend (supertypes, overridden
   * methods). Remembered: an incoming call hierarchy asks it for every caller
   * it walks through (87 times for a depth-3 walk over kysely's transformNode).
   */
  async supertypesOf(indexIds: readonly number[], symbols: readonly string[]): Promise<string[]> {
    return symbolsOf(await this.supertypePairs(indexIds, symbols));
  }

  /** supertypesOf, each with the symbol of the list it is a supertype of (`from`). */
  async supertypePairs(indexIds: readonly number[], symbols: readonly string[]): Promise<{ from: string; symbol: string }[]> {
    return this.cachedPairs(this.supertypes, indexIds, symbols, 'is_implementation', ['forward']);
  }

  /**
   * The symbols of `Object`'s member `name` in TypeScript's standard library
   * as indexes name it, one per TypeScript version an indexer used: read
   * through a range of the symbols' unique index (the library's symbols), not
   * a scan. Remembered once found: should an index that used one be retired,
   * the symbol has no references left to add.
   */
  async libraryObjectMembers(name: string): Promise<string[]> {
    const cached = this.objectMembers.get(name);
    if (cached) return cached;
    const rows = await this.prepared.rows(
      'libraryObjectMembers',
      [TYPESCRIPT_LIBRARY, TYPESCRIPT_LIBRARY_END, `%/Object#${name}().`],
      ([from, to, like]) =>
        this.db
          .selectFrom('symbols')
          .select('symbol')
          .where('symbol', '>=', from!)
          .where('symbol', '<', to!)
          .where('symbol', 'like', like!),
    );
    const found = rows.map((r) => r.symbol).filter((symbol) => symbol.endsWith(`/\`lib.es5.d.ts\`/Object#${name}().`));
    if (found.length > 0) this.objectMembers.set(name, found);
    return found;
  }

  /** Symbols that implement or extend these (subtypes, overriding methods), remembered as supertypesOf is. */
  async subtypesOf(indexIds: readonly number[], symbols: readonly string[]): Promise<string[]> {
    return symbolsOf(await this.cachedPairs(this.subtypes, indexIds, symbols, 'is_implementation', ['backward']));
  }

  /**
   * Symbols related to these by a relationship flag, forward (from symbol_id
   * to target_symbol_id), backward, or both, declared in documents of the
   * given indexes (joined, so that only the relationships of these symbols
   * are read, not every document of the indexes). One query whatever the
   * directions: symbols are matched by name in it. Each row has the symbol
   * of this list it is related to (`from`): one query answers for many
   * symbols at once.
   */
  private async relatedPairs(
    indexIds: readonly number[],
    symbols: readonly string[],
    flag: 'is_reference' | 'is_implementation' | 'is_definition' | 'is_export_of',
    directions: readonly ('forward' | 'backward')[],
  ): Promise<{ from: string; symbol: string }[]> {
    if (symbols.length === 0 || indexIds.length === 0) return [];
    return this.prepared.rowsIn(`related:${flag}:${directions.join(',')}`, [symbols, indexIds], ([named, indexes]) => {
      const one = (direction: 'forward' | 'backward') => {
        const [from, to] =
          direction === 'forward' ? (['symbol_id', 'target_symbol_id'] as const) : (['target_symbol_id', 'symbol_id'] as const);
        return this.db
          .selectFrom('symbols as s')
          .innerJoin('relationships as r', `r.${from}`, 's.id')
          .innerJoin('index_files as f', 'f.document_id', 'r.document_id')
          .innerJoin('symbols as t', 't.id', `r.${to}`)
          .select(['t.symbol', 's.symbol as from'])
          .where('s.symbol', 'in', named!)
          .where(`r.${flag}`, '=', 1)
          .where('f.index_id', 'in', indexes!);
      };
      const [first, ...rest] = directions.map(one);
      // union, not union all: a symbol related both ways is listed once.
      return rest.reduce((q, next) => q.union(next as typeof q), first!.distinct());
    });
  }

  /** Definitions named exactly `name` (global symbols only) in an index. */
  async definitionsNamed(indexId: number, name: string): Promise<DefinitionRow[]> {
    return this.byName('definitionsNamed', indexId, name, ([i, n]) =>
      this.definitionQuery([i!])
        .where('d.name', '=', n!)
        .where('s.symbol', 'not like', 'local %')
        .where('d.kind', 'not in', ['parameter', 'type_parameter']),
    );
  }

  /**
   * The methods and properties of an index named `name` that the indexer names
   * only in their own files (isNamedOnlyInItsFile): members of unnamed types,
   * and of a class assigned to `module.exports`.
   */
  async membersNamedOnlyInTheirFiles(indexId: number, name: string): Promise<DefinitionRow[]> {
    const rows = await this.byName('membersNamedOnlyInTheirFiles', indexId, name, ([i, n]) =>
      this.definitionQuery([i!])
        .where('d.name', '=', n!)
        .where((eb) => eb.or([eb('s.symbol', 'like', 'local %'), eb('s.symbol', 'like', '%/default#%')]))
        .where('d.kind', 'in', ['method', 'property']),
    );
    return rows.filter((d) => isNamedOnlyInItsFile(d.symbol));
  }

  /**
   * Definitions found by name, remembered per index: a name the index did not
   * resolve is looked up by its spelling at every position it is written at,
   * and a popular one (`node`, `value`) matches hundreds of rows.
   */
  private async byName(
    query: 'definitionsNamed' | 'membersNamedOnlyInTheirFiles',
    indexId: number,
    name: string,
    build: (slots: never[]) => Compilable<DefinitionRow>,
  ): Promise<DefinitionRow[]> {
    const key = `${query}\0${indexId}\0${name}`;
    const cached = this.namedDefinitions.get(key);
    if (cached) return cached;
    const rows = await this.prepared.rows(query, [indexId, name], build);
    this.namedDefinitions.set(key, rows);
    return rows;
  }

  /**
   * Definitions worth finding by name: no parameters or file modules, and
   * locals only of `localKinds`, or properties whose signature begins with one
   * of `localPropertySignatures` (an object literal's accessors).
   */
  async searchableDefinitions(indexId: number, localKinds: readonly string[], localPropertySignatures: readonly string[]) {
    return this.db
      .selectFrom('definitions as d')
      .innerJoin('index_files as f', 'f.document_id', 'd.document_id')
      .innerJoin('symbols as s', 's.id', 'd.symbol_id')
      .select(['d.name', 'd.kind', 'd.container', 's.symbol', 'f.path', 'd.start_line', 'd.start_char', 'd.end_line', 'd.end_char'])
      .where('f.index_id', '=', indexId)
      .where('d.kind', 'not in', ['parameter', 'type_parameter'])
      .where((eb) =>
        eb.or([
          eb('s.symbol', 'not like', 'local %'),
          eb('d.kind', 'in', localKinds),
          eb.and([eb('d.kind', '=', 'property'), eb.or(localPropertySignatures.map((prefix) => eb('d.signature', 'like', `${prefix}%`)))]),
        ]),
      )
      .where((eb) =>
        eb.or([
          eb('d.kind', '!=', 'module'),
          eb('d.start_char', '!=', eb.ref('d.end_char')),
          eb('d.start_line', '!=', eb.ref('d.end_line')),
        ]),
      )
      .execute();
  }

  /**
   * Symbols related to these by is_reference relationships, in either
   * direction, within the given indexes: each with the symbol of the list
   * (`from`) it is related to, so that one query serves many families.
   */
  async referenceRelated(indexIds: readonly number[], symbols: readonly string[]): Promise<{ from: string; symbol: string }[]> {
    return this.cachedPairs(this.referenceRelatives, indexIds, symbols, 'is_reference', ['forward', 'backward']);
  }

  /**
   * What each of these symbols is defined as, by is_definition relationships
   * from it (a name an export list gives what it exports: see
   * orchestrator/prepare-exports.ts relateExportNames), with the symbol it is
   * for. Asked for every undefined name of a module's shape, library globals
   * (`Math.`) among them, on every walk: remembered, as referenceRelated is.
   */
  async definedAs(indexIds: readonly number[], symbols: readonly string[]): Promise<{ from: string; symbol: string }[]> {
    return this.cachedPairs(this.definitionTargets, indexIds, symbols, 'is_definition', ['forward']);
  }

  /**
   * The default exports that are exports of these symbols, by is_export_of
   * relationships to them (a module's `export default make('length')` for
   * `make`), with the symbol each is for. One way: asked for every reference
   * family, as referenceRelated is, and remembered so.
   */
  async exportsOf(indexIds: readonly number[], symbols: readonly string[]): Promise<{ from: string; symbol: string }[]> {
    return this.cachedPairs(this.exportsFor, indexIds, symbols, 'is_export_of', ['backward']);
  }

  /** relatedPairs with `from`, each symbol's list remembered per set of indexes (published indexes never change). */
  private async cachedPairs(
    cache: Lru<string, string[]>,
    indexIds: readonly number[],
    symbols: readonly string[],
    flag: 'is_reference' | 'is_implementation' | 'is_definition' | 'is_export_of',
    directions: readonly ('forward' | 'backward')[],
  ): Promise<{ from: string; symbol: string }[]> {
    const scope = indexIds.join(',');
    const out: { from: string; symbol: string }[] = [];
    const missing: string[] = [];
    for (const from of new Set(symbols)) {
      const cached = cache.get(`${scope}\0${from}`);
      if (cached) for (const symbol of cached) out.push({ from, symbol });
      else missing.push(from);
    }
    if (missing.length === 0) return out;
    const found = new Map<string, string[]>(missing.map((s) => [s, []]));
    for (const { from, symbol } of await this.relatedPairs(indexIds, missing, flag, directions)) {
      found.get(from)!.push(symbol);
      out.push({ from, symbol });
    }
    for (const [from, related] of found) cache.set(`${scope}\0${from}`, related);
    return out;
  }

  /** Symbols whose definitions are also a symbol's (SCIP is_definition), both directions. */
  async definitionRelated(indexIds: readonly number[], symbols: readonly string[]): Promise<string[]> {
    return symbolsOf(await this.cachedPairs(this.definitionRelatives, indexIds, symbols, 'is_definition', ['forward', 'backward']));
  }

  /** The members each of these symbols implements or overrides (SCIP is_implementation, from it). */
  async implementedBy(indexIds: readonly number[], symbols: readonly string[]): Promise<string[]> {
    return symbolsOf(await this.cachedPairs(this.implementations, indexIds, symbols, 'is_implementation', ['forward']));
  }

  /** The first `limit` files of an index by path. */
  async filesOf(indexId: number, limit: number): Promise<IndexFileRow[]> {
    return this.db
      .selectFrom('index_files')
      .select(['path', 'blob_sha', 'document_id', 'language', 'syntax_id'])
      .where('index_id', '=', indexId)
      .orderBy('path')
      .limit(limit)
      .execute();
  }

  async fileCount(indexId: number): Promise<number> {
    const row = await this.db
      .selectFrom('index_files')
      .select(sql<number>`count(*)`.as('n'))
      .where('index_id', '=', indexId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Definitions with their file, index, repository and symbol. `byDocument`
   * for a query that names its document: the symbols join is written so
   * that SQLite cannot start from the symbol's index (`+` makes the column
   * an expression) and reads the document's rows instead.
   */
  private definitionQuery(indexIds: readonly number[], options: { byDocument?: boolean } = {}) {
    return this.db
      .selectFrom('definitions as d')
      .innerJoin('index_files as f', 'f.document_id', 'd.document_id')
      .innerJoin('indexes as i', 'i.id', 'f.index_id')
      .innerJoin('repos as p', 'p.id', 'i.repo_id')
      .innerJoin('symbols as s', (join) =>
        options.byDocument ? join.on('s.id', '=', sql<number>`+${sql.ref('d.symbol_id')}`) : join.onRef('s.id', '=', 'd.symbol_id'),
      )
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

/** The related symbols of cachedPairs' pairs, each once. */
function symbolsOf(pairs: readonly { symbol: string }[]): string[] {
  return [...new Set(pairs.map((p) => p.symbol))];
}
