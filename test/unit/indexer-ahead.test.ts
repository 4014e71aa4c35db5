// An indexer started ahead (src/orchestrator/indexer-process.ts): node, the
// preload and the indexer's TypeScript start while sextant opens its registry
// and plans, and the run of the same command takes the process, once, giving
// it its arguments on stdin (src/orchestrator/indexer-arguments.ts).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { IndexerAhead, startTypescriptIndexerAhead } from '../../src/orchestrator/indexer-process.js';
import { loadManifests, resolveCommand } from '../../src/orchestrator/manifests.js';
import { runIndexer } from '../../src/orchestrator/run-indexer.js';
import { fixtureRepo, tempDir } from '../support/repos.js';

const manifest = loadManifests().find((m) => m.name === 'scip-typescript')!;
const command = resolveCommand(manifest)!;

/** Runs scip-typescript on `root`'s tsconfig.json: each document's occurrences, and whether its syntax facts came with it. */
async function index(root: string, ahead?: IndexerAhead) {
  const documents = new Map<string, { occurrences: number; facts: boolean }>();
  let spawned: { syntaxFacts: boolean } | undefined;
  const result = await runIndexer(
    { manifest, command, root, slug: 'ahead', projects: ['tsconfig.json'], timeoutMs: 120_000, ahead, onSpawn: (s) => (spawned = s) },
    async (document, _bytes, facts) => {
      documents.set(document.relativePath, { occurrences: document.occurrences.length, facts: facts !== undefined });
    },
  );
  return { result, documents: [...documents].sort(([a], [b]) => a.localeCompare(b)), spawned };
}

test('a run takes the indexer started ahead for its command: the documents and syntax facts of one it starts itself, and nothing left behind', async () => {
  const root = fixtureRepo('ts-shapes');
  const own = await index(root);
  assert.equal(own.result.status, 'ok', own.result.reason ?? '');

  const ahead = IndexerAhead.start(manifest, command);
  assert.ok(ahead, 'started: scip-typescript runs on node, with the preload built');
  assert.ok(ahead.waitingFor(command));
  assert.ok(!ahead.waitingFor([...command, '--other']), 'not for another command');
  const taken = await index(root, ahead);
  assert.equal(taken.result.status, 'ok', taken.result.reason ?? '');
  assert.deepEqual(taken.spawned, { syntaxFacts: true });
  assert.deepEqual(taken.documents, own.documents);
  assert.ok(
    taken.documents.every(([, d]) => d.facts),
    'every document came with its facts',
  );
  // Untaken, it would still be waiting for its arguments.
  assert.deepEqual([ahead.child.exitCode, ahead.child.signalCode], [0, null], 'the process started ahead ran the index');
  assert.ok(!existsSync(ahead.workDir), 'its work directory went with the run');
  assert.ok(!ahead.waitingFor(command), 'taken once');
  const after = await index(root, ahead);
  assert.deepEqual(after.documents, own.documents, 'a later run starts its own');
  ahead.dispose();
});

test('an indexer started ahead that no run takes is stopped with its work directory; one whose stdin ends first exits by itself, its code cache unwritten', async () => {
  const unused = IndexerAhead.start(manifest, command)!;
  const stopped = once(unused.child, 'exit');
  assert.ok(existsSync(unused.workDir));
  unused.dispose();
  assert.deepEqual(await stopped, [null, 'SIGKILL']);
  assert.ok(!existsSync(unused.workDir), 'its work directory is removed');
  assert.ok(!unused.waitingFor(command));

  // As when the sextant that started it dies: its stdin ends without a line.
  const cache = tempDir('sextant-code-cache-');
  const orphan = IndexerAhead.start(manifest, command, { ...process.env, SEXTANT_CODE_CACHE_DIR: cache })!;
  const exited = once(orphan.child, 'exit');
  orphan.child.stdin!.end();
  assert.deepEqual(await exited, [0, null]);
  assert.deepEqual(readdirSync(cache), [], 'what a process that indexed nothing compiled is not saved as the cache');
  orphan.dispose();
});

test('sextant index starts the indexer ahead for a path in a JavaScript or TypeScript project, at its root or below, and not for other paths', async () => {
  const root = fixtureRepo('ts-shapes');
  const plain = tempDir('sextant-not-a-project-');
  mkdirSync(join(plain, '.git'));
  mkdirSync(join(plain, 'docs'));
  const started = [root, join(root, 'src', 'util'), plain, join(plain, 'docs')].map((path) => {
    const ahead = startTypescriptIndexerAhead(path);
    ahead?.dispose();
    return ahead !== undefined;
  });
  assert.deepEqual(started, [true, true, false, false]);
});
