// A snapshot of a git worktree: its HEAD, its files (tracked, and untracked
// but not ignored) with git blob hashes, and what is uncommitted. Clean files
// take their hash from git's index; changed files are hashed from disk, the
// way `git hash-object` would.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { promisify } from 'node:util';
import { UserError } from '../errors.js';
import { gitAt, gitRoot, headCommit } from './git.js';

const execFileAsync = promisify(execFile);
/** The longest listing read from git: past it the call fails (a tree of millions of untracked files). */
const LISTING_MAX_BYTES = 64 * 1024 * 1024;

/**
 * git's NUL-separated listing for `args` in `root`. git itself, not
 * simple-git: a serving sextant asks these during its first answers and while
 * it starts watching, which loading simple-git would delay.
 */
async function gitListing(root: string, args: readonly string[]): Promise<string[]> {
  const { stdout } = await execFileAsync('git', args, { cwd: root, maxBuffer: LISTING_MAX_BYTES, encoding: 'utf8' });
  return stdout.split('\0');
}

export interface WorktreeFile {
  path: string;
  /** git blob sha1 of the content as it is in the worktree. */
  sha: string;
  /** Differs from HEAD (modified, added or untracked). */
  dirty: boolean;
}

export interface Worktree {
  root: string;
  head: string;
  files: WorktreeFile[];
  /** Paths that differ from HEAD, deleted ones included. */
  changed: string[];
  /** Identifies the uncommitted state; null when the worktree is clean. */
  fingerprint: string | null;
}

const REGULAR = /^100(644|755)$/;

