// HEAD as a serving process reads it: from the files git keeps it in, stat'ed
// on each ask until their directories are watched, then only after an event
// there. Each way HEAD moves must be seen by the next ask once the events
// are handled (one turn of the event loop, as the MCP server waits before
// answering), and a closed watch must go back to stats.
import assert from 'node:assert/strict';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Heads } from '../src/freshness/head.js';
import { countFsCalls } from './support/fs-calls.js';
import { fixtureRepo, git, removeDir } from './support/repos.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

test('a watched HEAD is read without a stat until git moves it, and every move is seen at the next ask', async () => {
  const root = fixtureRepo('ts-shapes');
  const heads = new Heads(true);
  // Counts the stats Heads takes.
  const stats = countFsCalls('statSync');
  const statsFor = async (expected: string) => {
    const before = stats.count;
    assert.equal(await heads.head(root), expected);
    return stats.count - before;
  };
  /** The next ask stats (HEAD is read again); once its events are handled, the one after does not. */
  const seenThenQuiet = async (expected: string, seen: string, quiet: string) => {
    assert.ok((await statsFor(expected)) > 0, seen);
    await turn();
    assert.equal(await statsFor(expected), 0, quiet);
  };
  const rev = (name: string) => git(root, 'rev-parse', name).trim();
  try {
    const first = rev('HEAD');
    await seenThenQuiet(first, 'the first ask stats', 'quiet: no stat');

    git(root, 'commit', '-q', '--allow-empty', '-m', 'second');
    await turn();
    const second = rev('HEAD');
    assert.notEqual(second, first);
    await seenThenQuiet(second, 'a commit is seen, by stats', 'quiet again');

    // A branch in a directory of its own under refs/heads: its loose ref is watched once HEAD names it.
    git(root, 'checkout', '-q', '-b', 'topic/deep');
    await turn();
    await seenThenQuiet(second, 'HEAD names another branch: read again', 'quiet on the new branch');
    git(root, 'commit', '-q', '--allow-empty', '-m', 'on topic');
    await turn();
    const onTopic = rev('HEAD');
    assert.equal(await heads.head(root), onTopic, 'a commit on a branch under refs/heads/topic is seen');
    // Moved with nothing but its loose ref rewritten (git itself also takes HEAD.lock; another tool need not):
    // seen through the ref's own directory.
    const loose = join(root, '.git', 'refs', 'heads', 'topic', 'deep');
    writeFileSync(`${loose}.lock`, `${second}\n`);
    renameSync(`${loose}.lock`, loose);
    await turn();
    assert.equal(await heads.head(root), second, 'the loose ref moved');
    git(root, 'update-ref', 'refs/heads/topic/deep', onTopic);
    await turn();
    assert.equal(await heads.head(root), onTopic, 'and back, by git');

    // Packed, then moved in packed-refs alone, as git rewrites it (a lock file renamed over it).
    git(root, 'pack-refs', '--all', '--prune');
    await turn();
    assert.equal(await heads.head(root), onTopic, 'the same commit, read from packed-refs');
    const packed = join(root, '.git', 'packed-refs');
    writeFileSync(
      `${packed}.lock`,
      readFileSync(packed, 'utf8').replace(`${onTopic} refs/heads/topic/deep`, `${first} refs/heads/topic/deep`),
    );
    renameSync(`${packed}.lock`, packed);
    await turn();
    assert.equal(await heads.head(root), first, 'the branch moved in packed-refs');

    git(root, 'checkout', '-q', '--detach', second);
    await turn();
    assert.equal(await heads.head(root), second, 'a detached HEAD');

    heads.close();
    assert.ok((await statsFor(second)) > 0, 'closed: stats again');
    assert.ok((await statsFor(second)) > 0, 'closed: stats at every ask');
  } finally {
    stats.restore();
    heads.close();
    removeDir(root);
  }
});

test('a HEAD read by a process that does not watch is stat-ed at every ask', async () => {
  const root = fixtureRepo('ts-shapes');
  const heads = new Heads();
  const stats = countFsCalls('statSync');
  try {
    await heads.head(root);
    await turn();
    const before = stats.count;
    await heads.head(root);
    assert.ok(stats.count > before);
  } finally {
    stats.restore();
    removeDir(root);
  }
});
