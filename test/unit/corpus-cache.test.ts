// The corpus cache (test/support/corpus.ts) is filled by test files that
// node --test runs concurrently: two processes filling one entry at once must
// both get a complete copy, and leave nothing else behind.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { CACHE, cached, debianPackage } from '../support/corpus.js';
import { removeDir, tempDir } from '../support/repos.js';

const cache = tempDir('sextant-corpus-cache-');
after(() => removeDir(cache));

/** A process that fills `dir` slowly (so that two of them overlap), writing its pid in the copy; prints what it got. */
function filler(dir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const corpus = pathToFileURL(join(import.meta.dirname, '..', 'support', 'corpus.js')).href;
  const script = `
    import { execFileSync } from 'node:child_process';
    import { mkdirSync, writeFileSync } from 'node:fs';
    import { join } from 'node:path';
    const { cached } = await import(${JSON.stringify(corpus)});
    const got = cached(${JSON.stringify(dir)}, '.complete', (work) => {
      const files = join(work, 'files');
      mkdirSync(files);
      for (let i = 0; i < 50; i++) writeFileSync(join(files, 'f' + i), String(process.pid));
      execFileSync('sleep', ['0.5']);
      writeFileSync(join(files, '.complete'), String(process.pid));
      return files;
    });
    process.stdout.write(got);`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('two processes filling one entry at once both get one complete copy, and no work directory is left', async () => {
  const dir = join(cache, 'deb', 'pkg');
  const results = await Promise.all([filler(dir), filler(dir)]);
  for (const r of results) {
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, dir);
  }
  // One copy, whole: every file was written by the process whose copy won.
  const winner = readFileSync(join(dir, '.complete'), 'utf8');
  const files = readdirSync(dir).filter((f) => f !== '.complete');
  assert.equal(files.length, 50);
  for (const f of files) assert.equal(readFileSync(join(dir, f), 'utf8'), winner);
  assert.deepEqual(readdirSync(join(cache, 'deb')), ['pkg']);
});

test('an entry left incomplete is replaced; a complete one is used as it is', () => {
  const dir = join(cache, 'npm', 'left@1.0.0');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'half-written'), '');
  const fill = (work: string) => {
    writeFileSync(join(work, 'package.json'), '{}');
    return work;
  };
  assert.equal(cached(dir, 'package.json', fill), dir);
  assert.deepEqual(readdirSync(dir), ['package.json']);
  assert.equal(
    cached(dir, 'package.json', () => assert.fail('a complete entry is not filled again')),
    dir,
  );
  assert.deepEqual(readdirSync(join(cache, 'npm')), ['left@1.0.0']);
  assert.ok(existsSync(join(dir, 'package.json')));
});

test('a Debian package apt cannot download fails with what to do, and leaves no entry', () => {
  // SEXTANT_CORPUS_CACHE is read when corpus.ts loads, so this entry goes to the real cache: a name no package has.
  assert.throws(
    () => debianPackage('sextant-no-such-package'),
    /apt-get download sextant-no-such-package failed \(E: .*\): .*run `apt-get update` as root/,
  );
  assert.ok(!existsSync(join(CACHE, 'deb', 'sextant-no-such-package')));
});
