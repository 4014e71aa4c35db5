// Call and type hierarchies end to end, over the real MCP server (`sextant
// mcp`, stdio, the official client) and the CLI (`sextant calls`, `sextant
// types`), on the ts-shapes and py-shapes fixtures. Every expected caller,
// callee, call range and type is stated from the fixture sources (positions
// found in the text with the positions helpers), not copied from an answer:
// incoming calls grouped by the innermost enclosing function, top-level code
// as the file's module item, outgoing calls, nested levels (depth 2 and 3),
// recursion cut with `cycle`, constructors and super calls, mentions that are
// not calls (include_references / references_omitted), where an item's extent
// came from (range_source); interfaces with several implementations, a class
// chain followed with depth, a subtype in another file, an interface extending
// an interface, method overrides both ways, an external supertype. Then the
// limits and bad input of both tools.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { at, linesOf } from './support/positions.js';
import { fixtureRepo, gitRepoFrom, removeDir, tempDir } from './support/repos.js';
import { indexOrThrow, mcpSession, sextant, testHome, toolError, withoutMeta, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
const scratch = tempDir('sextant-hierarchy-');
let session: McpSession;
let ts: string;
let py: string;
let members: string;

before(async () => {
  ts = fixtureRepo('ts-shapes');
  py = fixtureRepo('py-shapes');
  members = fixtureRepo('ts-members');
  for (const root of [ts, py, members]) indexOrThrow(root, env);
  session = await mcpSession(env);
});

after(async () => {
  await session?.close();
  for (const root of [ts, py, members]) if (root) removeDir(join(root, '..'));
  removeDir(scratch);
  removeDir(home);
});

// ------------------------------------------------------------- notation
// Items and ranges are compared as one-line strings so that a failure shows
// the whole tree: "kind Container.name path:line:column" for an item,
// "path:line:column kind" for a call range, "external name" for what no
// indexed repository defines.

function label(x: {
  kind: string;
  container: string | null;
  name: string;
  path: string | null;
  line: number | null;
  column: number | null;
}) {
  if (x.path === null) return `external ${x.name}`;
  return `${x.kind} ${x.container ? `${x.container}.` : ''}${x.name} ${x.path}:${x.line}:${x.column}`;
}

/** The expected label of the definition of `name` on `line` of `path` (its first occurrence there). */
function def(root: string, kind: string, path: string, line: number, name: string, container?: string): string {
  const p = at(root, path, line, name);
  return `${kind} ${container ? `${container}.` : ''}${name} ${path}:${p.line}:${p.column}`;
}

/** The expected string of a call range: where `needle` (its nth occurrence) sits on the line. */
function range(root: string, path: string, line: number, needle: string, kind: 'call' | 'reference' = 'call', nth = 0): string {
  const p = at(root, path, line, needle, { nth });
  return `${p.path}:${p.line}:${p.column} ${kind}`;
}

interface CallTree {
  from?: string;
  to?: string;
  ranges: string[];
  calls?: CallTree[];
  cycle?: true;
}

/** A result's calls as a tree of labels; `calls` and `cycle` only where the result has them. */
function calls(list: any[]): CallTree[] {
  return list.map((c) => ({
    ...(c.from ? { from: label(c.from) } : { to: label(c.to) }),
    ranges: c.ranges.map((r: any) => `${r.path}:${r.line}:${r.column} ${r.kind}`),
    ...(c.calls ? { calls: calls(c.calls) } : {}),
    ...(c.cycle ? { cycle: true as const } : {}),
  }));
}

interface TypeTree {
  type: string;
  types?: TypeTree[];
}

function types(list: any[]): TypeTree[] {
  return list.map((t) => ({ type: label(t), ...(t.types ? { types: types(t.types) } : {}) }));
}

/** A repository of one strict TypeScript file, indexed into the suite's registry; its root. */
function indexedTsRepo(name: string, file: string, text: readonly string[]): string {
  const staging = join(scratch, name);
  mkdirSync(staging);
  writeFileSync(join(staging, file), text.join('\n'));
  writeFileSync(join(staging, 'tsconfig.json'), '{ "compilerOptions": { "strict": true, "target": "ES2022" } }\n');
  const root = gitRepoFrom(staging, name);
  indexOrThrow(root, env);
  return root;
}

const tsRepo = 'ts-shapes';
const pyRepo = 'py-shapes';

async function incoming(repo: string, root: string, path: string, line: number, needle: string, extra: Record<string, unknown> = {}) {
  return withoutMeta(await session.ok('callHierarchy', { repo, ...at(root, path, line, needle), direction: 'incoming', ...extra }));
}

async function outgoing(repo: string, root: string, path: string, line: number, needle: string, extra: Record<string, unknown> = {}) {
  return withoutMeta(await session.ok('callHierarchy', { repo, ...at(root, path, line, needle), direction: 'outgoing', ...extra }));
}

async function hierarchy(repo: string, root: string, path: string, line: number, needle: string, direction: string, depth?: number) {
  return withoutMeta(
    await session.ok('typeHierarchy', { repo, ...at(root, path, line, needle), direction, ...(depth === undefined ? {} : { depth }) }),
  );
}

describe('tools/list', () => {
  test('callHierarchy, typeHierarchy and workspaceSymbols take the parameters of DESIGN.md, and are read-only', async () => {
    const { tools } = await session.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const contract: Record<string, { params: string[]; required: string[]; results: string[] }> = {
      callHierarchy: {
        params: ['repo', 'path', 'line', 'column', 'direction', 'depth', 'include_references', 'limit'],
        required: ['repo', 'path', 'line', 'column', 'direction'],
        results: ['item', 'calls', 'repo', 'commit', 'source'],
      },
      typeHierarchy: {
        params: ['repo', 'path', 'line', 'column', 'direction', 'depth'],
        required: ['repo', 'path', 'line', 'column', 'direction'],
        results: ['item', 'types', 'repo', 'commit', 'source'],
      },
      workspaceSymbols: {
        params: ['repo', 'query', 'kind', 'limit'],
        required: ['repo', 'query'],
        results: ['symbols', 'total', 'truncated', 'repo', 'commit', 'source'],
      },
    };
    for (const [name, c] of Object.entries(contract)) {
      const tool = byName.get(name);
      assert.ok(tool, `${name} is listed`);
      assert.equal(tool.annotations?.readOnlyHint, true);
      // Every tool also takes max_bytes, its reply budget.
      assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}).sort(), [...c.params, 'max_bytes'].sort(), `${name} parameters`);
      assert.deepEqual([...(tool.inputSchema.required ?? [])].sort(), [...c.required].sort(), `${name} required parameters`);
      const results = Object.keys(tool.outputSchema?.properties ?? {});
      for (const field of c.results) assert.ok(results.includes(field), `${name} result declares ${field}`);
    }
  });
});

describe('callHierarchy: TypeScript', () => {
  const T = (kind: string, path: string, line: number, name: string, container?: string) => def(ts, kind, path, line, name, container);
  const R = (path: string, line: number, needle: string, kind: 'call' | 'reference' = 'call', nth = 0) =>
    range(ts, path, line, needle, kind, nth);
  const G = 'src/geometry.ts';
  const S = 'src/shapes.ts';
  const MAIN = 'src/main.ts';
  const MODULE_MAIN = 'module main.ts src/main.ts:1:1';

  test('incoming: callers grouped by the innermost enclosing function, each with its call ranges', async () => {
    // formatArea (util/format.ts:3) is called in describe's arrow function (geometry.ts:20) and in report (geometry.ts:24).
    const r = await incoming(tsRepo, ts, 'src/util/format.ts', 3, 'formatArea');
    assert.equal(r.repo, tsRepo);
    assert.equal(r.source, 'precise');
    assert.equal(r.direction, 'incoming');
    assert.equal(r.depth, 1);
    assert.equal(label(r.item), T('function', 'src/util/format.ts', 3, 'formatArea'));
    assert.deepEqual(calls(r.calls), [
      { from: T('variable', G, 20, 'describe'), ranges: [R(G, 20, 'formatArea')] },
      { from: T('function', G, 22, 'report'), ranges: [R(G, 24, 'formatArea')] },
    ]);
    assert.equal(r.total, 2);
    assert.equal(r.truncated, false);
    // A call range is a location: the callee's name, with the source line as preview.
    const call = r.calls[1].ranges[0];
    const text = linesOf(ts, G)[23]!;
    assert.deepEqual(
      { repo: call.repo, end_line: call.end_line, end_column: call.end_column, preview: call.preview },
      { repo: tsRepo, end_line: 24, end_column: call.column + 'formatArea'.length, preview: text },
    );
  });

  test('a top-level caller is its file, as a module item; asked at an overload signature, the item is the implementation', async () => {
    // make has two overload signatures (geometry.ts:31-32) and an implementation (33); main.ts:4 calls it twice at top level.
    const r = await incoming(tsRepo, ts, G, 31, 'make');
    assert.equal(label(r.item), T('function', G, 33, 'make'));
    assert.deepEqual(calls(r.calls), [{ from: MODULE_MAIN, ranges: [R(MAIN, 4, 'make('), R(MAIN, 4, 'make(', 'call', 1)] }]);
    const module = r.calls[0].from;
    assert.deepEqual(
      { name: module.name, kind: module.kind, repo: module.repo, range: module.range, range_source: module.range_source },
      { name: 'main.ts', kind: 'module', repo: tsRepo, range: null, range_source: null },
    );
    assert.equal(typeof module.symbol, 'string');
  });

  test('outgoing: what the function calls, in its own order of files and lines; library callees have no path', async () => {
    const r = await outgoing(tsRepo, ts, G, 22, 'report');
    assert.equal(r.direction, 'outgoing');
    assert.deepEqual(calls(r.calls), [
      { to: T('function', G, 4, 'totalArea'), ranges: [R(G, 24, 'totalArea')] },
      { to: T('function', G, 12, 'largest'), ranges: [R(G, 25, 'largest')] },
      // `shapes.map(describe)` (line 23) passes describe as a value: not a call.
      { to: T('variable', G, 20, 'describe'), ranges: [R(G, 26, 'describe')] },
      { to: T('function', 'src/util/format.ts', 3, 'formatArea'), ranges: [R(G, 24, 'formatArea')] },
      { to: 'external map', ranges: [R(G, 23, 'map')] },
      { to: 'external push', ranges: [R(G, 24, 'push'), R(G, 26, 'push')] },
    ]);
    const map = r.calls.find((c: any) => c.to.name === 'map').to;
    assert.deepEqual([map.repo, map.path, map.line, map.range, map.range_source], [null, null, null, null, null]);
  });

  test('depth 3 incoming: callers of callers, nested in `calls`; a module item is not followed further', async () => {
    const r = await incoming(tsRepo, ts, 'src/util/format.ts', 3, 'formatArea', { depth: 3 });
    assert.equal(r.depth, 3);
    assert.deepEqual(calls(r.calls), [
      {
        from: T('variable', G, 20, 'describe'),
        ranges: [R(G, 20, 'formatArea')],
        // report calls describe on line 26; line 23 only mentions it.
        calls: [
          {
            from: T('function', G, 22, 'report'),
            ranges: [R(G, 26, 'describe')],
            calls: [{ from: MODULE_MAIN, ranges: [R(MAIN, 5, 'report')] }],
          },
        ],
      },
      {
        from: T('function', G, 22, 'report'),
        ranges: [R(G, 24, 'formatArea')],
        calls: [{ from: MODULE_MAIN, ranges: [R(MAIN, 5, 'report')] }],
      },
    ]);
    // Calls listed at every level.
    assert.equal(r.total, 5);
  });

  test('depth 2 outgoing: the callees of each callee', async () => {
    const r = await outgoing(tsRepo, ts, G, 22, 'report', { depth: 2 });
    const area = T('method', S, 4, 'area', 'Shape');
    assert.deepEqual(calls(r.calls), [
      { to: T('function', G, 4, 'totalArea'), ranges: [R(G, 24, 'totalArea')], calls: [{ to: area, ranges: [R(G, 7, 'area()')] }] },
      {
        to: T('function', G, 12, 'largest'),
        ranges: [R(G, 25, 'largest')],
        calls: [{ to: area, ranges: [R(G, 15, 'area()'), R(G, 15, 'area()', 'call', 1)] }],
      },
      {
        to: T('variable', G, 20, 'describe'),
        ranges: [R(G, 26, 'describe')],
        calls: [
          { to: area, ranges: [R(G, 20, 'area()')] },
          { to: T('function', 'src/util/format.ts', 3, 'formatArea'), ranges: [R(G, 20, 'formatArea')] },
        ],
      },
      {
        to: T('function', 'src/util/format.ts', 3, 'formatArea'),
        ranges: [R(G, 24, 'formatArea')],
        calls: [{ to: 'external toFixed', ranges: [range(ts, 'src/util/format.ts', 4, 'toFixed')] }],
      },
      { to: 'external map', ranges: [R(G, 23, 'map')] },
      { to: 'external push', ranges: [R(G, 24, 'push'), R(G, 26, 'push')] },
    ]);
  });

  test('recursion: countDown calls itself; from depth 2 on the repeat is cut with cycle: true', async () => {
    const self = T('function', G, 37, 'countDown');
    const once = await incoming(tsRepo, ts, G, 37, 'countDown');
    assert.deepEqual(calls(once.calls), [{ from: self, ranges: [R(G, 38, 'countDown')] }]);
    const deep = await incoming(tsRepo, ts, G, 37, 'countDown', { depth: 3 });
    assert.deepEqual(calls(deep.calls), [{ from: self, ranges: [R(G, 38, 'countDown')], cycle: true }]);
    const down = await outgoing(tsRepo, ts, G, 37, 'countDown', { depth: 3 });
    assert.deepEqual(calls(down.calls), [{ to: self, ranges: [R(G, 38, 'countDown')], cycle: true }]);
  });

  test('constructors: `new Circle(...)` calls the constructor, and is a call of the class', async () => {
    const sites = [
      { from: T('function', G, 33, 'make'), ranges: [R(G, 34, 'Circle')] },
      { from: MODULE_MAIN, ranges: [R(MAIN, 4, 'Circle'), R(MAIN, 9, 'Circle'), R(MAIN, 9, 'Circle', 'call', 1)] },
      { from: T('method', S, 21, 'scale', 'Circle'), ranges: [R(S, 22, 'Circle')] },
    ];
    const ctor = await incoming(tsRepo, ts, S, 15, 'constructor');
    assert.equal(label(ctor.item), T('constructor', S, 15, 'constructor', 'Circle'));
    assert.deepEqual(calls(ctor.calls), sites);
    const cls = await incoming(tsRepo, ts, S, 12, 'Circle');
    assert.equal(label(cls.item), T('class', S, 12, 'Circle'));
    assert.deepEqual(calls(cls.calls), sites);
    // The class is also named as a type (`: Circle`) and imported: neither calls it nor hands it to a
    // caller, so neither is a mention.
    assert.equal(cls.references_omitted, 0);
    // Circle.scale's `new Circle(...)` is an outgoing call.
    const scale = await outgoing(tsRepo, ts, S, 21, 'scale');
    assert.deepEqual(
      calls(scale.calls).map((c) => c.ranges),
      [[R(S, 22, 'Circle')]],
    );
  });

  test('super(...) calls the base constructor, or the base class when it declares none: Square -> Rectangle -> Polygon', async () => {
    const rectangle = await incoming(tsRepo, ts, S, 35, 'Rectangle');
    assert.deepEqual(calls(rectangle.calls), [
      { from: T('function', G, 58, 'unitRectangle'), ranges: [R(G, 59, 'Rectangle')] },
      { from: T('constructor', S, 57, 'constructor', 'Square'), ranges: [R(S, 58, 'super')] },
    ]);
    const square = await outgoing(tsRepo, ts, S, 57, 'constructor');
    assert.deepEqual(calls(square.calls), [{ to: T('constructor', S, 38, 'constructor', 'Rectangle'), ranges: [R(S, 58, 'super')] }]);
    // ...and Rectangle's constructor counts Square's super() among its callers, beside `new Rectangle(1, 1)`.
    const rectangleConstructor = await incoming(tsRepo, ts, S, 38, 'constructor');
    assert.deepEqual(calls(rectangleConstructor.calls), [
      { from: T('function', G, 58, 'unitRectangle'), ranges: [R(G, 59, 'Rectangle')] },
      { from: T('constructor', S, 57, 'constructor', 'Square'), ranges: [R(S, 58, 'super')] },
    ]);
    // Polygon declares no constructor: Rectangle's super() calls the class.
    const polygon = await incoming(tsRepo, ts, S, 26, 'Polygon');
    assert.deepEqual(calls(polygon.calls), [{ from: T('constructor', S, 38, 'constructor', 'Rectangle'), ranges: [R(S, 42, 'super')] }]);
  });

  test('include_references adds mentions (shapes.map(describe)) as kind "reference"; otherwise they are counted', async () => {
    const calls1 = await incoming(tsRepo, ts, G, 20, 'describe');
    assert.deepEqual(calls(calls1.calls), [{ from: T('function', G, 22, 'report'), ranges: [R(G, 26, 'describe')] }]);
    assert.equal(calls1.references_omitted, 1);
    const all = await incoming(tsRepo, ts, G, 20, 'describe', { include_references: true });
    assert.deepEqual(calls(all.calls), [
      { from: T('function', G, 22, 'report'), ranges: [R(G, 23, 'describe', 'reference'), R(G, 26, 'describe')] },
    ]);
    assert.equal(all.references_omitted, 0);
    // Outgoing too: report mentions describe on line 23 and calls it on line 26.
    const out = await outgoing(tsRepo, ts, G, 22, 'report', { include_references: true });
    const toDescribe = calls(out.calls).find((c) => c.to === T('variable', G, 20, 'describe'));
    assert.deepEqual(toDescribe?.ranges, [R(G, 23, 'describe', 'reference'), R(G, 26, 'describe')]);
  });

  test('item.range: the definition extent, from the index or (where it gave none) from a parse', async () => {
    const lines = linesOf(ts, G);
    const r = await incoming(tsRepo, ts, G, 37, 'countDown');
    // countDown spans lines 37-39, `export` to the closing brace.
    assert.deepEqual(r.item.range, { line: 37, column: 1, end_line: 39, end_column: lines[38]!.indexOf('}') + 2 });
    assert.equal(r.item.range_source, 'index');
    // An object literal's method (Point.origin, geometry.ts:47-49): scip-typescript gives no extent, sextant parses one.
    const origin = await incoming(tsRepo, ts, G, 47, 'origin');
    assert.equal(origin.item.name, 'origin');
    assert.equal(origin.item.kind, 'method');
    assert.deepEqual(origin.item.range, {
      line: 47,
      column: at(ts, G, 47, 'origin').column,
      end_line: 49,
      end_column: lines[48]!.indexOf('}') + 2,
    });
    assert.equal(origin.item.range_source, 'syntax');
  });
});

