// Ctrl-C (SIGINT) and SIGTERM during `sextant index`: the run stops its
// indexer, removes its work files, publishes nothing, is recorded as failed
// ("interrupted by SIGINT") and exits 130 (SIGTERM: 143). The previous index
// keeps serving the same answers.
//
// As in the SIGKILL test (atomic-publish), the new version is ts-shapes plus
// rxjs's sources (~250 files), so the indexer runs for several seconds; the
// signal is sent at several points of a run, watched from outside through
// the registry (read-only) and /proc.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { npmPackage } from './support/corpus.js';
import { registry, runningIndexers, scalar, workDirsOf } from './support/index-runs.js';
import { SEXTANT_BIN } from './support/paths.js';
import { at } from './support/positions.js';
import { commitAll, fixtureRepo, removeDir } from './support/repos.js';
import { TEST_ENGINE } from './support/registry.js';
import { indexOrThrow, mcpSession, sextant, testHome } from './support/sextant.js';

const repo = 'ts-shapes';
const { home, env } = testHome();
let root: string;
let firstCommit: string;
let firstIndexId: number;
let secondCommit: string;
/** What the first index answers, by the CLI, to compare with after each interruption. */
let answers: string[];

/** A few questions to the published index, as JSON text. */
function ask(): string[] {
  const def = at(root, 'src/main.ts', 4, 'make(');
  const refs = at(root, 'src/util/format.ts', 3, 'formatArea');
  return [
    ['def', `${def.path}:${def.line}:${def.column}`],
    ['refs', `${refs.path}:${refs.line}:${refs.column}`],
    // A name no vendored rxjs file mentions: files added since the index that mention the query are outlined
    // by a language server (a cold tsserver over rxjs for each CLI call), which is not this file's subject.
    ['symbols', 'circle'],
  ].map((args) => {
    const r = sextant([...args, '--repo', repo, '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    // The same answer, envelope included, but for when it was generated and how fresh it is: after the
    // interrupted run HEAD is a commit without an index, answered from its nearest indexed ancestor (flagged so).
    const answer = JSON.parse(r.stdout);
    for (const field of ['index_freshness', 'stale', 'nearest_commit']) delete answer[field];
    for (const field of ['generated_at', 'index_freshness', 'confidence']) delete answer.meta[field];
    return JSON.stringify(answer);
  });
}

type Phase = 'before the indexer starts' | 'while the indexer runs' | 'during ingest';

/** Whether a run (watched through the registry and /proc) has reached `phase`. */
function reached(phase: Phase, runsBefore: number, documentsBefore: number): boolean {
  const db = registry(home);
  try {
    if (phase === 'before the indexer starts') return scalar<number>(db, 'select count(*) from index_runs') > runsBefore;
    if (phase === 'while the indexer runs') return runningIndexers(root).length > 0;
    return scalar<number>(db, 'select count(*) from documents') > documentsBefore;
  } finally {
    db.close();
  }
}

interface Interruption {
  code: number | null;
  stdout: string;
  stderr: string;
  pid: number;
  runId: number;
}

/** Starts `sextant index`, sends `signal` once the run reaches `phase`, and waits for it to exit. */
async function interrupt(signal: 'SIGINT' | 'SIGTERM', phase: Phase): Promise<Interruption> {
  const db = registry(home);
  const runsBefore = scalar<number>(db, 'select count(*) from index_runs');
  const documentsBefore = scalar<number>(db, 'select count(*) from documents');
  db.close();
  const child = spawn(process.execPath, [SEXTANT_BIN, 'index', root, '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  let code: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (c) => {
      code = c;
      resolve();
    }),
  );
  while (code === undefined && !reached(phase, runsBefore, documentsBefore)) await sleep(10);
  assert.equal(code, undefined, `sextant index exited (${code}) before the signal: ${stderr}`);
  child.kill(signal);
  await exited;
  const after = registry(home);
  const runId = scalar<number>(after, 'select max(id) from index_runs');
  after.close();
  return { code: code!, stdout, stderr, pid: child.pid!, runId };
}

before(() => {
  root = fixtureRepo('ts-shapes');
  const report = indexOrThrow(root, env);
  firstCommit = report.commit;
  firstIndexId = report.index_id;
  answers = ask();
  cpSync(join(npmPackage('rxjs', '7.8.2'), 'src'), join(root, 'src', 'rxjs'), { recursive: true });
  secondCommit = commitAll(root, 'vendor rxjs');
});

after(() => {
  removeDir(join(root, '..'));
  removeDir(home);
});

const cases: ['SIGINT' | 'SIGTERM', Phase, number][] = [
  ['SIGINT', 'before the indexer starts', 130],
  ['SIGINT', 'while the indexer runs', 130],
  ['SIGTERM', 'while the indexer runs', 143],
  ['SIGINT', 'during ingest', 130],
  ['SIGTERM', 'during ingest', 143],
];

// On Postgres, the interruptions while the engine holds a run's uncommitted writes: before ingest, a run has
// written only its run row and lock, through the same code on both engines, which the SQLite half covers.
for (const [signal, phase, exitCode] of cases.filter(([, phase]) => TEST_ENGINE === 'sqlite' || phase === 'during ingest')) {
  describe(`${signal} ${phase}`, () => {
    let stopped: Interruption;
    before(async () => {
      stopped = await interrupt(signal, phase);
    });

    test(`exits ${exitCode} with one line saying it was interrupted and published nothing (with --json, as {error} on stdout too)`, () => {
      assert.equal(stopped.code, exitCode, stopped.stderr);
      const said = `interrupted by ${signal}: nothing was published; the previous index, if any, is still served`;
      assert.equal(stopped.stderr, `sextant index: ${said}\n`);
      assert.deepEqual(JSON.parse(stopped.stdout), { error: said });
    });

    test('published nothing, recorded the run failed, released the lock, stopped the indexer, removed its work files', () => {
      const db = registry(home);
      try {
        assert.equal(scalar<number>(db, 'select current_index_id from repos where slug = ?', repo), firstIndexId);
        assert.equal(scalar<number>(db, 'select count(*) from indexes where commit_sha = ?', secondCommit), 0);
        assert.equal(scalar<number>(db, "select count(*) from indexes where state != 'published'"), 0);
        const run = db.prepare('select state, outcome, reason, commit_sha from index_runs where id = ?').get(stopped.runId) as Record<
          string,
          string
        >;
        assert.deepEqual(
          { state: run.state, outcome: run.outcome, commit: run.commit_sha },
          { state: 'finished', outcome: 'failed', commit: secondCommit },
        );
        assert.match(run.reason, new RegExp(`^interrupted by ${signal} before it published`));
        assert.equal(scalar<number>(db, 'select count(*) from locks'), 0);
      } finally {
        db.close();
      }
      assert.deepEqual(runningIndexers(root), [], 'no indexer left running');
      assert.deepEqual(workDirsOf(stopped.pid), [], 'no work directory left');
    });

    test('the previous index serves the same answers, and status reports the run failed', () => {
      assert.deepEqual(ask(), answers);
      const r = sextant(['status', repo, '--json'], { env });
      assert.equal(r.code, 0, r.stderr);
      const status = JSON.parse(r.stdout);
      assert.equal(status.status, 'indexed');
      assert.equal(status.commit, firstCommit);
      assert.equal(status.write_lock_present, false);
      assert.equal(status.last_index_run.outcome, 'failed');
      assert.equal(status.last_index_run.commit, secondCommit);
      assert.match(
        status.last_index_run.reason,
        new RegExp(`interrupted by ${signal} before it published; the previous index, if any, is still served`),
      );
      assert.match(status.last_index_run.recovery, /sextant index/);
    });
  });
}

test('over MCP too, the previous index answers and the last run is reported failed', async () => {
  const session = await mcpSession(env);
  try {
    const { result: status } = await session.call('getIndexStatus', { repo });
    assert.equal(status.commit, firstCommit);
    assert.equal(status.capabilities.navigation.available, true);
    assert.equal(status.last_index_run.outcome, 'failed');
    assert.match(status.last_index_run.reason, /^interrupted by SIGTERM/);
    const d = await session.ok('goToDefinition', { repo, ...at(root, 'src/main.ts', 4, 'make(') });
    assert.equal(d.commit, firstCommit);
    assert.deepEqual(JSON.parse(answers[0]!).definitions, d.definitions);
  } finally {
    await session.close();
  }
});
