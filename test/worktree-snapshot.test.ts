// readWorktree while commits land: HEAD and what is uncommitted are read as
// one snapshot. Read apart, a commit landing between them paired the new
// commit with the changes it already holds, and `sextant watch`, restarted,
// took that index's fingerprint for a worktree that had moved and indexed
// again (seen in CI: the watch test failed twice in one run). The reader reads
// HEAD before and after, and reads again while HEAD moved (atSteadyHead).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { atSteadyHead, readWorktree } from '../src/freshness/worktree.js';
import { commitAll, git, GIT_ENV, gitRepoOf, removeDir } from './support/repos.js';

const root = gitRepoOf('commits-landing', { 'src/a.ts': 'export const a = 0;\n' });
after(() => removeDir(join(root, '..')));

test('a read that a commit lands under is read again, and answered with the HEAD that held still across it', async () => {
  const before = git(root, 'rev-parse', 'HEAD').trim();
  let reads = 0;
  let landed = '';
  const read = await atSteadyHead(root, async () => {
    reads++;
    if (reads === 1) {
      appendFileSync(join(root, 'src/a.ts'), 'export const landed = 1;\n');
      landed = commitAll(root, 'a commit landing mid-read');
    }
    return reads;
  });
  assert.notEqual(landed, before);
  assert.deepEqual(read, { head: landed, value: 2 });
  // HEAD holding still: one read.
  reads = 0;
  assert.deepEqual(await atSteadyHead(root, async () => ++reads), { head: landed, value: 1 });
});

test('a file read as uncommitted always differs from the HEAD it is reported with, while commits land', async () => {
  // Another process edits and commits in a loop, as an editor and git would, with pauses a reader can read in.
  const committer = spawn(
    'bash',
    [
      '-c',
      'for i in $(seq 1 30); do echo "export const v$i = $i;" >> src/a.ts; git add -A; git commit -q -m "commit $i"; sleep 0.25; done',
    ],
    {
      cwd: root,
      stdio: 'ignore',
      env: { ...process.env, ...GIT_ENV },
    },
  );
  const exited = new Promise<number | null>((resolve) => committer.on('exit', resolve));
  let running = true;
  void exited.then(() => (running = false));

  const seen: { head: string; path: string; sha: string }[] = [];
  let reads = 0;
  while (running) {
    const worktree = await readWorktree(root);
    reads++;
    for (const f of worktree.files) if (f.dirty) seen.push({ head: worktree.head, path: f.path, sha: f.sha });
  }
  assert.equal(await exited, 0, 'the committer ran through');
  assert.ok(reads >= 10, `only ${reads} reads overlapped the commits`);
  const torn = seen.filter((s) => git(root, 'rev-parse', `${s.head}:${s.path}`).trim() === s.sha);
  assert.deepEqual(torn, [], `${torn.length} of ${seen.length} uncommitted files were the content of their HEAD (${reads} reads)`);
});
