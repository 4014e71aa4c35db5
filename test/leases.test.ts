// Rows that stand for a live process — a reindex job, a watcher, an upload,
// an index run and its write lock — written as by a process on another host
// (whose pid this machine cannot check) are judged by their lease: alive while
// it holds, dead once it has run out. A dead job is reported failed naming the
// host and the lease, and a new reindex starts a job of its own instead of
// joining it; a dead watcher is not shown watching; a dead upload reads
// errored; a dead run is reported interrupted and its lock taken over. On this
// host a dead pid is dead at once, whatever its lease says; a live process
// renews its leases (a watcher whose lease ran out is renewed within the
// heartbeat, 20 s, so this file takes that long). Asked of a real
// `sextant mcp` over a real registry (SQLite or Postgres, see
// test/support/registry.ts); the rows are written straight into it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { Engine } from '../src/registry/engine.js';
import { LEASE_MS } from '../src/registry/lease.js';
import { openRegistry } from '../src/registry/open.js';
import { findRepo, INTERRUPTED_REASON, now } from '../src/registry/repos.js';
import { foreignRun, OTHER_HOST, OTHER_PID as PID } from './support/foreign-run.js';
import { SEXTANT_BIN } from './support/paths.js';
import { TEST_ENGINE } from './support/registry.js';
import { fixtureRepo, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, registryFile, testHome, type McpSession } from './support/sextant.js';

const slug = 'ts-shapes';
const { home, env } = testHome();
let root: string;
let repoId: number;
let engine: Engine;
let session: McpSession;

const inAMinute = () => new Date(Date.now() + 60_000).toISOString();
const aMinuteAgo = () => new Date(Date.now() - 60_000).toISOString();
/** Where a lease's expiry shows in a reason: ISO timestamps have regex metacharacters. */
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

before(async () => {
  root = fixtureRepo('ts-shapes');
  indexOrThrow(root, env);
  engine = await openRegistry({ registry: registryFile(home) });
  repoId = (await findRepo(engine.db, slug))!.id;
  session = await mcpSession(env);
});

after(async () => {
  await session.close();
  await engine.close();
  removeDir(join(root, '..'));
  removeDir(home);
});

