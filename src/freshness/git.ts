// The git questions sextant asks, through simple-git. simple-git is loaded
// on the first question: a query reads HEAD from git's files
// (./head.ts), so a cold `sextant mcp` answers its first call without
// parsing simple-git's 117 kB (about 15 ms of CPU before the tools are ready).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SimpleGit, SimpleGitFactory } from 'simple-git';
import { quote, UserError } from '../errors.js';

let simpleGitFactory: Promise<SimpleGitFactory> | undefined;

export async function gitAt(dir: string): Promise<SimpleGit> {
  const simpleGit = await (simpleGitFactory ??= import('simple-git').then((m) => m.simpleGit));
  return simpleGit({ baseDir: dir, binary: 'git', maxConcurrentProcesses: 4, trimmed: false });
}

/** The root of the git worktree containing `path`. */
export async function gitRoot(path: string): Promise<string> {
  const dir = resolve(path);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new UserError(`${quote(dir)} does not exist: pass the path of a git repository`);
  }
  if (!isDir) throw new UserError(`${quote(dir)} is not a directory: pass the path of a git repository`);
  try {
    return (await (await gitAt(dir)).revparse(['--show-toplevel'])).trim();
  } catch {
    throw new UserError(`${quote(dir)} is not inside a git repository: run \`git init\` and commit, or pass a repository's path`);
  }
}

/** HEAD's commit, or undefined when the repository has no commits yet. */
export async function headCommit(root: string): Promise<string | undefined> {
  try {
    return (await (await gitAt(root)).revparse(['--verify', '--quiet', 'HEAD^{commit}'])).trim() || undefined;
  } catch {
    return undefined;
  }
}

export async function hasCommit(root: string, commit: string): Promise<boolean> {
  try {
    await (await gitAt(root)).raw(['cat-file', '-e', `${commit}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/** Commits reachable from `to` but not from `from`; undefined when unrelated. */
export async function commitsBetween(root: string, from: string, to: string): Promise<number | undefined> {
  try {
    return Number((await (await gitAt(root)).raw(['rev-list', '--count', `${from}..${to}`])).trim());
  } catch {
    return undefined;
  }
}

/** A commit's committer time in Unix seconds, or null when git cannot tell. */
export async function commitTime(root: string, commit: string): Promise<number | null> {
  try {
    const seconds = Number((await (await gitAt(root)).raw(['show', '-s', '--format=%ct', commit])).trim());
    return Number.isFinite(seconds) ? seconds : null;
  } catch {
    return null;
  }
}

const REGULAR_FILE = /^100(644|755)$/;

/** The regular files of a commit's tree, each with its git blob hash (symlinks and submodules are not files of ours). */
export async function commitFiles(root: string, commit: string): Promise<Map<string, string>> {
  const listing = await (await gitAt(root)).raw(['ls-tree', '-r', '-z', '--full-tree', commit]);
  const files = new Map<string, string>();
  for (const entry of listing.split('\0')) {
    // "<mode> <type> <sha>\t<path>"
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [mode, , sha] = entry.slice(0, tab).split(' ');
    if (REGULAR_FILE.test(mode!)) files.set(entry.slice(tab + 1), sha!);
  }
  return files;
}
