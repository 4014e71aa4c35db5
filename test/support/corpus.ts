// Real third-party code for tests and benchmarks, fetched from the registries
// this project may reach (npm and Debian), cached under node_modules/.cache,
// and copied into a fresh git repository for each use.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from './paths.js';
import { gitRepoFrom, removeDir, tempDir } from './repos.js';

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

/** A fresh git repository named `name` of what `fill` writes into an empty directory, which is removed after. */
function stagedRepo(name: string, fill: (staging: string) => void): string {
  const staging = tempDir(`sextant-${name}-`);
  try {
    fill(staging);
    return gitRepoFrom(staging, name);
  } finally {
    removeDir(staging);
  }
}

/** rxjs's TypeScript sources (about 250 files) with its tsconfig, as a fresh git repository. */
export function rxjsRepo(): string {
  const pkg = npmPackage('rxjs', '7.8.2');
  return stagedRepo('rxjs', (staging) => {
    for (const entry of ['src', 'tsconfig.json', 'package.json']) cpSync(join(pkg, entry), join(staging, entry), { recursive: true });
  });
}

/**
 * rxjs's sources with its tsconfig and its operators' type declarations
 * (dist/types/internal/operators), as one fresh git repository of 496 files:
 * a real repository of more than 300 files for one project's indexer.
 */
export function rxjsWithDeclarationsRepo(): string {
  const pkg = npmPackage('rxjs', '7.8.2');
  return stagedRepo('rxjs', (staging) => {
    for (const entry of ['src', 'dist/types/internal/operators', 'tsconfig.json', 'package.json'])
      cpSync(join(pkg, entry), join(staging, entry), { recursive: true });
  });
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
  return stagedRepo('requests', (staging) =>
    cpSync(join(pkg, 'usr', 'lib', 'python3', 'dist-packages', 'requests'), join(staging, 'requests'), { recursive: true }),
  );
}

/**
 * A library built from object-literal factories: kysely's ES module build,
 * whose ~100 operation nodes are `export const XNode = freeze({ is(node) {...},
 * create(...) { return freeze({...}) }, cloneWith(...) {...} })` in .js files
 * with the factory types declared in .d.ts files beside them. No tsconfig or
 * jsconfig, as published: sextant must infer the project (about 560 files).
 */
export function factoryRepo(): string {
  const pkg = npmPackage('kysely', '0.28.19');
  return stagedRepo('kysely', (staging) => {
    cpSync(join(pkg, 'dist', 'esm'), join(staging, 'dist', 'esm'), { recursive: true });
    cpSync(join(pkg, 'package.json'), join(staging, 'package.json'));
  });
}

/** Compiler options of the monorepo's packages, as such monorepos set them. */
const PACKAGE_OPTIONS = {
  strict: true,
  target: 'ESNext',
  module: 'ESNext',
  moduleResolution: 'bundler',
  lib: ['ESNext', 'DOM', 'DOM.Iterable'],
  jsx: 'react-jsx',
  skipLibCheck: true,
  noEmit: true,
};

/**
 * A monorepo of real packages, each with its own tsconfig.json whose `paths`
 * map sibling packages to their sources: tRPC's server and client (the client
 * imports the server), TanStack's query-core and react-query (which imports
 * query-core), and rxjs with its own tsconfig. The root tsconfig.json covers
 * only scripts/*.ts, and scripts/*.mjs lie outside every config (about 430
 * files). Imports of react, node and the frameworks tRPC adapts stay
 * unresolved: their types are not in the repository, as in a fresh clone
 * before `npm install`.
 */
