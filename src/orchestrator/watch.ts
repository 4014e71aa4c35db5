// `sextant watch`: keeps the published index of each repository true to its
// worktree. What an index is of is HEAD plus the fingerprint of what is
// uncommitted (as codebase-memory-mcp does, so a tree that stays dirty is not
// indexed in a loop); when that moves, the repository is indexed by the same
// pipeline as `sextant index`. Moves are noticed from file events (a watch per directory,
// skipping .git internals, node_modules and what git ignores), from the git
// directory (HEAD and refs: commit, checkout, rebase, pull) and, for events a
// filesystem does not deliver, from a slow poll. Runs are single-flight per
// repository: changes during a run cause exactly one follow-up run. A
// repository deleted, moved away or no longer one is let go; the others stay watched.
import { existsSync, watch as watchDir, type FSWatcher } from 'node:fs';
import { basename, join } from 'node:path';
import { gitAt } from '../freshness/git.js';
import { worktreeState } from '../freshness/worktree.js';
import { watchWorktree, type TreeWatcher } from '../freshness/worktree-watch.js';
import type { Engine } from '../registry/engine.js';
import { ensureRepo, registerWatcher, unregisterWatcher, updateWatcher } from '../registry/repos.js';
import { throwIfInterrupted } from './interrupt.js';
import type { IndexReport } from './index-repository.js';

export type WatchEvent =
  | { kind: 'watching'; root: string; repo: string; head: string | undefined; published: string | null }
  | { kind: 'indexing'; root: string; head: string; dirty: boolean; cause: string }
  | { kind: 'indexed'; root: string; report: IndexReport; since_change_ms: number }
  | { kind: 'failed'; root: string; head: string; reason: string }
  | { kind: 'stopped'; root: string; reason: string };

export interface WatchOptions {
  engine: Engine;
  /** Git worktree roots (see gitRoot). */
  roots: string[];
  /** Stops watching; a run under way is interrupted (nothing published). */
  signal: AbortSignal;
  /** Indexes one repository root under its registered name, as `sextant index` does. */
  index(root: string, slug: string, signal: AbortSignal): Promise<IndexReport>;
  onEvent(event: WatchEvent): void;
  /** How often the worktree is checked even without events. */
  pollMs?: number;
}

const DEFAULT_POLL_MS = 2000;
/** A save, a checkout or a commit is a burst of events: wait for it to end. */
const SETTLE_MS = 300;
/** Another writer holds the repository: try again after this long. */
const BUSY_RETRY_MS = 5000;

/** Watches until the signal aborts ('stopped'), or until every repository is gone ('gone'). */
export async function watchRepositories(options: WatchOptions): Promise<'stopped' | 'gone'> {
  const roots = [...new Set(options.roots)];
  let left = roots.length;
  let allGone: () => void = () => {};
  const gone = new Promise<'gone'>((resolve) => (allGone = () => resolve('gone')));
  const watchers = await Promise.all(roots.map((root) => RepoWatcher.start(root, options, () => --left === 0 && allGone())));
  try {
    return await Promise.race([
      gone,
      new Promise<'stopped'>((resolve) => {
        if (options.signal.aborted) resolve('stopped');
        else options.signal.addEventListener('abort', () => resolve('stopped'), { once: true });
      }),
    ]);
  } finally {
    await Promise.all(watchers.map((w) => w.stop()));
  }
}

/** HEAD and the uncommitted fingerprint, as one comparable key. */
const keyOf = (head: string, fingerprint: string | null) => `${head}:${fingerprint ?? ''}`;

class RepoWatcher {
  private readonly gitWatchers: FSWatcher[] = [];
  private tree: TreeWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;
  private settle: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** A check is reading the worktree: one at a time, so two cannot start two runs. */
  private checking = false;
  private followUp = false;
  /** Status shows a change waiting for the run under way (cleared when a run starts or a check finds nothing new). */
  private pendingShown = false;
  /** What the last run was of (published, or failed for good), so it is not run again. */
  private done: string | null;
  /** Why the next check is made, and since when a change is waiting. */
  private cause = 'start';
  private changedAt: number | undefined;
  /** The repository is gone (deleted, moved, no longer one): nothing of it is watched any more. */
  private stopped = false;

  private constructor(
    private readonly root: string,
    private readonly repo: { id: number; slug: string },
    private readonly options: WatchOptions,
    done: string | null,
    private readonly onGone: () => void,
  ) {
    this.done = done;
  }

  static async start(root: string, options: WatchOptions, onGone: () => void): Promise<RepoWatcher> {
    const gitDir = (await (await gitAt(root)).revparse(['--absolute-git-dir'])).trim();
    const db = options.engine.db;
    // Under the name it is registered by, else the name `sextant index` would give it.
    const repo =
      (await db.selectFrom('repos').select(['id', 'slug']).where('root_path', '=', root).executeTakeFirst()) ??
      (await ensureRepo(db, basename(root), root));
    await registerWatcher(db, repo.id);
    const w = new RepoWatcher(root, repo, options, await publishedKey(options.engine, repo.id), onGone);

    // HEAD, packed-refs and ORIG_HEAD live in the git directory; branch tips under refs/heads.
    for (const dir of [gitDir, join(gitDir, 'refs', 'heads')]) {
      try {
        w.gitWatchers.push(watchDir(dir, { recursive: dir !== gitDir }, () => w.changed('HEAD or a branch moved')));
      } catch {
        // No events here: the poll still notices.
      }
    }
    w.tree = await watchWorktree(root, (path) => w.changed(path === undefined ? 'the file watcher failed' : `${path} changed`));
    const state = await worktreeState(root);
    options.onEvent({ kind: 'watching', root, repo: repo.slug, head: state.head, published: w.done?.split(':')[0] || null });
    w.poll = setInterval(() => void w.check(), options.pollMs ?? DEFAULT_POLL_MS);
    void w.check();
    return w;
  }

