// A library built from object-literal factories, as published on npm
// (kysely's ES module build: `export const XNode = freeze({ create() {...} })`
// in .js files, typed by factories in the .d.ts files beside them), with no
// tsconfig: every file is in the project sextant infers. See support/held-out.ts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { factoryRepo } from './support/corpus.js';
import {
  callHierarchies,
  definitionsAndReferences,
  everyFileAnswers,
  ownSymbolsWithoutDefinition,
  startHeldOut,
  statusListsProjects,
  type HeldOut,
} from './support/held-out.js';

let h: HeldOut;

before(async () => {
  h = await startHeldOut(factoryRepo);
});

after(async () => {
  await h?.stop();
});

test('every tracked .js and .d.ts file answers goToDefinition', async (t) => {
  t.diagnostic(await everyFileAnswers(h));
});

// The keys of `freeze({ kind: 'XNode', ... })`, a literal given for `freeze<T>(obj: T)`'s type parameter, were uses
// of properties defined nowhere (919 symbols) until such keys declared their own (contextual-properties-patch.ts).
test("every symbol of the corpus's own that it uses has a definition", async () => {
  assert.deepEqual(await ownSymbolsWithoutDefinition(h), []);
});

test('status lists the inferred project with every file', async () => {
  await statusListsProjects(h, [null]);
});

test('definitions and references are not below the raw index against typescript-language-server', async (t) => {
  for (const line of await definitionsAndReferences(h, 160, 0xfac7)) t.diagnostic(line);
});

test('call hierarchies agree with typescript-language-server, a third of them at object-literal members', async (t) => {
  const { report, targets } = await callHierarchies(
    h,
    { 'object-literal member': 24, function: 14, method: 16, 'arrow function in a const': 12 },
    0xfac70,
  );
  for (const line of report) t.diagnostic(line);
  assert.ok(targets.length >= 60, `${targets.length} targets`);
  assert.ok(targets.filter((x) => x.stratum === 'object-literal member').length * 3 >= targets.length, 'a third are object-literal members');
});