export async function readWorktree(path: string): Promise<Worktree> {
  const root = await gitRoot(path);
  const { head, value } = await atSteadyHead(root, () =>
    Promise.all([gitAt(root).then((git) => git.raw(['ls-files', '-z', '-s'])), uncommitted(root)]),
  );
  const [listing, changes] = value;
  if (!head) throw new UserError(`${root} has no commits yet: commit something first, then index`);

  const files = new Map<string, WorktreeFile>();
  for (const entry of listing.split('\0')) {
    // "<mode> <sha> <stage>\t<path>"; symlinks and submodules are not files of ours.
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [mode, sha] = entry.slice(0, tab).split(' ');
    if (!REGULAR.test(mode!)) continue;
    const filePath = entry.slice(tab + 1);
    if (!files.has(filePath)) files.set(filePath, { path: filePath, sha: sha!, dirty: false });
  }
  for (const [filePath, sha] of changes) {
    if (sha === undefined) files.delete(filePath);
    else files.set(filePath, { path: filePath, sha, dirty: true });
  }

  const sorted = [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { root, head, files: sorted, changed: [...changes.keys()].sort(), fingerprint: fingerprintOf(changes) };
}

/**
 * What an index of the worktree would now be an index of: HEAD and the
 * fingerprint of what is uncommitted. Cheaper than readWorktree (it lists
 * only the changed files), for watching.
 */
export async function worktreeState(root: string): Promise<{ head: string | undefined; fingerprint: string | null }> {
  const { head, value: changes } = await atSteadyHead(root, () => uncommitted(root));
  return { head, fingerprint: fingerprintOf(changes) };
}

/**
 * How often a read is tried again when HEAD moved under it, before the last
 * one is taken as it is (HEAD moving for that long is a rebase or a script
 * committing in a loop: the next look sees it settled).
 */
const STEADY_HEAD_TRIES = 10;

/**
 * `read` (what is uncommitted, the index's listing) together with the HEAD it
 * belongs to. A commit landing between the two would pair the new commit with
 * the old commit's changes: an index of the new commit under a fingerprint of
 * changes it already holds, which a watcher then takes for a worktree that
 * moved. So HEAD is read before and after, and the read repeated until HEAD
 * held still across it (a seqlock's reader).
 */
export async function atSteadyHead<T>(root: string, read: () => Promise<T>): Promise<{ head: string | undefined; value: T }> {
  let head = await headCommit(root);
  for (let attempt = 1; ; attempt++) {
    const value = await read();
    const after = await headCommit(root);
    if (after === head || attempt === STEADY_HEAD_TRIES) return { head: after, value };
    head = after;
  }
}

/** The paths that differ from HEAD, each with its content's blob hash; undefined when deleted or not a regular file. */
async function uncommitted(root: string): Promise<Map<string, string | undefined>> {
  const changes = new Map<string, string | undefined>();
  for (const { path, deleted } of await uncommittedPaths(root)) changes.set(path, deleted ? undefined : hashWorktreeFile(root, path));
  return changes;
}

/** The paths that differ from HEAD (modified, added, deleted, untracked but not ignored), as git status lists them. */
export async function uncommittedPaths(root: string): Promise<{ path: string; deleted: boolean }[]> {
  // --no-optional-locks: a plain `git status` refreshes git's stat cache and so rewrites .git/index; reading must not write.
  const listing = await gitListing(root, [
    '--no-optional-locks',
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
    '--no-renames',
  ]);
  const paths: { path: string; deleted: boolean }[] = [];
  for (const entry of listing) {
    if (entry.length < 4) continue;
    paths.push({ path: entry.slice(3), deleted: entry.slice(0, 2).includes('D') });
  }
  return paths;
}

/**
 * What git ignores under `root` (or under its directories `under`), as
 * repository-relative paths (a directory ignored whole is one entry, without
 * its trailing slash).
 */
export async function ignoredPaths(root: string, under: readonly string[] = []): Promise<string[]> {
  const args = ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory', ...(under.length ? ['--', ...under] : [])];
  return (await gitListing(root, args)).filter(Boolean).map((p) => p.replace(/\/$/, ''));
}

/**
 * The files that differ between two commits and exist in the second, as
 * repository-relative paths; undefined when git cannot compare them (a
 * commit this clone does not have, as an index published by CI may be of).
 */
export async function changedBetween(root: string, from: string, to: string): Promise<string[] | undefined> {
  try {
    return (await gitListing(root, ['diff', '--name-only', '-z', '--no-renames', '--diff-filter=d', from, to, '--'])).filter(Boolean);
  } catch {
    return undefined;
  }
}

/** Hash of the uncommitted paths and their contents; null when nothing is uncommitted. */
function fingerprintOf(changes: Map<string, string | undefined>): string | null {
  if (changes.size === 0) return null;
  const hash = createHash('sha256');
  for (const p of [...changes.keys()].sort()) hash.update(`${p}\0${changes.get(p) ?? 'deleted'}\n`);
  return hash.digest('hex');
}

/** git's blob hash of a regular file inside `root`; undefined for anything else. */
export function hashWorktreeFile(root: string, path: string): string | undefined {
  const content = readRepoFile(root, path);
  return content === undefined ? undefined : gitBlobSha(content);
}

export function gitBlobSha(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

/**
 * Reads a regular file of the repository. Refuses anything that resolves
 * outside `root` (a symlinked directory, say): sextant never reads outside a
 * repository's root.
 */
export function readRepoFile(root: string, path: string): Buffer | undefined {
  const full = join(root, path);
  try {
    if (!lstatSync(full).isFile()) return undefined;
    const real = realpathSync(full);
    const realRoot = realRootOf(root);
    if (real !== realRoot && !real.startsWith(realRoot + sep)) return undefined;
    return readFileSync(real);
  } catch {
    return undefined;
  }
}

const realRoots = new Map<string, string>();
function realRootOf(root: string): string {
  let real = realRoots.get(root);
  if (real === undefined) realRoots.set(root, (real = realpathSync(root)));
  return real;
}

/** Whether a repository's worktree is on this machine. */
export function isOnline(root: string | null): boolean {
  return root !== null && existsSync(join(root, '.git'));
}
