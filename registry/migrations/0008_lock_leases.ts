// A repository's write lock is a lease: its run renews `expires_at` while it
// works, so a lock left by a process on another host (whose pid this machine
// cannot check) is known stale once it has not been renewed in time. Locks
// taken before have none and are judged as before.
import type { Kysely } from 'kysely';
import type { EngineCapabilities } from '../../src/registry/engine.js';

export async function up(db: Kysely<unknown>, _caps: EngineCapabilities): Promise<void> {
  await db.schema.alterTable('locks').addColumn('expires_at', 'text').execute();
}
