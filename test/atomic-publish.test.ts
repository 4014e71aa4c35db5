// Atomic publish: a `sextant index` killed with SIGKILL while it ingests
// leaves the previously published index serving exactly as before, the run
// recorded as interrupted, no lock held by the dead process, and the next
// run publishes normally (collecting what the killed run left behind).
//
// The larger version is ts-shapes after a commit that adds rxjs's sources
// under src/rxjs (~250 files), so the indexer streams documents for
// several seconds. The registry (a real SQLite file) is polled read-only and
// the process is killed once its first documents are stored. Should a kill
// ever land after publishing, the attempt is repeated from a copy of the
// registry as it was, killing sooner; the test asserts the kill landed in
// time rather than assuming it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { npmPackage } from './support/corpus.js';
import { registry, runningIndexers, scalar, workDirsOf } from './support/index-runs.js';
import { SEXTANT_BIN } from './support/paths.js';
import { at, find, where } from './support/positions.js';
import { commitAll, fixtureRepo, removeDir, tempDir } from './support/repos.js';
import { indexOrThrow, mcpSession, sextant, testHome } from './support/sextant.js';
import { registryExists } from './support/registry.js';

const repo = 'ts-shapes';
const cleanup: string[] = [];
let root: string;
let firstCommit: string;
let firstIndexId: number;
let secondCommit: string;
/** The registry right after the first index, to restart an attempt from. */
let pristine: string;
let env: NodeJS.ProcessEnv;
let home: string;
let killed: { documentsBefore: number; documentsAtKill: number; runId: number; pid: number; signal: string | null; orphans: number[] };

/** Starts `sextant index`, waits until it has stored documents (plus `delayMs`), and kills it with SIGKILL. */
async function killDuringIngest(delayMs: number): Promise<typeof killed> {
  const db = registry(home);
  const documentsBefore = scalar<number>(db, 'select count(*) from documents');
  const child = spawn(process.execPath, [SEXTANT_BIN, 'index', root, '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.resume();
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    }),
  );
  while (!exit && scalar<number>(db, 'select count(*) from documents') <= documentsBefore) await sleep(15);
  if (exit) {
    db.close();
    throw new Error(`sextant index exited (${exit.code}) before any document was stored: ${stderr}`);
  }
  if (delayMs) await sleep(delayMs);
  const documentsAtKill = scalar<number>(db, 'select count(*) from documents');
  const runId = scalar<number>(db, 'select max(id) from index_runs');
  child.kill('SIGKILL');
  // Reaped: a zombie would still answer kill(pid, 0).
  await exited;
  db.close();
  return { documentsBefore, documentsAtKill, runId, pid: child.pid!, signal: exit!.signal, orphans: runningIndexers(root) };
}

before(async () => {
  root = fixtureRepo('ts-shapes');
  cleanup.push(join(root, '..'));
  const first = testHome();
  home = first.home;
  env = first.env;
  cleanup.push(home);
  const report = indexOrThrow(root, env);
  firstCommit = report.commit;
  firstIndexId = report.index_id;
  pristine = tempDir('sextant-pristine-');
  cleanup.push(pristine);
  for (const f of readdirSync(home)) copyFileSync(join(home, f), join(pristine, f));

  cpSync(join(npmPackage('rxjs', '7.8.2'), 'src'), join(root, 'src', 'rxjs'), { recursive: true });
  secondCommit = commitAll(root, 'vendor rxjs');

  // Kill sooner on each retry; each retry starts from the registry as the first index left it.
  for (const delayMs of [150, 0, 0]) {
    const attempt = await killDuringIngest(delayMs);
    const db = registry(home);
    const current = scalar<number>(db, 'select current_index_id from repos where slug = ?', repo);
    db.close();
    if (current === firstIndexId) {
      killed = attempt;
      break;
    }
    const fresh = testHome();
    cleanup.push(fresh.home);
    for (const f of readdirSync(pristine)) copyFileSync(join(pristine, f), join(fresh.home, f));
    home = fresh.home;
    env = fresh.env;
  }
  assert.ok(killed, 'a kill landed before publishing in one of the attempts');
});

after(() => {
  for (const dir of cleanup) removeDir(dir);
});

