// The syntactic tier: definitions a parser (universal-ctags) found in a file,
// for languages without a precise index. Content-addressed like documents:
// one syntax document per (blob, language, parser), shared by every index
// whose files have that content; an index file points at its syntax document.
import type { Kysely } from 'kysely';
import type { EngineCapabilities } from '../../src/registry/engine.js';

export async function up(db: Kysely<unknown>, caps: EngineCapabilities): Promise<void> {
  await db.schema
    .createTable('syntax_documents')
    .addColumn('id', caps.identityType, (c) => {
      const key = c.primaryKey();
      return caps.identityAutoIncrement ? key.autoIncrement() : key;
    })
    .addColumn('content_hash', 'text', (c) => c.notNull().unique())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('parser', 'text', (c) => c.notNull())
    .addColumn('definition_count', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('syntax_definitions')
    .addColumn('syntax_id', 'integer', (c) => c.notNull())
    .addColumn('ordinal', 'integer', (c) => c.notNull())
    .addColumn('parent_ordinal', 'integer')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('container', 'text')
    .addColumn('start_line', 'integer', (c) => c.notNull())
    .addColumn('start_char', 'integer', (c) => c.notNull())
    .addColumn('end_char', 'integer', (c) => c.notNull())
    .addColumn('span_end_line', 'integer', (c) => c.notNull())
    .addColumn('span_end_char', 'integer', (c) => c.notNull())
    .addColumn('signature', 'text')
    .addPrimaryKeyConstraint('syntax_definitions_pk', ['syntax_id', 'ordinal'])
    .execute();
  await db.schema.createIndex('syntax_definitions_by_name').on('syntax_definitions').column('name').execute();

  await db.schema.alterTable('index_files').addColumn('syntax_id', 'integer').execute();
  await db.schema.createIndex('index_files_by_syntax').on('index_files').columns(['syntax_id', 'index_id']).execute();
}
