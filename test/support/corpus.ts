// Real third-party code for tests and benchmarks, fetched from the registries
// this project may reach (npm and Debian), cached under node_modules/.cache,
// and copied into a fresh git repository for each use.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './paths.js';
import { gitRepoFrom, tempDir } from './repos.js';

const CACHE = process.env.SEXTANT_CORPUS_CACHE ?? join(PROJECT_ROOT, 'node_modules', '.cache', 'sextant-corpus');

/** The unpacked contents of an npm package (`npm pack NAME@VERSION`), cached. */
export function npmPackage(name: string, version: string): string {
  const dir = join(CACHE, 'npm', `${name.replace('/', '+')}@${version}`);
  if (existsSync(join(dir, 'package.json'))) return dir;
  const work = tempDir('sextant-pack-');
  execFileSync('npm', ['pack', `${name}@${version}`, '--silent'], { cwd: work, stdio: ['ignore', 'pipe', 'inherit'] });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${name}@${version} produced no tarball`);
  execFileSync('tar', ['xzf', tarball], { cwd: work });
  mkdirSync(join(CACHE, 'npm'), { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  renameSync(join(work, 'package'), dir);
  rmSync(work, { recursive: true, force: true });
  return dir;
}

/** The files of a Debian package (`apt-get download`, `dpkg -x`), cached. */
export function debianPackage(name: string): string {
  const dir = join(CACHE, 'deb', name);
  if (existsSync(join(dir, '.complete'))) return dir;
  const work = tempDir('sextant-deb-');
  execFileSync('apt-get', ['download', name], { cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
  const deb = readdirSync(work).find((f) => f.endsWith('.deb'));
  if (!deb) throw new Error(`apt-get download ${name} produced no .deb`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('dpkg', ['-x', join(work, deb), dir]);
  writeFileSync(join(dir, '.complete'), '');
  rmSync(work, { recursive: true, force: true });
  return dir;
}

/** rxjs's TypeScript sources (about 250 files) with its tsconfig, as a fresh git repository. */
export function rxjsRepo(): string {
  const pkg = npmPackage('rxjs', '7.8.2');
  const staging = tempDir('sextant-rxjs-');
  for (const entry of ['src', 'tsconfig.json', 'package.json']) cpSync(join(pkg, entry), join(staging, entry), { recursive: true });
  return gitRepoFrom(staging, 'rxjs');
}

/** logrus, a Go logging library, from Debian's Go sources (46 files): a language without a SCIP indexer here. */
export function logrusRepo(): string {
  const pkg = debianPackage('golang-github-sirupsen-logrus-dev');
  return gitRepoFrom(join(pkg, 'usr', 'share', 'gocode', 'src', 'github.com', 'sirupsen', 'logrus'), 'logrus');
}

/** The semver crate's Rust sources from Debian (17 files): another language without a SCIP indexer here. */
export function semverRepo(): string {
  const pkg = debianPackage('librust-semver-dev');
  const crate = readdirSync(join(pkg, 'usr', 'share', 'cargo', 'registry')).find((d) => d.startsWith('semver-'));
  if (!crate) throw new Error('librust-semver-dev holds no semver crate');
  return gitRepoFrom(join(pkg, 'usr', 'share', 'cargo', 'registry', crate), 'semver');
}

/** The requests library's Python sources from Debian, as a fresh git repository. */
export function requestsRepo(): string {
  const pkg = debianPackage('python3-requests');
  const staging = tempDir('sextant-requests-');
  cpSync(join(pkg, 'usr', 'lib', 'python3', 'dist-packages', 'requests'), join(staging, 'requests'), { recursive: true });
  return gitRepoFrom(staging, 'requests');
}