describe('callHierarchy: a class implementing a type alias of an object type', () => {
  // scip-typescript relates a class's members to an interface's, but not to a type literal's
  // (`Output#typeLiteral1:subscribe.`): calls through the alias are calls of the class's members all the same.
  const text = [
    'export type Output = {',
    '  readonly state: number',
    '  subscribe: (onChange: () => void) => () => void',
    '}',
    '',
    'export class Owner implements Output {',
    '  get state(): number {',
    '    return 1',
    '  }',
    '  subscribe(onChange: () => void): () => void {',
    '    onChange()',
    '    return () => {}',
    '  }',
    '}',
    '',
    'export function listen(output: Output): number {',
    '  output.subscribe(() => {})',
    '  return output.state',
    '}',
    '',
    'export type Range = { focus: number | null; anchor: number; scale?: number }',
    '',
    'export class Stored implements Range {',
    '  constructor(readonly focus: number | null, readonly anchor: number, scale: number) {',
    '    void scale',
    '  }',
    '}',
    '',
    'export function width(r: Range): number {',
    '  return ((r.focus ?? 0) - r.anchor) * (r.scale ?? 1)',
    '}',
    '',
    'export const stored = new Stored(1, 2, 3).focus',
    '',
  ];
  const line = (needle: string) => text.findIndex((t) => t.includes(needle)) + 1;
  let root: string;
  before(() => {
    root = indexedTsRepo('ts-alias-members', 'output.ts', text);
  });
  after(() => removeDir(join(root, '..')));

  test("a method and a getter are called through the alias's members, as TypeScript's call hierarchy has it", async () => {
    const F = 'output.ts';
    const listen = def(root, 'function', F, line('export function listen'), 'listen');
    const method = await session.ok('callHierarchy', { repo: 'ts-alias-members', ...at(root, F, line('  subscribe(onChange'), 'subscribe'), direction: 'incoming' });
    assert.deepEqual(calls(method.calls), [{ from: listen, ranges: [range(root, F, line('output.subscribe('), 'subscribe')] }]);
    const getter = await session.ok('callHierarchy', { repo: 'ts-alias-members', ...at(root, F, line('get state()'), 'state'), direction: 'incoming' });
    assert.deepEqual(calls(getter.calls), [{ from: listen, ranges: [range(root, F, line('return output.state'), 'state')] }]);
    // findReferences at the method finds the call through the alias too.
    const refs = await session.ok('findReferences', { repo: 'ts-alias-members', ...at(root, F, line('  subscribe(onChange'), 'subscribe') });
    assert.ok(
      refs.references.some((r: any) => r.line === line('output.subscribe(')),
      JSON.stringify(refs.references.map((r: any) => r.line)),
    );
  });

  test("a constructor's parameter property and the alias's member of its name share their references; a plain parameter does not", async () => {
    const F = 'output.ts';
    const lines = async (needle: string, name: string) =>
      (await session.ok('findReferences', { repo: 'ts-alias-members', ...at(root, F, line(needle), name) })).references.map(
        (r: any) => r.line,
      );
    const declared = line('export type Range');
    const read = line('return ((r.focus');
    const constructor = line('  constructor(readonly focus');
    // From the parameter property, a use of it, the alias's member and a use of that: the same places, as TypeScript's.
    const focus = [declared, constructor, read, line('export const stored')];
    assert.deepEqual(await lines('  constructor(readonly focus', 'focus'), focus);
    assert.deepEqual(await lines('export const stored', 'focus'), focus);
    assert.deepEqual(await lines('export type Range', 'focus'), focus);
    assert.deepEqual(await lines('return ((r.focus', 'focus'), focus);
    // `scale` is a plain parameter: the alias's `scale` and `r.scale` are not its, nor it theirs.
    assert.deepEqual(await lines('  constructor(readonly focus', 'scale'), [constructor, line('    void scale')]);
    assert.deepEqual(await lines('export type Range', 'scale'), [declared, read]);
  });
});

describe('a class merged with a namespace: callHierarchy and goToDefinition at a construction', () => {
  // yaml's declaration files: `declare namespace Scalar {...}` beside `declare class Scalar`. The index names both at
  // `new Scalar(...)`; TypeScript's call hierarchy has one callee, the merged symbol's first declaration.
  const text = [
    'export namespace Scalar {',
    "  export type Kind = 'plain' | 'quoted';",
    '}',
    'export class Scalar {',
    '  constructor(public value: string) {}',
    '}',
    '',
    'export class Pair {',
    '  constructor(public key: string) {}',
    '}',
    'export namespace Pair {',
    '  export type Key = string;',
    '}',
    '',
    'export function make(): unknown[] {',
    "  return [new Scalar('a'), new Pair('k')];",
    '}',
    '',
  ];
  let root: string;
  before(() => {
    root = indexedTsRepo('ts-merged-namespace', 'nodes.ts', text);
  });
  after(() => removeDir(join(root, '..')));

  test('`new Scalar(...)` calls the namespace declared first, `new Pair(...)` the class declared first (its constructor): one callee each', async () => {
    const r = await outgoing('ts-merged-namespace', root, 'nodes.ts', 15, 'make');
    const place = (p: { line: number; column: number }) => `${p.line}:${p.column}`;
    assert.deepEqual(
      r.calls.map((c: any) => `${c.to.name} ${place(c.to)} ${c.ranges.map(place).join(',')}`),
      [
        `Scalar ${place(at(root, 'nodes.ts', 1, 'Scalar'))} ${place(at(root, 'nodes.ts', 16, 'Scalar'))}`,
        `constructor ${place(at(root, 'nodes.ts', 9, 'constructor'))} ${place(at(root, 'nodes.ts', 16, 'Pair'))}`,
      ],
    );
  });

  test('goToDefinition at `new Scalar(...)` and `new Pair(...)` answers the class and its constructor, never the namespace', async () => {
    // As typescript-language-server answers both, whichever of the two declarations comes first.
    for (const [name, classLine, constructorLine] of [
      ['Scalar', 4, 5],
      ['Pair', 8, 9],
    ] as const) {
      const r = withoutMeta(await session.ok('goToDefinition', { repo: 'ts-merged-namespace', ...at(root, 'nodes.ts', 16, name) }));
      assert.deepEqual(
        r.definitions.map((d: any) => `${d.line}:${d.column}`).sort(),
        [at(root, 'nodes.ts', classLine, name), at(root, 'nodes.ts', constructorLine, 'constructor')]
          .map((p) => `${p.line}:${p.column}`)
          .sort(),
        name,
      );
    }
  });
});

describe('callHierarchy: a static method beside an instance method of its name', () => {
  // scip-typescript gives both one symbol; to TypeScript they are two functions, and the item is the one asked at.
  const text = [
    'export class Parser {',
    '  static analyse(parser: Parser): void {',
    '    parser.analyse()',
    '  }',
    '',
    '  analyse(): void {',
    '    this.check()',
    '  }',
    '',
    '  check(): void {}',
    '}',
    '',
  ];
  let root: string;
  before(() => {
    root = indexedTsRepo('ts-static-twin', 'parser.ts', text);
  });
  after(() => removeDir(join(root, '..')));

  test('asked at either declaration, the item is that declaration', async () => {
    for (const line of [2, 6]) {
      const r = await outgoing('ts-static-twin', root, 'parser.ts', line, 'analyse');
      assert.equal(label(r.item), def(root, 'method', 'parser.ts', line, 'analyse', 'Parser'), `asked at line ${line}`);
    }
  });
});

describe("callHierarchy and findReferences: a method named as Object's", () => {
  // TypeScript looks a member up in each supertype a class names, and a lookup that finds nothing finds Object's
  // (every object type has its members): NotFound's and Timeout's toString, which no supertype declares, are
  // related to Object's, to each other and to a call through an `object`; Plain names no supertype, and its
  // toString is its own. scip-typescript relates none of them.
  const F = 'errors.ts';
  const text = [
    'export class Failure extends Error {}',
    '',
    'export class NotFound extends Failure {',
    '  toString(): string {',
    "    return 'not found'",
    '  }',
    '}',
    '',
    'export class Timeout extends Failure {',
    '  toString(): string {',
    "    return 'timeout'",
    '  }',
    '}',
    '',
    'export class Plain {',
    '  toString(): string {',
    "    return 'plain'",
    '  }',
    '}',
    '',
    'export function show(value: object): string {',
    '  return value.toString()',
    '}',
    '',
    'export function explain(plain: Plain): string {',
    '  return plain.toString()',
    '}',
    '',
  ];
  let root: string;
  before(() => {
    root = indexedTsRepo('ts-object-methods', F, text);
  });
  after(() => removeDir(join(root, '..')));
  const lines = async (line: number, needle: string) => {
    const r = await session.ok('findReferences', { repo: 'ts-object-methods', ...at(root, F, line, needle) });
    return r.references.map((x: any) => x.line);
  };

  test('findReferences at either override, or at the call through an object, lists both overrides and that call, as TypeScript does', async () => {
    assert.deepEqual(await lines(4, 'toString'), [4, 10, 22]);
    assert.deepEqual(await lines(10, 'toString'), [4, 10, 22]);
    assert.deepEqual(await lines(22, 'toString'), [4, 10, 22]);
    assert.deepEqual(await lines(16, 'toString'), [16, 26]);
  });

  test('the call through an object is a call of the override; a class that names no supertype keeps its own callers', async () => {
    const notFound = await incoming('ts-object-methods', root, F, 4, 'toString');
    assert.deepEqual(calls(notFound.calls), [{ from: def(root, 'function', F, 21, 'show'), ranges: [range(root, F, 22, 'toString')] }]);
    const plain = await incoming('ts-object-methods', root, F, 16, 'toString');
    assert.deepEqual(calls(plain.calls), [{ from: def(root, 'function', F, 25, 'explain'), ranges: [range(root, F, 26, 'toString')] }]);
  });
});

