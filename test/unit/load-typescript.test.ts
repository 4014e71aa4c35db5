// TypeScript loaded through V8's code cache (src/syntax/load-typescript.ts):
// each load runs in a process of its own, as the parsing worker does, with
// the cache in a directory of the test's own.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from '../support/paths.js';
import { tempDir } from '../support/repos.js';

const LOADER = pathToFileURL(join(PROJECT_ROOT, 'dist', 'src', 'syntax', 'load-typescript.js')).href;

/** Loads TypeScript in a new process, parses a file, saves the cache; what the parse found. */
function loadAndParse(cacheDir: string): string {
  const script = `
    import { loadTypescript, saveTypescriptCache } from ${JSON.stringify(LOADER)};
    const ts = loadTypescript();
    const file = ts.createSourceFile('a.ts', 'export class A extends B { m(x: number) { return x; } }', ts.ScriptTarget.Latest, true);
    saveTypescriptCache();
    const c = file.statements[0];
    console.log([ts.version, ts.SyntaxKind[c.kind], c.name.text, ts.SyntaxKind[c.members[0].kind]].join(' '));
  `;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, SEXTANT_CODE_CACHE_DIR: cacheDir },
    encoding: 'utf8',
  }).trim();
}

const version = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string })
  .version;
const expected = `${version} ClassDeclaration A MethodDeclaration`;

test('the first load writes the code cache, the next one uses it as it is, and a corrupt cache is replaced, not used', () => {
  const dir = tempDir('sextant-code-cache-');
  assert.equal(loadAndParse(dir), expected);
  const files = readdirSync(dir);
  assert.equal(files.length, 1, `one cache file, not ${files.join(', ')}`);
  const file = join(dir, files[0]!);
  assert.match(files[0]!, new RegExp(`^typescript-${version.replaceAll('.', '\\.')}-[0-9a-f]+\\.v8$`));
  const written = statSync(file);
  assert.ok(written.size > 100_000, `the cache holds compiled code (${written.size} bytes)`);

  // A cache V8 accepts is not written again (a new file would be renamed over it: another inode).
  assert.equal(loadAndParse(dir), expected);
  assert.equal(statSync(file).ino, written.ino);

  // One it refuses: TypeScript still loads and parses, and the cache is written anew,
  // clearing what a writer killed before its rename left behind.
  const garbage = Buffer.alloc(written.size, 7);
  writeFileSync(file, garbage);
  writeFileSync(`${file}.12345.leftover`, garbage);
  const corrupt = statSync(file).ino;
  assert.equal(loadAndParse(dir), expected);
  assert.notEqual(statSync(file).ino, corrupt);
  assert.ok(!readFileSync(file).equals(garbage));
  assert.deepEqual(readdirSync(dir), files, 'no temporary file is left behind');
});

test('a cache directory that cannot be written only means TypeScript compiles from source', () => {
  const dir = tempDir('sextant-code-cache-');
  const blocked = join(dir, 'not-a-directory');
  writeFileSync(blocked, '');
  assert.equal(loadAndParse(blocked), expected);
  assert.deepEqual(readdirSync(dir), ['not-a-directory']);
});