test('the kill landed during ingest, before publishing', () => {
  assert.equal(killed.signal, 'SIGKILL');
  // Documents of the new version had been stored...
  assert.ok(killed.documentsAtKill > killed.documentsBefore, `${killed.documentsAtKill} > ${killed.documentsBefore}`);
  const db = registry(home);
  try {
    // ...but nothing was published: the repository still points at the first index,
    // and the killed run never finished.
    assert.equal(scalar<number>(db, 'select current_index_id from repos where slug = ?', repo), firstIndexId);
    assert.equal(scalar<string>(db, 'select state from index_runs where id = ?', killed.runId), 'running');
    assert.equal(scalar<number>(db, "select count(*) from indexes where state != 'published'"), 0);
    assert.equal(scalar<number>(db, 'select count(*) from indexes where commit_sha = ?', secondCommit), 0);
  } finally {
    db.close();
  }
});

test('the previous index still answers, and nothing of the killed run is visible', async () => {
  const session = await mcpSession(env);
  try {
    const d = await session.call('goToDefinition', { repo, ...at(root, 'src/main.ts', 4, 'make(') });
    assert.equal(d.isError, false, JSON.stringify(d.result));
    assert.equal(d.result.commit, firstCommit);
    // The two overloads a two-argument call fits (line 33 is the implementation).
    assert.deepEqual(d.result.definitions.map(where), [at(root, 'src/geometry.ts', 31, 'make'), at(root, 'src/geometry.ts', 32, 'make')]);
    const r = await session.call('findReferences', { repo, ...at(root, 'src/util/format.ts', 3, 'formatArea') });
    assert.equal(r.result.total, 4);
    // The files the killed run was ingesting are not part of the served index: only their language server, reading
    // the worktree, answers there (a file the index does not list), never the killed run's documents.
    const vendored = await session.call('documentSymbols', { repo, path: 'src/rxjs/internal/Observable.ts' });
    assert.equal(vendored.isError, false, JSON.stringify(vendored.result));
    assert.deepEqual([vendored.result.source, vendored.result.commit], ['lsp', firstCommit]);

    const { result: status } = await session.call('getIndexStatus', { repo });
    assert.equal(status.commit, firstCommit);
    assert.equal(status.status, 'indexed');
    assert.equal(status.capabilities.navigation.available, true);
    assert.equal(status.last_index_run.outcome, 'failed');
    assert.match(
      status.last_index_run.reason,
      /stopped before it published \(killed or crashed\); the previous index, if any, is still served/,
    );
    assert.match(status.last_index_run.recovery, /sextant index/);
    assert.equal(status.last_index_run.commit, secondCommit);
    // The lock row is still there, but its process is dead: no live write lock.
    assert.equal(status.write_lock_present, false);
    assert.equal(status.corrupt, false);
  } finally {
    await session.close();
  }
});

test('a new `sextant index` succeeds, publishes the new version and collects what the killed run left', async () => {
  const report = indexOrThrow(root, env);
  // The next run stopped the indexer the killed run had started and removed its work directory.
  assert.deepEqual(workDirsOf(killed.pid), []);
  for (const pid of killed.orphans) assert.ok(!runningIndexers(root).includes(pid), `indexer ${pid} of the killed run was stopped`);
  assert.equal(report.commit, secondCommit);
  assert.equal(report.outcome, 'indexed');
  assert.notEqual(report.index_id, firstIndexId);

  const db = registry(home);
  try {
    assert.equal(scalar<number>(db, 'select current_index_id from repos where slug = ?', repo), report.index_id);
    // The interrupted run was closed as failed when the new run took its lock over.
    assert.equal(scalar<string>(db, 'select outcome from index_runs where id = ?', killed.runId), 'failed');
    assert.equal(scalar<number>(db, 'select count(*) from locks'), 0);
    // Every stored document belongs to a published index: the killed run's leftovers were collected.
    assert.equal(
      scalar<number>(
        db,
        'select count(*) from documents where id not in (select document_id from index_files where document_id is not null)',
      ),
      0,
    );
  } finally {
    db.close();
  }

  const status = JSON.parse(sextant(['status', repo, '--json'], { env }).stdout);
  assert.equal(status.commit, secondCommit);
  assert.equal(status.last_index_run.outcome, 'indexed');
  assert.equal(status.write_lock_present, false);

  // The new version answers, in the vendored code too.
  const vendored = 'src/rxjs/internal/util/lift.ts';
  const use = find(root, vendored, /^import \{ (Observable) \} from '\.\.\/Observable'/);
  const def = JSON.parse(sextant(['def', `${use.path}:${use.line}:${use.column}`, '--repo', repo, '--json'], { env }).stdout);
  assert.deepEqual(def.definitions.map(where), [find(root, 'src/rxjs/internal/Observable.ts', /^export class (Observable)\b/)]);
  assert.ok(registryExists(home));
});