describe('callHierarchy: accessors and named function expressions', () => {
  const C = 'src/counter.ts';
  const T = (kind: string, line: number, name: string, container?: string) => def(members, kind, C, line, name, container);
  const R = (line: number, needle: string, nth = 0) => range(members, C, line, needle, 'call', nth);
  /** A place of ts-members (`src/PATH:line:column`), and findReferences' places at one, as such. */
  const where = (path: string, line: number, needle: string) => `src/${path}:${line}:${at(members, `src/${path}`, line, needle).column}`;
  const refs = async (path: string, line: number, needle: string) =>
    withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, `src/${path}`, line, needle) })).references.map(
      (x: any) => `${x.path}:${x.line}:${x.column}`,
    );
  /** Asked at each of `places`, findReferences lists exactly those places (returned). */
  const referencesFromEach = async (places: readonly (readonly [path: string, line: number, needle: string])[]) => {
    const expected = places.map(([path, line, needle]) => where(path, line, needle));
    for (const [path, line, needle] of places) assert.deepEqual(await refs(path, line, needle), expected, `${path}:${line}`);
    return expected;
  };

  test('an accessor is called wherever its property is read or assigned, as TypeScript counts it: the getter and the setter are one property', async () => {
    // Line 19 writes counter.value (the setter runs), then reads it (the getter runs); line 14 reads it; line 27 writes it.
    // TypeScript's call hierarchy counts every member access of the property as a call of either accessor.
    const callers = [
      { from: T('method', 13, 'doubled', 'Counter'), ranges: [R(14, 'value')] },
      { from: T('function', 18, 'bump'), ranges: [R(19, 'value'), R(19, 'value', 1)] },
      { from: T('function', 25, 'startAt'), ranges: [R(27, 'value')] },
    ];
    for (const line of [5, 9]) {
      const r = await incoming('ts-members', members, C, line, 'value');
      assert.equal(label(r.item), T('method', line, 'value', 'Counter'));
      assert.deepEqual(calls(r.calls), callers, `asked at line ${line}`);
      assert.equal(r.references_omitted, 0);
    }
  });

  test("accessors of one name in two classes implementing an interface that declares no such member stay apart", async () => {
    // TextPanel and ChartPanel both implement Panel, which has no `state`: TextPanel's getter is read on line 20's
    // `text.state` alone, not where ChartPanel's is.
    const P = 'src/panels.ts';
    const r = await incoming('ts-members', members, P, 7, 'state');
    assert.equal(label(r.item), def(members, 'method', P, 7, 'state', 'TextPanel'));
    assert.deepEqual(calls(r.calls), [
      { from: def(members, 'function', P, 19, 'describePanels'), ranges: [range(members, P, 20, 'state', 'call')] },
    ]);
    const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, P, 7, 'state') }));
    assert.deepEqual(
      refs.references.map((x: any) => `${x.line}:${x.column}`),
      [`7:${at(members, P, 7, 'state').column}`, `20:${at(members, P, 20, 'state').column}`],
    );
  });

  test('outgoing: the getters a function reads and the setter it assigns through are its callees', async () => {
    const r = await outgoing('ts-members', members, C, 18, 'bump');
    assert.deepEqual(calls(r.calls), [
      { to: T('method', 5, 'value', 'Counter'), ranges: [R(19, 'value', 1)] },
      { to: T('method', 9, 'value', 'Counter'), ranges: [R(19, 'value')] },
      { to: T('method', 13, 'doubled', 'Counter'), ranges: [R(20, 'doubled')] },
    ]);
  });

  test('overloads: the item is the implementation that follows the signatures, though a signature extends further', async () => {
    for (const line of [37, 40, 43]) {
      const r = await incoming('ts-members', members, C, line, 'concat');
      assert.equal(label(r.item), T('method', 43, 'concat', 'Tuple'), `asked at line ${line}`);
      assert.deepEqual(calls(r.calls), [{ from: T('function', 48, 'pair'), ranges: [R(49, 'concat')] }]);
    }
    const callees = calls((await outgoing('ts-members', members, C, 48, 'pair')).calls).map((c) => c.to);
    assert.ok(callees.includes(T('method', 43, 'concat', 'Tuple')), callees.join(', '));
  });

  test('an accessor implementing an interface property: reads through the interface call it, and are its references', async () => {
    const r = await incoming('ts-members', members, C, 60, 'size');
    assert.equal(label(r.item), T('method', 60, 'size', 'Bag'));
    assert.deepEqual(calls(r.calls), [{ from: T('function', 65, 'measure'), ranges: [R(66, 'size', 1)] }]);
    const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, C, 60, 'size') }));
    assert.deepEqual(
      refs.references.map((x: any) => `${x.line}:${x.column} ${x.kind}`),
      // `sized.size` on line 66: the second "size" of the line.
      [54, 60, 66].map((line) => `${line}:${at(members, C, line, 'size', { nth: line === 66 ? 1 : 0 }).column} ${line === 66 ? 'identifier' : 'definition'}`),
    );
  });

  test('a named function expression held by a property, an assignment or a `var` is the caller of the calls in it; one a const holds is named by the const', async () => {
    const J = 'src/runner.js';
    const D = (kind: string, line: number, name: string) => def(members, kind, J, line, name);
    const r = await incoming('ts-members', members, J, 3, 'done');
    assert.deepEqual(calls(r.calls), [
      { from: D('function', 8, 'asyncSkip'), ranges: [range(members, J, 9, 'done')] },
      // `create: function create(...)`: the function's name, the second on its line.
      { from: `function create ${J}:14:${at(members, J, 14, 'create', { nth: 1 }).column}`, ranges: [range(members, J, 15, 'done')] },
      { from: D('function', 19, 'latest'), ranges: [range(members, J, 20, 'done')] },
      { from: D('variable', 23, 'held'), ranges: [range(members, J, 24, 'done')] },
    ]);
    const callees = calls((await outgoing('ts-members', members, J, 8, 'asyncSkip')).calls);
    assert.deepEqual(callees, [{ to: D('function', 3, 'done'), ranges: [range(members, J, 9, 'done')] }]);
  });

  test("a literal's methods setting an options type's members written inside an intersection: called through the type from another file", async () => {
    // ThunkOptions<T> = { condition?(...) } & Labelled<T>, whose conditional branches each declare `label` (Redux
    // Toolkit's AsyncThunkOptions): thunkAction calls both through `options`, the literal in thunk-use.ts sets them.
    const O = 'src/thunk.ts';
    const U = 'src/thunk-use.ts';
    const thunkAction = def(members, 'function', O, 9, 'thunkAction');
    for (const [line, name, callLine] of [
      [5, 'condition', 10],
      [8, 'label', 11],
    ] as const) {
      const r = await incoming('ts-members', members, U, line, name);
      assert.equal(label(r.item), def(members, 'function', U, line, name));
      assert.deepEqual(calls(r.calls), [{ from: thunkAction, ranges: [range(members, O, callLine, name)] }], name);
    }
    // typescript-language-server's references at the literal's `condition`: the type's member, its call, the literal's.
    const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, U, 5, 'condition') }));
    // other/thunk-other.ts, of another project, sets it too: that project's run names the type as src's does.
    const place = (path: string, line: number) => `${path}:${line}:${at(members, path, line, 'condition').column}`;
    assert.deepEqual(
      refs.references.map((x: any) => `${x.path}:${x.line}:${x.column}`).sort(),
      [place(O, 5), place(O, 10), place(U, 5), place('other/thunk-other.ts', 5)].sort(),
    );
    const other = await incoming('ts-members', members, 'other/thunk-other.ts', 5, 'condition');
    assert.deepEqual(calls(other.calls), [{ from: thunkAction, ranges: [range(members, O, 10, 'condition')] }]);
  });

  test('two literals whose members the index names with one local: each member is its own item and caller', async () => {
    const W = 'src/watchers.js';
    const D = (line: number, name: string) => def(members, 'function', W, line, name);
    const r = await incoming('ts-members', members, W, 12, 'rerun');
    assert.deepEqual(calls(r.calls), [
      { from: D(18, 'beforeRun'), ranges: [range(members, W, 19, 'rerun')] },
      { from: D(26, 'beforeRun'), ranges: [range(members, W, 27, 'rerun'), range(members, W, 28, 'rerun')] },
    ]);
    for (const line of [18, 26]) {
      const item = await outgoing('ts-members', members, W, line, 'beforeRun');
      assert.equal(label(item.item), D(line, 'beforeRun'), `asked at line ${line}`);
      // Both implement the doc comment's one property: each one's references are the other's too, as TypeScript finds them.
      const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, W, line, 'beforeRun') }));
      assert.deepEqual(
        refs.references.filter((r: any) => r.kind === 'definition').map((r: any) => `${r.line}:${r.column}`),
        [18, 26].map((l) => `${l}:${at(members, W, l, 'beforeRun').column}`),
        `asked at line ${line}`,
      );
    }
  });

  test('`exports.name = name` in a CommonJS module declares an export: no call of the function, still a reference to it', async () => {
    const F = 'src/flags.cjs';
    const D = (line: number, name: string) => def(members, 'function', F, line, name);
    const implied = await incoming('ts-members', members, F, 2, 'impliesNoTimeouts');
    assert.deepEqual(calls(implied.calls), [{ from: D(6, 'isNodeFlag'), ranges: [range(members, F, 7, 'impliesNoTimeouts')] }]);
    const flag = await incoming('ts-members', members, F, 6, 'isNodeFlag');
    assert.deepEqual(calls(flag.calls), []);
    const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, F, 2, 'impliesNoTimeouts') }));
    const written = at(members, F, 11, 'impliesNoTimeouts');
    assert.ok(
      refs.references.some((r: any) => r.line === written.line && r.column === written.column && r.kind === 'write'),
      JSON.stringify(refs.references.map((r: any) => `${r.line}:${r.column} ${r.kind}`)),
    );
  });

  test('a class expression a const holds is called by `new` through the const, and calls what its fields call', async () => {
    const I = 'src/issues.ts';
    const D = (kind: string, line: number, name: string) => def(members, kind, I, line, name);
    const callees = await outgoing('ts-members', members, I, 14, 'fail');
    assert.deepEqual(calls(callees.calls), [{ to: D('variable', 10, 'Invalid'), ranges: [range(members, I, 15, 'Invalid')] }]);
    const callers = await incoming('ts-members', members, I, 10, 'Invalid');
    assert.equal(label(callers.item), D('variable', 10, 'Invalid'));
    assert.deepEqual(calls(callers.calls), [{ from: D('function', 14, 'fail'), ranges: [range(members, I, 15, 'Invalid')] }]);
    const described = await incoming('ts-members', members, I, 2, 'describe');
    assert.deepEqual(calls(described.calls), [{ from: D('variable', 10, 'Invalid'), ranges: [range(members, I, 11, 'describe')] }]);
  });

  test("a class's method with a computed name is the caller of the calls in it, named by its brackets, not its class", async () => {
    const F = 'src/frames.ts';
    const method = (line: number, name: string) => `method Frame.${name} ${F}:${line}:${at(members, F, line, name).column}`;
    const r = await incoming('ts-members', members, F, 4, 'step');
    assert.deepEqual(calls(r.calls), [
      { from: method(9, '[resume]'), ranges: [range(members, F, 10, 'step')] },
      { from: method(13, '[Symbol.iterator]'), ranges: [range(members, F, 14, 'step')] },
    ]);
    const callees = await outgoing('ts-members', members, F, 9, '[resume]');
    assert.equal(label(callees.item), method(9, '[resume]'));
    assert.deepEqual(calls(callees.calls), [{ to: def(members, 'function', F, 4, 'step'), ranges: [range(members, F, 10, 'step')] }]);
  });

  test('in a class a function declares (a local of the index), a computed-name method is the caller of the calls in it, and `new` of the class with a constructor of its own is a call of the class', async () => {
    const F = 'src/local-frames.ts';
    const iterator = def(members, 'method', F, 12, '[Symbol.iterator]');
    const r = await incoming('ts-members', members, F, 8, 'values2');
    assert.deepEqual(calls(r.calls), [{ from: iterator, ranges: [range(members, F, 13, 'values2')] }]);
    const klass = def(members, 'class', F, 3, 'LocalFrame');
    const frameOf = def(members, 'function', F, 18, 'frameOf');
    const construction = range(members, F, 19, 'LocalFrame');
    assert.deepEqual(calls((await incoming('ts-members', members, F, 3, 'LocalFrame')).calls), [{ from: frameOf, ranges: [construction] }]);
    assert.deepEqual(calls((await outgoing('ts-members', members, F, 18, 'frameOf')).calls), [{ to: klass, ranges: [construction] }]);
  });

  test("a module augmentation (`declare module './logger'`) is one of the definitions of what the module exports, as TypeScript lists it, declared as a module: no callee of a call of the function", async () => {
    const U = 'src/logger-use.ts';
    const where = (kind: string, path: string, line: number, needle: string) => {
      const p = at(members, path, line, needle);
      return `${kind} ${path}:${p.line}:${p.column}`;
    };
    const augmentation = where('module', 'src/logger-augment.ts', 2, "'./logger'");
    const found = withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...at(members, U, 4, 'logger') })).definitions;
    assert.ok(found.map((d: any) => `${d.kind} ${d.path}:${d.line}:${d.column}`).includes(augmentation), JSON.stringify(found));
    const callees = calls((await outgoing('ts-members', members, U, 3, 'boot')).calls).map((c) => c.to!);
    assert.ok(callees.includes(def(members, 'function', 'src/logger.d.ts', 7, 'logger')), callees.join(', '));
    assert.ok(!callees.some((c) => c.includes('logger-augment')), callees.join(', '));
  });

  test("an object literal's method with a computed name is the caller of the calls in it, named by its brackets, not the module", async () => {
    const F = 'src/table.ts';
    const method = (line: number, name: string) => def(members, 'method', F, line, name);
    const r = await incoming('ts-members', members, F, 4, 'lookup');
    assert.deepEqual(calls(r.calls), [
      { from: method(9, '[key]'), ranges: [range(members, F, 10, 'lookup')] },
      { from: method(12, '[Symbol.iterator]'), ranges: [range(members, F, 13, 'lookup')] },
    ]);
  });

  test('a class field holding an arrow function is the caller of the calls in it, not its class', async () => {
    const r = await incoming('ts-members', members, C, 65, 'measure');
    assert.deepEqual(calls(r.calls), [{ from: T('property', 73, 'record', 'Recorder'), ranges: [R(75, 'measure')] }]);
    const callees = calls((await outgoing('ts-members', members, C, 73, 'record')).calls).map((c) => c.to);
    assert.ok(callees.includes(T('function', 65, 'measure')), callees.join(', '));
  });

  test('naming a method without calling it is a call of it, as TypeScript counts it; reading a data property is not', async () => {
    // `greeter.greet.bind(greeter)` on line 90 hands greet on; `greeter.label` on line 89 reads a string.
    const greet = await incoming('ts-members', members, C, 83, 'greet');
    assert.deepEqual(calls(greet.calls), [{ from: T('function', 88, 'handlers'), ranges: [R(90, 'greet', 1)] }]);
    assert.equal(greet.references_omitted, 0);
    const callees = calls((await outgoing('ts-members', members, C, 88, 'handlers')).calls);
    const names = callees.map((c) => c.to!);
    assert.ok(names.includes(T('method', 83, 'greet', 'Greeter')), names.join(', '));
    // Function.prototype.bind, a method of the standard library, is named the same way.
    assert.ok(names.includes('external bind'), names.join(', '));
    assert.ok(!names.some((n) => / label /.test(n)), `a data property is not a callee: ${names.join(', ')}`);
  });

  test("a method of a class declared in a function overrides Map's: a Map's `set` in its project calls it, one in another project does not", async () => {
    const D = 'src/drafts.ts';
    const r = await incoming('ts-members', members, D, 4, 'set');
    assert.equal(r.item.symbol.startsWith('local '), true, r.item.symbol);
    assert.deepEqual(calls(r.calls), [
      // `super.set(...)` in the override itself, and `cache.set(...)` in remember.
      { from: def(members, 'method', D, 4, 'set'), ranges: [range(members, D, 5, 'set')] },
      { from: def(members, 'function', D, 11, 'remember'), ranges: [range(members, D, 12, 'set')] },
    ]);
    // other/ is a project of its own (other/tsconfig.json): its `new Map().set(...)` is not listed.
    const status = withoutMeta(await session.ok('getIndexStatus', { repo: 'ts-members' }));
    assert.deepEqual(
      status.projects.map((p: any) => p.config),
      ['other/tsconfig.json', 'tsconfig.json'],
    );
  });

  test("a member of an object type in an intersection, used from another file: the definition and callee TypeScript gives, each type's own", async () => {
    // sextant's indexer names `settle` and each `cancel` under their aliases (orchestrator/composed-types-patch.ts):
    // consume.ts's `timed(0).cancel()` is Timed's, not Queued's, as the checker resolves it.
    const R2 = 'src/results.ts';
    const out = await outgoing('ts-members', members, 'src/consume.ts', 3, 'consume');
    const names = calls(out.calls).map((c) => c.to!);
    assert.ok(names.includes(def(members, 'method', R2, 6, 'settle', 'Settled')), names.join(', '));
    assert.ok(names.includes(def(members, 'method', R2, 10, 'cancel', 'Timed')), names.join(', '));
    assert.ok(!names.includes(def(members, 'method', R2, 14, 'cancel', 'Queued')), names.join(', '));
    for (const [line, name, declared] of [
      [5, 'settle', 6],
      [4, 'cancel', 10],
    ] as const) {
      const d = withoutMeta(
        await session.ok('goToDefinition', {
          repo: 'ts-members',
          ...at(members, 'src/consume.ts', line, name, { nth: line === 5 ? 1 : 0 }),
        }),
      );
      assert.deepEqual(
        d.definitions.map((x: any) => `${x.path}:${x.line}:${x.column} ${x.kind} ${x.name}`),
        [`${R2}:${declared}:3 method ${name}`],
      );
      assert.equal(d.message, undefined, `${name} is the index's, not found by its name`);
    }
  });

  test("an object-literal method a factory returns has its uses in the files that import the factory as references and callers, from either end", async () => {
    const S = 'src/store.ts';
    const P = 'src/shop.ts';
    const getState = def(members, 'method', S, 8, 'getState');
    const refs = (r: any) => r.references.map((x: any) => `${x.path}:${x.line}:${x.column} ${x.kind}`);
    // Files in path order, as every answer lists them.
    const expected = [
      range(members, P, 7, 'getState'),
      `${S}:${at(members, S, 8, 'getState').line}:${at(members, S, 8, 'getState').column} definition`,
    ];
    // From the declaration: the use in shop.ts, which has a local symbol of its own for it.
    const fromDeclaration = withoutMeta(
      await session.ok('findReferences', { repo: 'ts-members', ...at(members, S, 8, 'getState'), include_declaration: true }),
    );
    assert.deepEqual(refs(fromDeclaration), expected);
    // till.ts gets the store through shop.ts: the files searched are those that refer to store.ts.
    assert.match(fromDeclaration.message, /^getState's uses in 1 other file were found by its name, in the files that refer to src\/store\.ts: /);
    // From a use: the same references, and the file asked about.
    const fromUse = withoutMeta(
      await session.ok('findReferences', { repo: 'ts-members', ...at(members, P, 7, 'getState'), include_declaration: true }),
    );
    assert.deepEqual(refs(fromUse), expected);
    assert.match(fromUse.message, /^getState was found by its name: /);
    const fromTill = withoutMeta(
      await session.ok('findReferences', { repo: 'ts-members', ...at(members, 'src/till.ts', 4, 'getState'), include_declaration: true }),
    );
    assert.deepEqual(refs(fromTill), [expected[0], expected[1], range(members, 'src/till.ts', 4, 'getState')].sort());
    // Its caller, asked at the declaration or at the call.
    const callers = [{ from: def(members, 'function', P, 5, 'checkout'), ranges: [range(members, P, 7, 'getState')] }];
    const atDeclaration = await incoming('ts-members', members, S, 8, 'getState');
    assert.deepEqual(calls(atDeclaration.calls), callers);
    const atCall = await incoming('ts-members', members, P, 7, 'getState');
    assert.equal(label(atCall.item), getState);
    assert.deepEqual(calls(atCall.calls), callers);
    assert.ok(atCall.notes.some((n: string) => /^getState was found by its name/.test(n)), atCall.notes.join('; '));
    // Two object types in intersections declare `cancel` (results.ts): consume.ts's `timed(0).cancel()` is Timed's alone.
    for (const [line, expected] of [
      [10, ['src/consume.ts', 'src/results.ts']],
      [14, ['src/results.ts']],
    ] as const) {
      const cancel = withoutMeta(
        await session.ok('findReferences', {
          repo: 'ts-members',
          ...at(members, 'src/results.ts', line, 'cancel'),
          include_declaration: true,
        }),
      );
      assert.deepEqual(
        cancel.references.map((x: any) => x.path),
        expected,
        `cancel at results.ts:${line}`,
      );
      assert.equal(cancel.message, undefined);
    }
  });

  test('a getter of the object literal a factory returns is a property, whose uses in the files that import the factory are its references', async () => {
    // scip-typescript says only `get onHand: number` of it: no kind, and a local symbol per file, as for the methods.
    const S = 'src/store.ts';
    const P = 'src/shop.ts';
    const declared = `${S}:${at(members, S, 14, 'onHand').line}:${at(members, S, 14, 'onHand').column}`;
    const use = at(members, P, 11, 'onHand');
    const d = withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...use }));
    assert.deepEqual(
      d.definitions.map((x: any) => `${x.path}:${x.line}:${x.column} ${x.kind} ${x.name}`),
      [`${declared} property onHand`],
    );
    const expected = [`${P}:${use.line}:${use.column} identifier`, `${declared} definition`];
    for (const from of [at(members, S, 14, 'onHand'), use]) {
      const r = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...from, include_declaration: true }));
      assert.deepEqual(
        r.references.map((x: any) => `${x.path}:${x.line}:${x.column} ${x.kind}`),
        expected,
        `from ${from.path}`,
      );
    }
  });

  test('the outline of a factory lists the methods and accessors of the object literal it returns, under the factory', async () => {
    // Their symbols are local (per file), as a function's own locals are; a language server outlines them.
    const S = 'src/store.ts';
    const outline = withoutMeta(await session.ok('documentSymbols', { repo: 'ts-members', path: S }));
    const entry = (s: any): any => ({ name: s.name, kind: s.kind, line: s.selection_range.line, children: s.children.map(entry) });
    assert.deepEqual(outline.symbols.map(entry), [
      {
        name: 'createStore',
        kind: 'function',
        line: at(members, S, 5, 'createStore').line,
        children: [
          { name: 'getState', kind: 'method', line: at(members, S, 8, 'getState').line, children: [] },
          { name: 'dispatch', kind: 'method', line: at(members, S, 11, 'dispatch').line, children: [] },
          { name: 'onHand', kind: 'property', line: at(members, S, 14, 'onHand').line, children: [] },
        ],
      },
    ]);
  });

  test('workspaceSymbols finds the methods and accessors of the object literal a factory returns by their names, where they are defined', async () => {
    const S = 'src/store.ts';
    for (const [name, line, kind] of [
      ['getState', 8, 'method'],
      ['dispatch', 11, 'method'],
      ['onHand', 14, 'property'],
    ] as const) {
      const found = withoutMeta(await session.ok('workspaceSymbols', { repo: 'ts-members', query: name }));
      const { line: l, column } = at(members, S, line, name);
      // Not the uses in shop.ts and till.ts: the index gives them symbols of their own, which nothing defines.
      assert.deepEqual(
        found.symbols.map((s: any) => `${s.path}:${s.line}:${s.column} ${s.kind} ${s.name} ${s.match}`),
        [`${S}:${l}:${column} ${kind} ${name} exact`],
      );
    }
  });

  test('a name reached through `import * as` that its module exports by an export list is that declaration, a callee, and its reference', async () => {
    // scip-typescript records `Utils` as the module and gives `flatten` in `Utils.flatten(xs)` a local symbol of ns-use.ts.
    const U = 'src/ns-use.ts';
    const N = 'src/ns-utils.ts';
    const flatten = def(members, 'function', N, 2, 'flatten');
    const d = withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...at(members, U, 4, 'flatten') }));
    assert.deepEqual(
      d.definitions.map((x: any) => `${x.kind} ${x.name} ${x.path}:${x.line}:${x.column}`),
      [flatten],
    );
    const out = await outgoing('ts-members', members, U, 3, 'total');
    assert.deepEqual(calls(out.calls), [{ to: flatten, ranges: [range(members, U, 4, 'flatten')] }]);
    // From the declaration: the use through the namespace is its reference and its call.
    const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, N, 2, 'flatten') }));
    assert.deepEqual(
      refs.references.map((r: any) => `${r.path}:${r.line}:${r.column}`),
      [
        `${U}:4:${at(members, U, 4, 'flatten').column}`,
        `${N}:2:${at(members, N, 2, 'flatten').column}`,
        `${N}:6:${at(members, N, 6, 'flatten').column}`,
      ],
    );
    const callers = await incoming('ts-members', members, N, 2, 'flatten');
    assert.deepEqual(calls(callers.calls), [{ from: def(members, 'function', U, 3, 'total'), ranges: [range(members, U, 4, 'flatten')] }]);
  });

  test('a name an import type reaches (`import(\'./ns-utils.js\').Pair`) that its module exports by an export list is that declaration, and its reference', async () => {
    const T = 'src/ns-types.ts';
    const N = 'src/ns-utils.ts';
    const use = at(members, T, 2, 'Pair');
    const d = withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...use }));
    assert.deepEqual(
      d.definitions.map((x: any) => `${x.kind} ${x.name} ${x.path}:${x.line}:${x.column}`),
      [def(members, 'interface', N, 9, 'Pair')],
    );
    const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, N, 9, 'Pair') }));
    assert.ok(
      refs.references.some((r: any) => `${r.path}:${r.line}:${r.column}` === `${T}:2:${use.column}`),
      JSON.stringify(refs.references),
    );
  });

  test('a function held through a cast calls on behalf of the function around it, as in TypeScript; a global the lib declares in several files is one callee', async () => {
    const L = 'src/listeners.ts';
    // `const listen = ((name) => {... remove(name) ...}) as Listen` on lines 7-10.
    const callers = await incoming('ts-members', members, L, 6, 'remove');
    assert.deepEqual(calls(callers.calls), [{ from: def(members, 'function', L, 4, 'createListeners'), ranges: [range(members, L, 9, 'remove')] }]);
    // `new Set<string>()` on line 5: TypeScript declares Set in several lib files, one callee all the same.
    const callees = calls((await outgoing('ts-members', members, L, 4, 'createListeners')).calls).map((c) => c.to);
    assert.deepEqual(
      callees.filter((n) => n === 'external Set' || / remove /.test(n!)),
      [def(members, 'variable', L, 6, 'remove'), 'external Set'],
    );
    const err = await toolError(session, 'callHierarchy', { repo: 'ts-members', ...at(members, L, 7, 'listen'), direction: 'outgoing' });
    assert.match(err, /listen is a variable, not a function, method or constructor/);
  });

  test('`export default function () {...}` is the caller of the calls in it, named default, not its file', async () => {
    const L = 'src/locale.ts';
    const callers = await incoming('ts-members', members, L, 1, 'message');
    assert.deepEqual(calls(callers.calls), [{ from: def(members, 'function', L, 4, 'default'), ranges: [range(members, L, 5, 'message')] }]);
    const out = await outgoing('ts-members', members, L, 4, 'default');
    assert.equal(label(out.item), def(members, 'function', L, 4, 'default'));
    assert.equal(out.item.range_source, 'syntax');
    assert.deepEqual(out.item.range, { line: 4, column: 1, end_line: 6, end_column: 2 });
    assert.deepEqual(calls(out.calls), [{ to: def(members, 'variable', L, 1, 'message'), ranges: [range(members, L, 5, 'message')] }]);
  });

  test("an anonymous default export is what its importers' names stand for: defined at `default` (or `module.exports`), referenced and called through them", async () => {
    const L = 'src/locale.ts';
    const U = 'src/locale-use.ts';
    const defined = async (line: number, needle: string) =>
      withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...at(members, U, line, needle) })).definitions.map(
        (d: any) => `${d.kind} ${d.path}:${d.line}:${d.column}`,
      );
    /** "kind path:line:column" of `needle` on `line`, what `defined` and the references below list. */
    const where = (kind: string, path: string, line: number, needle: string) => {
      const p = at(members, path, line, needle);
      return `${kind} ${path}:${p.line}:${p.column}`;
    };
    // Through a default import, through `ns.default`, and for each kind of value exported.
    assert.deepEqual(await defined(9, 'greet'), [where('function', L, 4, 'default')]);
    assert.deepEqual(await defined(9, 'default'), [where('function', L, 4, 'default')]);
    assert.deepEqual(await defined(12, 'bump('), [where('function', 'src/bump.ts', 2, 'default')]);
    assert.deepEqual(await defined(12, 'Shape'), [where('class', 'src/shape.ts', 1, 'default')]);
    // A call of a function a CommonJS module assigns whole: the function, which TypeScript names by `exports`.
    assert.deepEqual(await defined(12, 'legacy('), [where('function', 'src/legacy.js', 2, 'exports')]);
    // Through a module that re-exports it under a name (`export { default as hello } from './locale'`).
    const R = 'src/locale-reexported.ts';
    const throughReexport = withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...at(members, R, 4, 'hello') }));
    assert.deepEqual(
      throughReexport.definitions.map((d: any) => `${d.kind} ${d.path}:${d.line}:${d.column}`),
      [where('function', L, 4, 'default')],
    );

    const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, L, 4, 'default') }));
    assert.deepEqual(
      refs.references.map((r: any) => `${r.kind} ${r.path}:${r.line}:${r.column}`),
      [
        where('import', R, 1, 'hello'),
        where('call', R, 4, 'hello'),
        where('import', U, 1, 'greet'),
        where('import', U, 6, 'default'),
        where('import', U, 6, 'hello'),
        where('call', U, 9, 'greet'),
        where('call', U, 9, 'default'),
        where('definition', L, 4, 'default'),
      ],
    );
    const callers = await incoming('ts-members', members, L, 4, 'default');
    assert.deepEqual(calls(callers.calls), [
      { from: `module locale-reexported.ts ${R}:1:1`, ranges: [range(members, R, 4, 'hello')] },
      { from: def(members, 'function', U, 8, 'greetTwice'), ranges: [range(members, U, 9, 'greet'), range(members, U, 9, 'default')] },
    ]);
  });

  test('`default` in `export { default as x } from` a module whose default export is named is a reference of that name', async () => {
    // settings.ts declares `const settings` and exports it as its default; settings-use.ts names that default twice.
    const S = 'src/settings.ts';
    const U = 'src/settings-use.ts';
    const where = (path: string, line: number, needle: string) => {
      const p = at(members, path, line, needle);
      return `${path}:${p.line}:${p.column}`;
    };
    const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, S, 2, 'settings') }));
    assert.deepEqual(refs.references.map((r: any) => `${r.path}:${r.line}:${r.column}`).sort(), [
      where(S, 2, 'settings'),
      where(S, 4, 'settings'),
      where(U, 1, 'default'),
      where(U, 1, 'theSettings'),
      where(U, 2, 'default'),
      where(U, 2, 'named'),
      where(U, 4, 'named'),
    ].sort());
    const defs = withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...at(members, U, 1, 'default') }));
    assert.deepEqual(defs.definitions.map((d: any) => `${d.path}:${d.line}:${d.column}`), [where(S, 2, 'settings')]);
  });

  test("a getter named in a type (`R['path']`) is a type reference there, not a call by the file", async () => {
    const P = 'src/routes.ts';
    const r = await incoming('ts-members', members, P, 5, 'path');
    assert.deepEqual(calls(r.calls), [{ from: def(members, 'function', P, 12, 'pathOf'), ranges: [range(members, P, 13, 'path', 'call')] }]);
    const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, P, 5, 'path') }));
    assert.deepEqual(
      refs.references.map((x: any) => `${x.line} ${x.kind}`),
      ['5 definition', '10 type', '13 identifier'],
    );
  });

  test('a getter a doc comment links to (`{@link Temperature#fahrenheit}`, `@see`) is not called there, as TypeScript counts it; the links are references', async () => {
    const P = 'src/temperature.ts';
    const celsius = await incoming('ts-members', members, P, 5, 'celsius');
    assert.deepEqual(
      calls(celsius.calls).map((c: any) => c.from),
      [def(members, 'method', P, 9, 'fahrenheit', 'Temperature'), def(members, 'function', P, 18, 'report')],
    );
    const fahrenheit = await incoming('ts-members', members, P, 9, 'fahrenheit');
    assert.deepEqual(calls(fahrenheit.calls), []);
    const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, P, 9, 'fahrenheit') }));
    const where = (line: number, kind: string) => `${line}:${at(members, P, line, 'fahrenheit').column} ${kind}`;
    assert.deepEqual(
      refs.references.map((x: any) => `${x.line}:${x.column} ${x.kind}`),
      [where(4, 'identifier'), where(9, 'definition'), where(16, 'identifier')],
    );
  });

  test('a getter a binding pattern reads (`const { ORIGIN } = Scale`) is mentioned there, not called, as TypeScript counts it', async () => {
    const P = 'src/temperature.ts';
    const r = await session.ok('callHierarchy', {
      repo: 'ts-members',
      ...at(members, P, 23, 'ORIGIN'),
      direction: 'incoming',
      include_references: true,
    });
    assert.deepEqual(calls(r.calls), [
      {
        from: def(members, 'function', P, 28, 'origin'),
        ranges: [range(members, P, 29, 'ORIGIN', 'reference'), range(members, P, 30, 'ORIGIN', 'call', 1)],
      },
    ]);
    const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, P, 23, 'ORIGIN') }));
    assert.deepEqual(
      refs.references.map((x: any) => `${x.line} ${x.kind}`),
      ['23 definition', '29 identifier', '30 identifier'],
    );
  });

  test("a default export written as a call (`export default property('length')`) is an export of the names directly in it: their references and callers take its importers' uses, one way, as TypeScript's do", async () => {
    // As typescript-language-server lists them: through `sizeCheck(lengthOf)` too, not through `(property('name'))`.
    assert.deepEqual(await refs('make-getter.ts', 1, 'property'), [
      where('length-of.ts', 1, 'property'),
      where('length-of.ts', 3, 'property'),
      where('make-getter.ts', 1, 'property'),
      where('measure.ts', 1, 'isSized'),
      where('measure.ts', 2, 'lengthOf'),
      where('measure.ts', 6, 'isSized'),
      where('measure.ts', 6, 'lengthOf'),
      where('name-of.ts', 1, 'property'),
      where('name-of.ts', 3, 'property'),
      where('size-check.ts', 1, 'lengthOf'),
      where('size-check.ts', 7, 'lengthOf'),
    ]);
    const callers = await incoming('ts-members', members, 'src/make-getter.ts', 1, 'property');
    assert.deepEqual(
      calls(callers.calls).map((c: any) => `${c.from} ${c.ranges.length}`),
      [
        'module length-of.ts src/length-of.ts:1:1 1',
        `${def(members, 'function', 'src/measure.ts', 5, 'measure')} 2`,
        'module name-of.ts src/name-of.ts:1:1 1',
      ],
    );
    // The export's own references do not take the function's.
    assert.deepEqual(await refs('measure.ts', 6, 'isSized'), [
      where('measure.ts', 1, 'isSized'),
      where('measure.ts', 6, 'isSized'),
      where('size-check.ts', 7, 'default'),
    ]);
  });

  test('a name an importer binds of its own (`greet as hello`, a default import renamed `loud`) has the references TypeScript lists: from it or a use, that file\'s; from what it imports, those too, one way', async () => {
    const hello = [where('greet-renamed.ts', 1, 'hello'), where('greet-renamed.ts', 4, 'hello('), where('greet-renamed.ts', 4, "hello('")];
    const loud = [where('greet-renamed.ts', 1, 'loud'), where('greet-renamed.ts', 4, 'loud(')];
    // As typescript-language-server lists them, with every file of the project open.
    assert.deepEqual(await refs('greet-renamed.ts', 4, 'hello('), hello);
    assert.deepEqual(await refs('greet-renamed.ts', 1, 'hello'), hello);
    assert.deepEqual(await refs('greet-renamed.ts', 4, 'loud('), loud);
    assert.deepEqual(await refs('greet-renamed.ts', 1, 'loud'), loud);
    // From the declaration, or from a name imported as it is called, the renamed ones are among them.
    for (const [path, line, needle, expected] of [
      ['greeting.ts', 2, 'greet', hello],
      ['greet-plain.ts', 4, 'greet(', hello],
      ['greet-plain.ts', 4, 'shout(', loud],
    ] as const) {
      const listed = await refs(path, line, needle);
      for (const e of [...expected, where('greeting.ts', expected === hello ? 2 : 6, expected === hello ? 'greet' : 'shout')]) {
        assert.ok(listed.includes(e), `${path}:${line} ${needle}: ${e} not in ${listed.join(', ')}`);
      }
    }
  });

  test("an export list's `as` (`export { greet as salute }`) names an export of its own: its references are the alias and its importers' places, from any of them, as TypeScript lists them", async () => {
    // As typescript-language-server lists them, with every file of the project open; not greet's other places.
    const salute = await referencesFromEach([
      ['greet-export.ts', 2, 'salute'],
      ['greet-salute.ts', 1, 'salute'],
      ['greet-salute.ts', 3, 'salute('],
    ]);
    // From the function, they are among its references.
    const listed = await refs('greeting.ts', 2, 'greet');
    for (const e of salute) assert.ok(listed.includes(e), `${e} not in ${listed.join(', ')}`);
  });

  test("an export list naming a default export without `as` (`export { default } from './default-source'`) is no name of its own: its references are those of what the default export is, as TypeScript lists them", async () => {
    await referencesFromEach([
      ['default-reexport.ts', 2, 'default'],
      ['default-source.ts', 2, 'preferences'],
      ['default-source.ts', 3, 'preferences'],
      ['default-use.ts', 1, 'preferences'],
      ['default-use.ts', 3, 'preferences'],
    ]);
  });

  test("a static getter overrides no instance member: reading an instance's property of its name does not call it", async () => {
    // scip-typescript names Shape's static and instance `kind` with one symbol; Circle's static `kind` is Circle's alone.
    const K = 'src/kinds.ts';
    const r = await incoming('ts-members', members, K, 17, 'kind');
    assert.equal(label(r.item), def(members, 'method', K, 17, 'kind', 'Circle'));
    assert.deepEqual(calls(r.calls), [{ from: def(members, 'function', K, 22, 'circleKind'), ranges: [range(members, K, 23, 'kind')] }]);
    const d = withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...at(members, K, 23, 'kind') }));
    assert.deepEqual(
      d.definitions.map((x: any) => `${x.line} ${x.signature}`),
      ['17 static get kind: string'],
    );
  });

  test('a named function expression no variable holds is the caller of the calls in it, not its file', async () => {
    // `Object.assign(function startAt(...) {...}, ...)`: the indexer records startAt only as a use.
    const r = await outgoing('ts-members', members, C, 25, 'startAt');
    assert.equal(label(r.item), T('function', 25, 'startAt'));
    assert.deepEqual(calls(r.calls), [
      { to: T('class', 2, 'Counter'), ranges: [R(26, 'Counter')] },
      { to: T('method', 9, 'value', 'Counter'), ranges: [R(27, 'value')] },
    ]);
    const counter = await incoming('ts-members', members, C, 2, 'Counter');
    assert.deepEqual(calls(counter.calls), [{ from: T('function', 25, 'startAt'), ranges: [R(26, 'Counter')] }]);
  });
});

