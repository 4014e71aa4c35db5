// Writes content-addressed rows: file blobs and documents with everything
// derived from them. Rows written here are invisible to readers until an
// index that lists them is published (publish.ts), so a run that dies midway
// leaves only unreferenced rows behind, which the next collection removes.
import type { Kysely, Transaction } from 'kysely';
import type { Engine } from './engine.js';
import type { Database } from './schema.js';
import { PreparedQueries } from './prepared.js';
import type { Range } from '../scip/range.js';

export interface PreparedDefinition {
  symbol: string;
  name: string;
  kind: string;
  callable: boolean;
  container: string | null;
  range: Range;
  enclosing: Range | undefined;
  enclosingSource: 'index' | 'syntax' | null;
  /** Arguments a call may pass, [required, most] (most Infinity with a rest parameter), when the parse saw the signature. */
  parameters: [number, number] | null;
  signature: string | null;
  documentation: string | null;
}

export interface PreparedRelationship {
  symbol: string;
  target: string;
  isImplementation: boolean;
  isReference: boolean;
  isTypeDefinition: boolean;
  isDefinition: boolean;
  /** sextant's own: `symbol`, a module's default export, is an export of `target` (`make` of `export default make('length')`). */
  isExportOf?: boolean;
}

export interface PreparedSymbolRefs {
  symbol: string;
  hasDefinition: boolean;
  ranges: Buffer;
}

/** A document ready to store: everything derived from one SCIP document and its file. */
export interface PreparedDocument {
  contentHash: string;
  language: string;
  symbols: string[];
  occurrenceCount: number;
  payload: Buffer;
  refs: PreparedSymbolRefs[];
  definitions: PreparedDefinition[];
  relationships: PreparedRelationship[];
}

export interface NewBlob {
  sha: string;
  content: string | null;
  byteSize: number;
  skipped: string | null;
}

/** Bound on the symbol-id cache, so ingest memory does not grow with the index. */
const SYMBOL_CACHE_LIMIT = 50_000;

export class RegistryWriter {
  private readonly db: Kysely<Database>;
  private readonly symbolIds = new Map<string, number>();

  /** The queries run once per document, compiled once. */
  private readonly prepared: PreparedQueries;

  constructor(private readonly engine: Engine) {
    this.db = engine.db;
    this.prepared = new PreparedQueries(engine.db);
  }

  /** The stored document with this content hash, if any. */
  async findDocument(contentHash: string) {
    const rows = await this.prepared.rows('findDocument', [contentHash], ([v]) =>
      this.db.selectFrom('documents').select(['id', 'occurrence_count', 'definition_count']).where('content_hash', '=', v!),
    );
    return rows[0];
  }

  /** The stored text of a blob; undefined when it was not kept (binary, too large). */
  async blobText(sha: string): Promise<string | undefined> {
    const [row] = await this.prepared.rows('blobText', [sha], ([v]) => this.db.selectFrom('blobs').select('content').where('sha', '=', v!));
    return row?.content ?? undefined;
  }

