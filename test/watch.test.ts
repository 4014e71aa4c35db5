// `sextant watch`: a new commit and an uncommitted edit are published by
// themselves, a tree that stays dirty is not indexed in a loop, a stop
// (SIGINT, SIGTERM) releases the lock and publishes nothing half-done, a path
// that is not a repository is refused before the registry is touched, a
// repository deleted while watched is let go.
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { registry, runningIndexers, scalar } from './support/index-runs.js';
import { Watch } from './support/watch.js';
import { commitAll, fixtureRepo, git, gitRepoOf, removeDir, tempDir } from './support/repos.js';
import { mcpSession, sextant, testHome } from './support/sextant.js';
import { registryExists } from './support/registry.js';

/** What registryStatus says of the repository's watcher, asked over MCP. */
async function watcherOf(env: NodeJS.ProcessEnv, repo: string): Promise<Record<string, any>> {
  const session = await mcpSession(env);
  try {
    const r = await session.ok('registryStatus', {});
    return r.repos.find((x: { repo: string }) => x.repo === repo);
  } finally {
    await session.close();
  }
}

function status(env: NodeJS.ProcessEnv, repo: string): Record<string, any> {
  const r = sextant(['status', repo, '--json'], { env });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('sextant watch', () => {
  const { home, env } = testHome();
  let root: string;
  before(() => {
    root = fixtureRepo('ts-shapes');
  });
  after(() => removeDir(join(root, '..')));

  test('publishes HEAD at start, then uncommitted edits and new commits by themselves; SIGINT stops it with the lock released', async (t) => {
    const watch = new Watch(root, env);
    let again: Watch | undefined;
    try {
      const watching = await watch.next((e) => e.kind === 'watching');
      assert.equal(watching.published, null);
      const first = await watch.next((e) => e.kind === 'indexed');
      const head1 = git(root, 'rev-parse', 'HEAD').trim();
      assert.equal(first.report.commit, head1);
      assert.equal(status(env, first.report.repo).commit, head1);
      const watcher = await watcherOf(env, first.report.repo);
      assert.ok(['watching', 'indexing'].includes(watcher.watcher), JSON.stringify(watcher));
      assert.match(watcher.watcher_last_event, /indexing|published/);

      // An uncommitted edit is published by itself, with the worktree's fingerprint...
      appendFileSync(join(root, 'src', 'shapes.ts'), '\nexport const edited = 0;\n');
      const dirty = await watch.next((e) => e.kind === 'indexed' && e.report.dirty === true);
      assert.equal(dirty.report.commit, head1);
      // ...once: a tree that stays dirty is not indexed again.
      const runs = watch.events.filter((e) => e.kind === 'indexing').length;
      await new Promise((resolve) => setTimeout(resolve, 3000));
      assert.equal(watch.events.filter((e) => e.kind === 'indexing').length, runs, JSON.stringify(watch.events.slice(-3)));
      // Nothing changed since that run: no change is pending, however many polls came while it ran.
      const idle = await watcherOf(env, dirty.report.repo);
      assert.equal(idle.watcher, 'watching', JSON.stringify(idle));
      assert.equal(idle.watcher_pending, false, JSON.stringify(idle));

      appendFileSync(join(root, 'src', 'shapes.ts'), '\nexport const watched = 1;\n');
      const committedAt = Date.now();
      const head2 = commitAll(root, 'a commit for watch to publish');
      const second = await watch.next((e) => e.kind === 'indexed' && e.report.commit === head2);
      const s = status(env, second.report.repo);
      assert.equal(s.commit, head2);
      // The figure the lifecycle issue asks for; measured here, asserted nowhere.
      t.diagnostic(`commit to published: ${Date.now() - committedAt} ms (of which indexing ${second.report.duration_ms} ms)`);

      const code = await watch.stop('SIGINT');
      assert.equal(code, 0, watch.stderr);
      assert.equal((await watcherOf(env, s.repo)).watcher, 'none');
      const db = registry(home);
      try {
        assert.equal(scalar<number>(db, 'select count(*) from locks'), 0, 'the lock is released');
      } finally {
        db.close();
      }
      // Restarted on a published HEAD, it does not index again.
      again = new Watch(root, env);
      const w = await again.next((e) => e.kind === 'watching');
      assert.equal(w.published, head2);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      assert.equal(again.events.filter((e) => e.kind === 'indexing').length, 0, JSON.stringify(again.events));
      assert.equal(await again.stop('SIGKILL'), null);
      assert.equal((await watcherOf(env, s.repo)).watcher, 'none', 'a killed watcher is not reported watching');
    } finally {
      // Both, whatever failed: a watcher left running would index the next test's commits.
      await Promise.all([watch.stop('SIGKILL'), again?.stop('SIGKILL')]);
    }
  });

  test('SIGTERM during a run publishes nothing, records the run failed and releases the lock', async () => {
    const before = status(env, 'ts-shapes').commit;
    appendFileSync(join(root, 'src', 'shapes.ts'), '\nexport const interrupted = 2;\n');
    const head = commitAll(root, 'a commit whose run is stopped');
    const watch = new Watch(root, env);
    try {
      await watch.next((e) => e.kind === 'indexing' && e.head === head);
      // Stopped once the indexer is really running.
      const deadline = Date.now() + 120_000;
      while (runningIndexers(root).length === 0 && !watch.events.some((e) => e.kind !== 'watching' && e.kind !== 'indexing')) {
        assert.ok(Date.now() < deadline, 'the indexer never started');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(await watch.stop('SIGTERM'), 0, watch.stderr);
      const s = status(env, 'ts-shapes');
      if (watch.events.some((e) => e.kind === 'indexed')) {
        // The run finished before the signal arrived: then it published whole.
        assert.equal(s.commit, head);
      } else {
        assert.equal(s.commit, before, 'the previous index still serves');
        assert.equal(s.last_index_run.outcome, 'failed');
        assert.match(s.last_index_run.reason, /interrupted by SIGTERM/);
      }
      assert.equal(s.write_lock_present, false);
      assert.deepEqual(runningIndexers(root), [], 'no indexer left running');
    } finally {
      await watch.stop('SIGKILL');
    }
  });

  test('a repository deleted while watched is let go and the others are still watched; with none left, exit 1 in one line', async () => {
    const fresh = testHome();
    const [a, b] = ['gone-a', 'gone-b'].map((name) => gitRepoOf(name, { [`${name}.ts`]: `export const value = 1;\n` }));
    const watch = new Watch([a!, b!], fresh.env);
    try {
      for (const repo of ['gone-a', 'gone-b']) await watch.next((e) => e.kind === 'indexed' && e.report.repo === repo);
      removeDir(join(a!, '..'));
      const first = await watch.next((e) => e.kind === 'stopped');
      assert.equal(basename(first.root), 'gone-a');
      assert.equal(first.reason, 'it no longer exists (deleted or moved)');
      appendFileSync(join(b!, 'gone-b.ts'), 'export const more = 2;\n');
      await watch.next((e) => e.kind === 'indexed' && e.report.repo === 'gone-b' && e.report.dirty === true);
      removeDir(join(b!, '..'));
      await watch.next((e) => e.kind === 'stopped' && basename(e.root) === 'gone-b');
      assert.equal(await watch.exited, 1);
      assert.equal(
        watch.stderr,
        'sextant watch: every repository it watched is gone (deleted, moved or no longer a git repository): run `sextant watch PATH` where they are now\n',
      );
      // --json: the failure is one more line of the stream.
      assert.deepEqual(watch.events.at(-1), { error: watch.stderr.trim().replace(/^sextant watch: /, '') });
      assert.equal(watch.events.filter((e) => e.kind === 'failed').length, 0, JSON.stringify(watch.events));
    } finally {
      await watch.stop('SIGKILL');
      removeDir(fresh.home);
    }
  });

  test('a path that is not a git repository: one line naming the fix, exit 1, no registry created', () => {
    const fresh = testHome();
    const outside = tempDir('sextant-not-a-repo-');
    try {
      const r = sextant(['watch', outside], { env: fresh.env });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /^sextant watch: .* is not inside a git repository: run `git init`/);
      assert.equal(r.stderr.trim().split('\n').length, 1);
      assert.equal(registryExists(fresh.home), false);
      const bad = sextant(['watch', '--poll', '0'], { env: fresh.env, cwd: outside });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--poll must be a number of seconds > 0/);
    } finally {
      removeDir(outside);
    }
  });
});