/** A running job of a process on `host`. */
async function foreignJob(host: string, pid: number, expires: string): Promise<number> {
  const job = await engine.db
    .insertInto('index_jobs')
    .values({
      repo_id: repoId,
      root_path: root,
      origin: 'mcp',
      state: 'running',
      created_at: now(),
      started_at: now(),
      finished_at: null,
      pid,
      host,
      expires_at: expires,
      index_id: null,
      error: null,
      report: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return job.id;
}

const jobRow = (id: number) => engine.db.selectFrom('index_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Polls getIndexStatus until the job ends; its last answer. */
async function finished(jobId: string): Promise<any> {
  for (;;) {
    const s = await session.ok('getIndexStatus', { repo: slug });
    assert.equal(s.job_id, jobId, 'status reports the job');
    if (!['queued', 'running'].includes(s.job_state)) return s;
    await sleep(50);
  }
}

describe(`a reindex job run from another host (${TEST_ENGINE})`, () => {
  let id: number;

  test('is running, and joined by a new reindex, while its lease holds', async () => {
    id = await foreignJob(OTHER_HOST, PID, inAMinute());
    const status = await session.ok('getIndexStatus', { repo: slug });
    assert.equal(status.job_id, String(id));
    assert.equal(status.job_state, 'running');
    assert.equal(status.lifecycle, 'running');
    const joined = await session.ok('reindex', { repo: slug, mode: 'async' });
    assert.equal(joined.job_id, String(id), 'the new request joined the running job');
    assert.equal((await jobRow(id)).state, 'running');
  });

  test('is failed, naming the host and the expired lease, once its lease has run out', async () => {
    const expired = aMinuteAgo();
    await engine.db.updateTable('index_jobs').set({ expires_at: expired }).where('id', '=', id).execute();
    const status = await session.ok('getIndexStatus', { repo: slug });
    assert.equal(status.job_id, String(id));
    assert.equal(status.job_state, 'failed');
    assert.match(
      status.job_error,
      new RegExp(`pid ${PID} on ${escaped(OTHER_HOST)}\\) stopped renewing its lease, which ran out at ${escaped(expired)}`),
    );
    assert.match(status.job_error, /the previous index, if any, is still served/);
    assert.equal(status.lifecycle, 'ready', 'the previous index still serves');
    const row = await jobRow(id);
    assert.equal(row.state, 'failed', 'recorded failed in the registry, not only reported');
    assert.equal(row.error, status.job_error);
  });

  test('a new reindex then starts a job of its own, which this host runs to completion under a lease', async () => {
    const started = await session.ok('reindex', { repo: slug, mode: 'async' });
    assert.notEqual(started.job_id, String(id), 'the dead job is not joined');
    const last = await finished(started.job_id);
    assert.equal(last.job_state, 'completed', JSON.stringify(last.job_error));
    const row = await jobRow(Number(started.job_id));
    assert.equal(row.host, hostname());
    const lease = Date.parse(row.expires_at!) - Date.parse(row.started_at!);
    assert.ok(lease > 0 && lease <= LEASE_MS + 1000, `the job's lease ran ${lease} ms past its start`);
  });
});

describe(`a job of this host (${TEST_ENGINE})`, () => {
  test('whose process is gone is failed at once, though its lease has not run out', async () => {
    // A process that has exited and been reaped: its pid is free.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const id = await foreignJob(hostname(), gone, inAMinute());
    const status = await session.ok('getIndexStatus', { repo: slug });
    assert.equal(status.job_id, String(id));
    assert.equal(status.job_state, 'failed');
    assert.match(status.job_error, new RegExp(`died before it finished .*pid ${gone} on this host, ${escaped(hostname())}\\) is gone`));
  });
});

/** What registryStatus says of the repository's watcher. */
async function watcher(): Promise<string> {
  const r = await session.ok('registryStatus', {});
  return r.repos.find((x: any) => x.repo === slug).watcher;
}

describe(`a watcher on another host (${TEST_ENGINE})`, () => {
  test('is shown watching while its lease holds, and not once it has run out', async () => {
    assert.equal(await watcher(), 'none');
    await engine.db
      .insertInto('watchers')
      .values({
        repo_id: repoId,
        pid: PID,
        host: OTHER_HOST,
        started_at: now(),
        state: 'watching',
        pending: 0,
        last_event: null,
        last_event_at: null,
        expires_at: inAMinute(),
      })
      .execute();
    assert.equal(await watcher(), 'watching');
    await engine.db.updateTable('watchers').set({ expires_at: aMinuteAgo() }).where('host', '=', OTHER_HOST).execute();
    assert.equal(await watcher(), 'none');
    await engine.db.deleteFrom('watchers').where('host', '=', OTHER_HOST).execute();
  });
});

describe(`an upload processed on another host (${TEST_ENGINE})`, () => {
  test('is processing while its lease holds, and errored naming the host and the lease once it has run out', async () => {
    const upload = await engine.db
      .insertInto('uploads')
      .values({
        repo_id: repoId,
        commit_sha: 'a'.repeat(40),
        indexer: 'scip-typescript',
        indexer_version: null,
        state: 'processing',
        reason: null,
        file_sha256: 'b'.repeat(64),
        file_bytes: 1000,
        with_root: 0,
        created_at: now(),
        started_at: now(),
        finished_at: null,
        index_id: null,
        pid: PID,
        host: OTHER_HOST,
        expires_at: inAMinute(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const live = (await session.ok('getIndexStatus', { repo: slug })).uploads[0];
    assert.equal(live.id, upload.id);
    assert.equal(live.state, 'processing');
    assert.equal(live.reason, null);

    const expired = aMinuteAgo();
    await engine.db.updateTable('uploads').set({ expires_at: expired }).where('id', '=', upload.id).execute();
    const dead = (await session.ok('getIndexStatus', { repo: slug })).uploads[0];
    assert.equal(dead.state, 'errored');
    assert.match(
      dead.reason,
      new RegExp(`pid ${PID} on ${escaped(OTHER_HOST)}\\) stopped renewing its lease, which ran out at ${escaped(expired)}`),
    );
    assert.match(dead.reason, /nothing of this upload was published/);
  });
});

describe(`an index run on another host, holding the write lock (${TEST_ENGINE})`, () => {
  let runId: number;

  test('is running and holds the lock while its leases hold', async () => {
    runId = await foreignRun(engine, repoId, inAMinute());
    const status = await session.ok('getIndexStatus', { repo: slug });
    assert.equal(status.last_index_run.state, 'running');
    assert.equal(status.last_index_run.outcome, 'indexing');
    assert.equal(status.write_lock_present, true);
    assert.equal(status.lifecycle, 'running');
  });

  test('is reported interrupted once they have run out, and its lock is taken over by the next run', async () => {
    const expired = aMinuteAgo();
    await engine.db.updateTable('index_runs').set({ expires_at: expired }).where('id', '=', runId).execute();
    await engine.db.updateTable('locks').set({ expires_at: expired }).where('run_id', '=', runId).execute();
    const status = await session.ok('getIndexStatus', { repo: slug });
    assert.equal(status.last_index_run.state, 'finished');
    assert.equal(status.last_index_run.outcome, 'failed');
    assert.equal(status.last_index_run.reason, INTERRUPTED_REASON);
    assert.equal(status.write_lock_present, false);
    assert.equal(status.lifecycle, 'ready');

    indexOrThrow(root, env);
    const taken = await engine.db
      .selectFrom('index_runs')
      .select(['state', 'outcome', 'reason'])
      .where('id', '=', runId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(taken, { state: 'finished', outcome: 'failed', reason: INTERRUPTED_REASON });
    assert.equal(await engine.db.selectFrom('locks').select('run_id').where('repo_id', '=', repoId).executeTakeFirst(), undefined);
  });
});

describe(`a live process renews its leases (${TEST_ENGINE})`, () => {
  test("`sextant watch` renews its watcher's lease after it has run out, so other hosts keep seeing it watching", async () => {
    const watch = spawn(process.execPath, [SEXTANT_BIN, 'watch', root, '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      watch.stdout.on('data', (c: Buffer) => (out += c.toString()));
      while (!out.includes('"kind":"watching"')) await sleep(50);
      const mine = () =>
        engine.db.selectFrom('watchers').selectAll().where('repo_id', '=', repoId).where('pid', '=', watch.pid!).executeTakeFirstOrThrow();
      assert.ok(Date.parse((await mine()).expires_at!) > Date.now(), 'registered with a lease');
      // As if its lease had run out: the next heartbeat (every 20 s, well within a lease) renews it.
      await engine.db.updateTable('watchers').set({ expires_at: aMinuteAgo() }).where('pid', '=', watch.pid!).execute();
      while (Date.parse((await mine()).expires_at!) < Date.now()) await sleep(200);
      assert.equal(await watcher(), 'watching');
    } finally {
      watch.kill('SIGTERM');
      await once(watch, 'exit');
    }
    assert.equal(await watcher(), 'none', 'a stopped watcher removes its row');
  });
});