  private changed(cause: string): void {
    this.cause = cause;
    this.changedAt ??= performance.now();
    clearTimeout(this.settle);
    this.settle = setTimeout(() => void this.check(), SETTLE_MS);
    // Only a change seen is pending: a poll during a run knows of none.
    if (this.running && !this.pendingShown) {
      this.pendingShown = true;
      void this.note({ pending: true });
    }
  }

  private async check(): Promise<void> {
    if (this.options.signal.aborted || this.stopped) return;
    if (this.running || this.checking) {
      this.followUp = true;
      return;
    }
    this.checking = true;
    let state;
    try {
      state = await worktreeState(this.root);
    } catch {
      // git could not read the worktree: gone, or for a moment (a lock, a checkout under way), tried again at the next poll.
      if (!existsSync(join(this.root, '.git')))
        await this.gone(existsSync(this.root) ? 'it is no longer a git repository' : 'it no longer exists (deleted or moved)');
      return;
    } finally {
      this.checking = false;
    }
    const { head, fingerprint } = state;
    if (!head) return;
    const key = keyOf(head, fingerprint);
    if (key === this.done) {
      this.changedAt = undefined;
      if (this.pendingShown) {
        this.pendingShown = false;
        await this.note({ pending: false });
      }
      if (this.followUp) {
        this.followUp = false;
        void this.check();
      }
      return;
    }
    this.running = this.run(head, fingerprint !== null, key).finally(() => {
      this.running = undefined;
      if (this.followUp) {
        this.followUp = false;
        void this.check();
      }
    });
  }

  private async run(head: string, dirty: boolean, key: string): Promise<void> {
    const { signal } = this.options;
    const since = this.changedAt ?? performance.now();
    this.changedAt = undefined;
    this.options.onEvent({ kind: 'indexing', root: this.root, head, dirty, cause: this.cause });
    this.pendingShown = false;
    await this.note({ state: 'indexing', pending: false, event: `indexing ${head.slice(0, 12)}${dirty ? ' with uncommitted changes' : ''}: ${this.cause}` });
    try {
      throwIfInterrupted(signal);
      const report = await this.options.index(this.root, this.repo.slug, signal);
      this.done = (await publishedKey(this.options.engine, this.repo.id)) ?? key;
      this.options.onEvent({ kind: 'indexed', root: this.root, report, since_change_ms: Math.round(performance.now() - since) });
      await this.note({ state: 'watching', event: `published ${report.commit.slice(0, 12)} (${report.outcome})` });
    } catch (error) {
      if (signal.aborted) return;
      const reason = error instanceof Error ? error.message : String(error);
      if (/another sextant run/.test(reason)) {
        // Never beside another writer: wait for it, then look again.
        setTimeout(() => void this.check(), BUSY_RETRY_MS).unref();
      } else {
        // Not tried again until the worktree moves: a failing state would fail in a loop.
        this.done = key;
      }
      this.options.onEvent({ kind: 'failed', root: this.root, head, reason });
      await this.note({ state: 'watching', event: `failed at ${head.slice(0, 12)}: ${reason.slice(0, 200)}` });
    }
  }

  /** What status shows of this watcher. */
  private async note(change: { state?: string; pending?: boolean; event?: string }): Promise<void> {
    await updateWatcher(this.options.engine.db, this.repo.id, change).catch(() => undefined);
  }

  /** The repository is gone: stops watching it and says why; watchRepositories ends once every one is. */
  private async gone(reason: string): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.stop();
    this.options.onEvent({ kind: 'stopped', root: this.root, reason });
    this.onGone();
  }

  async stop(): Promise<void> {
    clearInterval(this.poll);
    clearTimeout(this.settle);
    for (const w of this.gitWatchers) w.close();
    this.gitWatchers.length = 0;
    await this.tree?.close();
    this.tree = undefined;
    // A run under way sees the aborted signal, records itself failed and releases the lock.
    await this.running;
    await unregisterWatcher(this.options.engine.db, this.repo.id);
  }
}

/** The key of the index the registry serves for the repository, if any. */
async function publishedKey(engine: Engine, repoId: number): Promise<string | null> {
  const row = await engine.db
    .selectFrom('repos')
    .innerJoin('indexes', 'indexes.id', 'repos.current_index_id')
    .select(['indexes.commit_sha', 'indexes.worktree_fingerprint'])
    .where('repos.id', '=', repoId)
    .executeTakeFirst();
  return row ? keyOf(row.commit_sha, row.worktree_fingerprint) : null;
}
