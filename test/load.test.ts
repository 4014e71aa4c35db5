// Load during a publish, at CI scale: 4 clients, each with its own
// `sextant mcp` process over one registry file, ask at least 150 queries
// each (all eight navigation and status tools, mixed) while `sextant index` publishes commit B over commit A (see
// test/support/load.ts). No answer may fail, every answer must be exactly the
// expected answer of the commit it names, and the switch from A to B must be
// one step: per client and across clients. Correctness only; the figures are
// `npm run bench -- --only load`'s.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  checkExpectedB,
  checkLoad,
  expectedAnswers,
  openSession,
  runLoad,
  setupLoad,
  TOOLS,
  violations,
  type LoadCheck,
  type LoadRun,
  type LoadSetup,
} from './support/load.js';
import { fixtureRepo, removeDir } from './support/repos.js';
import { testHome } from './support/sextant.js';

const CLIENTS = 4;
const QUERIES = 150;
const cleanup: string[] = [];
let setup: LoadSetup;
let run: LoadRun;
let expectedB: string[];
let check: LoadCheck;

before(async () => {
  const root = fixtureRepo('ts-shapes');
  cleanup.push(join(root, '..'));
  const { home, env: homeEnv } = testHome();
  // The subject is the registry's switch from A to B under load, not the lsp tier: without it, an answer at B from
  // A's index names the files B changed as not searched, every time. With it, each client's fresh server started a
  // typescript-language-server for them, and under CI's load a first answer could come before it had loaded.
  const env = { ...homeEnv, SEXTANT_LSP: '0' };
  cleanup.push(home);
  setup = await setupLoad({ root, env, shiftFraction: 0.5, inserted: 3, perKind: 12, maxPrepCalls: 200, seed: 0x10ad });
  run = await runLoad(setup, {
    clients: CLIENTS,
    queries: QUERIES,
    publishAfter: (CLIENTS * QUERIES) / 4,
    // Past its 150, a client keeps asking until the publish has landed and it has seen B a few times.
    minB: 5,
    maxQueries: 20_000,
    seed: 0x10ad,
  });
  const session = await openSession(env);
  try {
    expectedB = await expectedAnswers(session, setup.probes, 'B');
  } finally {
    await session.close();
  }
  check = checkLoad(setup, expectedB, run);
});

after(() => {
  for (const dir of cleanup) removeDir(dir);
});

test('the publish ran during the load and published commit B', () => {
  assert.equal(run.publish.code, 0, run.publish.stderr);
  assert.equal(run.publish.report.commit, setup.commitB);
  assert.equal(run.publish.report.outcome, 'indexed');
  const firstSent = Math.min(...run.records.map((r) => r.sentAt));
  const lastReceived = Math.max(...run.records.map((r) => r.receivedAt));
  assert.ok(
    firstSent < run.publish.startedAt && run.publish.finishedAt < lastReceived,
    'queries were answered before and after the publish',
  );
  for (let c = 0; c < CLIENTS; c++)
    assert.ok(run.records.filter((r) => r.client === c).length >= QUERIES, `client ${c} made its ${QUERIES} queries`);
});

test('the probes tell A from B; B, and A served for the worktree at B, are A moved down by the inserted lines', () => {
  assert.deepEqual(checkExpectedB(setup, expectedB), []);
  // Every kind of answer that carries positions or names differs between the commits for some probe.
  for (const tool of [
    'goToDefinition',
    'findReferences',
    'workspaceSymbols',
    'documentSymbols',
    'searchCode',
    'getIndexStatus',
    'get_index_status',
  ] as const) {
    assert.ok((check.observableProbes[tool] ?? 0) > 0, `some ${tool} probe answers differently at A and B`);
  }
  assert.ok(
    setup.probes.some((p) => p.tool === 'callHierarchy'),
    'callHierarchy is among the probes',
  );
});

test('every query answered without an error, from commit A or B', () => {
  assert.deepEqual(violations({ ...check, mixed: [], backwards: [], staleAfterSwitch: [], bBeforePublish: [], revisionMismatch: [] }), []);
  assert.equal(run.servers.filter((s) => s.exitedEarly).length, 0, 'no server exited during the load');
  for (const tool of TOOLS)
    assert.ok(
      run.records.some((r) => r.tool === tool),
      `${tool} was asked`,
    );
});

test('both commits were observed, and answers that can show a mix were among them', () => {
  assert.ok(check.perCommit.A > 0, 'some answers came from A');
  assert.ok(check.perCommit.B > 0, 'some answers came from B');
  for (let c = 0; c < CLIENTS; c++) {
    assert.ok(
      run.records.some((r) => r.client === c && r.commit === 'B'),
      `client ${c} saw B`,
    );
  }
  assert.ok(check.observable > 0);
});

test('every answer is exactly the expected answer of the commit it names, its envelope naming the same commit', () => {
  assert.deepEqual(violations({ ...check, errors: [], unknownCommit: [], backwards: [], staleAfterSwitch: [], bBeforePublish: [] }), []);
});

test('the switch is one step: no client goes back to A, no request sent after any B answer is answered from A', () => {
  assert.deepEqual(violations({ ...check, errors: [], unknownCommit: [], mixed: [], revisionMismatch: [] }), []);
});

test('the checks would catch a mixed answer, a switch back to A, and an A answer after the switch', () => {
  // The run's own records, altered: an A answer given B's body at a probe where they differ...
  const observable = run.records.find((r) => r.commit === 'A' && !r.isError && setup.expectedA[r.probe] !== expectedB[r.probe])!;
  const mixed = { ...observable, key: expectedB[observable.probe] };
  // ...and, after some client's first B answer, the same client answered from A again.
  const firstB = run.records.filter((r) => r.commit === 'B').sort((x, y) => x.receivedAt - y.receivedAt)[0]!;
  const late = {
    ...observable,
    client: firstB.client,
    seq: firstB.seq + 1,
    sentAt: firstB.receivedAt + 1,
    receivedAt: firstB.receivedAt + 2,
  };
  const altered = checkLoad(setup, expectedB, { ...run, records: [...run.records.filter((r) => r !== observable), mixed, late] });
  assert.deepEqual(
    altered.mixed.map((m) => m.record),
    [mixed],
  );
  assert.deepEqual(altered.backwards, [late]);
  assert.deepEqual(altered.staleAfterSwitch, [late]);
});
