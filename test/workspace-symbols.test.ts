// workspaceSymbols end to end, over the real MCP server and `sextant symbols`:
// the ranking (exact name, then prefix, then substring; within each, source
// files before tests), case-insensitivity, the kind filter, total / truncated
// / limit, and bad input. The fixtures are copied with a test file added
// (src/geometry.test.ts, tests/test_geometry.py) that defines helpers named
// like source symbols, so that test code has something to be ranked below.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FIXTURES } from './support/paths.js';
import { at, find, type Position } from './support/positions.js';
import { commitAll, gitRepoFrom, removeDir, tempDir } from './support/repos.js';
import { indexOrThrow, mcpSession, sextant, testHome, toolError, withoutMeta, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
const scratch = tempDir('sextant-symbols-');
let session: McpSession;
let ts: string;
let py: string;
const tsRepo = 'ts-ranked';
const pyRepo = 'py-ranked';

const TS_TEST = 'src/geometry.test.ts';
const PY_TEST = 'tests/test_geometry.py';

/** A copy of a fixture with one more file, committed; the repository is named after its folder. */
function withTestFile(fixture: string, name: string, path: string, text: string): string {
  const root = gitRepoFrom(join(FIXTURES, fixture), name);
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
  commitAll(root, `a test file beside the source: ${path}`);
  return root;
}

before(async () => {
  ts = withTestFile(
    'ts-shapes',
    tsRepo,
    TS_TEST,
    [
      '// Test helpers named like symbols of the source: ranked after them.',
      'export function area(): number {',
      '  return 0;',
      '}',
      '',
      'export function areaOf(): number {',
      '  return 0;',
      '}',
      '',
      'export function totalArea(): number {',
      '  return 0;',
      '}',
      '',
    ].join('\n'),
  );
  py = withTestFile(
    'py-shapes',
    pyRepo,
    PY_TEST,
    [
      '# Test helpers named like symbols of the source: ranked after them.',
      'def area() -> float:',
      '    return 0.0',
      '',
      '',
      'def area_of() -> float:',
      '    return 0.0',
      '',
      '',
      'def total_area() -> float:',
      '    return 0.0',
      '',
    ].join('\n'),
  );
  for (const root of [ts, py]) indexOrThrow(root, env);
  session = await mcpSession(env);
});

after(async () => {
  await session?.close();
  for (const root of [ts, py]) if (root) removeDir(join(root, '..'));
  removeDir(scratch);
  removeDir(home);
});

async function symbols(repo: string, query: string, extra: Record<string, unknown> = {}): Promise<any> {
  const r = await session.call('workspaceSymbols', { repo, query, ...extra });
  assert.equal(r.isError, false, `workspaceSymbols ${query} failed: ${JSON.stringify(r.result)}`);
  return r.result;
}

/** "match kind Container.name path:line:column", one per symbol, in the order given. */
function listed(result: any): string[] {
  return result.symbols.map(
    (s: any) => `${s.match} ${s.kind} ${s.container ? `${s.container}.` : ''}${s.name} ${s.path}:${s.line}:${s.column}`,
  );
}

function entry(match: string, kind: string, p: Position, name: string, container?: string): string {
  return `${match} ${kind} ${container ? `${container}.` : ''}${name} ${p.path}:${p.line}:${p.column}`;
}

describe('ranking', () => {
  test('TypeScript: exact, then prefix, then substring; in each, source before tests', async () => {
    const S = 'src/shapes.ts';
    const method = (line: number, container: string) => entry('exact', 'method', at(ts, S, line, 'area'), 'area', container);
    const helper = (match: string, name: string) => entry(match, 'function', find(ts, TS_TEST, new RegExp(`function (${name})\\(`)), name);
    const r = await symbols(tsRepo, 'area');
    assert.deepEqual(listed(r), [
      // The four methods named area (shapes.ts), then the test's function area.
      method(4, 'Shape'),
      method(17, 'Circle'),
      method(30, 'Polygon'),
      method(49, 'Rectangle'),
      helper('exact', 'area'),
      // A prefix match, though in a test file, comes before every substring match.
      helper('prefix', 'areaOf'),
      // Substrings: shorter names first, the test's totalArea last.
      entry('substring', 'function', at(ts, 'src/geometry.ts', 4, 'totalArea'), 'totalArea'),
      entry('substring', 'function', at(ts, 'src/util/format.ts', 3, 'formatArea'), 'formatArea'),
      helper('substring', 'totalArea'),
    ]);
    assert.equal(r.total, 9);
    assert.equal(r.truncated, false);
    assert.equal(r.limit, 50);
    assert.equal(r.source, 'precise');
    // Every symbol is a location of the contract.
    const first = r.symbols[0];
    assert.equal(first.repo, tsRepo);
    assert.equal(first.end_column, first.column + 'area'.length);
    assert.match(first.symbol, /Shape#area\(\)\.$/);
    // The same name defined in source and in a test: the source one first, whatever the paths' order
    // (src/geometry.test.ts sorts before src/geometry.ts).
    assert.deepEqual(listed(await symbols(tsRepo, 'totalArea')), [
      entry('exact', 'function', at(ts, 'src/geometry.ts', 4, 'totalArea'), 'totalArea'),
      helper('exact', 'totalArea'),
    ]);
  });

  test('Python: the same ranking', async () => {
    const method = (path: string, line: number, container: string) =>
      entry('exact', 'method', at(py, path, line, 'area'), 'area', container);
    const helper = (match: string, name: string) => entry(match, 'function', find(py, PY_TEST, new RegExp(`def (${name})\\(`)), name);
    const r = await symbols(pyRepo, 'area');
    assert.deepEqual(listed(r), [
      method('shapes/base.py', 10, 'Shape'),
      method('shapes/circle.py', 12, 'Circle'),
      method('shapes/polygon.py', 10, 'Polygon'),
      method('shapes/polygon.py', 24, 'Rectangle'),
      helper('exact', 'area'),
      helper('prefix', 'area_of'),
      entry('substring', 'function', at(py, 'shapes/geometry.py', 14, 'total_area'), 'total_area'),
      entry('substring', 'function', at(py, 'shapes/geometry.py', 10, 'format_area'), 'format_area'),
      helper('substring', 'total_area'),
    ]);
    assert.equal(r.total, 9);
  });

  test('prefix before substring among source symbols: Rectangle before unitRectangle', async () => {
    assert.deepEqual(listed(await symbols(tsRepo, 'rect')), [
      entry('prefix', 'class', at(ts, 'src/shapes.ts', 35, 'Rectangle'), 'Rectangle'),
      entry('substring', 'function', at(ts, 'src/geometry.ts', 58, 'unitRectangle'), 'unitRectangle'),
    ]);
    assert.deepEqual(listed(await symbols(pyRepo, 'rect')), [
      entry('prefix', 'class', at(py, 'shapes/polygon.py', 14, 'Rectangle'), 'Rectangle'),
      entry('substring', 'function', at(py, 'shapes/geometry.py', 52, 'unit_rectangle'), 'unit_rectangle'),
    ]);
  });
});

describe('matching', () => {
  test('is case-insensitive: the case of the query does not change the answer', async () => {
    for (const [repo, query] of [
      [tsRepo, 'area'],
      [tsRepo, 'rect'],
      [pyRepo, 'area'],
      [pyRepo, 'circle'],
    ] as const) {
      const lower = await symbols(repo, query);
      assert.ok(lower.symbols.length > 0, `${repo} ${query}`);
      for (const variant of [query.toUpperCase(), query[0]!.toUpperCase() + query.slice(1)]) {
        assert.deepEqual((await symbols(repo, variant)).symbols, lower.symbols, `${repo}: ${variant} as ${query}`);
      }
    }
    // `circle` names the class Circle exactly, ignoring case.
    const circle = await symbols(tsRepo, 'CIRCLE');
    assert.deepEqual(listed(circle), [entry('exact', 'class', at(ts, 'src/shapes.ts', 12, 'Circle'), 'Circle')]);
    // Surrounding spaces are not part of the name.
    assert.deepEqual((await symbols(tsRepo, '  area ')).symbols, (await symbols(tsRepo, 'area')).symbols);
  });

  test('kind keeps only symbols of that kind', async () => {
    const methods = await symbols(tsRepo, 'area', { kind: 'method' });
    assert.deepEqual(
      methods.symbols.map((s: any) => s.container),
      ['Shape', 'Circle', 'Polygon', 'Rectangle'],
    );
    assert.equal(methods.total, 4);
    const functions = await symbols(pyRepo, 'area', { kind: 'function' });
    assert.deepEqual(
      functions.symbols.map((s: any) => `${s.name} ${s.path}`),
      [`area ${PY_TEST}`, `area_of ${PY_TEST}`, 'total_area shapes/geometry.py', 'format_area shapes/geometry.py', `total_area ${PY_TEST}`],
    );
    const interfaces = await symbols(tsRepo, 's', { kind: 'interface' });
    // shapes.ts declares Shape, Scalable and Solid; geometry.ts declares Point (no s).
    assert.deepEqual(
      interfaces.symbols.map((s: any) => s.name),
      ['Shape', 'Solid', 'Scalable'],
    );
    const classes = await symbols(pyRepo, 'e', { kind: 'class' });
    assert.deepEqual(classes.symbols.map((s: any) => s.name).sort(), ['Circle', 'Rectangle', 'Scalable', 'Shape', 'Square']);
    assert.deepEqual((await symbols(tsRepo, 'area', { kind: 'enum' })).symbols, []);
  });

  test('a query that matches nothing: an empty answer, not an error', async () => {
    const r = await symbols(tsRepo, 'zzzNothing');
    assert.deepEqual([r.symbols, r.total, r.truncated], [[], 0, false]);
  });
});

describe('limit', () => {
  test('truncates in rank order and says so; the total counts every match', async () => {
    const all = await symbols(tsRepo, 'area');
    const two = await symbols(tsRepo, 'area', { limit: 2 });
    assert.deepEqual(two.symbols, all.symbols.slice(0, 2));
    assert.deepEqual([two.total, two.truncated, two.limit, two.limit_clamped], [9, true, 2, undefined]);
    const exact = await symbols(tsRepo, 'area', { limit: 9 });
    assert.deepEqual([exact.symbols.length, exact.truncated], [9, false]);
    const cap = await symbols(tsRepo, 'area', { limit: 500 });
    assert.deepEqual([cap.limit, cap.limit_clamped], [500, undefined]);
  });

  test('above 500 the limit is clamped to 500 and flagged', async () => {
    const r = await symbols(tsRepo, 'a', { limit: 100000 });
    assert.deepEqual([r.limit, r.limit_clamped, r.truncated], [500, true, false]);
    assert.equal(r.symbols.length, r.total);
  });
});

describe('bad input over MCP', () => {
  async function stillServes(): Promise<void> {
    const r = await symbols(tsRepo, 'Circle', { kind: 'class' });
    assert.deepEqual(listed(r), [entry('exact', 'class', at(ts, 'src/shapes.ts', 12, 'Circle'), 'Circle')]);
  }
  const kinds = /kind must be one of class, interface, .*function, method, constructor, property.*variable.*module/;
  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    ['an empty query', 'workspaceSymbols', { repo: tsRepo, query: '' }, /query must not be empty: pass part of a symbol name/],
    ['a query of spaces', 'workspaceSymbols', { repo: tsRepo, query: '  \t ' }, /query must not be empty/],
    ['no query', 'workspaceSymbols', { repo: tsRepo }, /query must be a string: part of a symbol name/],
    ['a query that is not a string', 'workspaceSymbols', { repo: tsRepo, query: 7 }, /query must be a string/],
    ['an unknown kind', 'workspaceSymbols', { repo: tsRepo, query: 'area', kind: 'methods' }, kinds],
    ['a limit of 0', 'workspaceSymbols', { repo: tsRepo, query: 'area', limit: 0 }, /limit must be >= 1 \(at most 500\)/],
    [
      'a fractional limit',
      'workspaceSymbols',
      { repo: tsRepo, query: 'area', limit: 2.5 },
      /limit must be a whole number between 1 and 500/,
    ],
    ['an unknown repository', 'workspaceSymbols', { repo: 'nope', query: 'area' }, /unknown repository "nope".*ts-ranked/],
    [
      'findReferences: a symbol kind where a reference kind is expected',
      'findReferences',
      { repo: tsRepo, symbol: 'area', kind: 'method' },
      /kind must be one of call, type, import, identifier, write/,
    ],
  ];
  for (const [what, tool, args, expected] of cases) {
    test(`${what}: {"error"} with isError, and the server keeps answering`, async () => {
      assert.match(await toolError(session, tool, args), expected);
      await stillServes();
    });
  }
});

describe('sextant symbols', () => {
  function fails(args: string[], code: number, expected: RegExp): void {
    const r = sextant(args, { env, cwd: ts });
    assert.equal(r.code, code, `sextant ${args.join(' ')}: exit ${r.code}, stderr ${r.stderr}`);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^sextant symbols: /);
    assert.match(lines[0]!, expected);
  }

  test('--json answers what workspaceSymbols answers; the text lists one symbol a line and the count', async () => {
    const inRepo = sextant(['symbols', 'area', '--kind', 'function', '--limit', '3', '--json'], { env, cwd: ts });
    assert.equal(inRepo.code, 0, inRepo.stderr);
    assert.deepEqual(
      withoutMeta(JSON.parse(inRepo.stdout)),
      withoutMeta(await symbols(tsRepo, 'area', { kind: 'function', limit: 3 })),
    );
    const named = sextant(['symbols', 'AREA', '--repo', pyRepo, '--json'], { env, cwd: scratch });
    assert.equal(named.code, 0, named.stderr);
    assert.deepEqual(withoutMeta(JSON.parse(named.stdout)), withoutMeta(await symbols(pyRepo, 'AREA')));
    const clamped = sextant(['symbols', 'area', '--limit', '1000', '--json'], { env, cwd: ts });
    assert.deepEqual([JSON.parse(clamped.stdout).limit, JSON.parse(clamped.stdout).limit_clamped], [500, true]);

    const text = sextant(['symbols', 'rect'], { env, cwd: ts });
    assert.equal(text.code, 0, text.stderr);
    const rectangle = at(ts, 'src/shapes.ts', 35, 'Rectangle');
    const unit = at(ts, 'src/geometry.ts', 58, 'unitRectangle');
    assert.deepEqual(text.stdout.trimEnd().split('\n'), [
      `${'class'.padEnd(12)} Rectangle  ${rectangle.path}:${rectangle.line}:${rectangle.column}`,
      `${'function'.padEnd(12)} unitRectangle  ${unit.path}:${unit.line}:${unit.column}`,
      '2 symbols',
    ]);
    const cut = sextant(['symbols', 'area', '--limit', '2'], { env, cwd: ts });
    assert.equal(cut.stdout.trimEnd().split('\n').at(-1), '2 of 9 symbols');
  });

  test('a missing or empty query, an unknown kind, a bad limit, extra arguments: usage errors (exit 2)', () => {
    fails(['symbols'], 2, /what to search for is missing \(usage: sextant symbols QUERY/);
    fails(['symbols', '   '], 2, /what to search for is missing/);
    fails(['symbols', 'area', '--kind', 'methods'], 2, /--kind must be one of class, interface.*got "methods"/);
    fails(['symbols', 'area', '--limit', '0'], 2, /--limit must be a whole number >= 1/);
    fails(['symbols', 'area', '--limit', 'many'], 2, /--limit must be a whole number >= 1/);
    fails(['symbols', 'area', 'circle'], 2, /unexpected argument "circle"/);
    fails(['symbols', 'area', '--bogus'], 2, /Unknown option '--bogus'.*sextant symbols --help/);
    fails(['symbols', 'area', '--repo', 'nope'], 1, /unknown repository "nope"/);
  });
});
