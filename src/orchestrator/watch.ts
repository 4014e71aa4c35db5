// `sextant watch`: keeps the published index of each repository at its HEAD.
// A new commit (a commit, checkout, merge, pull, reset) is noticed from the
// git directory's change events and, in case an event is missed (network
// filesystems, editors that swap whole directories), from a slow poll of HEAD;
// the repository is then indexed by the same pipeline as `sextant index`. One
// run at a time per repository: a commit that lands during a run is indexed
// after it.
import { watch, type FSWatcher } from 'node:fs';
import { basename, join } from 'node:path';
import { UserError } from '../errors.js';
import { gitAt, headCommit } from '../freshness/git.js';
import type { Engine } from '../registry/engine.js';
import { ensureRepo, registerWatcher, unregisterWatcher } from '../registry/repos.js';
import { throwIfInterrupted } from './interrupt.js';
import type { IndexReport } from './index-repository.js';

export type WatchEvent =
  | { kind: 'watching'; root: string; head: string | undefined; indexed: string | null }
  | { kind: 'indexing'; root: string; head: string }
  | { kind: 'indexed'; root: string; report: IndexReport; since_commit_ms: number }
  | { kind: 'failed'; root: string; head: string; reason: string };

export interface WatchOptions {
  engine: Engine;
  /** Git worktree roots (see gitRoot). */
  roots: string[];
  /** Stops watching; a run under way is interrupted (nothing published). */
  signal: AbortSignal;
  /** Indexes one repository root under its registered name, as `sextant index` does. */
  index(root: string, slug: string, signal: AbortSignal): Promise<IndexReport>;
  onEvent(event: WatchEvent): void;
  /** How often HEAD is read even without change events. */
  pollMs?: number;
}

const DEFAULT_POLL_MS = 2000;
/** Git writes a commit as several files: wait for the burst to end. */
const SETTLE_MS = 150;

/** Watches until the signal aborts. */
export async function watchRepositories(options: WatchOptions): Promise<void> {
  const watchers = await Promise.all([...new Set(options.roots)].map((root) => RepoWatcher.start(root, options)));
  try {
    await new Promise<void>((resolve) => {
      if (options.signal.aborted) resolve();
      else options.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    await Promise.all(watchers.map((w) => w.stop()));
  }
}

class RepoWatcher {
  private readonly fsWatchers: FSWatcher[] = [];
  private poll: NodeJS.Timeout | undefined;
  private settle: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** The commit last published by this watcher, or found published when it started. */
  private indexed: string | null;
  /** When a change to HEAD was first noticed, for the time from commit to publish. */
  private noticedAt: number | undefined;

  private constructor(
    private readonly root: string,
    private readonly repo: { id: number; slug: string },
    private readonly options: WatchOptions,
    indexed: string | null,
  ) {
    this.indexed = indexed;
  }

  static async start(root: string, options: WatchOptions): Promise<RepoWatcher> {
    const gitDir = (await gitAt(root).revparse(['--absolute-git-dir'])).trim();
    const db = options.engine.db;
    // Under the name it is registered by, else the name `sextant index` would give it.
    const repo =
      (await db.selectFrom('repos').select(['id', 'slug']).where('root_path', '=', root).executeTakeFirst()) ??
      (await ensureRepo(db, basename(root), root));
    await registerWatcher(db, repo.id);
    const w = new RepoWatcher(root, repo, options, await publishedCommit(options.engine, repo.id));
    options.onEvent({ kind: 'watching', root, head: await headCommit(root), indexed: w.indexed });
    // HEAD, packed-refs and ORIG_HEAD live in the git directory; branch tips under refs/heads.
    for (const dir of [gitDir, join(gitDir, 'refs', 'heads')]) {
      try {
        w.fsWatchers.push(watch(dir, { recursive: dir !== gitDir }, () => w.changed()));
      } catch {
        // No events here (or no such directory yet): the poll still notices.
      }
    }
    w.poll = setInterval(() => w.changed(), options.pollMs ?? DEFAULT_POLL_MS);
    w.changed();
    return w;
  }

  private changed(): void {
    clearTimeout(this.settle);
    this.settle = setTimeout(() => void this.check(), SETTLE_MS);
  }

  private async check(): Promise<void> {
    if (this.options.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    const head = await headCommit(this.root);
    if (!head || head === this.indexed) return;
    this.noticedAt ??= performance.now();
    this.running = this.run(head).finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.changed();
      }
    });
  }

  private async run(head: string): Promise<void> {
    const { signal } = this.options;
    this.options.onEvent({ kind: 'indexing', root: this.root, head });
    try {
      throwIfInterrupted(signal);
      const report = await this.options.index(this.root, this.repo.slug, signal);
      this.indexed = report.commit;
      const since = performance.now() - (this.noticedAt ?? performance.now());
      this.noticedAt = undefined;
      this.options.onEvent({ kind: 'indexed', root: this.root, report, since_commit_ms: Math.round(since) });
    } catch (error) {
      if (signal.aborted) return;
      // Remembered as tried, so a failing commit is not indexed again until HEAD moves.
      this.indexed = head;
      this.noticedAt = undefined;
      const reason = error instanceof UserError || error instanceof Error ? error.message : String(error);
      this.options.onEvent({ kind: 'failed', root: this.root, head, reason });
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.poll);
    clearTimeout(this.settle);
    for (const w of this.fsWatchers) w.close();
    // A run under way sees the aborted signal, records itself failed and releases the lock.
    await this.running;
    await unregisterWatcher(this.options.engine.db, this.repo.id);
  }
}

/** The commit the registry serves for the repository, if any. */
async function publishedCommit(engine: Engine, repoId: number): Promise<string | null> {
  const row = await engine.db
    .selectFrom('repos')
    .innerJoin('indexes', 'indexes.id', 'repos.current_index_id')
    .select('indexes.commit_sha')
    .where('repos.id', '=', repoId)
    .executeTakeFirst();
  return row?.commit_sha ?? null;
}
