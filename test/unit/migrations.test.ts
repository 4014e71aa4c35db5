// The registry's schema follows its migrations: a registry written by an older
// sextant is brought forward when a newer one opens it, and one written by a
// newer sextant is refused with a message instead of being misread. On the
// engine the suite runs against (test/support/registry.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Migrator, sql, type Kysely } from 'kysely';
import { migrations } from '../../registry/migrations/index.js';
import type { Engine } from '../../src/registry/engine.js';
import { openPostgres } from '../../src/registry/dialect/postgres/engine.js';
import { openSqlite } from '../../src/registry/dialect/sqlite/engine.js';
import { openRegistry } from '../../src/registry/open.js';
import { TEST_ENGINE } from '../support/registry.js';
import { removeDir } from '../support/repos.js';
import { registryFile, testHome } from '../support/sextant.js';

/** The engine of a fresh registry, without any migration applied. */
function unmigrated(location: string): Engine {
  return TEST_ENGINE === 'postgres' ? openPostgres(location) : openSqlite(location);
}

async function columns(db: Kysely<any>, table: string): Promise<string[]> {
  const found = (await db.introspection.getTables()).find((t) => t.name === table);
  return found ? found.columns.map((c) => c.name) : [];
}

test(`a registry with only the first migration is migrated forward when opened (${TEST_ENGINE})`, async () => {
  const { home } = testHome();
  try {
    const old = unmigrated(registryFile(home));
    const first = Object.keys(migrations)[0]!;
    const migrator = new Migrator({
      db: old.db,
      provider: { getMigrations: async () => ({ [first]: { up: (db) => migrations[first]!.up(db, old.capabilities) } }) },
    });
    assert.equal((await migrator.migrateToLatest()).error, undefined);
    assert.ok(!(await columns(old.db, 'definitions')).includes('callable'));
    assert.ok(!(await columns(old.db, 'locks')).includes('expires_at'));
    await old.close();

    const current = await openRegistry({ registry: registryFile(home) });
    assert.ok((await columns(current.db, 'definitions')).includes('callable'));
    for (const table of ['locks', 'index_runs', 'index_jobs', 'watchers', 'uploads']) {
      assert.ok((await columns(current.db, table)).includes('expires_at'), `${table} has a lease`);
    }
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(current.db);
    assert.deepEqual(
      applied.rows.map((r) => r.name),
      Object.keys(migrations),
    );
    await current.close();
  } finally {
    removeDir(home);
  }
});

test(`a registry written by a newer sextant is refused with a message that names the fix (${TEST_ENGINE})`, async () => {
  const { home } = testHome();
  try {
    const engine = await openRegistry({ registry: registryFile(home) });
    await sql`insert into kysely_migration (name, timestamp) values ('9999_from_the_future', '2030-01-01T00:00:00.000Z')`.execute(
      engine.db,
    );
    await engine.close();
    await assert.rejects(openRegistry({ registry: registryFile(home) }), /written by a newer sextant.*upgrade sextant or pass another --registry/);
  } finally {
    removeDir(home);
  }
});
