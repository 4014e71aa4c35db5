// Two builds of one library side by side, each under a package.json with no
// name (`{"type": "commonjs"}` in dist/cjs, `{"type": "module"}` in dist/esm:
// nodemailer's dist). scip-typescript names symbols by the path from the
// nearest package.json, so both builds' `codec.js` had the same symbols, and
// each answered with the other's definitions, references and callers. A
// language service answers each build on its own, and so does sextant now,
// as it answers a package with no name from a file outside it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { at, pathLineColumn as where } from './support/positions.js';
import { gitRepoOf, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, testHome, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
const repo = 'dual-build';
let root: string;
let session: McpSession;

const codec = (build: string) => `dist/${build}/codec.js`;
const use = (build: string) => `dist/${build}/use.js`;

describe('symbols of packages that have no name', () => {
  before(async () => {
    const files: Record<string, string> = { 'package.json': JSON.stringify({ name: 'dual-build', version: '1.0.0' }) };
    for (const [build, type] of [
      ['cjs', 'commonjs'],
      ['esm', 'module'],
    ]) {
      files[`dist/${build}/package.json`] = JSON.stringify({ type });
      files[codec(build!)] = 'export function encode(text) {\n  return text;\n}\n';
      files[use(build!)] = "import { encode } from './codec.js';\n\nexport function send(text) {\n  return encode(text);\n}\n";
    }
    // A package with no name that a file outside it imports.
    files['lib/package.json'] = JSON.stringify({ type: 'module' });
    files['lib/format.js'] = 'export function format(text) {\n  return text;\n}\n';
    files['index.js'] = "import { format } from './lib/format.js';\n\nexport const shown = format('a');\n";
    root = gitRepoOf(repo, files);
    indexOrThrow(root, env);
    session = await mcpSession(env);
  });
  after(async () => {
    await session?.close();
    removeDir(home);
    if (root) removeDir(root);
  });

  test('each build answers goToDefinition, findReferences and call hierarchies with its own files alone', async () => {
    for (const build of ['cjs', 'esm']) {
      const declared = at(root, codec(build), 1, 'encode');
      const called = at(root, use(build), 4, 'encode');
      const definitions = (await session.ok('goToDefinition', { repo, ...called })).definitions;
      assert.deepEqual(definitions.map(where), [where(declared)], build);
      const references = (await session.ok('findReferences', { repo, ...declared })).references;
      const expected = [declared, at(root, use(build), 1, 'encode'), called];
      assert.deepEqual(references.map(where).sort(), expected.map(where).sort(), build);
      const incoming = await session.ok('callHierarchy', { repo, ...declared, direction: 'incoming' });
      assert.deepEqual(
        incoming.calls.map((c: any) => where(c.from)),
        [where(at(root, use(build), 3, 'send'))],
        build,
      );
    }
  });

  test("a file outside a package with no name reaches that package's declarations", async () => {
    const declared = at(root, 'lib/format.js', 1, 'format');
    const called = at(root, 'index.js', 3, 'format');
    assert.deepEqual((await session.ok('goToDefinition', { repo, ...called })).definitions.map(where), [where(declared)]);
    const references = (await session.ok('findReferences', { repo, ...declared })).references;
    assert.deepEqual(references.map(where).sort(), [declared, at(root, 'index.js', 1, 'format'), called].map(where).sort());
  });
});
