// A worktree's HEAD and its recent ancestors, asked on every query and so
// answered from a cache: HEAD is read again only when the files that decide
// it (HEAD, the branch's loose ref, packed-refs, a reftable's list) changed
// since the last time; the ancestors of a commit never change. HEAD is read
// from those files when they name a commit plainly (a detached HEAD, a
// branch's loose or packed ref), and asked of git otherwise: spawning git
// was a third of a cold server's first answer. A serving process watches the
// directories of those files, and stats them again only after an event there.
import { existsSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { Lru } from '../lru.js';
import { gitAt, headCommit } from './git.js';

interface GitDirs {
  /** The worktree's own git directory (HEAD lives there). */
  gitDir: string;
  /** The repository's shared one (refs live there). */
  commonDir: string;
  /** A linked worktree or a submodule: its git directory is elsewhere. */
  linked: boolean;
  /** packed-refs, or a reftable's list of tables: what changes when refs are packed. */
  refsList: string;
  /** HEAD's stat when it was last read, and the loose ref it named then. */
  headStat?: string;
  ref?: string | undefined;
  /** A serving process's watch of the directories of those files (see GitWatch). */
  watch?: GitWatch | undefined;
}

export class Heads {
  private readonly dirs = new Map<string, GitDirs | null>();
  private readonly last = new Map<string, { key: string; head: string | undefined }>();
  private readonly ancestry = new Lru<string, string[]>(64);

  /** `watching`: a serving process, which asks on every answer for as long as it runs (see GitWatch). */
  constructor(private watching = false) {}

  /** HEAD's commit; undefined when the worktree has none, is gone or is not a git worktree. */
  async head(root: string): Promise<string | undefined> {
    const dirs = await this.gitDirs(root);
    if (!dirs) return undefined;
    const known = this.last.get(root);
    if (known && dirs.watch?.quiet) return known.head;
    const key = this.watchedKey(root, dirs);
    if (key === undefined) {
      this.last.delete(root);
      return undefined;
    }
    if (known && known.key === key) return known.head;
    const head = readHead(dirs) ?? (await headCommit(root));
    this.last.set(root, { key, head });
    return head;
  }

  /**
   * `commit` and up to `max` of its ancestors, newest first, as git lists
   * them (`git rev-list --max-count`): position i is i commits away.
   */
  async ancestors(root: string, commit: string, max: number): Promise<string[]> {
    const key = `${root}\0${commit}\0${max}`;
    const known = this.ancestry.get(key);
    if (known) return known;
    let listed: string[];
    try {
      listed = (await (await gitAt(root)).raw(['rev-list', `--max-count=${max + 1}`, commit, '--'])).split('\n').filter(Boolean);
    } catch {
      listed = [commit];
    }
    this.ancestry.set(key, listed);
    return listed;
  }

  /** Stops the watches: from then on HEAD's files are stat'ed on every ask. */
  close(): void {
    this.watching = false;
    for (const dirs of this.dirs.values()) {
      dirs?.watch?.close();
      if (dirs) dirs.watch = undefined;
    }
  }

  /**
   * stateKey, with the directories of the files it stats watched first
   * where this process watches: a change after the watch is in place is an
   * event, and a change before it is in what the stats see. The loose ref
   * is known only once HEAD is read: its directory is watched then, and the
   * key taken again, so that a move of the ref in between is seen.
   */
  private watchedKey(root: string, dirs: GitDirs): string | undefined {
    // A linked worktree's HEAD outlives the worktree: each answer checks that it is still there (stateKey).
    if (!this.watching || dirs.linked) return this.stateKey(root, dirs);
    dirs.watch ??= new GitWatch();
    dirs.watch.arm([dirs.gitDir, dirs.commonDir, dirname(dirs.refsList)]);
    const key = this.stateKey(root, dirs);
    if (!dirs.ref || dirs.watch.has(dirname(dirs.ref))) return key;
    dirs.watch.arm([dirname(dirs.ref)]);
    return this.stateKey(root, dirs);
  }

  /**
   * What HEAD is made of, as stats: equal keys, equal HEADs. Asked on every
   * query, so it reads as little as it can: the stats of HEAD, of the loose
   * ref HEAD named when last read (HEAD is read again only when its own stat
   * moves) and of packed-refs (or a reftable's list). Undefined when HEAD
   * cannot be read: the worktree is gone.
   */
  private stateKey(root: string, dirs: GitDirs): string | undefined {
    const headFile = join(dirs.gitDir, 'HEAD');
    const headStat = fileKey(headFile);
    if (headStat === '-') return undefined;
    if (dirs.headStat !== headStat) {
      try {
        const head = readFileSync(headFile, 'utf8').trim();
        dirs.ref = head.startsWith('ref: ') ? join(dirs.commonDir, head.slice(5)) : undefined;
        dirs.headStat = headStat;
      } catch {
        return undefined;
      }
    }
    // A linked worktree's HEAD lives outside it, and outlives it.
    if (dirs.linked && fileKey(root) === '-') return undefined;
    return [headStat, dirs.ref ?? '', dirs.ref ? fileKey(dirs.ref) : '', fileKey(dirs.refsList)].join('\0');
  }

  private async gitDirs(root: string): Promise<GitDirs | null> {
    if (this.dirs.has(root)) return this.dirs.get(root)!;
    let found: Omit<GitDirs, 'refsList'> | null = null;
    const dotGit = join(root, '.git');
    try {
      if (statSync(dotGit).isDirectory()) found = { gitDir: dotGit, commonDir: dotGit, linked: false };
      else {
        // A linked worktree or a submodule: git says where its directories are.
        const [gitDir, commonDir] = (await (await gitAt(root)).revparse(['--absolute-git-dir', '--git-common-dir'])).trim().split('\n');
        if (gitDir && commonDir) found = { gitDir, commonDir: isAbsolute(commonDir) ? commonDir : join(root, commonDir), linked: true };
      }
    } catch {
      found = null;
    }
    const reftable = found && join(found.commonDir, 'reftable', 'tables.list');
    const dirs: GitDirs | null =
      found && existsSync(join(found.gitDir, 'HEAD'))
        ? { ...found, refsList: existsSync(reftable!) ? reftable! : join(found.commonDir, 'packed-refs') }
        : null;
    this.dirs.set(root, dirs);
    return dirs;
  }
}

/** A full object name, SHA-1 or SHA-256. */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * HEAD's commit read from the files git keeps it in, when they name it
 * plainly: HEAD holding an object name (detached), or naming a branch whose
 * loose ref, else its line in packed-refs, holds one. Undefined for anything
 * else (an unborn branch, a symbolic ref, a reftable, an unreadable file):
 * git is asked then. Branches and a detached HEAD name commits (git moves
 * them only to commits), so no peeling is needed; that the object is in the
 * repository is not checked (git's answer differs only in a repository
 * missing the commit its branch names).
 */
export function readHead(dirs: { gitDir: string; commonDir: string }): string | undefined {
  try {
    const head = readFileSync(join(dirs.gitDir, 'HEAD'), 'utf8').trim();
    if (OBJECT_ID.test(head)) return head;
    const ref = head.startsWith('ref: refs/heads/') ? head.slice(5) : undefined;
    if (!ref) return undefined;
    const loose = readIfExists(join(dirs.commonDir, ref))?.trim();
    if (loose !== undefined) return OBJECT_ID.test(loose) ? loose : undefined;
    const packed = readIfExists(join(dirs.commonDir, 'packed-refs'));
    for (const line of packed?.split('\n') ?? []) {
      const [id, name] = line.trimEnd().split(' ');
      if (name === ref) return id && OBJECT_ID.test(id) ? id : undefined;
    }
  } catch {
    // Unreadable: git says.
  }
  return undefined;
}

function readIfExists(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** A file's identity and last change, or '-' when it does not exist. */
function fileKey(path: string): string {
  try {
    const s = statSync(path, { throwIfNoEntry: false });
    return s ? `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}` : '-';
  } catch {
    return '-';
  }
}

/**
 * Watches the directories of the files HEAD is read from (inotify, through
 * fs.watch): quiet while no event came since it was armed, so the stats can
 * be skipped. Any event there (git rewrites the index on most commands)
 * only costs the next answer its stats. A watch that failed, or cannot be
 * placed, is never quiet. Events are handled before a question is answered
 * (mcp/tool-server.ts), as the worktree's are.
 */
class GitWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private failed = false;
  private changed = true;

  get quiet(): boolean {
    return !this.failed && !this.changed;
  }

  has(dir: string): boolean {
    return this.watchers.has(dir);
  }

  /** Watches these directories too, and forgets earlier events: the caller stats next. */
  arm(dirs: readonly string[]): void {
    this.changed = false;
    for (const dir of dirs) {
      if (this.failed || this.watchers.has(dir)) continue;
      try {
        const watcher = watch(dir, { persistent: false }, () => (this.changed = true));
        watcher.on('error', () => (this.failed = true));
        this.watchers.set(dir, watcher);
      } catch {
        this.failed = true;
      }
    }
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.failed = true;
  }
}
