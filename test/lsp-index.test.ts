// `sextant index --lsp`: C has no SCIP indexer, so clangd is driven to build
// a precise index of tree-sitter's C runtime (definitions from documentSymbol,
// references, call sites from its call hierarchy), published with origin
// `lsp`. The index's answers are held against clangd asked directly.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Clangd } from './support/clangd.js';
import { treeSitterCRepo } from './support/corpus.js';
import { functionDefinitions, identifierUses } from './support/c-positions.js';
import { gitRepoFrom, removeDir, tempDir } from './support/repos.js';
import { prng, shuffle } from './support/stats.js';
import { indexOrThrow, mcpSession, testHome, type McpSession } from './support/sextant.js';

const key = (p: { path: string; line: number; column: number }) => `${p.path}:${p.line}:${p.column}`;
const sorted = (places: { path: string; line: number; column: number }[]) => [...new Set(places.map(key))].sort();

describe('sextant index --lsp: a precise C index built through clangd', () => {
  const repo = treeSitterCRepo('tree-sitter-lsp');
  const { home, env } = testHome();
  let session: McpSession;
  let clangd: Clangd;
  let report: Record<string, any>;

  before(async () => {
    const started = performance.now();
    report = indexOrThrow(repo, env, '--lsp');
    report.wall_ms = Math.round(performance.now() - started);
    session = await mcpSession(env);
    clangd = await Clangd.start(repo);
    await clangd.ready('src/parser.c');
  });
  after(async () => {
    await session?.close();
    await clangd?.stop();
    removeDir(home);
    removeDir(repo);
  });

  test('C is published precise, with origin lsp, and the build reports what it reached', async (t) => {
    const c = report.languages.c;
    assert.deepEqual([c.tier, c.indexer, c.origin], ['precise', 'clangd', 'lsp']);
    const built = report.indexers.find((i: any) => i.name === 'clangd');
    assert.equal(built.status, 'ok');
    const coverage = built.coverage;
    assert.equal(coverage.files, 42);
    assert.equal(coverage.files_reached, coverage.files);
    assert.equal(coverage.definitions_with_references, coverage.definitions);
    assert.equal(coverage.functions_with_calls_asked, coverage.functions);
    assert.ok(coverage.definitions > 500 && coverage.call_sites > 500, JSON.stringify(coverage));
    assert.equal(c.reason, null, 'complete within the budget: nothing left unreached');
    const status = await session.ok('getIndexStatus', { repo: 'tree-sitter-lsp' });
    assert.equal(status.language_tiers.c.tier, 'precise');
    assert.equal(status.language_tiers.c.origin, 'lsp');
    // clangd stays available for C files edited since the index; nothing started it.
    assert.deepEqual(
      status.language_servers.map((s: any) => [s.server, s.state]),
      [['clangd', 'not_started']],
    );
    t.diagnostic(
      `built in ${(built.duration_ms / 1000).toFixed(1)} s (whole index run ${(report.wall_ms / 1000).toFixed(1)} s): ${JSON.stringify(coverage)}`,
    );
  });

  test('goToDefinition and findReferences from the built index agree with clangd asked directly', async (t) => {
    const positions = shuffle(identifierUses(repo), prng(11)).slice(0, 60);
    const misses: string[] = [];
    for (const p of positions) {
      const expectedDefinitions = (await clangd.definition(p)).filter((d) => !d.path.startsWith('/'));
      const expectedReferences = (await clangd.references(p)).filter((r) => !r.path.startsWith('/'));
      const definitions = await session.call('goToDefinition', { repo: 'tree-sitter-lsp', ...p });
      const references = await session.call('findReferences', { repo: 'tree-sitter-lsp', ...p, limit: 2000 });
      const got = definitions.isError ? [] : definitions.result.definitions;
      const refs = references.isError ? [] : references.result.references;
      // Asked at a definition, clangd answers the declaration (it toggles between the two); the index, the definition.
      const toggled =
        sorted(got).join() === key(p) &&
        expectedDefinitions.length === 1 &&
        sorted(await clangd.definition(expectedDefinitions[0]!)).includes(key(p));
      if (!toggled && JSON.stringify(sorted(got)) !== JSON.stringify(sorted(expectedDefinitions))) misses.push(`definition at ${key(p)}`);
      else if (JSON.stringify(sorted(refs)) !== JSON.stringify(sorted(expectedReferences))) misses.push(`references at ${key(p)}`);
      else assert.equal(definitions.result.source, 'precise');
    }
    t.diagnostic(`${positions.length - misses.length} of ${positions.length} positions agree; ${misses.slice(0, 10).join(', ')}`);
    assert.ok(misses.length <= positions.length / 10, `at most 1 in 10 positions differ: ${misses.join(', ')}`);
  });

  test('callHierarchy incoming from the built index names the callers clangd names', async () => {
    let asked = 0;
    let withCallers = 0;
    for (const f of shuffle(functionDefinitions(repo), prng(12))) {
      if (asked === 20) break;
      const expected = await clangd.callers(f);
      if (expected === null) continue; // code the preprocessor leaves out (wasm_store.c without wasm)
      asked++;
      const r = await session.ok('callHierarchy', { repo: 'tree-sitter-lsp', ...f, direction: 'incoming' });
      const got = [...new Set(r.calls.map((c: any) => c.from.name))].sort();
      assert.deepEqual(got, expected, `callers of ${key(f)}`);
      if (expected.length) withCallers++;
    }
    assert.equal(asked, 20);
    assert.ok(withCallers >= 5, `${withCallers} functions with callers`);
  });
});

