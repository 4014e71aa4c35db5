// Incremental reindexing of a repository with several projects: after an edit,
// only the projects holding changed files are indexed again, the others keep
// their documents, and the answers are those of a full index of the same tree
// (built into a registry of its own). What can change the meaning of an
// unchanged file (a deleted file, a changed config) makes every project run.
// Within a project, a few changed files are indexed alone while their surface
// stays as it was; a changed surface makes the project run whole. The
// projects compile against ES2022's lib alone: the DOM's declarations would be
// most of each of the file's indexer runs.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { commitAll, git, removeDir, tempDir } from './support/repos.js';
import { sextant, testHome } from './support/sextant.js';

const repo = 'two-projects';
const { home, env } = testHome();
const fresh = testHome();
let root: string;

const FILES: Record<string, string> = {
  'packages/core/tsconfig.json': '{ "compilerOptions": { "strict": true, "lib": ["es2022"] }, "include": ["src"] }\n',
  'packages/core/src/area.ts': 'export function area(w: number, h: number): number {\n  return w * h;\n}\n',
  'packages/core/src/index.ts': "export { area } from './area';\n",
  'packages/app/tsconfig.json': '{ "compilerOptions": { "strict": true, "lib": ["es2022"] }, "include": ["src"] }\n',
  'packages/app/src/main.ts': "import { area } from '../../core/src/index';\n\nexport const total = area(2, 3) + area(4, 5);\n",
};

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

function reindex(): any {
  const r = sextant(['reindex', root, '--json'], { env });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).report;
}

/** What both registries are asked: references and definitions of area, by name, without the envelope. */
function answers(e: NodeJS.ProcessEnv): unknown[] {
  return [
    ['refs', 'area'],
    ['def', 'area'],
    ['symbols', 'total'],
  ].map((args) => {
    const r = sextant([...args, '--repo', repo, '--json'], { env: e });
    assert.equal(r.code, 0, r.stderr);
    const { meta: _meta, commit: _commit, ...rest } = JSON.parse(r.stdout);
    return rest;
  });
}

/** The answers of a full index of the worktree as it is now, into a registry of its own. */
function fullIndexAnswers(): unknown[] {
  rmSync(fresh.home, { recursive: true, force: true });
  const r = sextant(['index', root, '--json'], { env: fresh.env });
  assert.equal(r.code, 0, r.stderr);
  return answers(fresh.env);
}

const scip = (report: any) => report.indexers.find((i: any) => i.name === 'scip-typescript');

before(() => {
  root = join(tempDir(), repo);
  for (const [path, text] of Object.entries(FILES)) write(path, text);
  git(root, 'init', '-q', '-b', 'main');
  commitAll(root, 'two projects');
  const r = sextant(['index', root, '--json'], { env });
  assert.equal(r.code, 0, r.stderr);
});

after(() => {
  removeDir(join(root, '..'));
  removeDir(home);
  removeDir(fresh.home);
});

test('an edit in one project indexes that project alone; the other keeps its documents; answers equal a full index', () => {
  appendFileSync(join(root, 'packages/app/src/main.ts'), 'export const more = area(1, 1);\n');
  commitAll(root, 'edit app');
  const report = reindex();
  assert.equal(scip(report).projects_reused, 1, 'core was not indexed again');
  assert.equal(report.documents, 3);
  assert.equal(report.documents_written, 1, 'main.ts alone was derived again');
  assert.equal(report.documents_reused, 2);
  assert.equal(report.documents_removed, 1, 'the old main.ts document');
  assert.deepEqual(
    scip(report).projects.map((p: any) => [p.config, p.files, p.indexed_files]),
    [
      ['packages/app/tsconfig.json', 1, 1],
      ['packages/core/tsconfig.json', 2, 2],
    ],
  );
  const now = answers(env);
  assert.equal(
    (now[0] as any).references.filter((r: any) => r.path === 'packages/app/src/main.ts').length,
    4,
    'the import and three calls, the new one among them',
  );
  assert.deepEqual(now, fullIndexAnswers());
});

test('an edit in the project others import runs it alone too, and references into it still resolve', () => {
  write('packages/core/src/area.ts', '// Rectangles.\n' + FILES['packages/core/src/area.ts']);
  commitAll(root, 'edit core');
  const report = reindex();
  assert.equal(scip(report).projects_reused, 1, 'app was not indexed again');
  assert.equal(report.documents_written, 1);
  assert.deepEqual(answers(env), fullIndexAnswers());
});

test('nothing changed: no project runs and nothing is written', () => {
  const report = reindex();
  assert.equal(scip(report).projects_reused, 2);
  assert.equal(scip(report).duration_ms, 0, 'the indexer did not run');
  assert.deepEqual([report.documents, report.documents_written, report.documents_removed], [3, 0, 0]);
  assert.equal(report.outcome, 'indexed');
});

