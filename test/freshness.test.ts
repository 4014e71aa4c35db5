// Freshness: getIndexStatus with repo_path compares the published index with
// the worktree and reports stale only with evidence (which files differ, how
// many commits since the index, whether changes are uncommitted); without
// repo_path it never claims staleness. The steps run in order on one
// repository, as a user would meet them.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { at, where } from './support/positions.js';
import { commitAll, fixtureRepo, git, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, sextant, testHome, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
const repo = 'ts-shapes';
let root: string;
let session: McpSession;
let indexedCommit: string;

async function status(withPath = true): Promise<any> {
  const r = await session.call('getIndexStatus', withPath ? { repo, repo_path: root } : { repo });
  assert.equal(r.isError, false, JSON.stringify(r.result));
  return r.result;
}

before(async () => {
  root = fixtureRepo('ts-shapes');
  indexedCommit = indexOrThrow(root, env).commit;
  session = await mcpSession(env);
});

after(async () => {
  await session?.close();
  removeDir(join(root, '..'));
  removeDir(home);
});

test('right after indexing, the index is fresh against the worktree', async () => {
  const s = await status();
  assert.equal(s.freshness, 'fresh');
  assert.equal(s.stale, false);
  assert.equal(s.lifecycle, 'ready');
  assert.equal(s.commit, git(root, 'rev-parse', 'HEAD').trim());
  assert.deepEqual(s.freshness_evidence, {
    checked_against: root,
    head: indexedCommit,
    indexed_commit: indexedCommit,
    commits_since_index: 0,
    changed_files: [],
    changed_files_total: 0,
    uncommitted_changes: false,
  });
});

test('a new commit that changes a file makes it stale, with that file and one commit as evidence', async () => {
  appendFileSync(join(root, 'src', 'util', 'format.ts'), '\nexport const UNITS = "cm²";\n');
  const head = commitAll(root, 'add units');
  const s = await status();
  assert.equal(s.freshness, 'stale');
  assert.equal(s.stale, true);
  assert.equal(s.lifecycle, 'stale');
  // The published commit is still the one indexed.
  assert.equal(s.commit, indexedCommit);
  assert.equal(s.freshness_evidence.head, head);
  assert.equal(s.freshness_evidence.commits_since_index, 1);
  assert.deepEqual(s.freshness_evidence.changed_files, ['src/util/format.ts']);
  assert.equal(s.freshness_evidence.changed_files_total, 1);
  assert.equal(s.freshness_evidence.uncommitted_changes, false);
  assert.match(s.freshness_reason, /^1 file differs from the index .*sextant index/);
  // A stale index still answers: navigation is about what is published.
  assert.equal(s.capabilities.navigation.available, true);
});

test('an uncommitted edit makes it stale with uncommitted_changes', async () => {
  const main = join(root, 'src', 'main.ts');
  writeFileSync(main, readFileSync(main, 'utf8') + 'console.log(shapes.length);\n');
  const s = await status();
  assert.equal(s.stale, true);
  assert.equal(s.freshness_evidence.uncommitted_changes, true);
  assert.deepEqual(s.freshness_evidence.changed_files, ['src/main.ts', 'src/util/format.ts']);
  assert.equal(s.freshness_evidence.commits_since_index, 1);
  // `sextant status` from inside the worktree checks it the same way.
  const cli = sextant(['status', '--json'], { env, cwd: join(root, 'src') });
  assert.equal(cli.code, 0, cli.stderr);
  const fromCli = JSON.parse(cli.stdout);
  assert.equal(fromCli.stale, true);
  assert.deepEqual(fromCli.freshness_evidence.changed_files, ['src/main.ts', 'src/util/format.ts']);
});

test('without repo_path, freshness is unknown and never stale', async () => {
  const s = await status(false);
  assert.equal(s.stale, false);
  assert.equal(s.freshness, 'unknown');
  assert.equal(s.freshness_evidence, null);
  assert.match(s.freshness_reason, /repo_path/);
  // The CLI, asked by name from outside the worktree, does not guess either.
  const cli = sextant(['status', repo, '--json'], { env, cwd: home });
  assert.equal(JSON.parse(cli.stdout).stale, false);
});

test('`sextant index` again makes it fresh, uncommitted edit included, and answers from the new text', async () => {
  const report = indexOrThrow(root, env);
  assert.equal(report.dirty, true);
  const s = await status();
  assert.equal(s.freshness, 'fresh');
  assert.equal(s.stale, false);
  assert.equal(s.commit, git(root, 'rev-parse', 'HEAD').trim());
  assert.deepEqual(s.freshness_evidence.changed_files, []);
  // The line added without committing is navigable.
  const added = readFileSync(join(root, 'src', 'main.ts'), 'utf8').split('\n').length - 1;
  const d = await session.call('goToDefinition', { repo, ...at(root, 'src/main.ts', added, 'shapes') });
  assert.equal(d.isError, false, JSON.stringify(d.result));
  assert.deepEqual(d.result.definitions.map(where), [at(root, 'src/main.ts', 4, 'shapes')]);
});

test('committing exactly what was indexed keeps it fresh: HEAD moved, but no file differs', async () => {
  const head = commitAll(root, 'commit the edit');
  const s = await status();
  assert.equal(s.freshness, 'fresh');
  assert.equal(s.freshness_evidence.head, head);
  assert.equal(s.freshness_evidence.commits_since_index, 1);
  assert.equal(s.freshness_evidence.uncommitted_changes, false);
  assert.match(s.freshness_reason, /HEAD moved/);
});
