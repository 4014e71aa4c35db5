// Project planning: which config owns each file, by TypeScript's own reading
// of include/exclude/files, and what is passed to scip-typescript.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { loadManifests } from '../../src/orchestrator/manifests.js';
import { planProjects, type PlannedProject } from '../../src/orchestrator/projects.js';
import { removeDir, tempDir } from '../support/repos.js';

const roots: string[] = [];
let root = '';
after(() => roots.forEach(removeDir));

/** A fresh folder holding `files`, which becomes `root`; their paths, sorted. */
function tree(files: Record<string, string>): string[] {
  root = tempDir('sextant-projects-');
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return Object.keys(files).sort();
}

const manifest = loadManifests().find((m) => m.name === 'scip-typescript')!;

test('each file belongs to the nearest config that lists it, the rest to the inferred project', () => {
  const files = tree({
    'tsconfig.json': '{ "compilerOptions": { "strict": true } }',
    'scripts/build.ts': 'export const a = 1;',
    'scripts/release.mjs': 'export const b = 2;',
    'packages/a/tsconfig.json': '{ "include": ["src"], "exclude": ["src/**/*.test.ts"] }',
    'packages/a/src/index.ts': 'export const c = 3;',
    'packages/a/src/index.test.ts': 'export const d = 4;',
    'packages/a/bench/run.ts': 'export const e = 5;',
    'packages/b/jsconfig.json': '{ "include": ["lib"] }',
    'packages/b/lib/util.js': 'export const f = 6;',
  });
  const sources = files.filter((f) => /\.(ts|js|mjs)$/.test(f));
  const plan = planProjects(manifest, root, files, sources);
  assert.deepEqual(plan.planned.map(withoutBase), [
    { config: 'packages/a/tsconfig.json', files: ['packages/a/src/index.ts'], launch: { project: join(root, 'packages/a/tsconfig.json') } },
    { config: 'packages/b/jsconfig.json', files: ['packages/b/lib/util.js'], launch: { project: join(root, 'packages/b/jsconfig.json') } },
    // The root config lists every .ts below it: the test and the bench file excluded by packages/a are its own.
    {
      config: 'tsconfig.json',
      files: ['packages/a/bench/run.ts', 'packages/a/src/index.test.ts', 'scripts/build.ts'],
      launch: { generated: plan.generatedConfigs[0]!.fileName },
    },
    { config: null, files: ['scripts/release.mjs'], launch: { generated: plan.generatedConfigs[1]!.fileName } },
  ]);
  // The package configs own all they list and are passed as they are; the root one, which also lists
  // packages/a/src/index.ts, is passed as a copy outside the tree that extends it and lists only its own.
  assert.deepEqual(plan.projects, [join(root, 'packages/a/tsconfig.json'), join(root, 'packages/b/jsconfig.json')]);
  const derived = JSON.parse(plan.generatedConfigs[0]!.content);
  assert.equal(derived.extends, join(root, 'tsconfig.json'));
  assert.deepEqual(derived.include, []);
  assert.ok(!derived.files.includes(join(root, 'packages/a/src/index.ts')));
  assert.ok(derived.files.includes(join(root, 'scripts/build.ts')));
  const inferred = JSON.parse(plan.generatedConfigs[1]!.content);
  assert.deepEqual(inferred.files, [join(root, 'scripts/release.mjs')]);
  // The configs that index a few of a project's files: the project's options, no files of their own.
  const [a, b, top, none] = plan.planned.map((p) => p.base as any);
  assert.deepEqual([a.extends, a.include, a.files], [join(root, 'packages/a/tsconfig.json'), [], undefined]);
  assert.equal(b.compilerOptions.allowJs, true, 'a jsconfig.json allows JavaScript');
  assert.deepEqual({ ...top, files: derived.files }, derived);
  assert.deepEqual({ ...none, files: inferred.files }, inferred);
  assert.deepEqual(plan.gaps, []);
});

function withoutBase({ base: _base, ...planned }: PlannedProject): Omit<PlannedProject, 'base'> {
  return planned;
}

test('a config that cannot be read is a gap named with its error, and owns nothing', () => {
  const files = tree({ 'broken/tsconfig.json': '{ "include": ["src"', 'broken/src/x.ts': 'export const x = 1;' });
  const plan = planProjects(manifest, root, files, ['broken/src/x.ts']);
  assert.equal(plan.gaps.length, 1);
  assert.match(plan.gaps[0]!.reason, /^broken\/tsconfig\.json cannot be read: /);
  assert.deepEqual(plan.planned.map(withoutBase), [
    { config: null, files: ['broken/src/x.ts'], launch: { generated: plan.generatedConfigs[0]!.fileName } },
  ]);
});
