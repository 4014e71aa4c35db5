// The registry's first schema. Content-addressed tables (blobs, documents and
// what derives from a document) are shared by every index that contains the
// same file; an index only adds its file list.
import type { Kysely } from 'kysely';
import type { EngineCapabilities } from '../../src/registry/engine.js';

export async function up(db: Kysely<unknown>, caps: EngineCapabilities): Promise<void> {
  const id = (table: string) =>
    db.schema.createTable(table).addColumn('id', caps.identityType, (c) => {
      const key = c.primaryKey();
      return caps.identityAutoIncrement ? key.autoIncrement() : key;
    });

  await id('repos')
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('root_path', 'text')
    .addColumn('current_index_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await id('indexes')
    .addColumn('repo_id', 'integer', (c) => c.notNull())
    .addColumn('commit_sha', 'text', (c) => c.notNull())
    .addColumn('dirty', 'integer', (c) => c.notNull())
    .addColumn('worktree_fingerprint', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('generated_at', 'text', (c) => c.notNull())
    .addColumn('languages', 'text', (c) => c.notNull())
    .addColumn('tools', 'text', (c) => c.notNull())
    .addColumn('total_files', 'integer', (c) => c.notNull())
    .addColumn('document_count', 'integer', (c) => c.notNull())
    .addColumn('occurrence_count', 'integer', (c) => c.notNull())
    .addColumn('definition_count', 'integer', (c) => c.notNull())
    .addColumn('storage_bytes', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('indexes_by_repo').on('indexes').columns(['repo_id', 'state']).execute();

  await db.schema
    .createTable('index_files')
    .addColumn('index_id', 'integer', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('blob_sha', 'text', (c) => c.notNull())
    .addColumn('document_id', 'integer')
    .addColumn('language', 'text')
    .addPrimaryKeyConstraint('index_files_pk', ['index_id', 'path'])
    .execute();
  await db.schema.createIndex('index_files_by_document').on('index_files').columns(['document_id', 'index_id']).execute();

  await db.schema
    .createTable('blobs')
    .addColumn('sha', 'text', (c) => c.primaryKey())
    .addColumn('content', 'text')
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('skipped', 'text')
    .execute();

  await id('documents')
    .addColumn('content_hash', 'text', (c) => c.notNull().unique())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('occurrence_count', 'integer', (c) => c.notNull())
    .addColumn('definition_count', 'integer', (c) => c.notNull())
    .addColumn('symbols', 'text', (c) => c.notNull())
    .addColumn('payload', caps.binaryType, (c) => c.notNull())
    .execute();

  await id('symbols')
    .addColumn('symbol', 'text', (c) => c.notNull().unique())
    .execute();

  await db.schema
    .createTable('symbol_refs')
    .addColumn('symbol_id', 'integer', (c) => c.notNull())
    .addColumn('document_id', 'integer', (c) => c.notNull())
    .addColumn('has_definition', 'integer', (c) => c.notNull())
    .addColumn('ranges', caps.binaryType, (c) => c.notNull())
    .addPrimaryKeyConstraint('symbol_refs_pk', ['symbol_id', 'document_id'])
    .execute();
  await db.schema.createIndex('symbol_refs_by_document').on('symbol_refs').column('document_id').execute();

  await db.schema
    .createTable('definitions')
    .addColumn('document_id', 'integer', (c) => c.notNull())
    .addColumn('symbol_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('container', 'text')
    .addColumn('start_line', 'integer', (c) => c.notNull())
    .addColumn('start_char', 'integer', (c) => c.notNull())
    .addColumn('end_line', 'integer', (c) => c.notNull())
    .addColumn('end_char', 'integer', (c) => c.notNull())
    .addColumn('enclosing_start_line', 'integer')
    .addColumn('enclosing_start_char', 'integer')
    .addColumn('enclosing_end_line', 'integer')
    .addColumn('enclosing_end_char', 'integer')
    .addColumn('enclosing_source', 'text')
    .addColumn('signature', 'text')
    .addColumn('documentation', 'text')
    .execute();
  await db.schema.createIndex('definitions_by_document').on('definitions').column('document_id').execute();
  await db.schema.createIndex('definitions_by_symbol').on('definitions').column('symbol_id').execute();
  await db.schema.createIndex('definitions_by_name').on('definitions').column('name').execute();

  await db.schema
    .createTable('relationships')
    .addColumn('document_id', 'integer', (c) => c.notNull())
    .addColumn('symbol_id', 'integer', (c) => c.notNull())
    .addColumn('target_symbol_id', 'integer', (c) => c.notNull())
    .addColumn('is_implementation', 'integer', (c) => c.notNull())
    .addColumn('is_reference', 'integer', (c) => c.notNull())
    .addColumn('is_type_definition', 'integer', (c) => c.notNull())
    .addColumn('is_definition', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('relationships_by_document').on('relationships').column('document_id').execute();
  await db.schema.createIndex('relationships_by_symbol').on('relationships').column('symbol_id').execute();
  await db.schema.createIndex('relationships_by_target').on('relationships').column('target_symbol_id').execute();

  await id('index_runs')
    .addColumn('repo_id', 'integer', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .addColumn('reason', 'text')
    .addColumn('recovery', 'text')
    .addColumn('commit_sha', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('index_id', 'integer')
    .addColumn('report', 'text')
    .execute();
  await db.schema.createIndex('index_runs_by_repo').on('index_runs').columns(['repo_id', 'id']).execute();

  await db.schema
    .createTable('locks')
    .addColumn('repo_id', 'integer', (c) => c.primaryKey())
    .addColumn('run_id', 'integer', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('acquired_at', 'text', (c) => c.notNull())
    .execute();
}
