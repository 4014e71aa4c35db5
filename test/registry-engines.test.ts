// What differs between registry engines and must hold on each: write locks
// as leases (a run on another host is judged by its lease, not by a pid this
// machine cannot see), garbage collection held off by any run in progress in
// any process, and no credentials in what a failure prints.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { openRegistry } from '../src/registry/open.js';
import type { Engine } from '../src/registry/engine.js';
import { LEASE_MS } from '../src/registry/lease.js';
import { Lookups } from '../src/registry/lookups.js';
import { padded, PreparedQueries } from '../src/registry/prepared.js';
import { currentLocks, ensureRepo, failRun, INTERRUPTED_REASON, startRun } from '../src/registry/repos.js';
import { PROJECT_ROOT } from './support/paths.js';
import { TEST_ENGINE } from './support/registry.js';
import { foreignRun } from './support/foreign-run.js';
import { fixtureRepo, removeDir, tempDir } from './support/repos.js';
import { indexOrThrow, registryFile, sextant, testHome } from './support/sextant.js';

const { home, env } = testHome();
let engine: Engine;
/** A second connection to the same registry, as another process would have. */
let other: Engine;

before(async () => {
  engine = await openRegistry({ registry: registryFile(home) });
  other = await openRegistry({ registry: registryFile(home) });
});

after(async () => {
  await engine.close();
  await other.close();
});

const mayCollect = (e: Engine) => e.db.transaction().execute((trx) => e.writers.mayCollect(trx));
const failed = { outcome: 'failed', reason: 'test', recovery: null, indexId: null, report: null };

