// Code and file search: a substring index over blob texts (where the engine
// has one); each index's commit time, which file search reports as the
// modification time of files whose worktree is not on this machine; and an
// index covering a blob's size and skip reason, so that listing files never
// reads past the (large) text stored before them in the row.
import type { Kysely } from 'kysely';
import type { EngineCapabilities } from '../../src/registry/engine.js';
import { createTextIndex as createFts5Index } from '../../src/registry/dialect/sqlite/text-index.js';
import { createTextIndex as createTrigramIndex } from '../../src/registry/dialect/postgres/text-index.js';

export async function up(db: Kysely<unknown>, caps: EngineCapabilities): Promise<void> {
  await db.schema.alterTable('indexes').addColumn('commit_time', 'integer').execute();
  await db.schema.createIndex('blobs_facts').on('blobs').columns(['sha', 'byte_size', 'skipped']).execute();
  if (caps.textIndex === 'fts5-trigram') await createFts5Index(db);
  if (caps.textIndex === 'pg_trgm') await createTrigramIndex(db);
}