describe("overloads in a declaration file", () => {
  test('are all signatures: at one, the last, as TypeScript answers; at a call, those its argument count fits, the last included', async () => {
    // pick.d.ts declares two signatures and, being a declaration file, no implementation: at a signature's name,
    // TypeScript goes to the implementation, and where none has a body to the last signature.
    const D = 'src/pick.d.ts';
    const defined = async (path: string, line: number, needle: string) =>
      withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...at(members, path, line, needle) })).definitions.map(
        (d: any) => `${d.path}:${d.line}`,
      );
    assert.deepEqual(await defined(D, 1, 'pick'), [`${D}:2`]);
    assert.deepEqual(await defined(D, 2, 'pick'), [`${D}:2`]);
    assert.deepEqual(await defined('src/pick-use.ts', 3, 'pick('), [`${D}:2`]);
  });
});

describe('overloads: a parameter and a type parameter of one name', () => {
  test("a use in a signature's types goes to that signature's own, a use in the body to the implementation's", async () => {
    // chainOf's three declarations (lines 6-8) each declare a type parameter M and a parameter M; scip-typescript gives
    // each `M` in their types both symbols, and each symbol one definition per declaration.
    const H = 'src/chain.ts';
    const defined = async (line: number, needle: string, offset = 0) =>
      withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...at(members, H, line, needle, { offset }) }))
        .definitions.map((d: any) => `${d.line}:${d.column} ${d.kind}`)
        .sort();
    const m = (line: number, needle: string) => at(members, H, line, needle).column;
    assert.deepEqual(await defined(7, '=> M', 3), [`7:${m(7, '<M>') + 1} type_parameter`, `7:${m(7, 'M:')} parameter`].sort());
    assert.deepEqual(await defined(6, 'Chain<M>)', 6), [`6:${m(6, '<M ') + 1} type_parameter`, `6:${m(6, 'M:')} parameter`].sort());
    // In the body, the implementation's (scip-typescript gives this value use the type parameter's symbol too).
    const body = await defined(9, 'M.value');
    assert.ok(body.includes(`8:${m(8, 'M:')} parameter`), body.join(', '));
    assert.deepEqual(body.filter((d: string) => !d.startsWith('8:')), []);
  });

  test("at a signature's own parameter or type parameter, that declaration alone, as TypeScript answers", async () => {
    // scip-typescript gives the three `first` parameters one symbol; each signature's is its own declaration.
    const H = 'src/chain.ts';
    const defined = async (line: number, needle: string, offset = 0) =>
      withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...at(members, H, line, needle, { offset }) })).definitions.map(
        (d: any) => `${d.line}:${d.column} ${d.kind}`,
      );
    const first = (line: number) => `${line}:${at(members, H, line, 'first').column} parameter`;
    assert.deepEqual(await defined(6, 'first'), [first(6)]);
    assert.deepEqual(await defined(7, 'first'), [first(7)]);
    assert.deepEqual(await defined(8, 'first'), [first(8)]);
    // The type parameter declared in the first signature, not the later signatures' nor the implementation's.
    assert.deepEqual(await defined(6, '<M ', 1), [`6:${at(members, H, 6, '<M ').column + 1} type_parameter`]);
  });
});

