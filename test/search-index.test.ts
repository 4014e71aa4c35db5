// The search index is content-addressed like the blobs: one entry per blob,
// filled from the blobs a registry already held when it is created, and
// collected with the blobs when the indexes that listed them are retired.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { migrations } from '../registry/migrations/index.js';
import { openSqlite } from '../src/registry/dialect/sqlite/engine.js';
import { openRegistry } from '../src/registry/open.js';
import { literal } from '../src/registry/text-query.js';
import { searchOnlyEnv } from './support/ripgrep.js';
import { commitAll, fixtureRepo, removeDir, tempDir } from './support/repos.js';
import { indexOrThrow, registryFile, sextant, testHome } from './support/sextant.js';

/** Blobs the engine's substring index finds for `phrase` (FTS5 trigrams on SQLite, pg_trgm on Postgres). */
async function phraseCount(location: string, phrase: string): Promise<number> {
  const engine = await openRegistry({ registry: location });
  try {
    const candidates = engine.textIndex!.candidates(literal(phrase));
    assert.ok(candidates, `the index narrows by "${phrase}"`);
    return (await candidates.execute(engine.db)).rows.length;
  } finally {
    await engine.close();
  }
}

/** An SQLite registry at `file` with the migrations before `version` applied, as an older sextant left it. */
async function migratedBefore(file: string, version: string): Promise<ReturnType<typeof openSqlite>> {
  const old = openSqlite(file);
  const before = Object.keys(migrations).filter((name) => name < version);
  const migrator = new Migrator({
    db: old.db,
    provider: {
      getMigrations: async () => Object.fromEntries(before.map((n) => [n, { up: (db: never) => migrations[n]!.up(db, old.capabilities) }])),
    },
  });
  assert.equal((await migrator.migrateToLatest()).error, undefined);
  return old;
}

test('a registry from before search gets its stored texts indexed when it is opened', async () => {
  const dir = tempDir();
  const file = join(dir, 'registry.db');
  try {
    const old = await migratedBefore(file, '0004');
    await sql`insert into blobs (sha, content, byte_size, skipped) values ('aa', 'const legacyWidget = 1;', 23, null), ('bb', null, 9, 'binary')`.execute(
      old.db,
    );
    await old.close();
    assert.equal(await phraseCount(file, 'legacywidget'), 1);
    const engine = await openRegistry({ registry: file });
    const rows = await engine.db.selectFrom('search_blobs').select('sha').execute();
    assert.deepEqual(
      rows.map((r) => r.sha),
      ['aa'],
    );
    await engine.close();
  } finally {
    removeDir(dir);
  }
});

test('an index kept with positions (before 0012) is rebuilt without them, and finds the same blobs', async () => {
  const dir = tempDir();
  const file = join(dir, 'registry.db');
  try {
    const old = await migratedBefore(file, '0012');
    // The table as 0004 made it until 0012.
    await sql`drop table search_trigrams`.execute(old.db);
    await sql`create virtual table search_trigrams using fts5(content, content='', contentless_delete=1, tokenize='trigram')`.execute(
      old.db,
    );
    const long = 'export function aVeryLongFunctionNameThatHasManyMoreThanTwentyFourTrigrams(q = "quoted") {}';
    await sql`insert into blobs (sha, content, byte_size, skipped) values ('aa', ${long}, 90, null), ('bb', 'const other = 1;', 16, null)`.execute(
      old.db,
    );
    await sql`insert into search_blobs (sha) values ('aa'), ('bb')`.execute(old.db);
    await sql`insert into search_trigrams (rowid, content) select s.id, b.content from search_blobs s join blobs b on b.sha = s.sha`.execute(
      old.db,
    );
    await old.close();

    const engine = await openRegistry({ registry: file });
    const table = await sql<{ sql: string }>`select sql from sqlite_master where name = 'search_trigrams'`.execute(engine.db);
    await engine.close();
    assert.match(table.rows[0]!.sql, /detail=none/);
    assert.equal(
      await phraseCount(file, 'ManyMoreThanTwentyFourTrigrams(q = "quoted")'),
      1,
      'a literal of more trigrams than are asked, quotes included',
    );
    assert.equal(await phraseCount(file, 'oth'), 1, 'a literal of one trigram');
    assert.equal(await phraseCount(file, 'const'), 1);
    assert.equal(await phraseCount(file, 'absent text'), 0);
  } finally {
    removeDir(dir);
  }
});

test('entries of blobs no kept index lists are collected with the blobs', async () => {
  const { home, env } = testHome();
  const indexEnv = { ...env, ...searchOnlyEnv() };
  const repo = fixtureRepo('ts-shapes');
  writeFileSync(join(repo, 'src', 'marker.ts'), 'export const marker = "oldMarkerText";\n');
  commitAll(repo, 'marker');
  indexOrThrow(repo, indexEnv);
  assert.equal(await phraseCount(registryFile(home), 'oldMarkerText'), 1);
  // The current index and the two before it are kept; the fourth index retires the first, and the fifth deletes it
  // (a retired index keeps its rows until the next publish, for the answers that were reading it).
  for (let i = 1; i <= 4; i++) {
    writeFileSync(join(repo, 'src', 'marker.ts'), `export const marker = "newMarkerText${i}";\n`);
    commitAll(repo, `marker ${i}`);
    indexOrThrow(repo, indexEnv);
  }
  assert.equal(await phraseCount(registryFile(home), 'oldMarkerText'), 0);
  assert.equal(await phraseCount(registryFile(home), 'newMarkerText1'), 1, 'retired, kept until the next publish');
  const engine = await openRegistry({ registry: registryFile(home) });
  try {
    // SQLite's index is a table of its own, whose entries must go with their blobs; pg_trgm's is an index on `blobs`.
    if (engine.capabilities.textIndex === 'fts5-trigram') {
      const blobs = await sql<{ n: number }>`select count(*) as n from blobs where content is not null`.execute(engine.db);
      const entries = await sql<{ n: number }>`select count(*) as n from search_blobs`.execute(engine.db);
      assert.equal(Number(entries.rows[0]!.n), Number(blobs.rows[0]!.n));
    }
  } finally {
    await engine.close();
  }
  const r = sextant(['search', 'MarkerText', '--repo', 'ts-shapes', '--json'], { env });
  assert.deepEqual(
    JSON.parse(r.stdout).matches.map((m: { preview: string }) => m.preview),
    ['export const marker = "newMarkerText4";'],
  );
});
