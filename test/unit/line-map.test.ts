// Line maps through a diff: unchanged lines map both ways by their offset,
// changed, inserted and deleted lines map nowhere, and extents widen over the
// hunks they end in. Worktree files: what a file holds now, never read
// through a symlink that leaves the root.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineMap } from '../../src/freshness/line-map.js';
import { nearestIndexedCommit } from '../../src/freshness/nearest.js';
import { WorktreeFiles } from '../../src/freshness/worktree-files.js';
import { gitBlobSha } from '../../src/freshness/worktree.js';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const OLD = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

test('lines inserted at the top shift every line below them, both ways', () => {
  const map = LineMap.between(OLD, ['x', 'y', ...OLD]);
  for (let i = 0; i < OLD.length; i++) assert.equal(map.toNew(i), i + 2);
  assert.equal(map.toOld(0), undefined);
  assert.equal(map.toOld(1), undefined);
  assert.equal(map.toOld(2), 0);
  assert.deepEqual(map.rangeToNew([3, 4, 3, 9]), [5, 4, 5, 9]);
});

test('a changed line maps nowhere; the lines around it keep their places', () => {
  const map = LineMap.between(OLD, ['a', 'b', 'C', 'd', 'e', 'f', 'g']);
  assert.equal(map.toNew(2), undefined);
  assert.equal(map.toOld(2), undefined);
  assert.equal(map.toNew(1), 1);
  assert.equal(map.toNew(3), 3);
  assert.equal(map.rangeToNew([2, 0, 2, 1]), undefined);
  // A range spanning the changed line is unreliable too, though both its ends survive.
  assert.equal(map.rangeToNew([1, 0, 3, 1]), undefined);
});

test('deleted lines pull the rest up, and an extent ending in a hunk ends where the hunk does', () => {
  const map = LineMap.between(OLD, ['a', 'b', 'e', 'f', 'g']);
  assert.equal(map.toNew(2), undefined);
  assert.equal(map.toNew(3), undefined);
  assert.equal(map.toNew(4), 2);
  assert.equal(map.toOld(2), 4);
  assert.deepEqual(map.spanToNew([0, 1, 6, 1]), [0, 1, 4, 1]);
  assert.deepEqual(map.spanToNew([1, 0, 3, 5]), [1, 0, 2, 0]);
  const inserted = LineMap.between(OLD, ['a', 'b', 'c', 'n1', 'n2', 'd', 'e', 'f', 'g']);
  // An insertion inside a multi-line range makes it unreliable.
  assert.equal(inserted.rangeToNew([2, 0, 3, 1]), undefined);
  assert.deepEqual(inserted.rangeToNew([3, 0, 4, 1]), [5, 0, 6, 1]);
});

test('several hunks: each line maps by the offsets of the hunks above it', () => {
  const current = ['top', 'a', 'b', 'd', 'e', 'E2', 'f', 'g', 'end'];
  const map = LineMap.between(OLD, current);
  for (let i = 0; i < OLD.length; i++) {
    const j = map.toNew(i);
    if (j === undefined) assert.ok(!current.includes(OLD[i]!) || OLD[i] === 'c', `${OLD[i]} maps`);
    else assert.equal(current[j], OLD[i], `${OLD[i]} lands on its own text`);
  }
  for (let j = 0; j < current.length; j++) {
    const i = map.toOld(j);
    if (i !== undefined) assert.equal(OLD[i], current[j]);
  }
  assert.equal(map.toNew(2), undefined, 'c was deleted');
  assert.equal(map.toOld(5), undefined, 'E2 was inserted');
});

test('a file rewritten beyond the edit bound maps nothing', () => {
  const before = Array.from({ length: 6000 }, (_, i) => `old ${i}`);
  const after = Array.from({ length: 6000 }, (_, i) => `new ${i}`);
  const map = LineMap.between(before, after);
  assert.equal(map.toNew(0), undefined);
  assert.equal(map.toOld(5999), undefined);
});

test('the nearest indexed commit is the first candidate with an index, within the bound', () => {
  const indexed = new Map([
    ['c3', 'index of c3'],
    ['c5', 'index of c5'],
  ]);
  const candidates = ['head', 'c1', 'c2', 'c3', 'c4', 'c5'];
  assert.deepEqual(nearestIndexedCommit(candidates, indexed), { commit: 'c3', distance: 3, indexed: 'index of c3' });
  assert.equal(nearestIndexedCommit(candidates, indexed, 2), undefined);
  assert.deepEqual(nearestIndexedCommit(['c5'], indexed), { commit: 'c5', distance: 0, indexed: 'index of c5' });
});

test('worktree files: unchanged by hash, edited through a map, and nothing read through a symlink out of the root', async () => {
  const root = mkdtempSync(join(tmpdir(), 'sextant-worktree-files-'));
  const outside = mkdtempSync(join(tmpdir(), 'sextant-outside-'));
  try {
    const text = 'one\ntwo\nthree\n';
    writeFileSync(join(root, 'a.ts'), text);
    writeFileSync(join(outside, 'secret.ts'), text);
    mkdirSync(join(outside, 'dir'));
    writeFileSync(join(outside, 'dir', 'b.ts'), text);
    symlinkSync(join(outside, 'secret.ts'), join(root, 'link.ts'));
    symlinkSync(join(outside, 'dir'), join(root, 'linked'));
    const sha = gitBlobSha(Buffer.from(text));
    let asked = 0;
    const indexed = async () => (asked++, text.split('\n'));
    const files = new WorktreeFiles(root);
    assert.deepEqual(await files.edit('a.ts', sha, indexed), { state: 'unchanged' });
    assert.equal(asked, 0, 'an unchanged file never needs its indexed text');
    assert.deepEqual(await files.edit('link.ts', sha, indexed), { state: 'deleted' }, 'a symlink is not a file of the repository');
    assert.deepEqual(await files.edit('linked/b.ts', sha, indexed), { state: 'deleted' }, 'nothing is read through a symlinked directory');
    assert.deepEqual(await files.edit('gone.ts', sha, indexed), { state: 'deleted' });
    writeFileSync(join(root, 'a.ts'), `zero\n${text}`);
    const edit = await files.edit('a.ts', sha, indexed);
    assert.equal(edit.state, 'edited');
    assert.equal(edit.state === 'edited' && edit.map.toNew(1), 2);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});