describe('a type parameter of a class merged with an interface', () => {
  test('is one: from either declaration or a use in either body, both declarations, as TypeScript answers', async () => {
    // merged-schema.d.ts declares TupleSchema as an interface and as a class, each with its own `<TContext = object>`.
    const M = 'src/merged-schema.d.ts';
    const declarations = [2, 5].map((line) => `${line}:${at(members, M, line, 'TContext').column} type_parameter`);
    for (const line of [2, 3, 5, 6]) {
      const d = withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...at(members, M, line, 'TContext') }));
      assert.deepEqual(
        d.definitions.map((x: any) => `${x.line}:${x.column} ${x.kind}`),
        declarations,
        `from line ${line}`,
      );
    }
  });
});

describe('a shorthand property of a destructured variable', () => {
  test('goes to the variable and the property it fills, not the property the variable was read from', async () => {
    // `const { precision = 0.01 } = opts;` on line 11 defines a variable and reads SpringOptions.precision at one
    // place; `return { precision };` on line 12 means the variable (and fills Spring.precision), never the option.
    const S = 'src/spring.ts';
    const defs = withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...at(members, S, 12, 'precision') }));
    assert.deepEqual(defs.definitions.map((d: any) => `${d.line}:${d.column} ${d.kind} ${d.name}`).sort(), [
      `11:${at(members, S, 11, 'precision').column} variable precision`,
      `6:3 property precision`,
    ]);
    const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, S, 2, 'precision') }));
    assert.deepEqual(
      refs.references.map((x: any) => x.line),
      [2, 11],
    );
  });
});

