// Reindex jobs: a request to (re)index a repository, run by a process of its
// own (`sextant index --job ID`), observable while it runs. At most one job per
// repository is queued or running at a time (the partial unique index): a
// second request joins it instead of starting another.
import { sql, type Kysely } from 'kysely';
import type { EngineCapabilities } from '../../src/registry/engine.js';

export async function up(db: Kysely<unknown>, caps: EngineCapabilities): Promise<void> {
  await db.schema
    .createTable('index_jobs')
    .addColumn('id', caps.identityType, (c) => {
      const key = c.primaryKey();
      return caps.identityAutoIncrement ? key.autoIncrement() : key;
    })
    .addColumn('repo_id', 'integer', (c) => c.notNull())
    .addColumn('root_path', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('pid', 'integer')
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('index_id', 'integer')
    .addColumn('error', 'text')
    .addColumn('report', 'text')
    .execute();
  await db.schema.createIndex('index_jobs_by_repo').on('index_jobs').columns(['repo_id', 'id']).execute();
  await db.schema
    .createIndex('index_jobs_one_active')
    .on('index_jobs')
    .column('repo_id')
    .unique()
    .where(sql.ref('state'), 'in', sql`('queued', 'running')`)
    .execute();
}
