// Code and file search: a substring index over blob texts (where the engine
// has one), and each index's commit time, which file search reports as the
// modification time of files whose worktree is not on this machine.
import type { Kysely } from 'kysely';
import type { EngineCapabilities } from '../../src/registry/engine.js';
import { createTextIndex } from '../../src/registry/dialect/sqlite/text-index.js';

export async function up(db: Kysely<unknown>, caps: EngineCapabilities): Promise<void> {
  await db.schema.alterTable('indexes').addColumn('commit_time', 'integer').execute();
  if (caps.textIndex === 'fts5-trigram') await createTextIndex(db);
}
