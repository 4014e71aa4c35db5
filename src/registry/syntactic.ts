// Rows of the syntactic tier: syntax documents (one per blob, language and
// parser) with the definitions a parser found, and the queries over them.
// Like documents, they are written before the index that lists them is
// published and are invisible until then.
import type { Kysely } from 'kysely';
import type { SyntaxDefinition } from '../syntax/ctags.js';
import type { Engine } from './engine.js';
import type { Database, SyntaxDefinitionTable } from './schema.js';
import { chunks } from './writer.js';

export interface PreparedSyntaxDocument {
  contentHash: string;
  language: string;
  parser: string;
  definitions: SyntaxDefinition[];
}

/** Ids of the stored syntax documents among these content hashes. */
export async function existingSyntaxDocuments(engine: Engine, hashes: readonly string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const chunk of chunks(hashes, engine.capabilities.maxParameters - 1)) {
    const rows = await engine.db.selectFrom('syntax_documents').select(['id', 'content_hash']).where('content_hash', 'in', chunk).execute();
    for (const r of rows) found.set(r.content_hash, r.id);
  }
  return found;
}

/** Stores syntax documents (reusing any already stored) and returns their ids, in order, and whether this call created them. */
export async function writeSyntaxDocuments(
  engine: Engine,
  docs: readonly PreparedSyntaxDocument[],
): Promise<{ id: number; created: boolean }[]> {
  return engine.db.transaction().execute(async (trx) => {
    const ids: { id: number; created: boolean }[] = [];
    for (const doc of docs) {
      // An upsert that returns the id, as for documents: a concurrent writer of the same content makes this one reuse its row.
      const inserted = await trx
        .insertInto('syntax_documents')
        .values({ content_hash: doc.contentHash, language: doc.language, parser: doc.parser, definition_count: doc.definitions.length })
        .onConflict((oc) => oc.column('content_hash').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) {
        const existing = await trx.selectFrom('syntax_documents').select('id').where('content_hash', '=', doc.contentHash).executeTakeFirstOrThrow();
        ids.push({ id: existing.id, created: false });
        continue;
      }
      const id = inserted.id;
      ids.push({ id, created: true });
      await engine.insertRows(
        trx,
        'syntax_definitions',
        doc.definitions.map((d, ordinal) => ({
          syntax_id: id,
          ordinal,
          parent_ordinal: d.parent,
          name: d.name,
          kind: d.kind,
          container: d.container,
          start_line: d.line,
          start_char: d.startChar,
          end_char: d.endChar,
          span_end_line: d.spanEndLine,
          span_end_char: d.spanEndChar,
          signature: d.signature,
        })),
      );
    }
    return ids;
  });
}

/** Deletes syntax documents a failed parse wrote: nothing may reuse them. */
export async function deleteSyntaxDocuments(engine: Engine, ids: readonly number[]): Promise<void> {
  await engine.db.transaction().execute(async (trx) => {
    for (const chunk of chunks(ids, 500)) {
      await trx.deleteFrom('syntax_definitions').where('syntax_id', 'in', chunk).execute();
      await trx.deleteFrom('syntax_documents').where('id', 'in', chunk).execute();
    }
  });
}

/** Deletes syntax documents no index file refers to (called while no run writes). */
export async function collectSyntaxDocuments(trx: Kysely<Database>): Promise<void> {
  const referenced = trx.selectFrom('index_files').select('syntax_id').where('syntax_id', 'is not', null);
  const orphans = (
    await trx
      .selectFrom('syntax_documents')
      .select('id')
      .where('id', 'not in', referenced as never)
      .execute()
  ).map((r) => r.id);
  for (const chunk of chunks(orphans, 500)) {
    await trx.deleteFrom('syntax_definitions').where('syntax_id', 'in', chunk).execute();
    await trx.deleteFrom('syntax_documents').where('id', 'in', chunk).execute();
  }
}

/** A syntactic definition with the file it is in. */
export type SyntaxDefinitionRow = SyntaxDefinitionTable & { path: string; blob_sha: string; language: string | null };

/** Read queries over the syntactic definitions of published indexes. */
export class SyntaxLookups {
  constructor(private readonly db: Kysely<Database>) {}

  private query(indexId: number) {
    return this.db
      .selectFrom('syntax_definitions as d')
      .innerJoin('index_files as f', 'f.syntax_id', 'd.syntax_id')
      .select([
        'f.path',
        'f.blob_sha',
        'f.language',
        'd.syntax_id',
        'd.ordinal',
        'd.parent_ordinal',
        'd.name',
        'd.kind',
        'd.container',
        'd.start_line',
        'd.start_char',
        'd.end_char',
        'd.span_end_line',
        'd.span_end_char',
        'd.signature',
      ])
      .where('f.index_id', '=', indexId);
  }

  /** Definitions named exactly `name`, in path and line order. */
  async named(indexId: number, name: string): Promise<SyntaxDefinitionRow[]> {
    return this.query(indexId).where('d.name', '=', name).orderBy('f.path').orderBy('d.start_line').execute();
  }

  /** One file's definitions, in source order. */
  async inFile(indexId: number, path: string): Promise<SyntaxDefinitionRow[]> {
    return this.query(indexId).where('f.path', '=', path).orderBy('d.ordinal').execute();
  }

  /** Every definition of an index (for the workspace symbol table). */
  async all(indexId: number): Promise<SyntaxDefinitionRow[]> {
    return this.query(indexId).execute();
  }
}
