// The MCP contract of DESIGN.md over the real server (`sextant mcp`, stdio)
// and the official client: the tools and their schemas, results as
// structuredContent mirrored in the text content, the findReferences
// filters and limit, lookups by symbol name, and 1-based UTF-16 columns.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { leanSchema } from '../src/mcp/lean-schema.js';
import { createMcpServer } from '../src/mcp/server.js';
import type { Navigation } from '../src/navigation/index.js';
import { at, trackedFiles, where } from './support/positions.js';
import { fixtureRepo, git, gitRepoOf, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, testHome, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
let session: McpSession;
let ts: string;
let py: string;
let unicode: string;

before(async () => {
  ts = fixtureRepo('ts-shapes');
  py = fixtureRepo('py-shapes');
  // Names after non-ASCII text on the same line: columns count UTF-16 code units.
  unicode = gitRepoOf('unicode', {
    'greet.ts': "export function greet(name: string): string {\n  return `¡hola ${name}!`;\n}\nconst face = '😀é'; greet(face);\n",
    'greet.py': 'def greet(name):\n    return "¡hola " + name\n\n\nface = "😀é"; greet(face)\n',
  });
  for (const root of [ts, py, unicode]) indexOrThrow(root, env);
  session = await mcpSession(env);
});

after(async () => {
  await session?.close();
  for (const root of [ts, py, unicode]) if (root) removeDir(join(root, '..'));
  removeDir(home);
});

describe('tools/list', () => {
  // DESIGN.md: tool names, parameter names and result fields are fixed.
  const contract: Record<string, { params: string[]; required: string[]; results: string[] }> = {
    getIndexStatus: {
      params: ['repo', 'repo_path'],
      required: ['repo'],
      // reference/jarvis-getIndexStatus.txt, plus the fields DESIGN.md adds.
      results: [
        'repo',
        'indexed',
        'status',
        'commit',
        'generated_at',
        'stale',
        'freshness',
        'checked_at',
        'searchCoverage',
        'searchCoverageReason',
        'last_index_run',
        'capabilities',
        'languages',
        'totalFiles',
        'storage_bytes',
        'write_lock_present',
        'corrupt',
        'lifecycle',
      ],
    },
    goToDefinition: { params: ['repo', 'path', 'line', 'column', 'symbol', 'commit'], required: ['repo'], results: ['definitions', 'found'] },
    findReferences: {
      params: ['repo', 'path', 'line', 'column', 'symbol', 'include_declaration', 'kind', 'limit', 'commit'],
      required: ['repo'],
      results: ['references', 'total', 'truncated'],
    },
    documentSymbols: { params: ['repo', 'path'], required: ['repo', 'path'], results: ['symbols'] },
  };

  test('lists the four tools with input and output schemas, read-only', async () => {
    const { tools } = await session.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const [name, c] of Object.entries(contract)) {
      const tool = byName.get(name);
      assert.ok(tool, `${name} is listed`);
      assert.ok(tool.description && tool.description.length > 20, `${name} has a description`);
      assert.equal(tool.annotations?.readOnlyHint, true, `${name} is read-only`);
      assert.equal(tool.annotations?.destructiveHint, false);
      assert.equal(tool.inputSchema.type, 'object');
      // Every tool also takes max_bytes, its reply budget.
      assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}).sort(), [...c.params, 'max_bytes'].sort(), `${name} parameters`);
      assert.deepEqual([...(tool.inputSchema.required ?? [])].sort(), [...c.required].sort(), `${name} required parameters`);
      assert.ok(tool.outputSchema, `${name} has an output schema`);
      const results = Object.keys(tool.outputSchema.properties ?? {});
      for (const field of [...c.results, 'meta']) assert.ok(results.includes(field), `${name} result declares ${field}`);
      // Every answer says where it came from and at which commit.
      if (name !== 'getIndexStatus')
        for (const field of ['repo', 'commit', 'source']) assert.ok(results.includes(field), `${name}: ${field}`);
    }
  });
});

