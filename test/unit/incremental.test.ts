// What a narrowed run keeps and compares, read from a file's text: which
// files declare globals (given along with the changed ones), and which
// statements export what a file does not declare (part of its surface).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { declaresGlobals, exportAliases, firstMention, planCarryOver, type PreviousIndex } from '../../src/orchestrator/incremental.js';
import type { IndexerManifest } from '../../src/orchestrator/manifests.js';
import { DERIVATION_VERSION } from '../../src/orchestrator/prepare.js';
import type { ProjectPlan } from '../../src/orchestrator/projects.js';

test('a script, a global declaration or a module augmentation declares globals; a plain module does not', () => {
  assert.equal(declaresGlobals("import { a } from './a';\nexport const b = a;\n"), false);
  assert.equal(declaresGlobals('export function f() {}\n'), false);
  assert.equal(declaresGlobals("import type { A } from './a';\nconst x: A = 1;\n"), false);
  assert.equal(declaresGlobals('declare const VERSION: string;\n'), true, 'a script');
  assert.equal(declaresGlobals("const important = 1;\nimportScripts('x');\n"), true, 'words starting with import are no import');
  assert.equal(declaresGlobals("const m = import('./m');\n"), true, 'a dynamic import does not make a module');
  assert.equal(declaresGlobals('export {};\ndeclare global {\n  interface Window { x: number }\n}\n'), true);
  assert.equal(declaresGlobals("import 'x';\ndeclare module 'x' {\n  export const y: number;\n}\n"), true);
  assert.equal(declaresGlobals(undefined), true, 'an unreadable file is kept');
});

test('re-exports are listed as written, whitespace aside; declarations are not', () => {
  const text = [
    "export { area as size } from './area';",
    "export * from './shapes';",
    'export {\n  a,\n  b as c,\n};',
    'export default area;',
    'export function own() {}',
    'export const mine = 1;',
    'export default function () {}',
  ].join('\n');
  assert.deepEqual(exportAliases(text), [
    "export * from './shapes';",
    'export default area;',
    'export { a, b as c, };',
    "export { area as size } from './area';",
  ]);
  assert.deepEqual(exportAliases('export const x = 1;\n'), []);
});

test('a name is mentioned as a word, not inside another', async () => {
  const texts: Record<string, string> = { 'a.ts': 'const squared = 1;\n', 'b.ts': 'use(square);\n', 'c.ts': '$square();\n' };
  const read = async (path: string) => texts[path];
  assert.equal(await firstMention(['a.ts', 'c.ts'], ['square'], read), undefined);
  assert.equal(await firstMention(['a.ts', 'b.ts'], ['square'], read), 'b.ts');
  assert.equal(await firstMention(['a.ts'], ['missing', 'squared'], read), 'a.ts');
  assert.equal(await firstMention(['gone.ts'], ['x'], read), 'gone.ts', 'an unreadable file might mention anything');
});

test('documents derived by another version of sextant are not kept: every project runs again', () => {
  const manifest = { name: 'scip-typescript', projects: { configFiles: ['tsconfig.json'] } } as unknown as IndexerManifest;
  const plan = { planned: [{ files: ['a.ts', 'b.ts'] }] } as unknown as ProjectPlan;
  const files = new Map([
    ['a.ts', 'blob-a'],
    ['b.ts', 'blob-b'],
  ]);
  const previous = (derivation?: number): PreviousIndex => ({
    files: new Map([
      ['a.ts', { blob: 'blob-a', document: 1 }],
      ['b.ts', { blob: 'blob-b', document: 2 }],
    ]),
    tools: [{ name: 'scip-typescript', version: '0.4.0', status: 'ok', ...(derivation === undefined ? {} : { derivation }) }],
  });
  const same = planCarryOver(manifest, plan, previous(DERIVATION_VERSION), files);
  assert.ok('run' in same, JSON.stringify(same));
  assert.deepEqual([...same.documents], [
    ['a.ts', 1],
    ['b.ts', 2],
  ]);
  for (const older of [undefined, DERIVATION_VERSION - 1]) {
    const again = planCarryOver(manifest, plan, previous(older), files);
    assert.ok(!('run' in again));
    assert.match(again.reason!, /derived by another version of sextant/);
  }
});
