// What a narrowed run keeps and compares, read from a file's text: which
// files declare globals (given along with the changed ones), and which
// statements export what a file does not declare (part of its surface).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { declaresGlobals, exportAliases, firstMention } from '../../src/orchestrator/incremental.js';

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
