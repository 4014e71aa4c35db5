// Priming (Navigation.prime, started by `sextant mcp` for each repository it
// is asked about): the worktree files of the answering index are read and
// hashed ahead of the questions, in slices the server can interrupt. It must
// cover every indexed file, wait where it is told to, and change nothing an
// answer says: an edit made after priming is still followed.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ToolServer } from '../src/mcp/tool-server.js';
import { Navigation } from '../src/navigation/index.js';
import { openRegistry } from '../src/registry/open.js';
import type { Engine } from '../src/registry/engine.js';
import type { KyselyPlugin } from 'kysely';
import { z } from 'zod';
import { fixtureRepo, removeDir } from './support/repos.js';
import { indexOrThrow, registryFile, testHome } from './support/sextant.js';

const EDITED = 'src/shapes.ts';
const INSERTED = 3;
const { home, env } = testHome();
let repo: string;
let engine: Engine;

before(() => {
  repo = fixtureRepo('ts-shapes');
  indexOrThrow(repo, env);
});

after(async () => {
  await engine?.close();
  removeDir(repo);
  removeDir(home);
});

test('prime hashes every file of the answering index, pausing between slices, and an edit made afterwards is still followed', async () => {
  engine = await openRegistry({ registry: registryFile(home) });
  const nav = new Navigation(engine);
  const slug = 'ts-shapes';
  // A symbol defined in the file to edit, and its references before the edit.
  const symbols = await nav.documentSymbols({ repo: slug, path: EDITED });
  const first = symbols.symbols[0]!;
  const at = { line: first.selection_range.line, column: first.selection_range.column };
  const refs = (line: number) => nav.findReferences({ repo: slug, path: EDITED, line, column: at.column, include_declaration: true, limit: 200 });
  const before = await refs(at.line);
  const inEdited = before.references.filter((r) => r.path === EDITED);
  assert.ok(inEdited.length > 0, `${first.name} is referenced in ${EDITED}`);

  let pauses = 0;
  const primed = await nav.prime(slug, async () => {
    pauses++;
  });
  const current = await nav.lookups.current(slug);
  assert.equal(primed, await nav.lookups.fileCount(current!.repo.current_index_id!), 'every indexed file is primed');
  assert.ok(pauses >= 1, 'prime waits for the server before its first slice');

  // Lines inserted at the top after priming: the primed hash must not hide them.
  const text = readFileSync(join(repo, EDITED), 'utf8');
  writeFileSync(join(repo, EDITED), `${'// inserted after priming\n'.repeat(INSERTED)}${text}`);
  const afterEdit = await refs(at.line + INSERTED);
  assert.equal(afterEdit.index_freshness, 'stale');
  assert.deepEqual(
    afterEdit.references.filter((r) => r.path === EDITED).map((r) => [r.line, r.column, r.adjusted]),
    inEdited.map((r) => [r.line + INSERTED, r.column, true]),
  );
  assert.equal(await nav.prime('no-such-repository', async () => {}), 0, 'nothing to prime without an index');
});

/** The registry's tables each query of `engine` reads from its start, through a plugin on its db (as an adapter wraps it). */
function countingTables(engine: Engine): { engine: Engine; tables: string[] } {
  const tables: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      for (const [, table] of JSON.stringify(node).matchAll(/"kind":"IdentifierNode","name":"([a-z_]+)"/g)) tables.push(table!);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { engine: Object.assign(Object.create(engine) as Engine, { db: engine.db.withPlugin(plugin) }), tables };
}

test('prime also reads ahead what a first answer in a file reads from the registry: its document and its lines', async () => {
  engine ??= await openRegistry({ registry: registryFile(home) });
  const slug = 'ts-shapes';
  const symbols = await new Navigation(engine).documentSymbols({ repo: slug, path: EDITED });
  const first = symbols.symbols[0]!;
  const ask = { repo: slug, path: EDITED, line: first.selection_range.line, column: first.selection_range.column };

  // Not primed: the first answer reads the file's document and its text.
  const cold = countingTables(engine);
  const unprimed = await new Navigation(cold.engine).goToDefinition(ask);
  assert.ok(cold.tables.includes('documents') && cold.tables.includes('blobs'), `read: ${[...new Set(cold.tables)].join(', ')}`);

  const warm = countingTables(engine);
  const nav = new Navigation(warm.engine);
  assert.ok((await nav.prime(slug, async () => {})) > 0);
  warm.tables.length = 0;
  const primed = await nav.goToDefinition(ask);
  assert.ok(!warm.tables.includes('documents') && !warm.tables.includes('blobs'), `read: ${[...new Set(warm.tables)].join(', ')}`);
  assert.deepEqual(primed.definitions, unprimed.definitions, 'the same answer');
});

test('a serving process starts watching the worktree before priming its files, not after', async () => {
  // Until the watch is ready each question lists the changed files with `git status`; the hashing goes on only
  // between questions, so a watch started after it left a client that asks without pause paying that for seconds.
  engine ??= await openRegistry({ registry: registryFile(home) });
  const nav = new Navigation(engine, { serving: true });
  try {
    const following: boolean[] = [];
    const primed = await nav.prime('ts-shapes', async () => {
      following.push(nav.edits.changesAt(repo).following);
    });
    assert.ok(primed > 0);
    assert.equal(following[0], true, 'the watch was started before the first slice of hashing');
  } finally {
    await nav.close();
  }
});

test('the tool server tells of answered calls after answering, of quiet after the last, and idle() waits while a call is in flight', async () => {
  const server = new ToolServer({ name: 'test', version: '0' });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const schema = { description: 'x', inputSchema: z.object({ repo: z.string() }), outputSchema: () => z.object({}), annotations: {} };
  server.registerTool('held', schema, async (args) => {
    await held;
    return { result: { echoed: (args as { repo: string }).repo } };
  });
  server.registerTool('failing', schema, async () => ({ error: 'no' }));
  const answered: unknown[] = [];
  server.onAnswered((args) => answered.push(args.repo));
  let quiet = 0;
  server.onQuiet(() => quiet++);

  const call = (id: number, name: string) =>
    server.answer({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { repo: `r${id}` } } });
  const inFlight = call(1, 'held');
  let idled = false;
  const idle = server.idle().then(() => (idled = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(idled, false, 'idle() waits while the call is answered');
  assert.equal(server.busy, true);
  // A second call answered while the first is held does not make the server quiet.
  await call(3, 'failing');
  assert.equal(quiet, 0);
  release();
  assert.match((await inFlight)!, /"echoed":"r1"/);
  assert.equal(server.busy, false);
  assert.equal(quiet, 1, 'quiet once the last call in flight is answered');
  await idle;
  await call(2, 'failing');
  assert.equal(quiet, 2, 'a failed call is answered too');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(answered, ['r1'], 'only the call answered without an error is told, after its answer');
});
