// Reindex jobs end to end: the MCP reindex tool and `sextant reindex`, run by
// real indexers on a real repository. An async request returns its job at
// once and getIndexStatus follows it to completed; a second request joins it;
// a job whose process is killed is reported failed while the previous index
// keeps serving; a query on a registered repository without an index
// schedules a reindex and a later query answers; bad requests change nothing.
//
// The repository is ts-shapes plus rxjs's sources (~250 files), committed
// after a first index, so a job runs for several seconds and can be watched.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { npmPackage } from './support/corpus.js';
import { registry, runningIndexers, scalar } from './support/index-runs.js';
import { FIXTURES, SEXTANT_BIN } from './support/paths.js';
import { at } from './support/positions.js';
import { commitAll, fixtureRepo, gitRepoFrom, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, sextant, testHome, toolError, type McpSession } from './support/sextant.js';

const repo = 'ts-shapes';
const { home, env } = testHome();
let root: string;
let secondCommit: string;
let session: McpSession;

/** Where `make` is defined, asked at its call in main.ts. */
const definitionOfMake = () => ({ repo, ...at(root, 'src/main.ts', 4, 'make(') });

/** /proc/PID/stat, or '' once the process is reaped. */
function procStat(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return '';
  }
}

function jobsTable(): { id: number; state: string; pid: number | null; error: string | null }[] {
  const db = registry(home);
  try {
    return db.prepare('select id, state, pid, error from index_jobs order by id').all() as never;
  } finally {
    db.close();
  }
}

/** Polls getIndexStatus until the job ends; the job states seen on the way, in order, without repeats. */
async function follow(jobId: string, status: (repo: string) => Promise<any>, slug = repo): Promise<{ states: string[]; last: any }> {
  const states: string[] = [];
  for (;;) {
    const s = await status(slug);
    assert.equal(s.job_id, jobId, 'status reports the job');
    if (states.at(-1) !== s.job_state) states.push(s.job_state);
    if (!['queued', 'running'].includes(s.job_state)) return { states, last: s };
    await sleep(50);
  }
}

before(async () => {
  root = fixtureRepo('ts-shapes');
  indexOrThrow(root, env);
  cpSync(join(npmPackage('rxjs', '7.8.2'), 'src'), join(root, 'src', 'rxjs'), { recursive: true });
  secondCommit = commitAll(root, 'vendor rxjs');
  session = await mcpSession(env);
});

after(async () => {
  await session.close();
  removeDir(join(root, '..'));
  removeDir(home);
});

test('reindex is listed as a tool that writes (not read-only)', async () => {
  const { tools } = await session.client.listTools();
  const tool = tools.find((t) => t.name === 'reindex');
  assert.ok(tool, 'reindex is listed');
  assert.equal(tool.annotations?.readOnlyHint, false);
  assert.equal(tool.annotations?.destructiveHint, false);
  assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}).sort(), ['max_bytes', 'mode', 'repo', 'repo_path']);
});

describe('bad requests get one line naming the fix and change nothing', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['an unknown repository', { repo: 'no-such-repo' }, /unknown repository "no-such-repo" \(known: ts-shapes\).*pass a registered name/],
    ['both repo and repo_path', { repo, repo_path: '.' }, /pass either repo .* or repo_path .*, not both/],
    ['neither', {}, /pass repo .* or repo_path/],
    ['a bad mode', { repo, mode: 'later' }, /mode must be 'blocking' .* or 'async'/],
    ['a repo_path that is no repository', { repo_path: '/nonexistent/sextant-test' }, /does not exist: pass the path of a git repository/],
  ];
  for (const [what, args, message] of cases) {
    test(what, async () => {
      const jobs = jobsTable().length;
      assert.match(await toolError(session, 'reindex', args), message);
      assert.equal(jobsTable().length, jobs, 'no job was queued');
    });
  }

  test('on the command line too', () => {
    for (const [args, code, message] of [
      [['--repo', 'no-such-repo'], 1, /unknown repository "no-such-repo"/],
      [[root, '--repo', repo], 1, /pass either PATH .* or --repo NAME .*, not both/],
      [['--later'], 2, /Unknown option '--later'/],
      [[root, root], 2, /unexpected argument/],
    ] as const) {
      const r = sextant(['reindex', ...args], { env });
      assert.equal(r.code, code, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split('\n').length, 1, 'one line');
    }
    assert.equal(jobsTable().length, 0);
  });
});

