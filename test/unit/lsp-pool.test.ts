// The pool's configuration and the defaults it gives clangd, without running a
// server: manifests under SEXTANT_INDEXERS plug in (and a bad one is refused
// in one line), limits come from the environment, and a repository without a
// compilation database gets one listing its files with its include directories.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadManifests } from '../../src/orchestrator/manifests.js';
import { loadServerManifests } from '../../src/lsp/manifests.js';
import { compilationDatabase, groupMemoryMb, LspPool, poolOptions } from '../../src/lsp/pool.js';
import { removeDir, tempDir } from '../support/repos.js';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

function dir(): string {
  const d = tempDir('sextant-lsp-unit-');
  dirs.push(d);
  return d;
}

test('built-in manifests declare clangd, typescript-language-server and pyright; indexer manifests are not mistaken for them', () => {
  const names = loadServerManifests({}).map((m) => m.name);
  assert.deepEqual(names.sort(), ['clangd', 'pyright', 'typescript-language-server']);
  assert.deepEqual(
    loadManifests({})
      .map((m) => m.name)
      .sort(),
    ['scip-python', 'scip-typescript'],
  );
});

test('a server on PATH plugs in through SEXTANT_INDEXERS, and serves a language no SCIP indexer covers', () => {
  const extra = dir();
  const bin = dir();
  writeFileSync(join(bin, 'gopls'), '#!/bin/sh\n', { mode: 0o755 });
  writeFileSync(
    join(extra, 'gopls.lsp.json'),
    JSON.stringify({
      name: 'gopls',
      languages: ['go'],
      languageIds: { go: 'go' },
      command: { path: 'gopls' },
      args: [],
      capabilities: ['definition'],
    }),
  );
  const env = { SEXTANT_INDEXERS: extra, PATH: bin, SEXTANT_HOME: dir() };
  const pool = new LspPool(poolOptions(env), env);
  assert.equal(pool.tierServer('go')?.name, 'gopls');
  // TypeScript has a SCIP indexer: its server answers edited code, not a tier of its own.
  assert.equal(pool.tierServer('typescript'), undefined);
  assert.equal(pool.serverFor('typescript')?.name, 'typescript-language-server');
  assert.deepEqual(
    pool.status('any', ['go']).map((s) => [s.server, s.state]),
    [['gopls', 'not_started']],
  );
});

test('a bad server manifest or limit is refused in one line naming the fix', () => {
  const extra = dir();
  writeFileSync(join(extra, 'bad.lsp.json'), JSON.stringify({ name: 'bad', languages: [] }));
  assert.throws(
    () => loadServerManifests({ SEXTANT_INDEXERS: extra }),
    (e: Error) => /bad\.lsp\.json: .*fix it$/.test(e.message) && !e.message.includes('\n'),
  );
  assert.throws(
    () => poolOptions({ SEXTANT_LSP_MAX_SERVERS: 'many' }),
    /SEXTANT_LSP_MAX_SERVERS=many is not a positive number: fix or unset it$/,
  );
  assert.throws(() => poolOptions({ SEXTANT_LSP_REQUEST_SECONDS: '-1' }), /SEXTANT_LSP_REQUEST_SECONDS=-1/);
});

test('the default compilation database lists every C/C++ file with -I for the root, include directories and header directories', () => {
  const root = dir();
  mkdirSync(join(root, 'include', 'lib'), { recursive: true });
  mkdirSync(join(root, 'src', 'deep'), { recursive: true });
  mkdirSync(join(root, 'node_modules', 'x'), { recursive: true });
  writeFileSync(join(root, 'include', 'lib', 'api.h'), '');
  writeFileSync(join(root, 'src', 'a.c'), '');
  writeFileSync(join(root, 'src', 'deep', 'b.cc'), '');
  writeFileSync(join(root, 'src', 'deep', 'b.h'), '');
  writeFileSync(join(root, 'node_modules', 'x', 'skip.c'), '');
  const db = compilationDatabase(root, { c: ['-std=gnu11'], cpp: ['-std=gnu++17'] });
  assert.deepEqual(
    db.map((e) => e.file),
    [join(root, 'src', 'a.c'), join(root, 'src', 'deep', 'b.cc')],
  );
  const includes = [`-I${root}`, `-I${join(root, 'include')}`, `-I${join(root, 'include', 'lib')}`, `-I${join(root, 'src', 'deep')}`];
  assert.deepEqual(db[0]!.arguments, ['cc', '-std=gnu11', ...includes, '-c', join(root, 'src', 'a.c')]);
  assert.deepEqual(db[1]!.arguments.slice(0, 2), ['c++', '-std=gnu++17']);
  assert.ok(db.every((e) => e.directory === root));
});

test('memory is summed over a process group from /proc', async () => {
  // A group of two processes: a shell and the sleep it forks.
  const child = spawn('sh', ['-c', 'sleep 30 & sleep 30'], { detached: true, stdio: 'ignore' });
  try {
    await new Promise((r) => setTimeout(r, 300));
    const one = groupMemoryMb([child.pid!]).get(child.pid!);
    assert.ok(one !== undefined && one > 0, `${one} MiB`);
    assert.deepEqual([...groupMemoryMb([2 ** 22 + 12345]).keys()], [], 'no such group, no reading');
  } finally {
    process.kill(-child.pid!, 'SIGKILL');
  }
});