describe(`write locks on ${TEST_ENGINE}`, () => {
  test('a lock held from another host stands while its lease runs, and is taken over once it has run out', async () => {
    const repo = await ensureRepo(engine.db, 'leased', null);
    const foreign = await foreignRun(engine, repo.id, new Date(Date.now() + 60_000).toISOString());
    await assert.rejects(startRun(engine, { repoId: repo.id, origin: 'cli', commit: null }), /another sextant run \(pid 4242 on ci-runner\.invalid/);
    assert.deepEqual(await currentLocks(engine.db), ['leased']);

    // The foreign run stopped renewing: a minute later its lease has run out.
    await engine.db.updateTable('locks').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('repo_id', '=', repo.id).execute();
    assert.deepEqual(await currentLocks(engine.db), []);
    const run = await startRun(engine, { repoId: repo.id, origin: 'cli', commit: null });
    const lock = await engine.db.selectFrom('locks').selectAll().where('repo_id', '=', repo.id).executeTakeFirstOrThrow();
    assert.equal(lock.run_id, run.id);
    const lease = Date.parse(lock.expires_at!) - Date.now();
    assert.ok(lease > LEASE_MS - 10_000 && lease <= LEASE_MS, `the new lock's lease runs ${lease} ms`);
    const taken = await engine.db.selectFrom('index_runs').select(['state', 'outcome', 'reason']).where('id', '=', foreign).executeTakeFirstOrThrow();
    assert.deepEqual(taken, { state: 'finished', outcome: 'failed', reason: INTERRUPTED_REASON });
    await failRun(engine.db, run, failed);
    assert.equal(await engine.db.selectFrom('locks').select('repo_id').executeTakeFirst(), undefined);
  });

  test('a lock from another host taken before leases existed is not taken over (this machine cannot tell)', async () => {
    const repo = await ensureRepo(engine.db, 'unleased', null);
    await foreignRun(engine, repo.id, null);
    await assert.rejects(startRun(engine, { repoId: repo.id, origin: 'cli', commit: null }), /another sextant run/);
    await engine.db.deleteFrom('locks').where('repo_id', '=', repo.id).execute();
  });
});

describe(`garbage collection and writers on ${TEST_ENGINE}`, () => {
  test('a run in progress in one process holds off collection in another until it ends', async () => {
    assert.equal(await mayCollect(other), true, 'nothing is being written');
    const repo = await ensureRepo(engine.db, 'writing', null);
    const run = await startRun(engine, { repoId: repo.id, origin: 'cli', commit: null });
    assert.equal(await mayCollect(other), false, 'a run is writing');
    await failRun(engine.db, run, failed);
    assert.equal(await mayCollect(other), true, 'the run ended');
  });

  test(
    'a writer that is killed stops holding off collection (its connection, and its advisory lock, end with it)',
    { skip: TEST_ENGINE !== 'postgres' && 'on SQLite a killed run leaves its lock row, taken over by the next run' },
    async () => {
      const script = join(tempDir(), 'writer.mjs');
      writeFileSync(
        script,
        `const { openRegistry } = await import(${JSON.stringify(join(PROJECT_ROOT, 'dist/src/registry/open.js'))});\n` +
          `const engine = await openRegistry({ registry: process.env.SEXTANT_REGISTRY });\n` +
          `await engine.writers.hold();\n` +
          `process.stdout.write('holding\\n');\n` +
          `setInterval(() => {}, 1000);\n`,
      );
      const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
      const [first] = (await once(child.stdout, 'data')) as [Buffer];
      assert.equal(first.toString().trim(), 'holding');
      assert.equal(await mayCollect(other), false, 'the writer holds');
      child.kill('SIGKILL');
      await once(child, 'exit');
      let free = false;
      for (let i = 0; i < 100 && !free; i++) {
        free = await mayCollect(other);
        if (!free) await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(free, true, 'the server released the killed writer\u2019s hold');
    },
  );
});

test(`files' lines read in batches are the lines read one by one, on ${TEST_ENGINE}`, async () => {
  // More files than one query reads, a file whose text was not kept, a hash that is not stored, and repeats.
  const blobs = Array.from({ length: 300 }, (_, i) => ({
    sha: `preload-${String(i).padStart(3, '0')}`,
    content: i === 7 ? null : `line one of ${i}\r\nline two\n\nlast ${'é'.repeat(i % 3)}`,
    byte_size: 40,
    skipped: i === 7 ? 'binary' : null,
  }));
  await engine.db.insertInto('blobs').values(blobs).execute();
  const shas = [...blobs.map((b) => b.sha), 'preload-missing', blobs[3]!.sha, blobs[299]!.sha];
  const batched = new Lookups(engine.db);
  const single = new Lookups(engine.db);
  await batched.preloadLines(shas.slice(0, 5)); // a short batch first: padded to a bucket's length
  await batched.preloadLines(shas);
  // Rows written after the batch are not read again: the batch's answers are cached, not asked for anew.
  await engine.db.updateTable('blobs').set({ content: 'changed' }).where('sha', '=', blobs[200]!.sha).execute();
  for (const sha of shas) {
    const expected = sha === blobs[200]!.sha ? `line one of 200\r\nline two\n\nlast ${'é'.repeat(2)}`.split(/\r\n|\r|\n/) : await single.lines(sha);
    assert.deepEqual(await batched.lines(sha), expected, sha);
  }
  assert.equal(await batched.lines(blobs[7]!.sha), null);
  assert.equal(await batched.lines('preload-missing'), null);
});

test(`references read while a reindex retires their index each name their repository, on ${TEST_ENGINE}`, async () => {
  const repo = fixtureRepo('ts-shapes');
  try {
    indexOrThrow(repo, env);
    const { id: indexId } = await engine.db
      .selectFrom('indexes as i')
      .innerJoin('repos as p', 'p.id', 'i.repo_id')
      .select('i.id')
      .where('p.slug', '=', 'ts-shapes')
      .executeTakeFirstOrThrow();
    const { symbol } = await engine.db
      .selectFrom('symbols as s')
      .innerJoin('symbol_refs as r', 'r.symbol_id', 's.id')
      .innerJoin('index_files as f', 'f.document_id', 'r.document_id')
      .select('s.symbol')
      .where('f.index_id', '=', indexId)
      .where('s.symbol', 'like', '%Circle#')
      .executeTakeFirstOrThrow();
    const lookups = new Lookups(engine.db);
    // Another process retires the index just after the references are read, as publishing a newer one of the same
    // commit does (its files and its row in one transaction): the moment a query of the answer ends.
    const prepared = (lookups as unknown as { prepared: { rows: (shape: string, ...rest: unknown[]) => Promise<unknown[]> } }).prepared;
    const rows = prepared.rows.bind(prepared);
    prepared.rows = async (shape, ...rest) => {
      const read = await rows(shape, ...rest);
      if (shape.startsWith('symbolRefs:'))
        await other.db.transaction().execute(async (trx) => {
          await trx.deleteFrom('index_files').where('index_id', '=', indexId).execute();
          await trx.deleteFrom('indexes').where('id', '=', indexId).execute();
        });
      return read;
    };
    const refs = await lookups.symbolRefs([indexId], [symbol]);
    assert.ok(refs.length > 0, `${symbol} has references`);
    assert.deepEqual(
      refs.filter((r) => r.repo !== 'ts-shapes').map((r) => r.path),
      [],
      'every reference names its repository',
    );
  } finally {
    removeDir(repo);
  }
});

test(`an index a publish retires keeps its rows until the next publish, so an answer from it reads all of it, on ${TEST_ENGINE}`, async () => {
  const repo = fixtureRepo('ts-shapes');
  const slug = 'retiring';
  try {
    const rowsOf = async (indexId: number) =>
      Number(
        (
          await engine.db
            .selectFrom('index_files')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('index_id', '=', indexId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const stateOf = async (indexId: number) =>
      (await engine.db.selectFrom('indexes').select('state').where('id', '=', indexId).executeTakeFirst())?.state;
    const first: number = indexOrThrow(repo, env, '--repo', slug).index_id;
    const files = await rowsOf(first);
    assert.ok(files > 0);
    // What a server answering from the first index reads, before and after the publishes below.
    const lookups = new Lookups(engine.db);
    const path = 'src/shapes.ts';
    const row = await lookups.file(first, path);
    assert.ok(row?.document_id, `${path} has a document`);
    const definitions = await lookups.definitionsInFile(first, row.document_id, path);
    assert.ok(definitions.length > 0);

    // An edit, indexed: an index of the same commit, which retires the first.
    writeFileSync(join(repo, 'src', 'edited.ts'), 'export const edited = 1;\n');
    const second: number = indexOrThrow(repo, env, '--repo', slug).index_id;
    assert.notEqual(second, first);
    assert.equal(await stateOf(first), 'retired', 'no longer answers new questions');
    assert.equal(await rowsOf(first), files, 'its files stay');
    assert.deepEqual(
      await new Lookups(engine.db).definitionsInFile(first, row.document_id, path),
      definitions,
      'its definitions read the same',
    );
    assert.equal(await lookups.index(first), undefined, 'not published: a new answer does not start from it');

    // The next publish deletes it, and retires the second.
    writeFileSync(join(repo, 'src', 'edited.ts'), 'export const edited = 2;\n');
    indexOrThrow(repo, env, '--repo', slug);
    assert.equal(await stateOf(first), undefined);
    assert.equal(await rowsOf(first), 0);
    assert.equal(await stateOf(second), 'retired');
  } finally {
    removeDir(repo);
  }
});

test(`a repository's current index is read again once the registry changed, by another process or by this one, on ${TEST_ENGINE}`, async () => {
  const repo = fixtureRepo('ts-shapes');
  try {
    const first: number = indexOrThrow(repo, env, '--repo', 'changing').index_id;
    const lookups = new Lookups(engine.db, engine);
    assert.equal((await lookups.current('changing'))?.index?.id, first);
    const token = engine.changeToken();
    assert.equal(engine.changeToken(), token, 'no write, no change');
    if (TEST_ENGINE === 'sqlite') assert.notEqual(token, null);

    // Another process publishes an edit: the next question is answered from its index.
    writeFileSync(join(repo, 'src', 'edited.ts'), 'export const edited = 1;\n');
    const second: number = indexOrThrow(repo, env, '--repo', 'changing').index_id;
    assert.notEqual(second, first);
    assert.equal((await lookups.current('changing'))?.index?.id, second);

    // This connection registers a repository it was just asked about in vain.
    assert.equal(await lookups.current('registered-here'), undefined);
    await ensureRepo(engine.db, 'registered-here', null);
    assert.equal((await lookups.current('registered-here'))?.repo.slug, 'registered-here');
  } finally {
    removeDir(repo);
  }
});

test(`the files holding a text are those that hold it case and all, with or without a trigram to narrow by, on ${TEST_ENGINE}`, async () => {
  const repo = fixtureRepo('ts-shapes');
  try {
    const indexId: number = indexOrThrow(repo, env, '--repo', 'holding').index_id;
    const lookups = new Lookups(engine.db, engine);
    const files = await engine.db
      .selectFrom('index_files as f')
      .innerJoin('blobs as b', 'b.sha', 'f.blob_sha')
      .select(['f.path', 'f.blob_sha', 'f.language', 'b.content'])
      .where('f.index_id', '=', indexId)
      .orderBy('f.path')
      .execute();
    const holding = (text: string) =>
      files.filter((f) => f.language === 'typescript' && f.content?.includes(text)).map((f) => ({ path: f.path, blob_sha: f.blob_sha }));
    // Some files hold `Circle` and not `circle`: a test that ignores case lists them for `circle`. `ci` has no trigram;
    // `%` and `_` are no wildcards.
    const circle = holding('circle').length;
    assert.ok(circle > 0 && circle < holding('Circle').length, 'the fixture tells the two cases apart');
    for (const text of ['circle', 'Circle', 'ci', 'C%e', 'C_rcle', 'nowhere to be found'])
      assert.deepEqual(await lookups.filesContaining(indexId, ['typescript'], text), holding(text), text);
    assert.deepEqual(await lookups.filesContaining(indexId, ['python'], 'Circle'), []);
    assert.deepEqual(await lookups.filesContaining(indexId, [], 'Circle'), []);
  } finally {
    removeDir(repo);
  }
});

test(`the documents referring to symbols are those their references are in, on ${TEST_ENGINE}`, async () => {
  const repo = fixtureRepo('ts-shapes');
  try {
    const indexId: number = indexOrThrow(repo, env, '--repo', 'referring').index_id;
    const lookups = new Lookups(engine.db);
    const row = await lookups.file(indexId, 'src/geometry.ts');
    assert.ok(row?.document_id, 'src/geometry.ts has a document');
    const defined = await lookups.definitionsInFile(indexId, row.document_id, row.path);
    const globals = [...new Set(defined.map((d) => d.symbol))].filter((s) => !s.startsWith('local '));
    let widest = 0;
    for (let n = 1; n <= globals.length; n++) {
      const some = globals.slice(0, n);
      const expected = new Set((await new Lookups(engine.db).symbolRefs([indexId], some)).map((r) => r.document_id));
      assert.deepEqual(await lookups.documentsReferringTo(indexId, some), expected, `${n} symbols`);
      widest = Math.max(widest, expected.size);
    }
    assert.ok(widest > 1, `the symbols are referred to from ${widest} documents`);
    assert.deepEqual(await lookups.documentsReferringTo(indexId, []), new Set());
  } finally {
    removeDir(repo);
  }
});

test(`a file's possible callers are its callables and classes with an extent, and its module, on ${TEST_ENGINE}`, async () => {
  const repo = fixtureRepo('ts-shapes');
  try {
    const indexId: number = indexOrThrow(repo, env, '--repo', 'calling').index_id;
    const lookups = new Lookups(engine.db);
    const files = await engine.db.selectFrom('index_files').select(['path', 'document_id']).where('index_id', '=', indexId).execute();
    let fewer = 0;
    for (const { path, document_id } of files) {
      if (document_id === null) continue;
      const all = await lookups.definitionsInFile(indexId, document_id, path);
      const expected = all.filter((d) => d.kind === 'module' || ((d.callable || d.kind === 'class') && d.enclosing_start_line !== null));
      assert.deepEqual(await lookups.callersInFile(indexId, document_id, path), expected, path);
      if (expected.length < all.length) fewer++;
    }
    assert.ok(fewer > 0, 'some file has definitions that cannot call');
  } finally {
    removeDir(repo);
  }
});

test(`lookups by lists of any length answer as one by one, with a query compiled per power of two, on ${TEST_ENGINE}`, async () => {
  const repo = fixtureRepo('ts-shapes');
  try {
    const indexId: number = indexOrThrow(repo, env, '--repo', 'listed').index_id;
    const lookups = new Lookups(engine.db);
    const path = 'src/geometry.ts';
    const row = await lookups.file(indexId, path);
    assert.ok(row?.document_id, `${path} has a document`);
    const inFile = await lookups.definitionsInFile(indexId, row.document_id, path);
    const globals = [...new Set(inFile.map((d) => d.symbol).filter((s) => !s.startsWith('local ')))];
    const locals = [...new Set(inFile.map((d) => d.symbol).filter((s) => s.startsWith('local ')))];
    assert.ok(globals.length >= 9 && locals.length >= 2, `${globals.length} global and ${locals.length} local symbols`);
    const key = (d: { symbol: string; start_line: number; start_char: number }) => `${d.symbol}@${d.start_line}:${d.start_char}`;
    const sorted = (rows: { symbol: string; start_line: number; start_char: number }[]) => rows.map(key).sort();
    // Each length from 1 to 9 against the same symbols asked one at a time, by a fresh Lookups (no cache between them).
    for (let n = 1; n <= 9; n++) {
      const some = globals.slice(0, n);
      const one = (await Promise.all(some.map((s) => new Lookups(engine.db).definitionsOf([indexId], [s])))).flat();
      assert.deepEqual(sorted(await new Lookups(engine.db).definitionsOf([indexId], some)), sorted(one), `${n} symbols`);
    }
    // A local's definitions are read through its document: the rows of the file's own definitions for it.
    for (const local of locals) {
      const expected = inFile.filter((d) => d.symbol === local);
      assert.deepEqual(await lookups.localDefinitions(indexId, row.document_id, path, [local]), expected, local);
    }
    assert.deepEqual(await lookups.localDefinitions(indexId, row.document_id, path, locals), inFile.filter((d) => locals.includes(d.symbol)));

    // Lists of lengths 1 to 9 (and an id repeated) compile 5 queries: 1, 2, 4, 8 and 16.
    const prepared = new PreparedQueries(engine.db);
    let compiled = 0;
    const slugsIn = async (slugs: string[]) =>
      (
        await prepared.rowsIn('slugs', [slugs], ([named]) => {
          compiled++;
          return engine.db.selectFrom('repos').select('slug').where('slug', 'in', named!).orderBy('slug');
        })
      ).map((r) => r.slug);
    for (let n = 1; n <= 9; n++) {
      const asked = ['listed', ...Array.from({ length: n - 1 }, (_, i) => `absent-${i}`)];
      assert.deepEqual(await slugsIn(asked), ['listed'], `${n} names`);
    }
    assert.equal(compiled, 5);
    assert.deepEqual(padded([]), []);
    assert.deepEqual(padded([1, 2, 3]), [1, 2, 3, 3]);
  } finally {
    removeDir(repo);
  }
});

test('a postgres:// registry that cannot be reached: one line naming the server, without user or password', () => {
  const url = 'postgres://alice:s3cret-pw@127.0.0.1:1/team?sslmode=disable&password=other-secret';
  for (const args of [['status', '--all'], ['def', 'x', '--repo', 'r']]) {
    const r = sextant([...args, '--registry', url], { env });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /registry at postgres:\/\/127\.0\.0\.1:1\/team\b/);
    assert.doesNotMatch(r.stderr + r.stdout, /alice|s3cret|other-secret/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
  // From the environment too.
  const r = sextant(['status', '--all'], { env: { ...env, SEXTANT_REGISTRY: url } });
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stderr, /alice|s3cret|other-secret/);
});
