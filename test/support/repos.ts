// Real git repositories for tests: fixture folders copied into a temporary
// directory and committed, so every test owns its worktree.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FIXTURES } from './paths.js';

/** A git identity for the commits tests make. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'sextant tests',
  GIT_AUTHOR_EMAIL: 'tests@sextant.invalid',
  GIT_COMMITTER_NAME: 'sextant tests',
  GIT_COMMITTER_EMAIL: 'tests@sextant.invalid',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' });
}

/** The directories tempDir made in this process, removed when it exits, whether or not a test removed them itself. */
const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) {
    try {
      removeDir(dir);
    } catch {
      // A process the test started still writes under it: a throw here would fail the test file, not the test.
    }
  }
});

export function tempDir(prefix = 'sextant-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A fresh git repository holding a copy of `source`, committed once. Its folder is named `name`. */
export function gitRepoFrom(source: string, name: string): string {
  const dir = join(tempDir(), name);
  cpSync(source, dir, { recursive: true });
  return committed(dir);
}

/** A fresh git repository holding `files` (repository-relative path → text), committed once. Its folder is named `name`. */
export function gitRepoOf(name: string, files: Record<string, string>): string {
  const dir = join(tempDir(), name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return committed(dir);
}

function committed(dir: string): string {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

/** A fresh git repository holding a copy of test/fixtures/NAME. */
export function fixtureRepo(name: string): string {
  return gitRepoFrom(join(FIXTURES, name), name);
}

export function commitAll(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
  return git(dir, 'rev-parse', 'HEAD').trim();
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Files under `dir` of `root` whose names match, as sorted `dir/…` paths. */
export function filesUnder(root: string, dir: string, pattern: RegExp): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel))) {
      const path = `${rel}/${name}`;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (pattern.test(name)) out.push(path);
    }
  };
  walk(dir);
  return out.sort();
}
