// Incremental reindexing of a repository with several projects: after an edit,
// only the projects holding changed files are indexed again, the others keep
// their documents, and the answers are those of a full index of the same tree
// (built into a registry of its own). What can change the meaning of an
// unchanged file (a deleted file, a changed config) makes every project run.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { commitAll, git, removeDir, tempDir } from './support/repos.js';
import { sextant, testHome } from './support/sextant.js';

const repo = 'two-projects';
const { home, env } = testHome();
const fresh = testHome();
let root: string;

const FILES: Record<string, string> = {
  'packages/core/tsconfig.json': '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
  'packages/core/src/area.ts': 'export function area(w: number, h: number): number {\n  return w * h;\n}\n',
  'packages/core/src/index.ts': "export { area } from './area';\n",
  'packages/app/tsconfig.json': '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
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
  write('packages/app/tsconfig.json', '{ "compilerOptions": { "strict": false }, "include": ["src"] }\n');
  commitAll(root, 'loosen app');
  assert.equal(scip(reindex()).projects_reused, 0, 'a changed config');
  assert.deepEqual(answers(env), fullIndexAnswers());
});
