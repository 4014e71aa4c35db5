// Which files of a worktree differ from HEAD, as a serving sextant follows
// them (src/freshness/worktree-changes.ts): listed with git once, then again
// only after a file event. From the moment the watch starts, questions reuse
// the last listing instead of running git each (a client's first burst paid
// 30-60 ms an answer for it); a file changed while the watch is still
// walking the tree is seen once the watch is ready. The watch itself
// (src/freshness/worktree-watch.ts) names what moved, skips what git ignores,
// and follows directories created after it started. Once it is ready, a file
// an answer read is stat'ed again only after an event names it.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { WorktreeChanges } from '../src/freshness/worktree-changes.js';
import { WorktreeFiles } from '../src/freshness/worktree-files.js';
import { gitBlobSha } from '../src/freshness/worktree.js';
import { watchWorktree } from '../src/freshness/worktree-watch.js';
import { countFsCalls } from './support/fs-calls.js';
import { commitAll, fixtureRepo, removeDir } from './support/repos.js';

const root = fixtureRepo('ts-shapes');
const changes = new WorktreeChanges(root, true);

after(async () => {
  await changes.close();
  removeDir(root);
});

test('once following, a question reuses the last listing until a file event, and a file created meanwhile is listed after', async () => {
  writeFileSync(join(root, 'src', 'before.ts'), 'export const before = 1;\n');
  const first = await changes.files();
  assert.deepEqual(first.paths, ['src/before.ts']);
  changes.follow();
  assert.equal(changes.following, true);
  // Asked again at once, before the watch has walked the tree: the same listing, not a new one.
  assert.equal(await changes.files(), first);

  writeFileSync(join(root, 'src', 'during.ts'), 'export const during = 1;\n');
  // Seen by the event of its directory's watch, or by the listing made when the watch is ready: ask for at most 10 s.
  let now = await changes.files();
  for (let i = 0; i < 100 && !now.paths.includes('src/during.ts'); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    now = await changes.files();
  }
  assert.deepEqual([...now.paths].sort(), ['src/before.ts', 'src/during.ts']);
  assert.equal(now.complete, true);
  // Nothing moved since: the listing is reused again.
  assert.equal(await changes.files(), now);
});

test('a one-shot process lists once and does not follow', async () => {
  const once = new WorktreeChanges(root, false);
  const listed = await once.files();
  once.follow();
  assert.equal(once.following, false);
  assert.equal(await once.files(), listed);
  await once.close();
});

