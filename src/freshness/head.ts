// A worktree's HEAD and its recent ancestors, asked on every query and so
// answered from a cache: HEAD is asked of git only when the files that
// decide it (HEAD, the branch's loose ref, packed-refs, a reftable's list)
// changed since the last time; the ancestors of a commit never change.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { Lru } from '../lru.js';
import { gitAt, headCommit } from './git.js';

interface GitDirs {
  /** The worktree's own git directory (HEAD lives there). */
  gitDir: string;
  /** The repository's shared one (refs live there). */
  commonDir: string;
}

export class Heads {
  private readonly dirs = new Map<string, GitDirs | null>();
  private readonly last = new Map<string, { key: string; head: string | undefined }>();
  private readonly ancestry = new Lru<string, string[]>(64);

  /** HEAD's commit; undefined when the worktree has none or is not a git worktree. */
  async head(root: string): Promise<string | undefined> {
    const dirs = await this.gitDirs(root);
    if (!dirs) return undefined;
    const key = this.stateKey(dirs);
    const known = this.last.get(root);
    if (known && known.key === key) return known.head;
    const head = await headCommit(root);
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
      listed = (await gitAt(root).raw(['rev-list', `--max-count=${max + 1}`, commit, '--'])).split('\n').filter(Boolean);
    } catch {
      listed = [commit];
    }
    this.ancestry.set(key, listed);
    return listed;
  }

  /** What HEAD is made of, as file contents and stats: equal keys, equal HEADs. */
  private stateKey(dirs: GitDirs): string {
    let head: string;
    try {
      head = readFileSync(join(dirs.gitDir, 'HEAD'), 'utf8').trim();
    } catch {
      return 'unreadable';
    }
    const files = [join(dirs.commonDir, 'packed-refs'), join(dirs.commonDir, 'reftable', 'tables.list')];
    if (head.startsWith('ref: ')) files.push(join(dirs.commonDir, head.slice(5)), join(dirs.gitDir, head.slice(5)));
    return [head, ...files.map(fileKey)].join('\0');
  }

  private async gitDirs(root: string): Promise<GitDirs | null> {
    if (this.dirs.has(root)) return this.dirs.get(root)!;
    let dirs: GitDirs | null = null;
    const dotGit = join(root, '.git');
    try {
      if (statSync(dotGit).isDirectory()) dirs = { gitDir: dotGit, commonDir: dotGit };
      else {
        // A linked worktree or a submodule: git says where its directories are.
        const [gitDir, commonDir] = (await gitAt(root).revparse(['--absolute-git-dir', '--git-common-dir'])).trim().split('\n');
        if (gitDir && commonDir) dirs = { gitDir, commonDir: isAbsolute(commonDir) ? commonDir : join(root, commonDir) };
      }
    } catch {
      dirs = null;
    }
    if (dirs && !existsSync(join(dirs.gitDir, 'HEAD'))) dirs = null;
    this.dirs.set(root, dirs);
    return dirs;
  }
}

function fileKey(path: string): string {
  try {
    const s = statSync(path);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return '-';
  }
}
