// `sextant watch` processes, one row each per repository they keep published,
// so that registryStatus can say which repositories are watched, what the
// watcher is doing, what it last did and whether a change waits. A row whose
// process is gone (killed without cleaning up) is ignored and removed by the
// next watcher of that repository.
import type { Kysely } from 'kysely';
import type { EngineCapabilities } from '../../src/registry/engine.js';

export async function up(db: Kysely<unknown>, _caps: EngineCapabilities): Promise<void> {
  await db.schema
    .createTable('watchers')
    .addColumn('repo_id', 'integer', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('pending', 'integer', (c) => c.notNull())
    .addColumn('last_event', 'text')
    .addColumn('last_event_at', 'text')
    .addPrimaryKeyConstraint('watchers_pk', ['repo_id', 'pid', 'host'])
    .execute();
}
