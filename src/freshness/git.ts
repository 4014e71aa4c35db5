// The git questions sextant asks, through simple-git.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import { quote, UserError } from '../errors.js';

export function gitAt(dir: string): SimpleGit {
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
    return (await gitAt(dir).revparse(['--show-toplevel'])).trim();
  } catch {
    throw new UserError(`${quote(dir)} is not inside a git repository: run \`git init\` and commit, or pass a repository's path`);
  }
}

/** HEAD's commit, or undefined when the repository has no commits yet. */
export async function headCommit(root: string): Promise<string | undefined> {
  try {
    return (await gitAt(root).revparse(['--verify', '--quiet', 'HEAD^{commit}'])).trim() || undefined;
  } catch {
    return undefined;
  }
}

export async function hasCommit(root: string, commit: string): Promise<boolean> {
  try {
    await gitAt(root).raw(['cat-file', '-e', `${commit}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/** Commits reachable from `to` but not from `from`; undefined when unrelated. */
export async function commitsBetween(root: string, from: string, to: string): Promise<number | undefined> {
  try {
    return Number((await gitAt(root).raw(['rev-list', '--count', `${from}..${to}`])).trim());
  } catch {
    return undefined;
  }
}

/** A commit's committer time in Unix seconds, or null when git cannot tell. */
export async function commitTime(root: string, commit: string): Promise<number | null> {
  try {
    const seconds = Number((await gitAt(root).raw(['show', '-s', '--format=%ct', commit])).trim());
    return Number.isFinite(seconds) ? seconds : null;
  } catch {
    return null;
  }
}