describe('advertised schemas', () => {
  // sextant serves tools/list from JSON Schemas prebuilt at build time, with a
  // server loop of its own: they must be what the SDK's McpServer advertises
  // for the same zod schemas, the output schemas rewritten to compile cheaply
  // in clients (accepting the same values: test/unit/lean-schema.test.ts).
  test("tools/list is what the SDK's own McpServer lists for the same tools, output schemas made lean", async () => {
    const sdk = new McpServer({ name: 'sextant', version: '0' }, { capabilities: { tools: {} } });
    for (const [name, config] of createMcpServer(undefined as unknown as Navigation, '0').definitions()) {
      const { outputSchema, inputSchema, ...rest } = config;
      sdk.registerTool(name, { ...rest, inputSchema: inputSchema as never, outputSchema: outputSchema() as never }, (() => ({})) as never);
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await sdk.connect(serverSide);
    const client = new Client({ name: 'sextant-tests', version: '0' });
    await client.connect(clientSide);
    // As a stdio client would receive them: through JSON (no undefined fields).
    const listed = JSON.parse(JSON.stringify((await client.listTools()).tools)) as { outputSchema?: unknown }[];
    const expected = listed.map((tool) => ({ ...tool, outputSchema: leanSchema(tool.outputSchema) }));
    await client.close();
    const served = (await session.client.listTools()).tools;
    assert.deepEqual(served, expected);
  });
});

describe('results', () => {
  test('every tool answers with structuredContent mirrored as JSON text, errors included', async () => {
    const status = await session.ok('getIndexStatus', { repo: 'ts-shapes' });
    assert.equal(status.repo, 'ts-shapes');
    assert.equal(status.indexed, true);
    assert.equal(status.status, 'indexed');
    assert.equal(status.commit, git(ts, 'rev-parse', 'HEAD').trim());
    assert.ok(!Number.isNaN(Date.parse(status.generated_at)));
    assert.ok(!Number.isNaN(Date.parse(status.checked_at)));
    // Every tracked file of the fixture is text: all of it is searchable.
    assert.deepEqual(status.searchCoverage, {
      expected: trackedFiles(ts).length,
      indexed: trackedFiles(ts).length,
      complete: true,
      skipped: [],
    });
    // Complete coverage needs no reason (it once said "nothing is published yet" here).
    assert.equal(status.searchCoverageReason, undefined);
    assert.equal(status.capabilities.search.available, true);
    assert.equal(status.last_index_run.outcome, 'indexed');
    assert.equal(status.last_index_run.origin, 'cli');
    assert.deepEqual(Object.keys(status.capabilities).sort(), ['navigation', 'search', 'semantic']);
    // Every tracked file is published; only the .ts ones are source code (the rest is JSON).
    const tracked = trackedFiles(ts);
    assert.equal(status.totalFiles, tracked.length);
    assert.deepEqual(status.languages, { typescript: tracked.filter((p) => p.endsWith('.ts')).length });
    assert.ok(status.storage_bytes > 0);
    assert.equal(status.write_lock_present, false);
    assert.equal(status.corrupt, false);
    assert.equal(status.lifecycle, 'ready');

    const def = await session.ok('goToDefinition', { repo: 'ts-shapes', ...at(ts, 'src/main.ts', 5, 'report') });
    assert.equal(def.found, true);
    assert.equal(def.source, 'precise');
    assert.equal(def.commit, status.commit);
    const d = def.definitions[0];
    assert.deepEqual(where(d), at(ts, 'src/geometry.ts', 22, 'report'));
    // A location: name range, preview line, and the enclosing span of the whole function (lines 22-28).
    assert.deepEqual([d.end_line, d.end_column], [22, d.column + 'report'.length]);
    assert.equal(d.preview, 'export function report(shapes: readonly Shape[]): string[] {');
    assert.deepEqual([d.enclosing_range.line, d.enclosing_range.end_line], [22, 28]);
    assert.equal(d.kind, 'function');

    const refs = await session.ok('findReferences', { repo: 'ts-shapes', symbol: 'report' });
    assert.equal(refs.source, 'precise');
    const symbols = await session.ok('documentSymbols', { repo: 'ts-shapes', path: 'src/util/format.ts' });
    assert.deepEqual(
      symbols.symbols.map((s: any) => [s.name, s.kind]),
      [
        ['PRECISION', 'variable'],
        ['formatArea', 'function'],
      ],
    );
    // Error results pass the client's output-schema check too (it checks structuredContent even on
    // isError): the advertised schema is "the result, or {error}".
    const error = await session.call('goToDefinition', { repo: 'nope', symbol: 'x' });
    assert.equal(error.isError, true);
    assert.deepEqual(Object.keys(error.result), ['error']);
  });
});

describe('findReferences', () => {
  const decl = () => at(ts, 'src/util/format.ts', 3, 'formatArea');

  test('kind keeps only references of that kind', async () => {
    const calls = await session.ok('findReferences', { repo: 'ts-shapes', ...decl(), kind: 'call' });
    assert.deepEqual(calls.references.map(where), [
      at(ts, 'src/geometry.ts', 20, 'formatArea'),
      at(ts, 'src/geometry.ts', 24, 'formatArea'),
    ]);
    assert.equal(calls.total, 2);
    const imports = await session.ok('findReferences', { repo: 'ts-shapes', ...decl(), kind: 'import' });
    assert.deepEqual(imports.references.map(where), [at(ts, 'src/geometry.ts', 2, 'formatArea')]);
    assert.ok(imports.references.every((r: any) => r.kind === 'import' && r.is_definition === false));
    // Shape is used as a type, e.g. geometry.ts:4 `shapes: readonly Shape[]`.
    const types = await session.ok('findReferences', { repo: 'ts-shapes', symbol: 'Shape', kind: 'type' });
    assert.ok(types.references.length > 0);
    assert.ok(types.references.every((r: any) => r.kind === 'type'));
    assert.ok(types.references.some((r: any) => r.path === 'src/geometry.ts' && r.line === 4));
  });

  test('include_declaration: false leaves out the declaration', async () => {
    const all = await session.ok('findReferences', { repo: 'ts-shapes', ...decl() });
    assert.equal(all.total, 4);
    assert.ok(all.references.some((r: any) => r.is_definition));
    const uses = await session.ok('findReferences', { repo: 'ts-shapes', ...decl(), include_declaration: false });
    assert.equal(uses.total, 3);
    assert.deepEqual(uses.references.map(where), all.references.filter((r: any) => !r.is_definition).map(where));
  });

  test('limit truncates and says so; above 2000 it is clamped and flagged', async () => {
    const one = await session.ok('findReferences', { repo: 'ts-shapes', ...decl(), limit: 1 });
    assert.equal(one.references.length, 1);
    assert.equal(one.total, 4);
    assert.equal(one.truncated, true);
    assert.equal(one.limit, 1);
    const exact = await session.ok('findReferences', { repo: 'ts-shapes', ...decl(), limit: 2000 });
    assert.equal(exact.limit, 2000);
    assert.equal(exact.limit_clamped, undefined);
    const clamped = await session.ok('findReferences', { repo: 'ts-shapes', ...decl(), limit: 5000 });
    assert.equal(clamped.limit, 2000);
    assert.equal(clamped.limit_clamped, true);
    assert.equal(clamped.truncated, false);
    assert.equal(clamped.references.length, 4);
    const byDefault = await session.ok('findReferences', { repo: 'ts-shapes', ...decl() });
    assert.equal(byDefault.limit, 200);
  });
});

describe('lookups by symbol name', () => {
  test('goToDefinition returns every definition of the name, each with its container', async () => {
    const ts4 = await session.ok('goToDefinition', { repo: 'ts-shapes', symbol: 'area' });
    assert.deepEqual(
      ts4.definitions.map((d: any) => [d.container, d.path, d.line, d.kind]),
      [
        ['Shape', 'src/shapes.ts', 4, 'method'],
        ['Circle', 'src/shapes.ts', 17, 'method'],
        ['Polygon', 'src/shapes.ts', 30, 'method'],
        ['Rectangle', 'src/shapes.ts', 49, 'method'],
      ],
    );
    assert.equal(new Set(ts4.symbols).size, 4);
    const py4 = await session.ok('goToDefinition', { repo: 'py-shapes', symbol: 'area' });
    assert.deepEqual(py4.definitions.map((d: any) => [d.container, d.path, d.line]).sort(), [
      ['Circle', 'shapes/circle.py', 12],
      ['Polygon', 'shapes/polygon.py', 10],
      ['Rectangle', 'shapes/polygon.py', 24],
      ['Shape', 'shapes/base.py', 10],
    ]);
  });

  test('findReferences by name covers every symbol of that name and lists them with containers', async () => {
    const r = await session.ok('findReferences', { repo: 'py-shapes', symbol: 'scale' });
    assert.deepEqual(r.symbols.map((s: any) => [s.container, s.path, s.line]).sort(), [
      ['Circle', 'shapes/circle.py', 15],
      ['Scalable', 'shapes/base.py', 16],
      ['Square', 'shapes/polygon.py', 34],
    ]);
    // main.py:7 `Circle(3).scale(2)` calls Circle.scale.
    assert.ok(r.references.some((x: any) => x.path === 'main.py' && x.line === 7 && x.kind === 'call'));
    // Several symbols: each reference says which it is of.
    const named = new Set(r.symbols.map((s: any) => s.symbol));
    assert.ok(r.references.every((x: any) => named.has(x.symbol)), JSON.stringify(r.references.map((x: any) => x.symbol)));
  });

  test('references of one symbol do not each repeat it: it is the one symbols names', async () => {
    const r = await session.ok('findReferences', { repo: 'ts-shapes', symbol: 'totalArea' });
    assert.equal(new Set(r.symbols.map((s: any) => s.symbol)).size, 1);
    assert.ok(r.references.length > 1);
    assert.ok(r.references.every((x: any) => !('symbol' in x)), JSON.stringify(r.references[0]));
  });

  test('a name is exact and case-sensitive: a qualified or differently cased name finds nothing, with a hint', async () => {
    for (const symbol of ['Circle.area', 'AREA']) {
      const r = await session.ok('goToDefinition', { repo: 'ts-shapes', symbol });
      assert.equal(r.found, false);
      assert.deepEqual(r.definitions, []);
      assert.match(r.message, /case-sensitive and unqualified/);
    }
  });
});

describe('positions are 1-based UTF-16 columns', () => {
  test('TypeScript: a call after an emoji on the same line', async () => {
    const use = at(unicode, 'greet.ts', 4, 'greet(');
    // '😀' is two UTF-16 code units: JavaScript's indexOf counts them the same way.
    assert.equal(use.column, "const face = '😀é'; ".length + 1);
    const r = await session.ok('goToDefinition', { repo: 'unicode', ...use });
    assert.deepEqual(r.definitions.map(where), [at(unicode, 'greet.ts', 1, 'greet')]);
    const refs = await session.ok('findReferences', { repo: 'unicode', ...at(unicode, 'greet.ts', 1, 'greet') });
    const call = refs.references.find((x: any) => x.line === 4);
    assert.deepEqual(where(call), use);
    assert.equal(call.end_column, use.column + 'greet'.length);
  });

  test('Python: the same columns, whatever unit the indexer counts in', async () => {
    const use = at(unicode, 'greet.py', 5, 'greet(');
    const r = await session.ok('goToDefinition', { repo: 'unicode', ...use });
    assert.deepEqual(r.definitions.map(where), [at(unicode, 'greet.py', 1, 'greet')]);
    const refs = await session.ok('findReferences', { repo: 'unicode', ...at(unicode, 'greet.py', 1, 'greet') });
    const call = refs.references.find((x: any) => x.path === 'greet.py' && x.line === 5);
    assert.deepEqual(where(call), use);
    assert.equal(call.end_column, use.column + 'greet'.length);
  });
});

describe('names of members keyed by string literals', () => {
  let quoted: string;
  before(() => {
    quoted = gitRepoOf('quoted', {
      'headers.ts': "export const headers = {\n  'content-type': 'application/json',\n  \"x-trace\": 1,\n  plain: 2,\n  '\\u2028': 3,\n};\n",
    });
    indexOrThrow(quoted, env);
  });
  after(() => removeDir(join(quoted, '..')));

  test('documentSymbols names each as written, never with the indexer’s counter after it', async () => {
    const r = await session.ok('documentSymbols', { repo: 'quoted', path: 'headers.ts' });
    const headers = r.symbols.find((s: any) => s.name === 'headers');
    assert.ok(headers, JSON.stringify(r.symbols));
    assert.deepEqual(
      headers.children.map((c: any) => c.name),
      // An escape in the literal stays as written (a line separator, U+2028, in the map of an HTML escaper).
      ["'content-type'", '"x-trace"', 'plain', "'\\u2028'"],
    );
    const lines = ["export const headers = {", "  'content-type': 'application/json',", '  "x-trace": 1,', '  plain: 2,', "  '\\u2028': 3,"];
    for (const c of headers.children) {
      const s = c.selection_range;
      assert.equal(lines[s.line - 1]!.slice(s.column - 1, s.end_column - 1), c.name, `${c.name} is the text its selection_range covers`);
    }
    const w = await session.ok('workspaceSymbols', { repo: 'quoted', query: 'content-type' });
    assert.deepEqual(
      w.symbols.map((s: any) => s.name),
      ["'content-type'"],
    );
  });
});

describe('documentSymbols of one name declared twice (an interface merged into a class)', () => {
  let merged: string;
  const text = [
    'export interface Store {',
    '  extra?: number',
    '}',
    '',
    'export class Store {',
    '  value = 1',
    '  read(): number {',
    '    return this.value',
    '  }',
    '}',
    '',
  ];
  before(() => {
    merged = gitRepoOf('merged', { 'store.ts': text.join('\n') });
    indexOrThrow(merged, env);
  });
  after(() => removeDir(join(merged, '..')));

  test("each member sits under the declaration around it, inside that declaration's range", async () => {
    const r = await session.ok('documentSymbols', { repo: 'merged', path: 'store.ts' });
    assert.deepEqual(
      // (Both say kind "class": kinds are the symbol's, and the two declarations are one symbol.)
      r.symbols.map((s: any) => [s.name, s.range.line, s.range.end_line, s.children.map((c: any) => [c.name, c.selection_range.line])]),
      [
        ['Store', 1, 3, [['extra', 2]]],
        ['Store', 5, 10, [['value', 6], ['read', 7]]],
      ],
    );
  });
});