describe("a JavaScript property assigned on `this`", () => {
  test('is defined where `this.name = ...` assigns it, in a constructor function, its prototype methods and a class', async () => {
    // scip-typescript gives `this.items` and `this.reading` a local of the file that nothing defines.
    const J = 'src/meter.js';
    const defined = async (line: number, needle: string, nth = 0) =>
      withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...at(members, J, line, needle, { nth, offset: 5 }) })).definitions.map(
        (d: any) => `${d.line}:${d.column} ${d.kind} ${d.name}`,
      );
    const items = [`3:${at(members, J, 3, 'items').column} property items`, `7:${at(members, J, 7, 'items').column} property items`];
    assert.deepEqual(await defined(8, 'this.items'), items);
    assert.deepEqual(await defined(7, 'this.items', 1), items);
    // `+=` reads it first: only `=` declares.
    assert.deepEqual(await defined(18, 'this.reading'), [`13:${at(members, J, 13, 'reading').column} property reading`]);
    const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, J, 13, 'reading') }));
    assert.deepEqual(
      refs.references.map((x: any) => `${x.line} ${x.kind}`),
      ['13 definition', '17 write', '18 identifier'],
    );
  });
});

describe("a JavaScript file's doc comment types", () => {
  test('are references of the type they name, of kind type, and go to it', async () => {
    const B = 'src/blocks.js';
    const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, B, 2, 'Block') }));
    assert.deepEqual(
      refs.references.map((x: any) => `${x.line}:${x.column} ${x.kind}`),
      [
        `2:14 definition`,
        `10:${at(members, B, 10, 'Block').column} type`,
        `11:${at(members, B, 11, 'Block').column} type`,
        `14:${at(members, B, 14, 'Block').column} call`,
        `17:${at(members, B, 17, 'Block').column} type`,
        `18:${at(members, B, 18, 'Block').column} type`,
        `22:${at(members, B, 22, 'Block').column} type`,
        `23:${at(members, B, 23, 'Block').column} type`,
      ],
    );
    const d = withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...at(members, B, 10, 'Block') }));
    assert.deepEqual(
      d.definitions.map((x: any) => `${x.kind} ${x.name} ${x.line}`),
      ['class Block 2'],
    );
  });

  test('a function type among them (`{function(Block): void}`) leaves the file parsed: its calls are calls', async () => {
    // Its parameters have no names: the parse once failed on them, and the file lost every fact it gives.
    const B = 'src/blocks.js';
    const answer = await outgoing('ts-members', members, B, 25, 'visitAll');
    assert.deepEqual(calls(answer.calls), [{ to: def(members, 'function', B, 13, 'rename'), ranges: [range(members, B, 26, 'rename')] }]);
  });
});

describe('an import from a package not installed', () => {
  test('goToDefinition goes to the import, naming the module; a call hierarchy there is refused, saying why and the fix', async () => {
    const r = withoutMeta(await session.ok('goToDefinition', { repo: 'ts-members', ...at(members, 'src/uninstalled.ts', 5, 'spy') }));
    assert.equal(r.found, true);
    assert.deepEqual(
      r.definitions.map((d: any) => `${d.line}:${d.column} ${d.kind} ${d.signature}`),
      [`2:10 unknown from 'not-installed'`],
    );
    const error = await toolError(session, 'callHierarchy', { repo: 'ts-members', ...at(members, 'src/uninstalled.ts', 5, 'spy'), direction: 'incoming' });
    assert.match(
      error,
      /^cannot build a call hierarchy: spy is imported from 'not-installed', a module the indexer could not resolve \(a package not installed\), .*install it, then run `sextant index` again$/,
    );
  });
});

describe('callHierarchy: Python', () => {
  const P = (kind: string, path: string, line: number, name: string, container?: string) => def(py, kind, path, line, name, container);
  const R = (path: string, line: number, needle: string, kind: 'call' | 'reference' = 'call', nth = 0) =>
    range(py, path, line, needle, kind, nth);
  const G = 'shapes/geometry.py';
  const POLY = 'shapes/polygon.py';

  test('incoming, depth 1 and 3: format_area <- describe, report <- main', async () => {
    const once = await incoming(pyRepo, py, G, 10, 'format_area');
    assert.equal(label(once.item), P('function', G, 10, 'format_area'));
    assert.deepEqual(calls(once.calls), [
      { from: P('function', G, 29, 'describe'), ranges: [R(G, 30, 'format_area')] },
      { from: P('function', G, 33, 'report'), ranges: [R(G, 35, 'format_area')] },
    ]);
    const deep = await incoming(pyRepo, py, G, 10, 'format_area', { depth: 3 });
    const main = { from: P('function', 'main.py', 6, 'main'), ranges: [R('main.py', 8, 'report')] };
    assert.deepEqual(calls(deep.calls), [
      {
        from: P('function', G, 29, 'describe'),
        ranges: [R(G, 30, 'format_area')],
        // report calls describe in a list comprehension (34) and on line 38: both count for report.
        calls: [{ from: P('function', G, 33, 'report'), ranges: [R(G, 34, 'describe'), R(G, 38, 'describe')], calls: [main] }],
      },
      // report is a level higher here, so main's caller (top-level code, main.py:14) is listed too.
      {
        from: P('function', G, 33, 'report'),
        ranges: [R(G, 35, 'format_area')],
        calls: [{ ...main, calls: [{ from: 'module main.py main.py:1:1', ranges: [R('main.py', 14, 'main')] }] }],
      },
    ]);
  });

  test('a top-level caller (`if __name__ == "__main__": main()`) is the module main.py', async () => {
    const r = await incoming(pyRepo, py, 'main.py', 6, 'main');
    assert.deepEqual(calls(r.calls), [{ from: 'module main.py main.py:1:1', ranges: [R('main.py', 14, 'main')] }]);
    assert.equal(r.calls[0].from.range, null);
  });

  test('outgoing, depth 2: report -> its callees -> theirs', async () => {
    const area = P('method', 'shapes/base.py', 10, 'area', 'Shape');
    const r = await outgoing(pyRepo, py, G, 33, 'report', { depth: 2 });
    assert.deepEqual(calls(r.calls), [
      { to: P('function', G, 10, 'format_area'), ranges: [R(G, 35, 'format_area')], calls: [] },
      { to: P('function', G, 14, 'total_area'), ranges: [R(G, 35, 'total_area')], calls: [{ to: area, ranges: [R(G, 17, 'area()')] }] },
      // Line 24 also has `best.area()`, but scip-python records no occurrence there (best starts as None).
      { to: P('function', G, 21, 'largest'), ranges: [R(G, 36, 'largest')], calls: [{ to: area, ranges: [R(G, 24, 'area()')] }] },
      {
        to: P('function', G, 29, 'describe'),
        ranges: [R(G, 34, 'describe'), R(G, 38, 'describe')],
        calls: [
          { to: area, ranges: [R(G, 30, 'area()')] },
          { to: P('function', G, 10, 'format_area'), ranges: [R(G, 30, 'format_area')] },
        ],
      },
      { to: 'external append', ranges: [R(G, 35, 'append'), R(G, 38, 'append')] },
    ]);
  });

  test('recursion: count_down is cut with cycle: true', async () => {
    const self = P('function', G, 48, 'count_down');
    const once = await incoming(pyRepo, py, G, 48, 'count_down');
    assert.deepEqual(calls(once.calls), [{ from: self, ranges: [R(G, 49, 'count_down')] }]);
    for (const direction of ['incoming', 'outgoing']) {
      const r = await session.ok('callHierarchy', { repo: pyRepo, ...at(py, G, 48, 'count_down'), direction, depth: 2 });
      assert.deepEqual(calls(r.calls), [
        { [direction === 'incoming' ? 'from' : 'to']: self, ranges: [R(G, 49, 'count_down')], cycle: true },
      ]);
    }
  });

  test('constructors: `Circle(...)` calls the class, and its __init__', async () => {
    const r = await incoming(pyRepo, py, 'shapes/circle.py', 6, 'Circle');
    assert.equal(label(r.item), P('class', 'shapes/circle.py', 6, 'Circle'));
    assert.deepEqual(calls(r.calls), [
      { from: P('function', 'main.py', 6, 'main'), ranges: [R('main.py', 7, 'Circle')] },
      { from: P('method', 'shapes/circle.py', 15, 'scale', 'Circle'), ranges: [R('shapes/circle.py', 16, 'Circle')] },
      { from: P('function', G, 42, 'make'), ranges: [R(G, 44, 'Circle')] },
    ]);
    // Asked at __init__, the same call sites: calling the class runs it.
    const init = await incoming(pyRepo, py, 'shapes/circle.py', 9, '__init__');
    assert.deepEqual(calls(init.calls), calls(r.calls));
    // Outgoing, a call of the class goes to its __init__, as `new C()` goes to C's constructor in TypeScript.
    const main = await outgoing(pyRepo, py, 'main.py', 6, 'main');
    const constructors = calls(main.calls).filter((c) => c.to!.startsWith('constructor '));
    assert.deepEqual(constructors, [
      { to: P('constructor', 'shapes/circle.py', 9, '__init__', 'Circle'), ranges: [R('main.py', 7, 'Circle')] },
      { to: P('constructor', POLY, 31, '__init__', 'Square'), ranges: [R('main.py', 9, 'Square')] },
    ]);
  });

  test('super().__init__(...) calls the base constructor, both ways', async () => {
    const square = await outgoing(pyRepo, py, POLY, 31, '__init__');
    assert.equal(label(square.item), P('constructor', POLY, 31, '__init__', 'Square'));
    assert.deepEqual(calls(square.calls), [
      { to: P('constructor', POLY, 17, '__init__', 'Rectangle'), ranges: [R(POLY, 32, '__init__')] },
      { to: 'external super', ranges: [R(POLY, 32, 'super')] },
    ]);
    const rectangle = await incoming(pyRepo, py, POLY, 17, '__init__');
    assert.deepEqual(calls(rectangle.calls), [
      { from: P('function', G, 52, 'unit_rectangle'), ranges: [R(G, 53, 'Rectangle')] },
      { from: P('constructor', POLY, 31, '__init__', 'Square'), ranges: [R(POLY, 32, '__init__')] },
    ]);
  });

  test('include_references: the left-out mentions are exactly the ranges it adds, each of kind "reference"', async () => {
    const only = await incoming(pyRepo, py, G, 42, 'make');
    assert.deepEqual(calls(only.calls), [
      { from: P('function', 'main.py', 6, 'main'), ranges: [R('main.py', 7, 'make('), R('main.py', 7, 'make(', 'call', 1)] },
    ]);
    const all = await incoming(pyRepo, py, G, 42, 'make', { include_references: true });
    const ranges = all.calls.flatMap((c: any) => c.ranges);
    const mentions = ranges.filter((x: any) => x.kind === 'reference');
    assert.equal(mentions.length, only.references_omitted);
    assert.deepEqual(
      ranges.filter((x: any) => x.kind === 'call').map((x: any) => `${x.path}:${x.line}:${x.column}`),
      [at(py, 'main.py', 7, 'make('), at(py, 'main.py', 7, 'make(', { nth: 1 })].map((p) => `${p.path}:${p.line}:${p.column}`),
    );
    assert.equal(all.references_omitted, 0);
  });

  test('item.range: the whole def, from the index', async () => {
    const r = await incoming(pyRepo, py, G, 48, 'count_down');
    assert.deepEqual(r.item.range, { line: 48, column: 1, end_line: 49, end_column: linesOf(py, G)[48]!.length + 1 });
    assert.equal(r.item.range_source, 'index');
  });

  test('overloads: the calls in the implementation are its own, not its class\'s or its file\'s, and it is the item', async () => {
    // scip-python defines an overloaded name once, at its first `@overload` stub, and records the other defs as uses.
    const staging = join(scratch, 'py-overloads');
    mkdirSync(staging);
    const text = [
      'from typing import overload',
      '',
      '',
      'def fmt(value: int) -> str:',
      '    return str(value)',
      '',
      '',
      'class Box:',
      '    @overload',
      '    def get(self, key: int) -> str: ...',
      '',
      '    @overload',
      '    def get(self, key: str) -> str: ...',
      '',
      '    def get(self, key):',
      '        return fmt(key) if isinstance(key, int) else key.upper()',
      '',
      '',
      '@overload',
      'def make(n: int) -> Box: ...',
      '@overload',
      'def make(n: str) -> Box: ...',
      'def make(n):',
      '    box = Box()',
      '    box.get(n)',
      '    return box',
      '',
    ];
    writeFileSync(join(staging, 'boxes.py'), text.join('\n'));
    const root = gitRepoFrom(staging, 'py-overloads');
    indexOrThrow(root, env);
    const line = (needle: string, nth = 0) => text.map((t, i) => (t.includes(needle) ? i + 1 : 0)).filter(Boolean)[nth]!;
    const B = 'boxes.py';
    const getImpl = def(root, 'method', B, line('def get(self, key):'), 'get', 'Box');
    const makeImpl = def(root, 'function', B, line('def make(n):'), 'make');

    // Asked at the first stub, the item is the implementation, and its callees are those of its body.
    const made = await session.ok('callHierarchy', { repo: 'py-overloads', ...at(root, B, line('def make(n: int)'), 'make'), direction: 'outgoing' });
    assert.equal(label(made.item), makeImpl);
    assert.deepEqual(
      calls(made.calls).map((c) => [c.to, c.ranges]),
      [
        [def(root, 'class', B, line('class Box'), 'Box'), [range(root, B, line('box = Box()'), 'Box')]],
        [getImpl, [range(root, B, line('box.get(n)'), 'get')]],
      ],
    );
    // fmt is called by the method's implementation, not by the class around it.
    const fmt = await session.ok('callHierarchy', { repo: 'py-overloads', ...at(root, B, line('def fmt'), 'fmt'), direction: 'incoming' });
    assert.deepEqual(calls(fmt.calls), [{ from: getImpl, ranges: [range(root, B, line('return fmt(key)'), 'fmt')] }]);
    const box = await session.ok('callHierarchy', { repo: 'py-overloads', ...at(root, B, line('class Box'), 'Box'), direction: 'outgoing' });
    assert.ok(!calls(box.calls).some((c) => c.to!.includes(' fmt ')), JSON.stringify(calls(box.calls)));
    // goToDefinition lists each def of the group, the implementation's extent its own.
    const defs = await session.ok('goToDefinition', { repo: 'py-overloads', symbol: 'make' });
    assert.deepEqual(
      defs.definitions.map((d: any) => d.line),
      [line('def make(n: int)'), line('def make(n: str)'), line('def make(n):')],
    );
    assert.deepEqual(defs.definitions[2].enclosing_range, { line: line('def make(n):'), column: 1, end_line: line('return box'), end_column: 15 });
    removeDir(join(root, '..'));
  });
});

