// Uploads and the commit graph of repositories fed by `sextant publish`.
//
// An upload is one `sextant publish` of a SCIP file: queued until it takes the
// repository's write lock (held by another writer, it errors naming it),
// processing while it ingests, then completed (with the index it published) or
// errored (with why). Validation runs before the
// row exists, so a rejected file leaves the registry as it was.
//
// commit_parents is the part of the commit graph CI told the registry about
// (`publish --parents`, or `git rev-list --parents` of --root): a query at a
// commit nobody published is answered from its nearest published ancestor.
import type { Kysely } from 'kysely';
import type { EngineCapabilities } from '../../src/registry/engine.js';

export async function up(db: Kysely<unknown>, caps: EngineCapabilities): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('id', caps.identityType, (c) => {
      const key = c.primaryKey();
      return caps.identityAutoIncrement ? key.autoIncrement() : key;
    })
    .addColumn('repo_id', 'integer', (c) => c.notNull())
    .addColumn('commit_sha', 'text', (c) => c.notNull())
    .addColumn('indexer', 'text', (c) => c.notNull())
    .addColumn('indexer_version', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('file_sha256', 'text', (c) => c.notNull())
    .addColumn('file_bytes', 'bigint', (c) => c.notNull())
    .addColumn('with_root', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('index_id', 'integer')
    // The publishing process: an upload left queued or processing by one that died is reported errored.
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_by_repo').on('uploads').columns(['repo_id', 'id']).execute();
  await db.schema
    .createTable('commit_parents')
    .addColumn('repo_id', 'integer', (c) => c.notNull())
    .addColumn('commit_sha', 'text', (c) => c.notNull())
    .addColumn('parent_sha', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('commit_parents_pk', ['repo_id', 'commit_sha', 'parent_sha'])
    .execute();
  await db.schema.createIndex('indexes_by_commit').on('indexes').columns(['repo_id', 'commit_sha']).execute();
}
