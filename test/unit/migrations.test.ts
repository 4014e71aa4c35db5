// The registry's schema follows its migrations: a registry written by an older
// sextant is brought forward when a newer one opens it, and one written by a
// newer sextant is refused with a message instead of being misread.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { migrations } from '../../registry/migrations/index.js';
import { openSqlite } from '../../src/registry/dialect/sqlite/engine.js';
import { openRegistry } from '../../src/registry/open.js';
import { removeDir, tempDir } from '../support/repos.js';

test('a registry with only the first migration is migrated forward when opened', async () => {
  const dir = tempDir();
  const file = join(dir, 'registry.db');
  try {
    const old = openSqlite(file);
    const first = Object.keys(migrations)[0]!;
    const migrator = new Migrator({
      db: old.db,
      provider: { getMigrations: async () => ({ [first]: { up: (db) => migrations[first]!.up(db, old.capabilities) } }) },
    });
    assert.equal((await migrator.migrateToLatest()).error, undefined);
    const before = await sql<{ name: string }>`select name from pragma_table_info('definitions')`.execute(old.db);
    assert.ok(!before.rows.some((r) => r.name === 'callable'));
    await old.close();

    const current = await openRegistry({ registry: file });
    const after = await sql<{ name: string }>`select name from pragma_table_info('definitions')`.execute(current.db);
    assert.ok(after.rows.some((r) => r.name === 'callable'));
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(current.db);
    assert.deepEqual(
      applied.rows.map((r) => r.name),
      Object.keys(migrations),
    );
    await current.close();
  } finally {
    removeDir(dir);
  }
});

test('a registry written by a newer sextant is refused with a message that names the fix', async () => {
  const dir = tempDir();
  const file = join(dir, 'registry.db');
  try {
    const engine = await openRegistry({ registry: file });
    await sql`insert into kysely_migration (name, timestamp) values ('9999_from_the_future', '2030-01-01T00:00:00.000Z')`.execute(
      engine.db,
    );
    await engine.close();
    await assert.rejects(openRegistry({ registry: file }), /written by a newer sextant.*upgrade sextant or pass another --registry/);
  } finally {
    removeDir(dir);
  }
});
