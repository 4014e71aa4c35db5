// Fallback: when a language's indexer cannot build the repository, sextant
// still publishes (search-only), says why and how to fix it, and navigation
// tools answer with the explanation of reference/jarvis-getIndexStatus.txt
// instead of a generic "not found". Every failure here is real: the real
// indexers run against broken projects, are stopped by a real timeout, or
// are not installed. A language whose indexer fails falls back to the
// syntactic tier when universal-ctags is there (test/syntactic.test.ts);
// these repositories are indexed without it, so search-only is what is left.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { rxjsRepo } from './support/corpus.js';
import { FIXTURES } from './support/paths.js';
import { at, trackedFiles, where } from './support/positions.js';
import { commitAll, git, removeDir, tempDir } from './support/repos.js';
import { indexOrThrow, mcpSession, sextant, testHome, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
/** Indexing without universal-ctags: SEXTANT_CTAGS names a program that does not exist. */
const indexEnv = { ...env, SEXTANT_CTAGS: '/nonexistent/ctags' };
let session: McpSession;
const roots: Record<string, string> = {};
const reports: Record<string, Record<string, any>> = {};
const cleanup: string[] = [home];

/** The first sentence of the jarvis explanation, for a repository. */
const explanation = (repo: string) => `${repo} is indexed search-only: it has no SCIP index, so navigation tools cannot answer.`;

/** A committed git repository named `name` holding `files`. */
function repoWith(name: string, files: Record<string, string>, fixture?: string): string {
  const dir = tempDir();
  cleanup.push(dir);
  const root = join(dir, name);
  if (fixture) cpSync(join(FIXTURES, fixture), root, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  git(root, 'init', '-q', '-b', 'main');
  commitAll(root, 'initial');
  return root;
}

before(async () => {
  // Configs that own no files: their files belong to the inferred project, as in a language server.
  roots['no-files'] = repoWith('no-files', {
    'tsconfig.json': '{ "compilerOptions": { "strict": true }, "include": ["lib"] }\n',
    'src/a.ts': 'export const a = 1;\n',
  });
  roots['bad-tsconfig'] = repoWith('bad-tsconfig', {
    'tsconfig.json': '{ "include": ["src"\n',
    'src/a.ts': 'export const a = 1;\n',
  });
  // ts-shapes beside py-shapes, with a pyrightconfig.json that excludes every Python file.
  roots.mixed = repoWith('mixed', { 'pyrightconfig.json': '{ "exclude": ["**"] }\n' }, 'ts-shapes');
  cpSync(join(FIXTURES, 'py-shapes'), join(roots.mixed, 'py'), { recursive: true });
  commitAll(roots.mixed, 'add the Python shapes');
  roots['missing-indexer'] = repoWith('missing-indexer', {}, 'ts-shapes');
  roots.rxjs = rxjsRepo();
  cleanup.push(dirname(roots.rxjs));

  for (const repo of ['no-files', 'bad-tsconfig', 'mixed']) reports[repo] = indexOrThrow(roots[repo]!, indexEnv);
  reports['rxjs-timeout'] = indexOrThrow(roots.rxjs, indexEnv, '--repo', 'rxjs-timeout', '--timeout', '0.5');

  // An indexer manifest of one's own, replacing the built-in scip-typescript, whose program does not exist.
  const manifests = tempDir('sextant-manifests-');
  cleanup.push(manifests);
  writeFileSync(
    join(manifests, 'scip-typescript.json'),
    JSON.stringify({
      name: 'scip-typescript',
      languages: ['typescript', 'javascript'],
      command: { path: join(manifests, 'bin', 'scip-typescript') },
      args: ['index', '--output', '{output}'],
      timeoutSeconds: 60,
    }),
  );
  reports['missing-indexer'] = indexOrThrow(roots['missing-indexer']!, { ...indexEnv, SEXTANT_INDEXERS: manifests });

  session = await mcpSession(env);
});

after(async () => {
  await session?.close();
  for (const dir of cleanup) removeDir(dir);
});

/** What every search-only repository must say, wherever it is asked. */
async function assertSearchOnly(repo: string, language: string, reason: RegExp, recovery: RegExp, file: string): Promise<void> {
  const report = reports[repo]!;
  assert.equal(report.outcome, 'search-only');
  assert.equal(report.languages[language].tier, 'search-only');
  assert.match(report.languages[language].reason, reason);
  assert.match(report.languages[language].recovery, recovery);
  assert.equal(report.documents, 0);

  const s = await session.call('getIndexStatus', { repo });
  assert.equal(s.isError, false);
  const status = s.result;
  assert.equal(status.indexed, false);
  assert.equal(status.status, 'search-only');
  // The files are still published, for search.
  assert.equal(status.totalFiles, report.files);
  assert.equal(status.language_tiers[language].tier, 'search-only');
  assert.match(status.language_tiers[language].reason, reason);
  assert.match(status.language_tiers[language].recovery, recovery);
  assert.equal(status.capabilities.navigation.available, false);
  assert.ok(status.capabilities.navigation.reason.startsWith(explanation(repo)), status.capabilities.navigation.reason);
  assert.match(status.capabilities.navigation.recovery, recovery);
  // The run itself finished and published; what it published is search-only.
  assert.equal(status.last_index_run.outcome, 'search-only');
  assert.match(status.last_index_run.reason, reason);
  assert.match(status.last_index_run.recovery, recovery);

  for (const [tool, args] of [
    ['goToDefinition', { repo, path: file, line: 1, column: 1 }],
    ['goToDefinition', { repo, symbol: 'a' }],
    ['findReferences', { repo, path: file, line: 1, column: 1 }],
    ['documentSymbols', { repo, path: file }],
  ] as const) {
    const r = await session.call(tool, args);
    assert.equal(r.isError, true, `${tool} on ${repo}`);
    assert.deepEqual(Object.keys(r.result), ['error']);
    assert.ok(r.result.error.startsWith(explanation(repo)), `${tool}: ${r.result.error}`);
    // The explanation carries this repository's reason and fix, not a generic text.
    assert.match(r.result.error, reason);
    assert.match(r.result.error, recovery);
  }

  // The CLI says the same on one line of stderr and exits non-zero.
  const cli = sextant(['def', `${file}:1:1`, '--repo', repo], { env });
  assert.equal(cli.code, 1);
  assert.equal(cli.stdout, '');
  assert.ok(cli.stderr.startsWith(`sextant def: ${explanation(repo)}`), cli.stderr);
  assert.equal(cli.stderr.trimEnd().split('\n').length, 1);
  const status2 = sextant(['status', repo], { env });
  assert.equal(status2.code, 0, status2.stderr);
  assert.match(status2.stdout, new RegExp(`^${repo}: search-only at `, 'm'));
  assert.match(status2.stdout, /navigation: unavailable/);
}

describe('files no usable config owns are indexed in the inferred project', () => {
  test('a tsconfig.json that includes no files: its files answer from the inferred project', async () => {
    const report = reports['no-files']!;
    assert.equal(report.outcome, 'indexed');
    assert.equal(report.languages.typescript.indexed_files, 1);
    const status = (await session.call('getIndexStatus', { repo: 'no-files' })).result;
    assert.deepEqual(status.projects, [{ indexer: 'scip-typescript', config: null, files: 1, indexed_files: 1, problem: null, granularity: 'project', files_run: 1, fallback: null }]);
    const d = await session.call('goToDefinition', { repo: 'no-files', path: 'src/a.ts', line: 1, column: 14 });
    assert.equal(d.result.found, true);
  });

  test('a tsconfig.json that is not valid JSON: named with its error, its files indexed in the inferred project', async () => {
    const report = reports['bad-tsconfig']!;
    assert.equal(report.outcome, 'indexed');
    assert.equal(report.languages.typescript.tier, 'precise');
    const status = (await session.call('getIndexStatus', { repo: 'bad-tsconfig' })).result;
    const broken = status.projects.find((p: any) => p.config === 'tsconfig.json');
    assert.match(broken.problem, /^tsconfig\.json cannot be read: .*expected/i);
    assert.equal(broken.files, 0);
    assert.deepEqual(
      status.projects.find((p: any) => p.config === null),
      { indexer: 'scip-typescript', config: null, files: 1, indexed_files: 1, problem: null, granularity: 'project', files_run: 1, fallback: null },
    );
    const cli = sextant(['status', 'bad-tsconfig'], { env });
    assert.match(cli.stdout, /project tsconfig\.json +tsconfig\.json cannot be read/);
  });
});

describe('a repository whose indexer fails publishes search-only', () => {

  test('an indexer stopped by --timeout 0.5 on rxjs', async () => {
    await assertSearchOnly(
      'rxjs-timeout',
      'typescript',
      /did not finish within 0\.5 s and was stopped/,
      /longer --timeout/,
      'src/internal/Observable.ts',
    );
    const indexer = reports['rxjs-timeout']!.indexers.find((i: any) => i.name === 'scip-typescript');
    assert.equal(indexer.status, 'timeout');
  });

  test('an indexer whose program is missing (a SEXTANT_INDEXERS manifest pointing nowhere)', async () => {
    await assertSearchOnly('missing-indexer', 'typescript', /scip-typescript is not installed/, /install/, 'src/main.ts');
    const indexer = reports['missing-indexer']!.indexers.find((i: any) => i.name === 'scip-typescript');
    assert.equal(indexer.status, 'missing');
    // The reason says where it looked, so the manifest can be fixed.
    assert.match(reports['missing-indexer']!.languages.typescript.reason, /bin\/scip-typescript/);
  });
});

describe('a mixed repository: TypeScript indexes, Python fails', () => {
  test('the report and status give each language its own tier', async () => {
    const report = reports.mixed!;
    assert.equal(report.outcome, 'indexed');
    assert.equal(report.languages.typescript.tier, 'precise');
    assert.equal(report.languages.python.tier, 'search-only');
    const tracked = trackedFiles(roots.mixed!);
    const pythonFiles = tracked.filter((p) => p.endsWith('.py')).length;
    const typescriptFiles = tracked.filter((p) => p.endsWith('.ts')).length;
    assert.equal(report.languages.python.files, pythonFiles);

    const { result: status } = await session.call('getIndexStatus', { repo: 'mixed' });
    assert.equal(status.indexed, true);
    assert.equal(status.status, 'indexed');
    assert.equal(status.language_tiers.typescript.tier, 'precise');
    assert.equal(status.language_tiers.typescript.indexed_files, typescriptFiles);
    assert.equal(status.language_tiers.python.tier, 'search-only');
    assert.equal(status.language_tiers.python.indexer, 'scip-python');
    assert.match(status.language_tiers.python.recovery, /pyrightconfig\.json/);
    assert.deepEqual(status.languages, { python: pythonFiles, typescript: typescriptFiles });
    // Navigation is available, and says which language it is not available for.
    assert.equal(status.capabilities.navigation.available, true);
    assert.match(status.capabilities.navigation.reason, /^python is search-only: /);
  });

  test('navigation still answers for TypeScript', async () => {
    const root = roots.mixed!;
    const r = await session.call('goToDefinition', { repo: 'mixed', ...at(root, 'src/main.ts', 1, 'report') });
    assert.equal(r.isError, false);
    assert.deepEqual(r.result.definitions.map(where), [at(root, 'src/geometry.ts', 22, 'report')]);
  });

  test('navigation in a Python file explains that Python is search-only, with the fix', async () => {
    const r = await session.call('goToDefinition', { repo: 'mixed', path: 'py/main.py', line: 1, column: 6 });
    assert.equal(r.isError, true);
    assert.match(r.result.error, /^py\/main\.py is python, which mixed has indexed search-only, so navigation tools cannot answer/);
    assert.match(r.result.error, /pyrightconfig\.json/);
    const symbols = await session.call('documentSymbols', { repo: 'mixed', path: 'py/shapes/base.py' });
    assert.equal(symbols.isError, true);
    assert.match(symbols.result.error, /search-only/);
  });
});
