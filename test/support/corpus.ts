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

/** The requests library's Python sources from Debian, as a fresh git repository. */
export function requestsRepo(): string {
  const pkg = debianPackage('python3-requests');
  const staging = tempDir('sextant-requests-');
  cpSync(join(pkg, 'usr', 'lib', 'python3', 'dist-packages', 'requests'), join(staging, 'requests'), { recursive: true });
  return gitRepoFrom(staging, 'requests');
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
  const staging = tempDir('sextant-kysely-');
  cpSync(join(pkg, 'dist', 'esm'), join(staging, 'dist', 'esm'), { recursive: true });
  cpSync(join(pkg, 'package.json'), join(staging, 'package.json'));
  return gitRepoFrom(staging, 'kysely');
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
  const staging = tempDir('sextant-monorepo-');
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
  writeFileSync(join(staging, 'package.json'), `${JSON.stringify({ name: 'monorepo', private: true, type: 'module', workspaces: ['packages/*'] }, null, 2)}\n`);
  const root = { compilerOptions: { ...PACKAGE_OPTIONS, lib: ['ESNext', 'DOM'] }, include: ['scripts/**/*.ts'] };
  writeFileSync(join(staging, 'tsconfig.json'), `${JSON.stringify(root, null, 2)}\n`);
  mkdirSync(join(staging, 'scripts'));
  for (const [name, text] of Object.entries(MONOREPO_SCRIPTS)) writeFileSync(join(staging, 'scripts', name), text);
  return gitRepoFrom(staging, 'monorepo');
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