describe('async reindex over MCP', () => {
  let jobId: string;
  let seen: string[];
  let joinedBlocking: any;

  before(async () => {
    const started = await session.ok('reindex', { repo, mode: 'async' });
    assert.equal(started.job_state, 'queued', 'the job is returned before its process takes it');
    assert.equal(started.reindexed, true);
    assert.equal(started.joined, false);
    assert.equal(started.lifecycle, 'queued');
    assert.equal(started.report, undefined, 'no report: it did not wait');
    jobId = started.job_id;

    // A second request, async then blocking, joins it.
    const again = await session.ok('reindex', { repo_path: root, mode: 'async' });
    assert.deepEqual([again.job_id, again.joined, again.reindexed], [jobId, true, false]);
    const blocking = session.ok('reindex', { repo });
    const followed = await follow(jobId, (r) => session.ok('getIndexStatus', { repo: r }));
    seen = followed.states;
    joinedBlocking = await blocking;
  });

  test('getIndexStatus follows the job from queued or running to completed, with the lifecycle', async () => {
    assert.ok(['queued', 'running'].includes(seen[0]!), seen.join(' -> '));
    assert.ok(seen.includes('running'), `the running state was seen: ${seen.join(' -> ')}`);
    assert.equal(seen.at(-1), 'completed', seen.join(' -> '));
    const order = ['queued', 'running', 'completed'];
    assert.deepEqual(
      [...seen].sort((a, b) => order.indexOf(a) - order.indexOf(b)),
      seen,
      'states only move forward',
    );
    const status = await session.ok('getIndexStatus', { repo, repo_path: root });
    assert.equal(status.lifecycle, 'ready');
    assert.equal(status.commit, secondCommit);
    assert.equal(status.job_error, null);
  });

  test('a blocking request made meanwhile joined the same job and returned its report', () => {
    assert.equal(joinedBlocking.job_id, jobId);
    assert.equal(joinedBlocking.joined, true);
    assert.equal(joinedBlocking.job_state, 'completed');
    assert.equal(joinedBlocking.lifecycle, 'ready');
    assert.equal(joinedBlocking.report.commit, secondCommit);
    assert.equal(joinedBlocking.report.outcome, 'indexed');
    assert.ok(joinedBlocking.report.documents > 200, `${joinedBlocking.report.documents} documents`);
  });

  test('one job ran: one row, completed, and the new index answers', async () => {
    assert.deepEqual(
      jobsTable().map((j) => [String(j.id), j.state]),
      [[jobId, 'completed']],
    );
    const d = await session.ok('goToDefinition', definitionOfMake());
    assert.equal(d.commit, secondCommit);
    assert.equal(d.definitions[0].path, 'src/geometry.ts');
  });
});