export function monorepoRepo(): string {
  return stagedRepo('monorepo', (staging) => {
    const pkg = (dir: string, name: string, version: string, paths: Record<string, string[]>) => {
      const source = npmPackage(name, version);
      const target = join(staging, 'packages', dir);
      cpSync(join(source, 'src'), join(target, 'src'), { recursive: true });
      cpSync(join(source, 'package.json'), join(target, 'package.json'));
      const tsconfig = { compilerOptions: { ...PACKAGE_OPTIONS, paths }, include: ['src'] };
      writeFileSync(join(target, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
    };
    const trpcServer = { '@trpc/server': ['../trpc-server/src/index.ts'], '@trpc/server/*': ['../trpc-server/src/*'] };
    const queryCore = { '@tanstack/query-core': ['../query-core/src/index.ts'] };
    pkg('trpc-server', '@trpc/server', '11.25.2', trpcServer);
    pkg('trpc-client', '@trpc/client', '11.25.2', { ...trpcServer, '@trpc/client': ['./src/index.ts'] });
    pkg('query-core', '@tanstack/query-core', '5.108.4', queryCore);
    pkg('react-query', '@tanstack/react-query', '5.108.4', { ...queryCore, '@tanstack/react-query': ['./src/index.ts'] });
    const rxjs = npmPackage('rxjs', '7.8.2');
    for (const entry of ['src', 'tsconfig.json', 'package.json']) {
      cpSync(join(rxjs, entry), join(staging, 'packages', 'rxjs', entry), { recursive: true });
    }
    writeFileSync(
      join(staging, 'package.json'),
      `${JSON.stringify({ name: 'monorepo', private: true, type: 'module', workspaces: ['packages/*'] }, null, 2)}\n`,
    );
    const root = { compilerOptions: { ...PACKAGE_OPTIONS, lib: ['ESNext', 'DOM'] }, include: ['scripts/**/*.ts'] };
    writeFileSync(join(staging, 'tsconfig.json'), `${JSON.stringify(root, null, 2)}\n`);
    mkdirSync(join(staging, 'scripts'));
    for (const [name, text] of Object.entries(MONOREPO_SCRIPTS)) writeFileSync(join(staging, 'scripts', name), text);
  });
}

/** The monorepo's own scripts: TypeScript under the root config, ES modules under none. */
const MONOREPO_SCRIPTS: Record<string, string> = {
  'smoke.ts': `import { initTRPC } from '../packages/trpc-server/src/index';
import { createTRPCClient, httpBatchLink } from '../packages/trpc-client/src/index';
import { QueryClient } from '../packages/query-core/src/index';
import { of, map } from '../packages/rxjs/src/index';

const t = initTRPC.create();
export const appRouter = t.router({
  ping: t.procedure.query(() => 'pong'),
});
export type AppRouter = typeof appRouter;

export function makeClient(url: string) {
  return createTRPCClient<AppRouter>({ links: [httpBatchLink({ url })] });
}

export function smoke(): number[] {
  const queries = new QueryClient();
  queries.setQueryData(['ping'], 'pong');
  const seen: number[] = [];
  of(1, 2, 3).pipe(map((n) => n * 2)).subscribe((n) => seen.push(n));
  return seen;
}
`,
  'packages.ts': `export interface PackageInfo {
  dir: string;
  name: string;
}

export const PACKAGES: PackageInfo[] = [
  { dir: 'packages/trpc-server', name: '@trpc/server' },
  { dir: 'packages/trpc-client', name: '@trpc/client' },
  { dir: 'packages/query-core', name: '@tanstack/query-core' },
  { dir: 'packages/react-query', name: '@tanstack/react-query' },
  { dir: 'packages/rxjs', name: 'rxjs' },
];

export function packageNamed(name: string): PackageInfo | undefined {
  return PACKAGES.find((p) => p.name === name);
}
`,
  'release.mjs': `import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function readManifest(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

function bump(version, part) {
  const [major, minor, patch] = version.split('.').map(Number);
  if (part === 'major') return \`\${major + 1}.0.0\`;
  if (part === 'minor') return \`\${major}.\${minor + 1}.0\`;
  return \`\${major}.\${minor}.\${patch + 1}\`;
}

export function release(dirs, part) {
  for (const dir of dirs) {
    const manifest = readManifest(dir);
    manifest.version = bump(manifest.version, part);
    writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  }
}
`,
  'clean.mjs': `import { rmSync } from 'node:fs';
import { join } from 'node:path';

const OUTPUTS = ['dist', 'build', '.turbo'];

function cleanPackage(dir) {
  for (const out of OUTPUTS) rmSync(join(dir, out), { recursive: true, force: true });
}

export function clean(dirs) {
  dirs.forEach(cleanPackage);
}
`,
  'lint-staged.config.cjs': `const run = (command) => (files) => \`\${command} \${files.join(' ')}\`;

module.exports = {
  '*.{ts,tsx}': run('eslint --fix'),
  '*.{js,mjs,cjs}': run('prettier --write'),
};
`,
};

/**
 * tree-sitter's C runtime (lib/include and lib/src, about 50 files), as the
 * tree-sitter npm package vendors it: a C repository without a compilation
 * database, for the lsp tier (clangd).
 */
export function treeSitterCRepo(name = 'tree-sitter-c'): string {
  const pkg = npmPackage('tree-sitter', '0.21.1');
  return stagedRepo(name, (staging) => cpSync(join(pkg, 'vendor', 'tree-sitter', 'lib'), staging, { recursive: true }));
}