describe('sextant index --lsp: call sites where clangd groups same-named callers', () => {
  // Two programs, each with its own main calling twice(). clangd lists both
  // mains' calls under one of them, with the other file's ranges: each call
  // must still be a call in its own file, and nothing in the other.
  const staging = tempDir('sextant-lsp-mains-');
  writeFileSync(join(staging, 'lib.h'), 'int twice(int x);\n');
  writeFileSync(join(staging, 'lib.c'), '#include "lib.h"\nint twice(int x) { return 2 * x; }\n');
  writeFileSync(join(staging, 'one.c'), '#include "lib.h"\nint main(void) {\n  return twice(1);\n}\n');
  writeFileSync(join(staging, 'two.c'), '#include "lib.h"\n/* a comment */\n\nint main(void) {\n  int a = 2;\n  return twice(a);\n}\n');
  const repo = gitRepoFrom(staging, 'lsp-mains');
  removeDir(staging);
  const { home, env } = testHome();
  let session: McpSession;

  before(async () => {
    indexOrThrow(repo, env, '--lsp');
    session = await mcpSession(env);
  });
  after(async () => {
    await session?.close();
    removeDir(home);
    removeDir(join(repo, '..'));
  });

  test('each main’s call of twice is a call in its own file', async () => {
    const calls = await session.ok('findReferences', { repo: 'lsp-mains', path: 'lib.c', line: 2, column: 5, kind: 'call' });
    assert.deepEqual(
      calls.references.map((r: any) => `${r.path}:${r.line}:${r.column}`).sort(),
      ['one.c:3:10', 'two.c:6:10'],
    );
    // The callers: each call under a caller in its own file. (Which one: clangd answers the definition of either
    // main with the same one, so the build keeps one main and the other file's call is the file's own.)
    const callers = await session.ok('callHierarchy', { repo: 'lsp-mains', path: 'lib.c', line: 2, column: 5, direction: 'incoming' });
    const ranges = callers.calls.flatMap((c: any) => c.ranges.map((r: any) => (r.path === c.from.path ? `${r.path}:${r.line}:${r.column}` : 'elsewhere')));
    assert.deepEqual(ranges.sort(), ['one.c:3:10', 'two.c:6:10']);
  });
});
