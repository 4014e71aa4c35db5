// A file edited while `sextant mcp` serves, and asked about at once: the
// answer follows the edit. A serving process stats a worktree file again
// only after its watch names it (src/freshness/worktree-files.ts), and
// handles the events queued before a question before answering it
// (src/mcp/tool-server.ts): an edit made before the question was sent is
// never missed, whether the watch is ready yet or not.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fixtureRepo, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, testHome, type McpSession } from './support/sextant.js';

const repo = fixtureRepo('ts-shapes');
const home = testHome();
let session: McpSession;

before(async () => {
  indexOrThrow(repo, home.env);
  session = await mcpSession(home.env);
});

after(async () => {
  await session?.close();
  removeDir(repo);
  removeDir(home.home);
});

test('each edit is followed by the answer asked right after it, before and after the watch is ready', async () => {
  const shapes = join(repo, 'src', 'shapes.ts');
  const original = readFileSync(shapes, 'utf8');
  const declared = original.split('\n').findIndex((line) => line.startsWith('export class Circle')) + 1;
  // `Circle` as main.ts imports it, on its unchanged line 2.
  const use = { repo: 'ts-shapes', path: 'src/main.ts', line: 2, column: 10 };
  const first = await session.ok('goToDefinition', use);
  assert.deepEqual(
    first.definitions.map((d: { path: string; line: number }) => `${d.path}:${d.line}`),
    [`src/shapes.ts:${declared}`],
  );
  // Rounds over about 1.5 s: the first ones while the server is still starting its watch, the rest once it trusts it.
  for (let added = 1; added <= 30; added++) {
    writeFileSync(shapes, `${'// edited\n'.repeat(added)}${original}`);
    const answer = await session.ok('goToDefinition', use);
    assert.deepEqual(
      answer.definitions.map((d: { path: string; line: number; adjusted?: boolean }) => `${d.path}:${d.line}:${d.adjusted === true}`),
      [`src/shapes.ts:${declared + added}:true`],
      `${added} lines inserted above Circle just before asking`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // And back to what the index holds: fresh again at once.
  writeFileSync(shapes, original);
  const restored = await session.ok('goToDefinition', use);
  assert.equal(restored.index_freshness, 'fresh');
  assert.equal(restored.definitions[0].line, declared);
});
