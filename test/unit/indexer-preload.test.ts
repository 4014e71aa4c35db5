// The code cache of indexers that run on node (src/orchestrator/indexer-preload.ts,
// src/code-cache.ts): each load runs in a process of its own, as an indexer
// does, with the cache in a directory of the test's own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { loadManifests } from '../../src/orchestrator/manifests.js';
import { runIndexer } from '../../src/orchestrator/run-indexer.js';
import { PROJECT_ROOT } from '../support/paths.js';
import { fixtureRepo, tempDir } from '../support/repos.js';
import { indexOrThrow, testHome } from '../support/sextant.js';

const PRELOAD = pathToFileURL(join(PROJECT_ROOT, 'dist', 'src', 'orchestrator', 'indexer-preload.js')).href;
const TYPESCRIPT = join(PROJECT_ROOT, 'node_modules', 'typescript', 'lib', 'typescript.js');

/** Runs CommonJS `script` in node started as sextant starts an indexer, with the cache in `cacheDir`. */
function run(cacheDir: string, script: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--no-turbo-inlining', '--import', PRELOAD, '-e', script], {
    env: { ...process.env, SEXTANT_CODE_CACHE_DIR: cacheDir },
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout.trim(), stderr: r.stderr };
}

const PARSE = `
  const ts = require(${JSON.stringify(TYPESCRIPT)});
  const file = ts.createSourceFile('a.ts', 'class A { m() {} }', ts.ScriptTarget.Latest);
  console.log(ts.SyntaxKind[file.statements[0].kind], typeof ts.createProgram);
`;

test('a large module is compiled through the cache: written when the process exits, then used as it is', () => {
  const dir = tempDir('sextant-code-cache-');
  assert.deepEqual(run(dir, PARSE), { code: 0, stdout: 'ClassDeclaration function', stderr: '' });
  const files = readdirSync(dir);
  assert.equal(files.length, 1, `one cache file, not ${files.join(', ')}`);
  assert.match(files[0]!, /^indexer-typescript\.js-[0-9a-f]{16}-[0-9a-f]+\.v8$/);
  const written = statSync(join(dir, files[0]!));
  assert.ok(written.size > 100_000, `the cache holds compiled code (${written.size} bytes)`);

  // Used, not written again (a new file would be renamed over it: another inode), and TypeScript works from it.
  assert.deepEqual(run(dir, PARSE), { code: 0, stdout: 'ClassDeclaration function', stderr: '' });
  assert.equal(statSync(join(dir, files[0]!)).ino, written.ino);
});

test('small modules compile as node compiles them, and a large module that throws reports its own error, run once', () => {
  const dir = tempDir('sextant-code-cache-');
  const modules = tempDir('sextant-modules-');
  writeFileSync(join(modules, 'small.js'), 'module.exports = 42;');
  // Over the 1 MB at which a module is cached; it counts its runs on a global before it throws.
  writeFileSync(
    join(modules, 'large.js'),
    `${'// padding\n'.repeat(100_000)}globalThis.runs = (globalThis.runs ?? 0) + 1;\nthrow new Error('large failed');\n`,
  );
  const script = `
    console.log(require(${JSON.stringify(join(modules, 'small.js'))}));
    try { require(${JSON.stringify(join(modules, 'large.js'))}); } catch (error) { console.log(error.message, globalThis.runs); }
  `;
  assert.deepEqual(run(dir, script), { code: 0, stdout: '42\nlarge failed 1', stderr: '' });
  assert.match(readdirSync(dir).join(' '), /^indexer-large\.js-[0-9a-f]{16}-[0-9a-f]+\.v8$/, 'only the large module is cached');
});

