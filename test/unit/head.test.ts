// HEAD's commit as a query reads it (src/freshness/head.ts): from the files
// git keeps it in when they name it plainly, else from git, and always the
// commit `git rev-parse HEAD^{commit}` names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Heads, readHead } from '../../src/freshness/head.js';
import { commitAll, git, removeDir, tempDir } from '../support/repos.js';

/** A repository with two commits on main; returns its folder and both commits. */
function twoCommits(): { dir: string; first: string; second: string } {
  const dir = tempDir('sextant-head-');
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'a.ts'), 'export const a = 1;\n');
  const first = commitAll(dir, 'first');
  writeFileSync(join(dir, 'a.ts'), 'export const a = 2;\n');
  const second = commitAll(dir, 'second');
  return { dir, first, second };
}

const dirsOf = (dir: string) => ({ gitDir: join(dir, '.git'), commonDir: join(dir, '.git') });
const gitHead = (dir: string) => git(dir, 'rev-parse', '--verify', 'HEAD^{commit}').trim();

test("a branch's loose ref, its packed-refs line, and a detached HEAD are read from git's files, and agree with git", () => {
  const { dir, first, second } = twoCommits();
  try {
    assert.equal(readHead(dirsOf(dir)), second);
    git(dir, 'pack-refs', '--all');
    assert.equal(readHead(dirsOf(dir)), second, 'the branch is only in packed-refs now');
    assert.equal(gitHead(dir), second);
    git(dir, 'checkout', '-q', '--detach', first);
    assert.equal(readHead(dirsOf(dir)), first);
    assert.equal(gitHead(dir), first);
  } finally {
    removeDir(dir);
  }
});

test('an unborn branch and a symbolic ref are left to git (undefined from the files)', () => {
  const { dir, second } = twoCommits();
  const empty = tempDir('sextant-head-');
  try {
    git(empty, 'init', '-q', '-b', 'main');
    assert.equal(readHead(dirsOf(empty)), undefined);
    // HEAD -> refs/heads/alias -> refs/heads/main: git follows the chain.
    git(dir, 'symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
    git(dir, 'symbolic-ref', 'HEAD', 'refs/heads/alias');
    assert.equal(readHead(dirsOf(dir)), undefined);
    assert.equal(gitHead(dir), second);
  } finally {
    removeDir(dir);
    removeDir(empty);
  }
});

test("Heads answers git's commit in every case, and follows HEAD as it moves", async () => {
  const { dir, first, second } = twoCommits();
  const empty = tempDir('sextant-head-');
  const linked = join(tempDir('sextant-head-'), 'linked');
  try {
    const heads = new Heads();
    assert.equal(await heads.head(dir), second);
    git(dir, 'checkout', '-q', '--detach', first);
    assert.equal(await heads.head(dir), first);
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'pack-refs', '--all');
    assert.equal(await heads.head(dir), second);
    git(dir, 'symbolic-ref', 'refs/heads/alias', 'refs/heads/main');
    git(dir, 'symbolic-ref', 'HEAD', 'refs/heads/alias');
    assert.equal(await heads.head(dir), second, 'through git');
    // A linked worktree: HEAD in its own git directory, the branch in the shared one.
    git(dir, 'worktree', 'add', '-q', '-b', 'side', linked, first);
    assert.equal(await heads.head(linked), first);
    git(empty, 'init', '-q', '-b', 'main');
    assert.equal(await heads.head(empty), undefined, 'no commits yet');
  } finally {
    removeDir(dir);
    removeDir(empty);
    removeDir(join(linked, '..'));
  }
});

test('with no git on PATH, a plain HEAD is still read: no git process is needed for it', async () => {
  const { dir, second } = twoCommits();
  const path = process.env.PATH;
  try {
    process.env.PATH = '';
    assert.equal(await new Heads().head(dir), second);
  } finally {
    process.env.PATH = path;
    removeDir(dir);
  }
});
