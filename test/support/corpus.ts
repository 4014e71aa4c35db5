// Real third-party code for tests and benchmarks, fetched from the registries
// this project may reach (npm and Debian), cached under node_modules/.cache,
// and copied into a fresh git repository for each use.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from './paths.js';
import { gitRepoFrom, tempDir } from './repos.js';

export const CACHE = process.env.SEXTANT_CORPUS_CACHE ?? join(PROJECT_ROOT, 'node_modules', '.cache', 'sextant-corpus');

/**
 * `dir`, filled once. node --test runs test files concurrently, so two of
 * them may fill the same entry at once: each builds its copy in a work
 * directory beside the target (same filesystem) and renames it into place,
 * which is atomic; the loser of the race finds the winner's copy and drops
 * its own. An entry is complete exactly when `marker` exists in it.
 */
export function cached(dir: string, marker: string, fill: (work: string) => string): string {
  if (existsSync(join(dir, marker))) return dir;
  mkdirSync(dirname(dir), { recursive: true });
  const work = mkdtempSync(`${dir}.work-`);
  try {
    const filled = fill(work);
    if (!existsSync(join(filled, marker))) throw new Error(`filling ${dir} left no ${marker}`);
    for (let attempt = 0; ; attempt++) {
      try {
        renameSync(filled, dir);
        break;
      } catch (error) {
        if (existsSync(join(dir, marker))) break; // another test file filled it first
        // An incomplete entry (an interrupted fill of an older version of this code): set it aside, then retry once.
        if (attempt > 0 || !existsSync(dir)) throw error;
        const stale = `${dir}.stale-${process.pid}`;
        renameSync(dir, stale);
        rmSync(stale, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return dir;
}

/** The unpacked contents of an npm package (`npm pack NAME@VERSION`), cached. */
export function npmPackage(name: string, version: string): string {
  return cached(join(CACHE, 'npm', `${name.replace('/', '+')}@${version}`), 'package.json', (work) => {
    execFileSync('npm', ['pack', `${name}@${version}`, '--silent'], { cwd: work, stdio: ['ignore', 'pipe', 'inherit'] });
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${name}@${version} produced no tarball`);
    execFileSync('tar', ['xzf', tarball], { cwd: work });
    return join(work, 'package');
  });
}

/** The files of a Debian package (`apt-get download`, `dpkg -x`), cached. */
export function debianPackage(name: string): string {
  return cached(join(CACHE, 'deb', name), '.complete', (work) => {
    try {
      execFileSync('apt-get', ['download', name], { cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      const said = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message)
        .trim()
        .split('\n')
        .filter((l) => /^E:/.test(l))
        .join('; ');
      throw new Error(
        `apt-get download ${name} failed${said ? ` (${said})` : ''}: this test corpus is a Debian package; ` +
          'run `apt-get update` as root (.ci/run does when the package lists are missing), then run the tests again',
      );
    }
    const deb = readdirSync(work).find((f) => f.endsWith('.deb'));
    if (!deb) throw new Error(`apt-get download ${name} produced no .deb`);
    const files = join(work, 'files');
    mkdirSync(files);
    execFileSync('dpkg', ['-x', join(work, deb), files]);
    writeFileSync(join(files, '.complete'), '');
    return files;
  });
}

/** rxjs's TypeScript sources (about 250 files) with its tsconfig, as a fresh git repository. */
export function rxjsRepo(): string {
  const pkg = npmPackage('rxjs', '7.8.2');
  const staging = tempDir('sextant-rxjs-');
  for (const entry of ['src', 'tsconfig.json', 'package.json']) cpSync(join(pkg, entry), join(staging, entry), { recursive: true });
  return gitRepoFrom(staging, 'rxjs');
}

/** The requests library's Python sources from Debian, as a fresh git repository. */
export function requestsRepo(): string {
  const pkg = debianPackage('python3-requests');
  const staging = tempDir('sextant-requests-');
  cpSync(join(pkg, 'usr', 'lib', 'python3', 'dist-packages', 'requests'), join(staging, 'requests'), { recursive: true });
  return gitRepoFrom(staging, 'requests');
}