test('a deleted file or a changed config makes every project run', () => {
  write('packages/core/src/extra.ts', 'export const extra = 1;\n');
  commitAll(root, 'add extra');
  assert.equal(scip(reindex()).projects_reused, 1, 'an added file runs its own project only');
  rmSync(join(root, 'packages/core/src/extra.ts'));
  commitAll(root, 'delete extra');
  assert.equal(scip(reindex()).projects_reused, 0, 'a deleted file');
  write('packages/app/tsconfig.json', '{ "compilerOptions": { "strict": false, "lib": ["es2022"] }, "include": ["src"] }\n');
  commitAll(root, 'loosen app');
  assert.equal(scip(reindex()).projects_reused, 0, 'a changed config');
  assert.deepEqual(answers(env), fullIndexAnswers());
});

describe('within a project', () => {
  const slug = 'geometry';
  const own = testHome();
  const full = testHome();
  let top: string;
  // geo has eight files, so one or two changed ones are few (incremental.ts, FEW_FRACTION); app imports geo.
  const GEO: Record<string, string> = {
    'packages/geo/tsconfig.json': '{ "compilerOptions": { "strict": true, "lib": ["es2022"] }, "include": ["src"] }\n',
    'packages/geo/src/area.ts': 'export function area(w: number, h: number): number {\n  return w * h;\n}\n',
    'packages/geo/src/index.ts': "export { area as size } from './area';\nexport { perimeter } from './perimeter';\n",
    'packages/geo/src/perimeter.ts': 'export function perimeter(w: number, h: number): number {\n  return 2 * (w + h);\n}\n',
    'packages/geo/src/square.ts':
      "import { area } from './area';\n\nexport function square(s: number): number {\n  return area(s, s);\n}\n",
    'packages/geo/src/sized.ts': "import { size } from './index';\n\nexport const tile = size(3, 4);\n",
    'packages/geo/src/units.ts': "export type Unit = 'mm' | 'cm';\n",
    'packages/geo/src/round.ts': 'export const round = (x: number): number => Math.round(x);\n',
    'packages/geo/src/scale.ts': 'export function scale(x: number, k: number): number {\n  return x * k;\n}\n',
    'packages/app/tsconfig.json': '{ "compilerOptions": { "strict": true, "lib": ["es2022"] }, "include": ["src"] }\n',
    // A kept project does not follow a renamed symbol (see the header of incremental.ts): app uses none renamed here.
    'packages/app/src/main.ts': "import { perimeter } from '../../geo/src/index';\n\nexport const fence = perimeter(2, 3);\n",
  };
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(top, path)), { recursive: true });
    writeFileSync(join(top, path), text);
  };
  const reindexed = (): any => {
    const r = sextant(['reindex', top, '--json'], { env: own.env });
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout).report;
  };
  const ask = (e: NodeJS.ProcessEnv, questions: string[][]) =>
    questions.map((args) => {
      const r = sextant([...args, '--repo', slug, '--json'], { env: e });
      // Exit 1 with an answer is "not found" (a name that resolves to nothing), an answer to compare too.
      assert.ok(r.code === 0 || (r.code === 1 && r.stdout), `${args.join(' ')}: ${r.stderr}`);
      const { meta: _meta, commit: _commit, ...rest } = JSON.parse(r.stdout);
      return rest;
    });
  /** The answers of this registry, then of a full index of the tree as it is now into a registry of its own. */
  const bothAnswers = (questions: string[][]) => {
    const now = ask(own.env, questions);
    rmSync(full.home, { recursive: true, force: true });
    const r = sextant(['index', top, '--json'], { env: full.env });
    assert.equal(r.code, 0, r.stderr);
    return { now, fresh: ask(full.env, questions) };
  };
  const project = (report: any, config: string) => scip(report).projects.find((p: any) => p.config === config);

  before(() => {
    top = join(tempDir(), slug);
    for (const [path, text] of Object.entries(GEO)) put(path, text);
    git(top, 'init', '-q', '-b', 'main');
    commitAll(top, 'geometry');
    const r = sextant(['index', top, '--json'], { env: own.env });
    assert.equal(r.code, 0, r.stderr);
    const geo = project(JSON.parse(r.stdout), 'packages/geo/tsconfig.json');
    assert.deepEqual([geo.granularity, geo.files_run, geo.fallback], ['project', 8, null], 'a first index runs every project whole');
  });

  after(() => {
    removeDir(join(top, '..'));
    removeDir(own.home);
    removeDir(full.home);
  });

  test('a body-only edit indexes that file alone, the others keep their documents, answers equal a full index', () => {
    // Lines inserted in the body move what follows; the signature (return type included) is unchanged.
    put(
      'packages/geo/src/area.ts',
      'export function area(w: number, h: number): number {\n  const product = w * h;\n  // Rectangles only.\n  return product;\n}\n\nexport const unitArea = area(1, 1);\n',
    );
    commitAll(top, 'area: a body edit');
    const report = reindexed();
    const geo = project(report, 'packages/geo/tsconfig.json');
    assert.deepEqual([geo.granularity, geo.files_run, geo.fallback], ['files', 1, null], JSON.stringify(geo));
    assert.deepEqual([geo.files, geo.indexed_files], [8, 8], 'its other files kept their documents');
    assert.equal(project(report, 'packages/app/tsconfig.json').granularity, 'kept');
    assert.equal(report.documents_written, 1, 'area.ts alone was derived again');
    assert.equal(report.documents_reused, report.documents - 1);
    const { now, fresh } = bothAnswers([
      ['def', 'packages/geo/src/square.ts:4:10'], // area called from an unchanged file: its definition in the changed one
      ['refs', 'packages/geo/src/area.ts:1:17'], // area at its definition, in the changed file
      ['refs', 'packages/geo/src/area.ts:4:10'], // a local of the changed file
      ['def', 'packages/geo/src/area.ts:7:25'], // the new call in the changed file
      ['refs', 'packages/geo/src/sized.ts:3:21'], // through the re-export, from an unchanged file
      ['def', 'packages/app/src/main.ts:3:22'], // from the kept project
      ['refs', 'perimeter'],
    ]);
    assert.equal(now[0].definitions[0].line, 1);
    assert.deepEqual(now[1].references.map((r: any) => `${r.path}:${r.line}`).sort(), [
      'packages/geo/src/area.ts:1',
      'packages/geo/src/area.ts:7',
      'packages/geo/src/index.ts:1',
      'packages/geo/src/index.ts:1',
      'packages/geo/src/sized.ts:1',
      'packages/geo/src/sized.ts:3',
      'packages/geo/src/square.ts:1',
      'packages/geo/src/square.ts:4',
    ]);
    assert.equal(now[2].references.length, 2, 'product: its definition and its use');
    assert.deepEqual(now, fresh);
  });

  test('renaming an exported function runs its project whole, and its unchanged files follow the rename', () => {
    put(
      'packages/geo/src/area.ts',
      'export function surface(w: number, h: number): number {\n  return w * h;\n}\n\nexport const unitArea = surface(1, 1);\n',
    );
    put(
      'packages/geo/src/square.ts',
      "import { surface } from './area';\n\nexport function square(s: number): number {\n  return surface(s, s);\n}\n",
    );
    commitAll(top, 'area: renamed surface');
    // index.ts still re-exports `area`, now an error, and sized.ts, unchanged, calls it through `size`.
    const report = reindexed();
    const geo = project(report, 'packages/geo/tsconfig.json');
    assert.equal(geo.granularity, 'project');
    assert.equal(geo.files_run, 8);
    assert.match(geo.fallback, /^the surface of packages\/geo\/src\/area\.ts changed: it no longer defines area /);
    assert.equal(project(report, 'packages/app/tsconfig.json').granularity, 'kept');
    const { now, fresh } = bothAnswers([
      ['refs', 'packages/geo/src/area.ts:1:17'],
      ['def', 'packages/geo/src/sized.ts:3:21'],
      ['refs', 'packages/geo/src/sized.ts:1:10'],
      ['def', 'packages/geo/src/square.ts:4:10'],
    ]);
    assert.deepEqual(now, fresh);
    // Now the fix of the re-export: two files, a surface unchanged for sized.ts, whose size is surface again.
    put('packages/geo/src/index.ts', "export { surface as size } from './area';\nexport { perimeter } from './perimeter';\n");
    commitAll(top, 'index: re-export surface');
    const fixed = reindexed();
    const regeo = project(fixed, 'packages/geo/tsconfig.json');
    assert.equal(regeo.granularity, 'project', 'sized.ts, unchanged, calls what index.ts now re-exports');
    assert.match(regeo.fallback, /^the surface of packages\/geo\/src\/index\.ts changed: what it exports from elsewhere/);
    const again = bothAnswers([
      ['refs', 'packages/geo/src/area.ts:1:17'],
      ['def', 'packages/geo/src/sized.ts:3:21'],
    ]);
    assert.ok(
      again.now[0].references.some((r: any) => r.path === 'packages/geo/src/sized.ts'),
      'the unchanged sized.ts calls surface through size',
    );
    assert.deepEqual(again.now, again.fresh);
  });

  test('a changed file declaring a name another file mentions runs the project whole', () => {
    put('packages/geo/src/round.ts', 'export const round = (x: number): number => Math.round(x);\nexport const square = 0;\n');
    commitAll(top, 'round: a name square.ts mentions');
    // As a user reads it: the report printed, and the status of the index it published.
    const r = sextant(['reindex', top], { env: own.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /project packages\/geo\/tsconfig\.json: 8 of 8 files indexed \(run whole: the surface of packages\/geo\/src\/round\.ts changed: it now defines square, which packages\/geo\/src\/\w+\.ts mentions/,
    );
    assert.match(r.stdout, /project packages\/app\/tsconfig\.json: 1 of 1 file indexed \(unchanged: kept\)/);
    const s = sextant(['status', slug, '--json'], { env: own.env });
    assert.equal(s.code, 0, s.stderr);
    const geo = JSON.parse(s.stdout).projects.find((p: any) => p.config === 'packages/geo/tsconfig.json');
    assert.deepEqual([geo.granularity, geo.files_run], ['project', 8]);
    assert.match(geo.fallback, /it now defines square, which packages\/geo\/src\/\w+\.ts mentions/);
  });
});
