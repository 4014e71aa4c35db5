// A monorepo of real packages (tRPC, TanStack Query, rxjs), each with its own
// tsconfig.json mapping its siblings by `paths`, a root tsconfig.json for the
// scripts only, and scripts no config includes. See support/held-out.ts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { monorepoRepo } from './support/corpus.js';
import { callHierarchies, definitionsAndReferences, everyFileAnswers, startHeldOut, statusListsProjects, type HeldOut } from './support/held-out.js';

let h: HeldOut;

before(async () => {
  h = await startHeldOut(monorepoRepo);
});

after(async () => {
  await h?.stop();
});

test('every tracked .ts, .tsx, .js, .mjs and .cjs file answers goToDefinition', async (t) => {
  t.diagnostic(await everyFileAnswers(h));
});

test('status lists each package project, the root project and the inferred one, with their files', async () => {
  const status = await statusListsProjects(h, [
    'packages/query-core/tsconfig.json',
    'packages/react-query/tsconfig.json',
    'packages/rxjs/tsconfig.json',
    'packages/trpc-client/tsconfig.json',
    'packages/trpc-server/tsconfig.json',
    'tsconfig.json',
    null,
  ]);
  // The root config covers only the scripts; the .mjs and .cjs scripts are in no config.
  assert.equal(status.projects.find((p) => p.config === 'tsconfig.json')!.files, 2);
  assert.equal(status.projects.find((p) => p.config === null)!.files, 4);
});

test('an answer crosses projects: a package imports its sibling through `paths`', async () => {
  // @trpc/client imports `observable` from @trpc/server/observable, mapped to packages/trpc-server/src.
  const refs = await h.navigation.findReferences({ repo: h.slug, symbol: 'observable', include_declaration: true, limit: 500 });
  const packages = new Set(refs.references.map((r) => r.path.split('/').slice(0, 2).join('/')));
  assert.ok(packages.has('packages/trpc-server') && packages.has('packages/trpc-client'), [...packages].join(', '));
});

test('definitions and references are not below the raw index against typescript-language-server, in every project', async (t) => {
  for (const line of await definitionsAndReferences(h, 170, 0x3070)) t.diagnostic(line);
});

test('call hierarchies agree with typescript-language-server', async (t) => {
  const { report, targets } = await callHierarchies(
    h,
    { 'object-literal member': 12, function: 18, method: 18, 'arrow function in a const': 14 },
    0x30700,
  );
  for (const line of report) t.diagnostic(line);
  assert.ok(targets.length >= 60, `${targets.length} targets`);
});
