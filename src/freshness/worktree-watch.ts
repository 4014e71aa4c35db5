// File events of a worktree, as `sextant watch` and a serving `sextant mcp`
// follow them: a watch (inotify, through fs.watch) on each directory of the
// tree, skipping .git, node_modules and what git ignores (build outputs can be
// huge, and are never indexed). Both only need to know that something under
// the tree moved, and where: they ask git what changed. So the tree is walked
// by its directories alone (one readdir each, which says what is a directory
// without a stat per file), and a directory created later is watched when its
// parent's event names it, unless git ignores it (a build's output). chokidar,
// used before, stat'ed every file on its walk: 0.15-0.2 s on the benchmark's
// corpora, in the first answers of a serving process.
import { existsSync, watch as watchDirectory, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ignoredPaths } from './worktree.js';

export interface TreeWatcher {
  /** Whether events are reported for the entries of a repository-relative directory ('' for the root). */
  watches(dir: string): boolean;
  /** Stops watching; no event is reported after it resolves. */
  close(): Promise<void>;
}

/**
 * Watches the directories under `root` and resolves once each is watched:
 * `onChange` gets the repository-relative path of each entry an event names
 * (a file written, created, removed or renamed), or undefined when the watch
 * failed somewhere (too many watches for inotify, a directory unreadable): from
 * then on anything may change unreported. `persistent: false` lets the process
 * end while it still watches.
 */
export async function watchWorktree(
  root: string,
  onChange: (path: string | undefined) => void,
  options: { persistent?: boolean } = {},
): Promise<TreeWatcher> {
  const tree = new DirectoryWatches(root, new Set(await ignoredPaths(root)), onChange, options.persistent ?? true);
  await tree.add('');
  return tree;
}

class DirectoryWatches implements TreeWatcher {
  /** By repository-relative directory ('' for the root). */
  private readonly byDirectory = new Map<string, FSWatcher>();
  /** Directories created since the walk, waiting for git to say what under them it ignores. */
  private readonly created = new Set<string>();
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly ignored: Set<string>,
    private readonly onChange: (path: string | undefined) => void,
    private readonly persistent: boolean,
  ) {}

  /** Watches `dir` and every directory under it not skipped; resolves once they are. */
  async add(dir: string): Promise<void> {
    const pending = [dir];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (this.closed || this.byDirectory.has(next) || this.skipped(next)) continue;
      const path = join(this.root, next);
      try {
        const watch = watchDirectory(path, { persistent: this.persistent }, (_event, name) => this.event(next!, name));
        watch.on('error', () => this.fail(next!));
        this.byDirectory.set(next, watch);
        for (const entry of await readdir(path, { withFileTypes: true })) {
          if (entry.isDirectory()) pending.push(next === '' ? entry.name : `${next}/${entry.name}`);
        }
      } catch (error) {
        // Gone, or no longer a directory, since its parent was read: its parent's event said so.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') {
          this.drop(next);
          continue;
        }
        // Anything else (no inotify watches left, an unreadable directory): failed, and the rest of the walk would be too.
        this.fail(next);
        return;
      }
    }
  }

  watches(dir: string): boolean {
    return this.byDirectory.has(dir);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const watch of this.byDirectory.values()) watch.close();
    this.byDirectory.clear();
  }

  /** .git, node_modules, and what git ignores (a directory it ignores whole, or an ignored file) as it said at the walk or when a directory appeared. */
  private skipped(path: string): boolean {
    if (path === '') return false;
    const parts = path.split('/');
    return parts.some((part, i) => part === '.git' || part === 'node_modules' || this.ignored.has(parts.slice(0, i + 1).join('/')));
  }

  private event(dir: string, name: string | Buffer | null): void {
    if (this.closed) return;
    // No name: something in the directory moved. The directory's own name, and nothing of that name in it: the
    // directory itself was moved or deleted (inotify names no entry then), which its parent's event says too.
    if (name === null || (String(name) === basename(dir) && !existsSync(join(this.root, dir, String(name))))) return this.onChange(dir);
    const path = dir === '' ? String(name) : `${dir}/${String(name)}`;
    if (this.skipped(path)) return;
    this.onChange(path);
    // A directory created, or moved here, is watched from now on, afresh when an event names one already watched:
    // deleted and created again (a checkout does that), it is another directory, which its inode number may not
    // tell (a freed one is given again), and the old watch follows the one gone. One removed or moved away is no
    // longer watched.
    void lstat(join(this.root, path)).then(
      (stat) => {
        if (stat.isDirectory()) this.rewatch(path);
      },
      () => this.drop(path),
    );
  }

  /**
   * Watches directories created since the walk, anew: git says first what
   * under them is ignored (a build's output, whole), once for those that came
   * together. What was written in them before their new watch is reported
   * again by naming them once it is.
   */
  private rewatch(dir: string): void {
    this.created.add(dir);
    if (this.created.size > 1) return;
    setImmediate(async () => {
      // Taken now: directories named while git answers make the next batch.
      const batch = [...this.created];
      this.created.clear();
      // A directory under another of the batch is walked with it.
      const dirs = batch.filter((d) => !batch.some((other) => other !== d && d.startsWith(`${other}/`)));
      try {
        for (const path of await ignoredPaths(this.root, dirs)) this.ignored.add(path);
      } catch {
        // git cannot say: watched as any other directory.
      }
      for (const d of dirs) {
        if (this.closed) return;
        this.drop(d);
        await this.add(d);
        this.onChange(d);
      }
    });
  }

  /** Stops watching a directory gone, and those under it. */
  private drop(dir: string): void {
    for (const [path, watch] of this.byDirectory) {
      if (path === dir || path.startsWith(`${dir}/`)) {
        watch.close();
        this.byDirectory.delete(path);
      }
    }
  }

  private fail(dir: string): void {
    if (this.closed) return;
    this.drop(dir);
    this.onChange(undefined);
  }
}