test('the watch names each entry moved, in directories created after it started too, skips what git ignores, and stops when closed', async () => {
  const tree = fixtureRepo('ts-shapes');
  try {
    writeFileSync(join(tree, '.gitignore'), 'build/\n*.log\n');
    commitAll(tree, 'ignore build outputs');
    mkdirSync(join(tree, 'build'));
    mkdirSync(join(tree, 'node_modules', 'dep'), { recursive: true });
    // What git ignores when the watch starts is skipped. (One ignored file created later is named, and the listing
    // the event causes finds nothing new: git is what says what changed.)
    writeFileSync(join(tree, 'debug.log'), 'x');
    const seen: (string | undefined)[] = [];
    const watch = await watchWorktree(tree, (path) => seen.push(path), { persistent: false });
    // Events come within moments: wait for each expected path for at most 10 s.
    const until = async (path: string) => {
      for (let i = 0; i < 100 && !seen.includes(path); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(seen.includes(path), `an event for ${path}: saw ${JSON.stringify(seen)}`);
    };
    writeFileSync(join(tree, 'build', 'out.js'), 'x');
    writeFileSync(join(tree, 'debug.log'), 'xy');
    writeFileSync(join(tree, 'node_modules', 'dep', 'index.js'), 'x');
    writeFileSync(join(tree, 'src', 'edited.ts'), 'export const a = 1;\n');
    await until('src/edited.ts');
    mkdirSync(join(tree, 'src', 'later'));
    await until('src/later');
    // Watched once its parent named it: a file written in it later is named too.
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeFileSync(join(tree, 'src', 'later', 'deep.ts'), 'export const b = 2;\n');
    await until('src/later/deep.ts');
    renameSync(join(tree, 'src', 'later'), join(tree, 'src', 'moved'));
    await until('src/moved');
    // As for src/later: the moved directory is watched anew once git has said it is not ignored, which takes a
    // moment under load (CI saw the write land before it, and only the directory named again).
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeFileSync(join(tree, 'src', 'moved', 'again.ts'), 'export const c = 3;\n');
    await until('src/moved/again.ts');
    // Deleted and created again at once, as a checkout does: another directory (maybe with the same inode number),
    // watched anew, not left on the watch of the one gone.
    rmSync(join(tree, 'src', 'moved'), { recursive: true });
    mkdirSync(join(tree, 'src', 'moved'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    writeFileSync(join(tree, 'src', 'moved', 'recreated.ts'), 'export const d = 4;\n');
    await until('src/moved/recreated.ts');
    // Directories created one after the other, the second while git is asked about the first: both watched.
    mkdirSync(join(tree, 'src', 'first'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    mkdirSync(join(tree, 'src', 'second'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    writeFileSync(join(tree, 'src', 'first', 'one.ts'), 'export const e = 5;\n');
    writeFileSync(join(tree, 'src', 'second', 'two.ts'), 'export const f = 6;\n');
    await until('src/first/one.ts');
    await until('src/second/two.ts');
    // A directory git ignores, created after the walk (a build's output), is not watched: what is written under it
    // is not named, only the directory's creation.
    writeFileSync(join(tree, '.gitignore'), 'build/\n*.log\nout/\n');
    mkdirSync(join(tree, 'out'));
    await until('out');
    await new Promise((resolve) => setTimeout(resolve, 300));
    mkdirSync(join(tree, 'out', 'deep'));
    writeFileSync(join(tree, 'out', 'deep', 'bundle.js'), 'x');
    writeFileSync(join(tree, 'out', 'bundle.js'), 'x');
    writeFileSync(join(tree, 'src', 'sentinel.ts'), 'x');
    await until('src/sentinel.ts');
    assert.deepEqual(
      seen.filter((p) => p === undefined || /^(build|node_modules|out)\/|\.log$/.test(p)),
      [],
      'nothing ignored is named, and the watch did not fail',
    );
    // A directory moved or deleted is named itself, not as an entry of its own name inside it.
    assert.deepEqual(
      seen.filter((p) => p === 'src/later/later' || p === 'src/moved/moved'),
      [],
    );
    await watch.close();
    const count = seen.length;
    writeFileSync(join(tree, 'src', 'closed.ts'), 'x');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(seen.length, count, 'no event after close');
  } finally {
    removeDir(tree);
  }
});

test("once the watch is ready, a file is stat'ed again only after an event names it, and read anew when it moved", async () => {
  const tree = fixtureRepo('ts-shapes');
  const files = new WorktreeFiles(tree);
  const watching = new WorktreeChanges(tree, true, files);
  // Counts the stats WorktreeFiles takes.
  const stats = countFsCalls('lstatSync');
  const statsFor = (read: () => void) => {
    const before = stats.count;
    read();
    return stats.count - before;
  };
  // Polls for at most 10 s.
  const eventually = async (holds: () => boolean, what: string) => {
    let held = holds();
    for (let i = 0; i < 100 && !held; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      held = holds();
    }
    assert.ok(held, what);
  };
  try {
    const path = 'src/shapes.ts';
    const indexed = files.current(path);
    assert.equal(indexed, gitBlobSha(readFileSync(join(tree, path))));
    assert.equal(
      statsFor(() => files.current(path)),
      1,
      'not watched: a stat at each visit',
    );
    watching.follow();
    // Ready once a visit after a stat needs none.
    await eventually(() => {
      files.current(path);
      return statsFor(() => files.current(path)) === 0;
    }, 'the watch became ready');
    assert.equal(
      statsFor(() => assert.equal(files.current(path), indexed)),
      0,
    );

    // Edited: the event leaves it to be stat'ed, and read, again.
    writeFileSync(join(tree, path), 'export const edited = 1;\n');
    const edited = gitBlobSha(Buffer.from('export const edited = 1;\n'));
    await eventually(() => files.current(path) === edited, 'the edit was seen');
    assert.equal(
      statsFor(() => files.current(path)),
      0,
      "trusted again once stat'ed after the event",
    );

    // A file created elsewhere may be a directory's entry in disguise (a rename over a directory): every file is
    // stat'ed once more, then trusted again.
    writeFileSync(join(tree, 'src', 'created.ts'), 'export const c = 1;\n');
    await eventually(() => statsFor(() => files.current(path)) === 1, 'a stat after an event elsewhere');
    assert.equal(
      statsFor(() => files.current(path)),
      0,
    );

    // Deleted: seen as gone at once the event is handled.
    rmSync(join(tree, path));
    await eventually(() => files.current(path) === undefined, 'the deletion was seen');

    // No longer watched: a stat at each visit again.
    await watching.close();
    files.current('src/main.ts');
    assert.equal(
      statsFor(() => files.current('src/main.ts')),
      1,
    );
  } finally {
    stats.restore();
    await watching.close();
    removeDir(tree);
  }
});