describe('static members', () => {
  const S = 'src/steps.ts';
  const refs = async (line: number, needle: string, nth = 0) =>
    withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, S, line, needle, { nth }) })).references.map(
      (x: any) => `${x.path}:${x.line}:${x.column}`,
    );
  const place = (line: number, needle: string, nth = 0) => {
    const p = at(members, S, line, needle, { nth });
    return `${p.path}:${p.line}:${p.column}`;
  };

  test("a subclass's static method overrides nothing of its base's: references and callers of each are its own, as typescript-language-server's", async () => {
    // The server's answers, checked by hand: AddStep.fromJSON is called in Step.fromJSON alone; Step.fromJSON in replay.
    assert.deepEqual(await refs(14, 'fromJSON'), [place(6, 'fromJSON'), place(14, 'fromJSON')]);
    assert.deepEqual(await refs(5, 'fromJSON'), [place(5, 'fromJSON'), place(27, 'fromJSON')]);
    assert.deepEqual(calls((await incoming('ts-members', members, S, 14, 'fromJSON')).calls), [
      { from: def(members, 'method', S, 5, 'fromJSON', 'Step'), ranges: [range(members, S, 6, 'fromJSON')] },
    ]);
    assert.deepEqual(calls((await incoming('ts-members', members, S, 5, 'fromJSON')).calls), [
      { from: def(members, 'function', S, 26, 'replay'), ranges: [range(members, S, 27, 'fromJSON')] },
    ]);
  });

  test('an instance method still overrides its base\'s: the call through the base lists every override', async () => {
    const expected = [place(4, 'apply'), place(11, 'apply'), place(21, 'apply'), place(27, 'apply')].sort();
    assert.deepEqual((await refs(11, 'apply')).sort(), expected);
  });
});

describe("a base's property narrowed by a subclass's parameter property", () => {
  test('findReferences at the base property, at the parameter property or at a use through the subclass lists all four places, as typescript-language-server does', async () => {
    const D = 'src/descs.ts';
    const place = (line: number, needle: string) => {
      const p = at(members, D, line, needle);
      return `${p.path}:${p.line}:${p.column}`;
    };
    // The server's answer from each of the three, checked by hand.
    const expected = [place(4, 'node'), place(6, 'node'), place(11, 'node'), place(17, 'node')];
    for (const line of [4, 11, 17]) {
      const refs = withoutMeta(await session.ok('findReferences', { repo: 'ts-members', ...at(members, D, line, 'node') })).references;
      assert.deepEqual(
        refs.map((x: any) => `${x.path}:${x.line}:${x.column}`),
        expected,
        `at line ${line}`,
      );
    }
  });
});

describe('typeHierarchy: TypeScript', () => {
  const S = 'src/shapes.ts';
  const T = (kind: string, line: number, name: string, container?: string, path = S) => def(ts, kind, path, line, name, container);

  test('an interface with several implementations, and one interface extending it', async () => {
    const r = await hierarchy(tsRepo, ts, S, 2, 'Shape', 'subtypes');
    assert.equal(r.source, 'precise');
    assert.equal(r.direction, 'subtypes');
    assert.equal(label(r.item), T('interface', 2, 'Shape'));
    assert.deepEqual(types(r.types), [
      { type: T('class', 12, 'Circle') },
      { type: T('class', 26, 'Polygon') },
      { type: T('interface', 67, 'Solid') },
    ]);
  });

  test('followed with depth: the whole tree under Shape, subtypes in another file included', async () => {
    const sphere = { type: T('class', 4, 'Sphere', undefined, 'src/solids.ts'), types: [] };
    const r = await hierarchy(tsRepo, ts, S, 2, 'Shape', 'subtypes', 5);
    assert.equal(r.depth, 5);
    assert.equal(r.depth_clamped, undefined);
    assert.deepEqual(types(r.types), [
      { type: T('class', 12, 'Circle'), types: [sphere] },
      {
        type: T('class', 26, 'Polygon'),
        types: [
          {
            type: T('class', 35, 'Rectangle'),
            types: [{ type: T('class', 54, 'Square'), types: [{ type: T('class', 71, 'Cube'), types: [] }] }],
          },
        ],
      },
      { type: T('interface', 67, 'Solid'), types: [{ type: T('class', 71, 'Cube'), types: [] }, sphere] },
    ]);
  });

  test('a class chain of four levels, and where depth stops', async () => {
    const r = await hierarchy(tsRepo, ts, S, 26, 'Polygon', 'subtypes', 3);
    // Polygon > Rectangle > Square > Cube: Cube is the third level, listed but not expanded.
    assert.deepEqual(types(r.types), [
      { type: T('class', 35, 'Rectangle'), types: [{ type: T('class', 54, 'Square'), types: [{ type: T('class', 71, 'Cube') }] }] },
    ]);
    const up = await hierarchy(tsRepo, ts, S, 71, 'Cube', 'supertypes', 5);
    // Direct supertypes only at each level: Cube extends Square and implements Solid; Square extends
    // Rectangle and implements Scalable; Solid extends Shape.
    assert.deepEqual(types(up.types), [
      {
        type: T('class', 54, 'Square'),
        types: [
          { type: T('interface', 8, 'Scalable'), types: [] },
          {
            type: T('class', 35, 'Rectangle'),
            types: [{ type: T('class', 26, 'Polygon'), types: [{ type: T('interface', 2, 'Shape'), types: [] }] }],
          },
        ],
      },
      { type: T('interface', 67, 'Solid'), types: [{ type: T('interface', 2, 'Shape'), types: [] }] },
    ]);
  });

  test('supertypes: of a class in another file, of an interface extending an interface', async () => {
    const sphere = await hierarchy(tsRepo, ts, 'src/solids.ts', 4, 'Sphere', 'supertypes');
    assert.equal(sphere.item.path, 'src/solids.ts');
    assert.deepEqual(types(sphere.types), [{ type: T('class', 12, 'Circle') }, { type: T('interface', 67, 'Solid') }]);
    const circle = await hierarchy(tsRepo, ts, S, 12, 'Circle', 'subtypes');
    assert.deepEqual(types(circle.types), [{ type: T('class', 4, 'Sphere', undefined, 'src/solids.ts') }]);
    const solid = await hierarchy(tsRepo, ts, S, 67, 'Solid', 'supertypes');
    assert.deepEqual(types(solid.types), [{ type: T('interface', 2, 'Shape') }]);
  });

  test('methods: what overrides area, and what area overrides', async () => {
    const down = await hierarchy(tsRepo, ts, S, 4, 'area', 'subtypes', 2);
    assert.equal(label(down.item), T('method', 4, 'area', 'Shape'));
    assert.deepEqual(types(down.types), [
      { type: T('method', 17, 'area', 'Circle'), types: [] },
      { type: T('method', 30, 'area', 'Polygon'), types: [{ type: T('method', 49, 'area', 'Rectangle') }] },
    ]);
    const up = await hierarchy(tsRepo, ts, S, 49, 'area', 'supertypes');
    assert.deepEqual(types(up.types), [{ type: T('method', 30, 'area', 'Polygon') }]);
    const polygon = await hierarchy(tsRepo, ts, S, 30, 'area', 'supertypes');
    assert.deepEqual(types(polygon.types), [{ type: T('method', 4, 'area', 'Shape') }]);
    // Solid.volume is implemented in this file and in solids.ts.
    const volume = await hierarchy(tsRepo, ts, S, 68, 'volume', 'subtypes');
    assert.deepEqual(types(volume.types), [
      { type: T('method', 72, 'volume', 'Cube') },
      { type: T('method', 5, 'volume', 'Sphere', 'src/solids.ts') },
    ]);
  });
});