  /** Blob hashes among `shas` that the registry already holds. */
  async existingBlobs(shas: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const chunk of chunks(shas, this.engine.capabilities.maxParameters - 1)) {
      const rows = await this.db.selectFrom('blobs').select('sha').where('sha', 'in', chunk).execute();
      for (const r of rows) found.add(r.sha);
    }
    return found;
  }

  /** Milliseconds spent adding blob texts to the search index, for the run's report. */
  textIndexMs = 0;

  async writeBlobs(blobs: readonly NewBlob[]): Promise<void> {
    if (blobs.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      await this.engine.insertRows(
        trx,
        'blobs',
        blobs.map((b) => ({ sha: b.sha, content: b.content, byte_size: b.byteSize, skipped: b.skipped })),
        { ignoreConflicts: true },
      );
      const textIndex = this.engine.textIndex;
      if (!textIndex) return;
      const started = performance.now();
      await textIndex.add(
        trx,
        blobs.filter((b): b is NewBlob & { content: string } => b.content !== null),
      );
      this.textIndexMs += performance.now() - started;
    });
  }

  /**
   * Stores documents (skipping any already stored) and returns their ids, in
   * order. Each is an upsert on its content hash that returns the id: another
   * process writing the same document at the same time makes this one find
   * its row instead of failing on the unique key.
   */
  async writeDocuments(docs: readonly PreparedDocument[]): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      const ids: number[] = [];
      const symbolIds = await this.intern(trx, docs);
      for (const doc of docs) {
        const inserted = await trx
          .insertInto('documents')
          .values({
            content_hash: doc.contentHash,
            language: doc.language,
            occurrence_count: doc.occurrenceCount,
            definition_count: doc.definitions.length,
            symbols: JSON.stringify(doc.symbols),
            payload: doc.payload,
          })
          .onConflict((oc) => oc.column('content_hash').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!inserted) {
          const existing = await trx.selectFrom('documents').select('id').where('content_hash', '=', doc.contentHash).executeTakeFirstOrThrow();
          ids.push(existing.id);
          continue;
        }
        const id = inserted.id;
        ids.push(id);
        const idOf = (s: string) => symbolIds.get(s)!;
        await this.engine.insertRows(
          trx,
          'symbol_refs',
          doc.refs.map((r) => ({ symbol_id: idOf(r.symbol), document_id: id, has_definition: r.hasDefinition ? 1 : 0, ranges: r.ranges })),
        );
        await this.engine.insertRows(
          trx,
          'definitions',
          doc.definitions.map((d) => ({
            document_id: id,
            symbol_id: idOf(d.symbol),
            name: d.name,
            kind: d.kind,
            callable: d.callable ? 1 : 0,
            container: d.container,
            start_line: d.range[0],
            start_char: d.range[1],
            end_line: d.range[2],
            end_char: d.range[3],
            enclosing_start_line: d.enclosing?.[0] ?? null,
            enclosing_start_char: d.enclosing?.[1] ?? null,
            enclosing_end_line: d.enclosing?.[2] ?? null,
            enclosing_end_char: d.enclosing?.[3] ?? null,
            enclosing_source: d.enclosingSource,
            min_arguments: d.parameters?.[0] ?? null,
            max_arguments: d.parameters && Number.isFinite(d.parameters[1]) ? d.parameters[1] : null,
            signature: d.signature,
            documentation: d.documentation,
          })),
        );
        await this.engine.insertRows(
          trx,
          'relationships',
          doc.relationships.map((r) => ({
            document_id: id,
            symbol_id: idOf(r.symbol),
            target_symbol_id: idOf(r.target),
            is_implementation: r.isImplementation ? 1 : 0,
            is_reference: r.isReference ? 1 : 0,
            is_type_definition: r.isTypeDefinition ? 1 : 0,
            is_definition: r.isDefinition ? 1 : 0,
            is_export_of: r.isExportOf ? 1 : 0,
          })),
        );
      }
      return ids;
    });
  }

  /** Ids for every symbol the documents mention by id, creating the missing ones. */
  private async intern(trx: Transaction<Database>, docs: readonly PreparedDocument[]): Promise<Map<string, number>> {
    const wanted = new Set<string>();
    for (const doc of docs) {
      for (const r of doc.refs) wanted.add(r.symbol);
      for (const d of doc.definitions) wanted.add(d.symbol);
      for (const r of doc.relationships) {
        wanted.add(r.symbol);
        wanted.add(r.target);
      }
    }
    const result = new Map<string, number>();
    const missing: string[] = [];
    for (const s of wanted) {
      const id = this.symbolIds.get(s);
      if (id === undefined) missing.push(s);
      else result.set(s, id);
    }
    if (missing.length === 0) return result;
    if (this.symbolIds.size + missing.length > SYMBOL_CACHE_LIMIT) this.symbolIds.clear();
    const chunkSize = this.engine.capabilities.maxParameters - 1;
    for (const chunk of chunks(missing, chunkSize)) {
      await this.engine.insertRows(
        trx,
        'symbols',
        chunk.map((symbol) => ({ symbol })),
        { ignoreConflicts: true },
      );
      const rows = await trx.selectFrom('symbols').select(['id', 'symbol']).where('symbol', 'in', chunk).execute();
      for (const r of rows) {
        result.set(r.symbol, r.id);
        this.symbolIds.set(r.symbol, r.id);
      }
    }
    return result;
  }
}

export function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
