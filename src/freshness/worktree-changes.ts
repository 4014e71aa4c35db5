// Which files of a worktree differ from HEAD: edited, added, deleted, or new
// and untracked. An answer from the index reads the files it names and sees
// their edits (./worktree-files.ts), but a file it does not name may have
// gained what it looks for (a new call in an edited file, a new file): it
// asks here which files could have. `git status` lists them; a serving
// sextant then watches the tree and asks git again only after a file event,
// so a question about an unchanged tree costs nothing more. A one-shot
// command asks once.
import { uncommittedPaths } from './worktree.js';
import { watchWorktree, type TreeWatcher } from './worktree-watch.js';
import type { WorktreeFiles } from './worktree-files.js';

/** Changed files remembered per worktree: past this many, the list says it is cut (`complete: false`). */
export const MAX_CHANGED_FILES = 10_000;

export interface ChangedFiles {
  /** Repository-relative paths of files that exist and differ from HEAD or are untracked (deleted ones are left out: nothing is in them). */
  paths: readonly string[];
  /** False when git could not be asked, or listed more than MAX_CHANGED_FILES. */
  complete: boolean;
}

export class WorktreeChanges {
  private known: ChangedFiles | undefined;
  private asking: Promise<ChangedFiles> | undefined;
  /** A file event came after the last listing began: the next question lists again. */
  private moved = true;
  private watcher: Promise<TreeWatcher | undefined> | undefined;
  /** Whether events keep `known` true: once a watcher runs. */
  private watched = false;
  private closed = false;

  constructor(
    readonly root: string,
    /** A serving process, whose worktrees move between questions: list for each until `follow` watches; else list once. */
    private readonly serving: boolean,
    /** The worktree's files as answers see them, told of each event once watched, so that they need no stat until one names them. */
    private readonly worktreeFiles?: WorktreeFiles,
  ) {}

  /** The changed files now (as of the last file event seen). */
  async files(): Promise<ChangedFiles> {
    if (this.known && (!this.serving || (this.watched && !this.moved))) return this.known;
    return this.listAgain();
  }

  private listAgain(): Promise<ChangedFiles> {
    return (this.asking ??= this.list().finally(() => (this.asking = undefined)));
  }

  /**
   * Watches the worktree from now on, so that a question lists again only
   * after a file event. Started apart from the questions (a serving
   * process does it once its first answer is out): walking the tree and
   * loading the watcher would delay that answer.
   *
   * The last listing is trusted from now on, not only once the walk has
   * watched every directory: a question meanwhile listing again cost 30-60
   * ms (git, and forking this process), which a client asking without pause
   * paid on each of its first answers. A file changed before the walk
   * reaches its directory is seen by the listing started once the watch is
   * ready (20-40 ms after it starts on the benchmark's corpora, git
   * included), and answers use it once it is in.
   */
  follow(): void {
    if (!this.serving || this.closed || this.watcher) return;
    this.watched = true;
    this.watcher = this.startWatching();
  }

  /** Whether `follow` has started watching (the watch may not be ready yet). */
  get following(): boolean {
    return this.watcher !== undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.worktreeFiles?.unwatched();
    await (await this.watcher)?.close();
  }

  private async list(): Promise<ChangedFiles> {
    // Events from here on move the listing again: it may have missed them.
    this.moved = false;
    let listed: ChangedFiles;
    try {
      const paths = (await uncommittedPaths(this.root)).filter((c) => !c.deleted).map((c) => c.path);
      listed = { paths: paths.slice(0, MAX_CHANGED_FILES), complete: paths.length <= MAX_CHANGED_FILES };
    } catch {
      // Not a worktree git can read now: no file is known to be changed, and the list says it is incomplete.
      listed = { paths: [], complete: false };
      this.moved = true;
    }
    this.known = listed;
    return listed;
  }

  private async startWatching(): Promise<TreeWatcher | undefined> {
    try {
      let failed = false;
      const tree = await watchWorktree(
        this.root,
        (path) => {
          this.moved = true;
          // A failed watch (too many directories for inotify, say) may miss changes from now on: list for every question.
          if (path === undefined) {
            failed = true;
            this.worktreeFiles?.unwatched();
          } else if (!failed) this.worktreeFiles?.changed(path);
          if (failed) this.watched = false;
        },
        { persistent: false },
      );
      this.watched = !failed;
      if (this.closed) await tree.close();
      else if (!failed) {
        this.worktreeFiles?.watched((dir) => tree.watches(dir));
        // Files changed while the tree was being walked may have had no watch yet: now it is, list again, then trust
        // events. In the background: questions meanwhile keep the last listing, as they did during the walk, instead
        // of waiting for git (a spike of 30-50 ms in a client's first burst). A listing begun before now may have
        // missed them: this one follows it.
        void (this.asking ?? Promise.resolve()).then(() => this.listAgain());
      }
      if (failed) this.moved = true;
      return tree;
    } catch {
      // No watcher (git or the filesystem refused): every question lists again.
      this.watched = false;
      this.moved = true;
      return undefined;
    }
  }
}
