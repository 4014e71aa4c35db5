// Index runs, reindex jobs, watchers and uploads get the write lock's lease
// (0008): the process a row stands for renews `expires_at` while it lives, so
// a row left by a process on another host that died is known dead once its
// lease has run out (src/registry/lease.ts). Rows written before have none and
// are judged as before.
import type { Kysely } from 'kysely';
import type { EngineCapabilities } from '../../src/registry/engine.js';

export async function up(db: Kysely<unknown>, _caps: EngineCapabilities): Promise<void> {
  for (const table of ['index_runs', 'index_jobs', 'watchers', 'uploads']) {
    await db.schema.alterTable(table).addColumn('expires_at', 'text').execute();
  }
}
