// Navigation across repositories of one registry. A library, ts-base
// (package ts-base@1.0.0, `class Base` and `interface Named` in src/index.ts),
// and an app, ts-app, whose node_modules/ts-base is a copy of the library
// (git-ignored, as installed packages are) and whose src/app.ts declares
// `class Derived extends Base implements Named` and calls a Base method.
// scip-typescript names Base the same on both sides (`scip-typescript npm
// ts-base 1.0.0 src/`index.ts`/Base#`), so once both are indexed a definition
// in the app lands in the library's repository, and the type hierarchy crosses
// from one repository to the other in both directions. Before the library is
// indexed, the same questions say the symbol is outside the indexed code.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { at, trackedFiles, where } from './support/positions.js';
import { commitAll, git, removeDir, tempDir } from './support/repos.js';
import { indexOrThrow, mcpSession, sextant, testHome, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
const dir = tempDir('sextant-cross-repo-');
const base = join(dir, 'ts-base');
const app = join(dir, 'ts-app');
let session: McpSession;

const BASE_SYMBOL = 'scip-typescript npm ts-base 1.0.0 src/`index.ts`/Base#';
const TSCONFIG = JSON.stringify(
  { compilerOptions: { strict: true, target: 'es2022', module: 'es2022', moduleResolution: 'bundler', noEmit: true }, include: ['src'] },
  null,
  2,
);

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

function gitInit(root: string): void {
  git(root, 'init', '-q', '-b', 'main');
  commitAll(root, 'initial');
}

before(async () => {
  write(base, {
    'package.json': JSON.stringify({ name: 'ts-base', version: '1.0.0', types: 'src/index.ts' }, null, 2) + '\n',
    'tsconfig.json': TSCONFIG,
    'src/index.ts': [
      '/** Something with a name. */',
      'export interface Named {',
      '  readonly name: string;',
      '}',
      '',
      '/** What the app builds on. */',
      'export class Base {',
      '  greet(who: string): string {',
      '    return `hello ${who}`;',
      '  }',
      '}',
      '',
    ].join('\n'),
  });
  gitInit(base);
  write(app, {
    'package.json':
      JSON.stringify({ name: 'ts-app', version: '1.0.0', private: true, dependencies: { 'ts-base': '1.0.0' } }, null, 2) + '\n',
    'tsconfig.json': TSCONFIG,
    '.gitignore': 'node_modules/\n',
    'src/app.ts': [
      "import { Base, type Named } from 'ts-base';",
      '',
      'export class Derived extends Base implements Named {',
      "  readonly name = 'derived';",
      '',
      '  welcome(): string {',
      '    return this.greet(this.name);',
      '  }',
      '}',
      '',
    ].join('\n'),
  });
  // The library as installed: a copy, outside what git tracks.
  for (const path of ['package.json', 'tsconfig.json', 'src']) {
    cpSync(join(base, path), join(app, 'node_modules/ts-base', path), { recursive: true });
  }
  gitInit(app);
  // The app first: the library is not in the registry yet.
  indexOrThrow(app, env);
  session = await mcpSession(env);
  await session.client.listTools();
});

after(async () => {
  await session?.close();
  removeDir(dir);
  removeDir(home);
});

async function ok(name: string, args: Record<string, unknown>): Promise<any> {
  const r = await session.client.callTool({ name, arguments: args });
  assert.notEqual(r.isError, true, `${name} ${JSON.stringify(args)} failed: ${JSON.stringify(r.structuredContent)}`);
  return r.structuredContent;
}

// Positions in the two repositories, found in their text.
const baseInApp = () => at(app, 'src/app.ts', 3, 'Base'); // `extends Base`
const derived = () => at(app, 'src/app.ts', 3, 'Derived');
const baseDecl = () => at(base, 'src/index.ts', 7, 'Base');
const namedDecl = () => at(base, 'src/index.ts', 2, 'Named');

/** "repo:path:line:column" of an item or location. */
function place(x: { repo: string | null; path: string | null; line: number | null; column: number | null }): string {
  return `${x.repo}:${x.path}:${x.line}:${x.column}`;
}

function placeOf(repo: string, p: { path: string; line: number; column: number }): string {
  return `${repo}:${p.path}:${p.line}:${p.column}`;
}

describe('before the library is indexed', () => {
  test('the app is indexed without its node_modules (git-ignored)', async () => {
    const status = await ok('getIndexStatus', { repo: 'ts-app' });
    assert.equal(status.totalFiles, trackedFiles(app).length);
    assert.deepEqual(status.languages, { typescript: 1 });
    assert.ok(!trackedFiles(app).some((p) => p.startsWith('node_modules/')));
  });

  test('Base is outside the indexed code: no definition, an external supertype', async () => {
    const def = await ok('goToDefinition', { repo: 'ts-app', ...baseInApp() });
    assert.equal(def.found, false);
    assert.deepEqual(def.symbols, [BASE_SYMBOL]);
    assert.match(def.message, /outside the indexed code.*ts-base@1\.0\.0.*index that package's source/);
    const up = await ok('typeHierarchy', { repo: 'ts-app', ...derived(), direction: 'supertypes' });
    const external = up.types.find((t: any) => t.symbol === BASE_SYMBOL);
    assert.ok(external, JSON.stringify(up.types));
    assert.deepEqual(
      [external.name, external.repo, external.path, external.container, external.detail],
      ['Base', null, null, null, 'ts-base@1.0.0'],
    );
  });

  test("a package's type and method no index defines have hierarchies from the indexed repositories' uses", async () => {
    const down = await ok('typeHierarchy', { repo: 'ts-app', ...baseInApp(), direction: 'subtypes' });
    assert.deepEqual([down.item.symbol, down.item.path], [BASE_SYMBOL, null]);
    assert.deepEqual(
      down.types.map((t: any) => place(t)),
      [placeOf('ts-app', derived())],
    );
    assert.match(
      down.message,
      /^Base is defined outside the indexed code \(ts-base@1\.0\.0\): its subtypes are the types of the indexed repositories/,
    );
    const greet = at(app, 'src/app.ts', 7, 'greet');
    const calls = await ok('callHierarchy', { repo: 'ts-app', ...greet, direction: 'incoming' });
    assert.equal(calls.item.path, null);
    assert.deepEqual(
      calls.calls.map((c: any) => `${c.from.name} ${c.ranges.map((r: any) => place(r)).join(' ')}`),
      [`welcome ${placeOf('ts-app', greet)}`],
    );
    assert.deepEqual(calls.notes, [
      'greet is defined outside the indexed code (ts-base@1.0.0): its callers are the calls of it in the indexed repositories',
    ]);
  });
});

describe('with both repositories indexed', () => {
  before(() => {
    // Published while the MCP server runs: it answers from the new registry state.
    indexOrThrow(base, env);
  });

  test('both sides name Base with the same symbol', async () => {
    const inBase = await ok('goToDefinition', { repo: 'ts-base', ...baseDecl() });
    assert.deepEqual(inBase.symbols, [BASE_SYMBOL]);
    const inApp = await ok('goToDefinition', { repo: 'ts-app', ...baseInApp() });
    assert.deepEqual(inApp.symbols, [BASE_SYMBOL]);
  });

  test('goToDefinition of Base in the app lands in the ts-base repository', async () => {
    const r = await ok('goToDefinition', { repo: 'ts-app', ...baseInApp() });
    assert.equal(r.repo, 'ts-app');
    assert.equal(r.found, true);
    assert.equal(r.definitions.length, 1);
    const d = r.definitions[0];
    assert.equal(d.repo, 'ts-base');
    assert.deepEqual(where(d), baseDecl());
    assert.equal(d.kind, 'class');
    assert.equal(d.preview, 'export class Base {');
    // Lines 7-11 of the library's file, not its copy under the app's node_modules.
    assert.deepEqual([d.enclosing_range.line, d.enclosing_range.end_line], [7, 11]);
    // The interface too, from the import line.
    const named = await ok('goToDefinition', { repo: 'ts-app', ...at(app, 'src/app.ts', 1, 'Named') });
    assert.deepEqual(
      named.definitions.map((x: any) => placeOf(x.repo, x)),
      [placeOf('ts-base', namedDecl())],
    );
  });

  test('typeHierarchy subtypes of Base and of Named, asked in ts-base, include Derived from ts-app', async () => {
    for (const decl of [baseDecl(), namedDecl()]) {
      const r = await ok('typeHierarchy', { repo: 'ts-base', ...decl, direction: 'subtypes' });
      assert.equal(r.repo, 'ts-base');
      assert.deepEqual(
        r.types.map((t: any) => `${t.kind} ${t.name} ${place(t)}`),
        [`class Derived ${placeOf('ts-app', derived())}`],
      );
    }
  });

  test('typeHierarchy supertypes of Derived, asked in ts-app, are located in ts-base', async () => {
    const r = await ok('typeHierarchy', { repo: 'ts-app', ...derived(), direction: 'supertypes' });
    assert.deepEqual(
      r.types.map((t: any) => `${t.kind} ${t.name} ${place(t)}`),
      [`interface Named ${placeOf('ts-base', namedDecl())}`, `class Base ${placeOf('ts-base', baseDecl())}`],
    );
    // A member implementing the library's interface: Derived.name implements Named.name.
    const name = await ok('typeHierarchy', { repo: 'ts-app', ...at(app, 'src/app.ts', 4, 'name'), direction: 'supertypes' });
    assert.deepEqual(
      name.types.map((t: any) => `${t.container}.${t.name} ${place(t)}`),
      [`Named.name ${placeOf('ts-base', at(base, 'src/index.ts', 3, 'name'))}`],
    );
  });

  test("callHierarchy: the app's call of a Base method reaches the library's definition", async () => {
    const greet = placeOf('ts-base', at(base, 'src/index.ts', 8, 'greet'));
    const call = at(app, 'src/app.ts', 7, 'greet');
    const out = await ok('callHierarchy', { repo: 'ts-app', ...at(app, 'src/app.ts', 6, 'welcome'), direction: 'outgoing' });
    assert.deepEqual(
      out.calls.map((c: any) => [`${c.to.container}.${c.to.name} ${place(c.to)}`, c.ranges.map((x: any) => placeOf(x.repo, x))]),
      [[`Base.greet ${greet}`, [placeOf('ts-app', call)]]],
    );
    // Asked at the call site in the app: the item is the library's method, its caller the app's.
    const inc = await ok('callHierarchy', { repo: 'ts-app', ...call, direction: 'incoming' });
    assert.equal(place(inc.item), greet);
    assert.deepEqual(
      inc.calls.map((c: any) => `${c.from.container}.${c.from.name} ${place(c.from)}`),
      [`Derived.welcome ${placeOf('ts-app', at(app, 'src/app.ts', 6, 'welcome'))}`],
    );
  });

  test('sextant def and sextant types say which repository', () => {
    const p = baseInApp();
    const def = sextant(['def', `${p.path}:${p.line}:${p.column}`, '--json'], { env, cwd: app });
    assert.equal(def.code, 0, def.stderr);
    assert.deepEqual(
      JSON.parse(def.stdout).definitions.map((d: any) => placeOf(d.repo, d)),
      [placeOf('ts-base', baseDecl())],
    );
    const b = baseDecl();
    const types = sextant(['types', `${b.path}:${b.line}:${b.column}`, '--subtypes'], { env, cwd: base });
    assert.equal(types.code, 0, types.stderr);
    const d = derived();
    assert.deepEqual(types.stdout.trimEnd().split('\n'), [
      `class Base  ${b.path}:${b.line}:${b.column}`,
      `  v class Derived  ts-app:${d.path}:${d.line}:${d.column}`,
    ]);
  });
});