describe('a job whose process is killed', () => {
  let killed: { job_id: string; pid: number };
  let thirdCommit: string;

  before(async () => {
    appendFileSync(join(root, 'src', 'measure.ts'), '\nexport const added = 1;\n');
    thirdCommit = commitAll(root, 'one more export');
    // Started from the command line, which returns at once and leaves the job running.
    const r = sextant(['reindex', root, '--async', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const started = JSON.parse(r.stdout);
    assert.equal(started.job_state, 'queued');
    assert.equal(started.reindexed, true);
    assert.equal(typeof started.meta, 'object', 'the answer carries its envelope');
    // Killed outright once its indexer runs, as a crash or `kill -9` would.
    while (runningIndexers(root).length === 0) await sleep(20);
    const job = jobsTable().find((j) => String(j.id) === started.job_id)!;
    assert.equal(job.state, 'running');
    process.kill(job.pid!, 'SIGKILL');
    killed = { job_id: started.job_id, pid: job.pid! };
    // Gone once the kernel has taken it down (a zombie awaiting its reaper counts as gone).
    while (/^\d+ \(.*\) [^Z]/s.test(procStat(job.pid!))) await sleep(10);
  });

  test('is reported failed with why, and the previous index still serves', async () => {
    const status = await session.ok('getIndexStatus', { repo });
    assert.equal(status.job_id, killed.job_id);
    assert.equal(status.job_state, 'failed');
    assert.match(status.job_error, /died before it finished .* the previous index, if any, is still served/);
    assert.equal(status.commit, secondCommit);
    assert.equal(status.lifecycle, 'ready');
    const d = await session.ok('goToDefinition', definitionOfMake());
    assert.equal(d.commit, secondCommit);
    assert.equal(d.definitions[0].path, 'src/geometry.ts');
  });

  test("a new blocking reindex then runs (stopping the dead job's indexer) and publishes", async () => {
    const done = await session.ok('reindex', { repo });
    assert.notEqual(done.job_id, killed.job_id);
    assert.deepEqual([done.job_state, done.joined, done.reindexed, done.lifecycle], ['completed', false, true, 'ready']);
    assert.equal(done.report.commit, thirdCommit);
    // Content-addressed documents: only measure.ts's changed (and documents whose indexer output mentions it may too).
    assert.ok(done.report.documents_written >= 1 && done.report.documents_written < 10, `${done.report.documents_written} written`);
    assert.equal(done.report.documents_written + done.report.documents_reused, done.report.documents);
    assert.ok(done.report.documents_removed >= 1, 'the old measure.ts document is no longer used');
    assert.deepEqual(runningIndexers(root), [], 'no indexer left running');
  });
});

describe('automatic reindex of a registered repository without an index', () => {
  let other: string;
  const slug = 'auto-shapes';

  before(async () => {
    other = gitRepoFrom(join(FIXTURES, 'ts-shapes'), slug);
    // Registered, never published: its first index was killed before it published.
    const child = spawn(process.execPath, [SEXTANT_BIN, 'index', other, '--json'], { env, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    for (;;) {
      const db = registry(home);
      const runs = scalar<number>(db, 'select count(*) from index_runs r join repos p on p.id = r.repo_id where p.slug = ?', slug);
      db.close();
      if (runs > 0) break;
      await sleep(10);
    }
    child.kill('SIGKILL');
    await exited;
    const status = await session.ok('getIndexStatus', { repo: slug });
    assert.equal(status.index_missing, true);
    assert.equal(status.root_path, other);
  });

  after(() => removeDir(join(other, '..')));

  test('off (SEXTANT_AUTO_REINDEX=0): the query fails as before and schedules nothing', async () => {
    const off = await mcpSession({ ...env, SEXTANT_AUTO_REINDEX: '0' });
    try {
      const jobs = jobsTable().length;
      const message = await toolError(off, 'workspaceSymbols', { repo: slug, query: 'area' });
      assert.match(message, /has no published index/);
      assert.equal(jobsTable().length, jobs);
    } finally {
      await off.close();
    }
  });

  test('a query answers at once that the index is missing and names the job it scheduled; the next joins it', async () => {
    const jobs = jobsTable().length;
    const first = await session.call('goToDefinition', { repo: slug, symbol: 'make' });
    assert.equal(first.isError, true);
    assert.match(first.result.error, /auto-shapes has no published index yet: indexing it now \(job \d+, queued\)/);
    assert.equal(first.result.index_missing, true);
    assert.equal(first.result.auto_reindex_triggered, true);
    assert.equal(first.result.job_state, 'queued');
    const second = await session.call('findReferences', { repo: slug, symbol: 'make' });
    assert.equal(second.result.index_missing, true);
    assert.equal(second.result.auto_reindex_triggered, false, 'joined, not scheduled again');
    assert.equal(second.result.job_id, first.result.job_id);
    assert.equal(jobsTable().length, jobs + 1, 'one job for the repository');

    const { states, last } = await follow(first.result.job_id, (r) => session.ok('getIndexStatus', { repo: r }), slug);
    assert.equal(states.at(-1), 'completed', states.join(' -> '));
    assert.equal(last.lifecycle, 'ready');
    const d = await session.ok('goToDefinition', { repo: slug, symbol: 'make' });
    assert.equal(d.found, true);
    assert.equal(d.source, 'precise');
    // The same answer as the identical sources of ts-shapes give.
    const reference = await session.ok('goToDefinition', { repo, symbol: 'make' });
    const where = (answer: any) => answer.definitions.map((x: any) => [x.path, x.line, x.column, x.end_line, x.end_column]);
    assert.ok(where(d).length > 0);
    assert.deepEqual(where(d), where(reference));
    assert.equal(d.index_missing, undefined, 'a precise answer carries no missing-index fields');
  });
});

test('killing the MCP server that asked stops its job: reported failed, and the previous index still serves', async () => {
  appendFileSync(join(root, 'src', 'shapes.ts'), '\nexport const shapesEdited = true;\n');
  commitAll(root, 'edit shapes');
  const previous = (await session.ok('getIndexStatus', { repo })).commit;
  const doomed = await mcpSession(env);
  const started = await doomed.ok('reindex', { repo, mode: 'async' });
  while (runningIndexers(root).length === 0) await sleep(20);
  process.kill((doomed.client.transport as StdioClientTransport).pid!, 'SIGKILL');
  await doomed.close().catch(() => undefined);
  const meanwhile = await session.ok('goToDefinition', definitionOfMake());
  assert.equal(meanwhile.commit, previous, 'the previous index answers while the job stops');
  const { states, last } = await follow(started.job_id, (r) => session.ok('getIndexStatus', { repo: r }));
  assert.equal(states.at(-1), 'failed', states.join(' -> '));
  assert.match(last.job_error, /the MCP server that started the job \(pid \d+\) stopped/);
  assert.equal(last.commit, previous, 'nothing was published');
  assert.equal(last.write_lock_present, false);
  const deadline = Date.now() + 30_000;
  while (runningIndexers(root).length > 0) {
    assert.ok(Date.now() < deadline, 'the indexer is stopped with its job');
    await sleep(50);
  }
  // The next request indexes the new commit.
  const again = await session.ok('reindex', { repo });
  assert.equal(again.job_state, 'completed');
});

test('`sextant reindex` blocking prints the report; a repository indexed under its folder name is found by its path', () => {
  const r = sextant(['reindex', '--json'], { env: { ...env }, cwd: root });
  assert.equal(r.code, 0, r.stderr);
  const done = JSON.parse(r.stdout);
  assert.equal(done.repo, repo);
  assert.deepEqual([done.job_state, done.reindexed, done.joined], ['completed', true, false]);
  assert.equal(done.report.documents_written, 0, 'nothing changed since the last index: every document is reused');
  assert.equal(done.report.documents_removed, 0);
  assert.equal(done.report.dirty, false);
});