describe('typeHierarchy: Python', () => {
  const B = 'shapes/base.py';
  const POLY = 'shapes/polygon.py';
  const C = 'shapes/circle.py';
  const P = (kind: string, path: string, line: number, name: string, container?: string) => def(py, kind, path, line, name, container);

  test('Shape: its implementations, and its external supertype ABC (path null)', async () => {
    const down = await hierarchy(pyRepo, py, B, 4, 'Shape', 'subtypes');
    assert.deepEqual(types(down.types), [{ type: P('class', C, 6, 'Circle') }, { type: P('class', POLY, 4, 'Polygon') }]);
    const up = await hierarchy(pyRepo, py, B, 4, 'Shape', 'supertypes');
    assert.deepEqual(types(up.types), [{ type: 'external ABC' }]);
    const abc = up.types[0];
    assert.deepEqual([abc.repo, abc.path, abc.line, abc.range], [null, null, null, null]);
    assert.match(abc.symbol, /abc\/ABC#$/);
  });

  test('the chain Shape > Polygon > Rectangle > Square, down and up with depth', async () => {
    const down = await hierarchy(pyRepo, py, B, 4, 'Shape', 'subtypes', 5);
    assert.deepEqual(types(down.types), [
      { type: P('class', C, 6, 'Circle'), types: [] },
      {
        type: P('class', POLY, 4, 'Polygon'),
        types: [{ type: P('class', POLY, 14, 'Rectangle'), types: [{ type: P('class', POLY, 28, 'Square'), types: [] }] }],
      },
    ]);
    const up = await hierarchy(pyRepo, py, POLY, 28, 'Square', 'supertypes', 5);
    assert.deepEqual(types(up.types), [
      { type: P('class', B, 14, 'Scalable'), types: [{ type: 'external ABC', types: [] }] },
      {
        type: P('class', POLY, 14, 'Rectangle'),
        types: [
          {
            type: P('class', POLY, 4, 'Polygon'),
            types: [{ type: P('class', B, 4, 'Shape'), types: [{ type: 'external ABC', types: [] }] }],
          },
        ],
      },
    ]);
    const scalable = await hierarchy(pyRepo, py, B, 14, 'Scalable', 'subtypes');
    assert.deepEqual(types(scalable.types), [{ type: P('class', C, 6, 'Circle') }, { type: P('class', POLY, 28, 'Square') }]);
  });

  test('methods: area overridden across files, and what an override overrides', async () => {
    const down = await hierarchy(pyRepo, py, B, 10, 'area', 'subtypes', 2);
    assert.deepEqual(types(down.types), [
      { type: P('method', C, 12, 'area', 'Circle'), types: [] },
      { type: P('method', POLY, 10, 'area', 'Polygon'), types: [{ type: P('method', POLY, 24, 'area', 'Rectangle') }] },
    ]);
    const up = await hierarchy(pyRepo, py, POLY, 24, 'area', 'supertypes');
    assert.deepEqual(types(up.types), [{ type: P('method', POLY, 10, 'area', 'Polygon') }]);
  });
});

describe('limits', () => {
  test('depth above 5 is clamped to 5 and flagged, for both hierarchies', async () => {
    const five = await hierarchy(tsRepo, ts, 'src/shapes.ts', 2, 'Shape', 'subtypes', 5);
    const nine = await hierarchy(tsRepo, ts, 'src/shapes.ts', 2, 'Shape', 'subtypes', 9);
    assert.equal(nine.depth, 5);
    assert.equal(nine.depth_clamped, true);
    assert.deepEqual(nine.types, five.types);
    const calls9 = await incoming(tsRepo, ts, 'src/util/format.ts', 3, 'formatArea', { depth: 9 });
    assert.equal(calls9.depth, 5);
    assert.equal(calls9.depth_clamped, true);
    const calls5 = await incoming(tsRepo, ts, 'src/util/format.ts', 3, 'formatArea', { depth: 5 });
    assert.equal(calls5.depth_clamped, undefined);
    assert.deepEqual(calls9.calls, calls5.calls);
  });

  test('callHierarchy limit: truncates and says so; above 1000 it is clamped and flagged', async () => {
    // Circle's constructor has three callers (make, main.ts, Circle.scale).
    const one = await incoming(tsRepo, ts, 'src/shapes.ts', 15, 'constructor', { limit: 1 });
    assert.equal(one.calls.length, 1);
    assert.equal(one.truncated, true);
    assert.equal(one.limit, 1);
    const all = await incoming(tsRepo, ts, 'src/shapes.ts', 15, 'constructor', { limit: 5000 });
    assert.equal(all.limit, 1000);
    assert.equal(all.limit_clamped, true);
    assert.equal(all.calls.length, 3);
    assert.equal(all.truncated, false);
    const byDefault = await incoming(tsRepo, ts, 'src/shapes.ts', 15, 'constructor');
    assert.equal(byDefault.limit, 200);
    assert.equal(byDefault.limit_clamped, undefined);
  });
});

describe('bad input over MCP', () => {
  /** A correct question with a known answer, asked after each error. */
  async function stillServes(): Promise<void> {
    const r = await incoming(tsRepo, ts, 'src/geometry.ts', 37, 'countDown');
    assert.equal(label(r.calls[0].from), def(ts, 'function', 'src/geometry.ts', 37, 'countDown'));
  }
  const countDown = () => ({ repo: tsRepo, ...at(ts, 'src/geometry.ts', 37, 'countDown') });
  const shape = () => ({ repo: tsRepo, ...at(ts, 'src/shapes.ts', 2, 'Shape') });
  const cases: [string, string, () => Record<string, unknown>, RegExp][] = [
    [
      'callHierarchy: depth 0',
      'callHierarchy',
      () => ({ ...countDown(), direction: 'incoming', depth: 0 }),
      /depth must be >= 1 \(at most 5\)/,
    ],
    [
      'callHierarchy: depth as a string',
      'callHierarchy',
      () => ({ ...countDown(), direction: 'incoming', depth: '2' }),
      /depth must be a whole number from 1 to 5/,
    ],
    [
      'callHierarchy: a fractional depth',
      'callHierarchy',
      () => ({ ...countDown(), direction: 'incoming', depth: 2.5 }),
      /depth must be a whole number from 1 to 5/,
    ],
    [
      'callHierarchy: direction missing',
      'callHierarchy',
      () => countDown(),
      /direction must be "incoming" \(callers\) or "outgoing" \(callees\)/,
    ],
    [
      'callHierarchy: direction misspelled',
      'callHierarchy',
      () => ({ ...countDown(), direction: 'incomming' }),
      /direction must be "incoming" \(callers\) or "outgoing"/,
    ],
    [
      'callHierarchy: limit 0',
      'callHierarchy',
      () => ({ ...countDown(), direction: 'incoming', limit: 0 }),
      /limit must be >= 1 \(at most 1000\)/,
    ],
    [
      'callHierarchy: include_references not a boolean',
      'callHierarchy',
      () => ({ ...countDown(), direction: 'incoming', include_references: 'yes' }),
      /include_references must be true or false/,
    ],
    [
      'callHierarchy: a symbol name instead of a position',
      'callHierarchy',
      () => ({ repo: tsRepo, symbol: 'countDown', direction: 'incoming' }),
      /unknown argument "symbol": the arguments are repo, path, line, column, direction/,
    ],
    [
      'callHierarchy on a class property',
      'callHierarchy',
      () => ({ repo: tsRepo, ...at(ts, 'src/shapes.ts', 13, 'name'), direction: 'incoming' }),
      /^name is a property, not a function, method or constructor: ask for the call hierarchy of something callable$/,
    ],
    [
      'callHierarchy on a parameter',
      'callHierarchy',
      () => ({ repo: tsRepo, ...at(ts, 'src/geometry.ts', 37, 'n:'), direction: 'outgoing' }),
      /^n is a parameter, not a function, method or constructor/,
    ],
    [
      'callHierarchy on an interface',
      'callHierarchy',
      () => ({ ...shape(), direction: 'incoming' }),
      /^Shape is an interface, not a function, method or constructor/,
    ],
    [
      'callHierarchy on a Python class attribute',
      'callHierarchy',
      () => ({ repo: pyRepo, ...at(py, 'shapes/circle.py', 7, 'name'), direction: 'incoming' }),
      /^name is a property, not a function, method or constructor/,
    ],
    [
      'callHierarchy on a Python parameter',
      'callHierarchy',
      () => ({ repo: pyRepo, ...at(py, 'shapes/geometry.py', 48, 'n:'), direction: 'incoming' }),
      /^n is a parameter, not a function, method or constructor/,
    ],
    [
      'callHierarchy on whitespace',
      'callHierarchy',
      () => ({ repo: tsRepo, path: 'src/geometry.ts', line: 5, column: 1, direction: 'incoming' }),
      /no symbol at src\/geometry\.ts:5:1.*symbols on line 5: total/,
    ],
    [
      // `Object` and `Promise` are each an interface and a value of the lib: an occurrence per symbol, one name in the hint.
      'callHierarchy on whitespace before names that are several symbols at once',
      'callHierarchy',
      () => ({ repo: 'ts-members', path: 'src/results.ts', line: 18, column: 1, direction: 'incoming' }),
      /no symbol at src\/results\.ts:18:1 .*; symbols on line 18: Object \(column 10\), assign \(column 17\), Promise \(column 24\), resolve \(column 32\), value \(column 40\), settle \(column 50\)$/,
    ],
    [
      'callHierarchy: unknown repository',
      'callHierarchy',
      () => ({ ...countDown(), repo: 'nope', direction: 'incoming' }),
      /unknown repository "nope"/,
    ],
    [
      'typeHierarchy: depth 0',
      'typeHierarchy',
      () => ({ ...shape(), direction: 'subtypes', depth: 0 }),
      /depth must be >= 1 \(at most 5\)/,
    ],
    [
      'typeHierarchy: depth as a string',
      'typeHierarchy',
      () => ({ ...shape(), direction: 'subtypes', depth: 'all' }),
      /depth must be a whole number from 1 to 5/,
    ],
    ['typeHierarchy: direction missing', 'typeHierarchy', () => shape(), /direction must be "supertypes" or "subtypes"/],
    [
      'typeHierarchy: direction misspelled',
      'typeHierarchy',
      () => ({ ...shape(), direction: 'subclasses' }),
      /direction must be "supertypes" or "subtypes"/,
    ],
    [
      'typeHierarchy on a function',
      'typeHierarchy',
      () => ({ ...countDown(), direction: 'supertypes' }),
      /^countDown is a function: a type hierarchy needs a class, interface or type \(or a method, for overrides\)$/,
    ],
    [
      'typeHierarchy on a Python function',
      'typeHierarchy',
      () => ({ repo: pyRepo, ...at(py, 'shapes/geometry.py', 48, 'count_down'), direction: 'subtypes' }),
      /^count_down is a function: a type hierarchy needs a class, interface or type/,
    ],
  ];

  for (const [what, tool, args, expected] of cases) {
    test(`${what}: {"error"} with isError, and the server keeps answering`, async () => {
      assert.match(await toolError(session, tool, args()), expected);
      await stillServes();
    });
  }
});

describe('on the command line', () => {
  /** `sextant ARGS --json` in a repository's worktree, which must succeed. */
  function json(root: string, args: string[]): any {
    const r = sextant([...args, '--json'], { env, cwd: root });
    assert.equal(r.code, 0, `sextant ${args.join(' ')}: ${r.stderr}`);
    return withoutMeta(JSON.parse(r.stdout));
  }

  function text(root: string, args: string[]): string[] {
    const r = sextant(args, { env, cwd: root });
    assert.equal(r.code, 0, `sextant ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trimEnd().split('\n');
  }

  function fails(args: string[], code: number, expected: RegExp, cwd = ts): void {
    const r = sextant(args, { env, cwd });
    assert.equal(r.code, code, `sextant ${args.join(' ')}: exit ${r.code}, stderr ${r.stderr}`);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^sextant \w+: /);
    assert.match(lines[0]!, expected);
  }

  const pos = (root: string, path: string, line: number, needle: string) => {
    const p = at(root, path, line, needle);
    return `${p.path}:${p.line}:${p.column}`;
  };

  test('sextant calls --json answers what callHierarchy answers, with --outgoing, --depth and --references', async () => {
    const report = at(ts, 'src/geometry.ts', 22, 'report');
    const cli = json(ts, ['calls', pos(ts, 'src/geometry.ts', 22, 'report'), '--outgoing', '--depth', '2', '--references']);
    const mcp = withoutMeta(await session.ok('callHierarchy', { repo: tsRepo, ...report, direction: 'outgoing', depth: 2, include_references: true }));
    assert.deepEqual(cli, mcp);
    const pyCli = json(py, ['calls', pos(py, 'shapes/geometry.py', 10, 'format_area')]);
    assert.deepEqual(pyCli, await incoming(pyRepo, py, 'shapes/geometry.py', 10, 'format_area'));
    // --repo from outside the worktree: the path is then repository-relative.
    const named = json(scratch, ['calls', pos(ts, 'src/geometry.ts', 37, 'countDown'), '--repo', tsRepo, '--depth', '9']);
    assert.equal(named.depth, 5);
    assert.equal(named.depth_clamped, true);
    assert.equal(named.calls[0].cycle, true);
  });

  test('sextant calls prints one caller a line, with the count of ranges and what was left out', () => {
    const lines = text(ts, ['calls', pos(ts, 'src/geometry.ts', 20, 'describe')]);
    assert.equal(lines.length, 3, lines.join('\n'));
    assert.deepEqual(lines.slice(0, 2), [
      `variable describe  ${pos(ts, 'src/geometry.ts', 20, 'describe')}`,
      `  <- function report  ${pos(ts, 'src/geometry.ts', 22, 'report')}  ×1`,
    ]);
    // shapes.map(describe), line 23.
    assert.match(lines[2]!, /^ {2}left out: 1 mention that is not a call \(--references shows them\)$/);
    const down = text(py, ['calls', pos(py, 'shapes/geometry.py', 48, 'count_down'), '--outgoing', '--depth', '2']);
    assert.deepEqual(down, [
      `function count_down  ${pos(py, 'shapes/geometry.py', 48, 'count_down')}`,
      `  -> function count_down  ${pos(py, 'shapes/geometry.py', 48, 'count_down')}  ×1  (cycle)`,
    ]);
  });

  test('sextant types --json answers what typeHierarchy answers; the text shows the tree', async () => {
    const cli = json(ts, ['types', pos(ts, 'src/shapes.ts', 26, 'Polygon'), '--subtypes', '--depth', '3']);
    assert.deepEqual(cli, await hierarchy(tsRepo, ts, 'src/shapes.ts', 26, 'Polygon', 'subtypes', 3));
    const up = json(py, ['types', pos(py, 'shapes/base.py', 4, 'Shape')]);
    assert.deepEqual(up, await hierarchy(pyRepo, py, 'shapes/base.py', 4, 'Shape', 'supertypes'));
    assert.deepEqual(text(ts, ['types', pos(ts, 'src/shapes.ts', 26, 'Polygon'), '--subtypes', '--depth', '3']), [
      `class Polygon  ${pos(ts, 'src/shapes.ts', 26, 'Polygon')}`,
      `  v class Rectangle  ${pos(ts, 'src/shapes.ts', 35, 'Rectangle')}`,
      `    v class Square  ${pos(ts, 'src/shapes.ts', 54, 'Square')}`,
      `      v class Cube  ${pos(ts, 'src/shapes.ts', 71, 'Cube')}`,
    ]);
    const abc = text(py, ['types', pos(py, 'shapes/base.py', 4, 'Shape')]);
    assert.equal(abc.length, 2);
    assert.match(abc[1]!, /^ {2}\^ unknown ABC {2}\(outside the indexed code: python-stdlib@[\d.]+\)$/);
  });

  test('calls and types: missing or malformed positions and unknown options are usage errors (exit 2)', () => {
    const countDown = pos(ts, 'src/geometry.ts', 37, 'countDown');
    fails(['calls'], 2, /pass a position PATH:LINE:COL \(usage: sextant calls/);
    fails(['calls', 'countDown'], 2, /pass a position PATH:LINE:COL/);
    fails(['calls', 'src/geometry.ts:37'], 2, /has a line but no column: write PATH:LINE:COL/);
    fails(['calls', countDown, '--depth', '0'], 2, /--depth must be a whole number >= 1/);
    fails(['calls', countDown, '--depth', 'deep'], 2, /--depth must be a whole number >= 1/);
    fails(['calls', countDown, '--direction', 'outgoing'], 2, /Unknown option '--direction'.*sextant calls --help/);
    fails(['calls', countDown, 'extra'], 2, /unexpected argument "extra"/);
    fails(['types'], 2, /pass a position PATH:LINE:COL \(usage: sextant types/);
    fails(['types', 'Shape'], 2, /pass a position PATH:LINE:COL/);
    fails(['types', pos(ts, 'src/shapes.ts', 2, 'Shape'), '--depth', '0'], 2, /--depth must be a whole number >= 1/);
    fails(['types', pos(ts, 'src/shapes.ts', 2, 'Shape'), '--supertypes'], 2, /Unknown option '--supertypes'.*sextant types --help/);
  });

  test('calls and types on the wrong kind of symbol, or an unknown repository: one line, exit 1', () => {
    fails(['calls', pos(ts, 'src/shapes.ts', 13, 'name')], 1, /name is a property, not a function, method or constructor/);
    fails(['calls', pos(py, 'shapes/geometry.py', 48, 'n:')], 1, /n is a parameter, not a function/, py);
    fails(['types', pos(ts, 'src/geometry.ts', 37, 'countDown')], 1, /countDown is a function: a type hierarchy needs a class/);
    fails(['calls', pos(ts, 'src/geometry.ts', 37, 'countDown'), '--repo', 'nope'], 1, /unknown repository "nope"/, scratch);
  });
});
