// A worktree's HEAD and its recent ancestors, asked on every query and so
// answered from a cache: HEAD is read again only when the files that decide
// it (HEAD, the branch's loose ref, packed-refs, a reftable's list) changed
// since the last time; the ancestors of a commit never change. HEAD is read
// from those files when they name a commit plainly (a detached HEAD, a
// branch's loose or packed ref), and asked of git otherwise: spawning git
// was a third of a cold server's first answer.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
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
}

export class Heads {
  private readonly dirs = new Map<string, GitDirs | null>();
  private readonly last = new Map<string, { key: string; head: string | undefined }>();
  private readonly ancestry = new Lru<string, string[]>(64);

  /** HEAD's commit; undefined when the worktree has none, is gone or is not a git worktree. */
  async head(root: string): Promise<string | undefined> {
    const dirs = await this.gitDirs(root);
    if (!dirs) return undefined;
    const key = this.stateKey(root, dirs);
    if (key === undefined) return undefined;
    const known = this.last.get(root);
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