test("a large module is read as its bytes: ASCII and UTF-8 ones come out as node's own reading gives them, and are cached under their own names", () => {
  const dir = tempDir('sextant-code-cache-');
  const modules = tempDir('sextant-modules-');
  const padding = '// padding\n'.repeat(100_000);
  writeFileSync(join(modules, 'ascii.js'), `${padding}module.exports = 'plain text';\n`);
  // A byte order mark, and text past Latin-1 (a Latin-1 reading of these bytes would differ).
  writeFileSync(join(modules, 'utf8.js'), `\uFEFF${padding}module.exports = 'héllo ✓ 𝄞';\n`);
  const script = `for (const m of ['ascii.js', 'utf8.js']) console.log(JSON.stringify(require(require('node:path').join(${JSON.stringify(modules)}, m))));`;
  const expected = { code: 0, stdout: '"plain text"\n"héllo ✓ 𝄞"', stderr: '' };
  assert.deepEqual(run(dir, script), expected);
  assert.equal(readdirSync(dir).length, 2, `a cache each: ${readdirSync(dir).join(', ')}`);
  assert.deepEqual(run(dir, script), expected, 'from the caches');
});

test('a new source replaces the caches of its family under the same V8 tag, and keeps those of other tags and families', () => {
  const dir = tempDir('sextant-code-cache-');
  assert.equal(run(dir, PARSE).code, 0);
  const [current] = readdirSync(dir);
  const tag = current!.replace(/^.*-([0-9a-f]+)\.v8$/, '$1');
  // An older typescript.js under this tag; the same under another tag (other flags); another family.
  const others = [
    `indexer-typescript.js-0000000000000000-${tag}.v8`,
    'indexer-typescript.js-0000000000000000-1234abcd.v8',
    `typescript-5.0.0-${tag}.v8`,
  ];
  for (const name of others) writeFileSync(join(dir, name), 'old');
  // The current cache refused (V8 checks its checksum): written anew, and the older source's cache goes.
  writeFileSync(join(dir, current!), 'corrupt');
  assert.equal(run(dir, PARSE).stdout, 'ClassDeclaration function');
  assert.deepEqual(readdirSync(dir).sort(), [current!, others[1]!, others[2]!].sort());
  assert.ok(statSync(join(dir, current!)).size > 100_000);
});

test('sextant index starts scip-typescript with the preload: its typescript.js is cached', () => {
  const dir = tempDir('sextant-code-cache-');
  const { env } = testHome();
  const report = indexOrThrow(fixtureRepo('ts-shapes'), { ...env, SEXTANT_CODE_CACHE_DIR: dir });
  assert.ok(report.documents > 0, 'the fixture was indexed');
  assert.ok(
    readdirSync(dir).some((f) => /^indexer-typescript\.js-[0-9a-f]{16}-[0-9a-f]+\.v8$/.test(f)),
    `the indexer's cache is written: ${readdirSync(dir).join(', ')}`,
  );
});

test('an indexer that runs on node starts with the preload and with V8 told not to inline; another program starts with its own arguments alone', async () => {
  const dir = tempDir('sextant-indexer-argv-');
  const seen = join(dir, 'argv.json');
  // Writes how node was started and what it was given, then fails as an indexer that wrote nothing.
  const script = join(dir, 'indexer.cjs');
  writeFileSync(
    script,
    `require('node:fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ execArgv: process.execArgv, argv: process.argv.slice(2) })); process.exit(3);`,
  );
  const manifest = loadManifests().find((m) => m.name === 'scip-typescript')!;
  const invocation = { manifest, root: dir, slug: 'argv', projects: [], timeoutMs: 60_000 };
  const onNode = await runIndexer({ ...invocation, command: [process.execPath, script] }, async () => {});
  assert.equal(onNode.status, 'failed');
  const started = JSON.parse(readFileSync(seen, 'utf8')) as { execArgv: string[]; argv: string[] };
  assert.deepEqual(started.execArgv, ['--no-turbo-inlining', '--import', PRELOAD]);
  assert.equal(started.argv[0], 'index', "the manifest's arguments follow");

  // The same script behind a shell: not node as sextant runs it, so nothing is added.
  const shell = join(dir, 'indexer.sh');
  writeFileSync(shell, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(script)} "$@"\n`, { mode: 0o755 });
  const other = await runIndexer({ ...invocation, command: [shell] }, async () => {});
  assert.equal(other.status, 'failed');
  assert.deepEqual((JSON.parse(readFileSync(seen, 'utf8')) as { execArgv: string[] }).execArgv, []);
});
