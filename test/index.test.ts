// Indexing real code end to end: the ts-shapes and py-shapes fixtures and
// sextant's own source, each through `sextant index` (the real indexers, a
// real registry file), then asked over MCP and the CLI. Expected answers are
// read from the source files themselves (see support/positions.ts): a reader
// can open the file and check each one.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PROJECT_ROOT } from './support/paths.js';
import { at, byPosition, find, linesOf, trackedFiles, where, type Position } from './support/positions.js';
import { commitAll, filesUnder, fixtureRepo, git, gitRepoOf, removeDir, tempDir } from './support/repos.js';
import { indexOrThrow, mcpSession, sextant, testHome, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
// sextant's tree holds the fixtures, each a project of its own: in one registry their symbols (the same
// package) would join the fixture repositories' answers, so sextant's own source gets a registry of its own.
const self = testHome();
let session: McpSession;
let selfSession: McpSession;
const roots: Record<string, string> = {};
const reports: Record<string, Record<string, any>> = {};

/** A tool call that must succeed; returns its structured result. */
async function ok(name: string, args: Record<string, unknown>): Promise<any> {
  const r = await (args.repo === 'sextant' ? selfSession : session).call(name, args);
  assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} failed: ${JSON.stringify(r.result)}`);
  return r.result;
}

async function definitionsAt(repo: string, p: Position): Promise<Position[]> {
  const r = await ok('goToDefinition', { repo, ...p });
  return (r.definitions as any[]).map(where).sort(byPosition);
}

/** sextant's own tracked files as of HEAD, in a fresh repository: independent of uncommitted edits in the checkout. */
function selfRepo(): string {
  const root = join(tempDir('sextant-self-'), 'sextant');
  mkdirSync(root);
  const archive = execFileSync('git', ['archive', '--format=tar', 'HEAD'], { cwd: PROJECT_ROOT, maxBuffer: 256 << 20 });
  execFileSync('tar', ['-x', '-C', root], { input: archive });
  git(root, 'init', '-q', '-b', 'main');
  commitAll(root, 'sextant at HEAD');
  return root;
}

/** The .ts files sextant's tsconfig.json includes: src, registry, test and scripts, without the fixtures. */
function projectTypeScript(root: string): string[] {
  return ['src', 'registry', 'test', 'scripts']
    .filter((d) => existsSync(join(root, d)))
    .flatMap((d) => filesUnder(root, d, /\.ts$/))
    .filter((p) => !p.startsWith('test/fixtures/'));
}

before(async () => {
  roots['ts-shapes'] = fixtureRepo('ts-shapes');
  roots['py-shapes'] = fixtureRepo('py-shapes');
  roots.sextant = selfRepo();
  for (const [repo, root] of Object.entries(roots)) reports[repo] = indexOrThrow(root, repo === 'sextant' ? self.env : env);
  session = await mcpSession(env);
  selfSession = await mcpSession(self.env);
});

after(async () => {
  await session?.close();
  await selfSession?.close();
  for (const root of Object.values(roots)) removeDir(join(root, '..'));
  removeDir(home);
  removeDir(self.home);
});

describe('ts-shapes', () => {
  const repo = 'ts-shapes';
  const root = () => roots[repo]!;

  test('the report says TypeScript is precise, every source file indexed', () => {
    const r = reports[repo]!;
    assert.equal(r.outcome, 'indexed');
    assert.equal(r.repo, repo);
    assert.equal(r.commit, git(root(), 'rev-parse', 'HEAD').trim());
    // Every .ts file of the fixture (all under src/, which its tsconfig.json includes).
    const sources = trackedFiles(root()).filter((p) => p.endsWith('.ts'));
    assert.ok(sources.length >= 4 && sources.every((p) => p.startsWith('src/')));
    assert.equal(r.files, trackedFiles(root()).length);
    assert.deepEqual(r.languages.typescript, {
      files: sources.length,
      tier: 'precise',
      indexer: 'scip-typescript',
      indexed_files: sources.length,
      reason: null,
      recovery: null,
    });
  });

  test('goToDefinition of an overloaded call lands on the signatures its argument count fits', async () => {
    // main.ts:4 `make('circle', 1)`; geometry.ts declares make on lines 31-33: two overloads of two
    // parameters, then the implementation, which a caller cannot call directly.
    const use = at(root(), 'src/main.ts', 4, 'make(');
    assert.deepEqual(await definitionsAt(repo, use), [
      at(root(), 'src/geometry.ts', 31, 'make'),
      at(root(), 'src/geometry.ts', 32, 'make'),
    ]);
    // main.ts:9 calls scaled with one argument, then with two: each lands on the one overload that takes that many.
    const calls = linesOf(root(), 'src/main.ts');
    const line = calls.findIndex((l) => l.includes('scaled(new Circle(1), 3)'));
    const first = calls[line]!.indexOf('scaled(');
    const one = { path: 'src/main.ts', line: line + 1, column: first + 1 };
    const two = { path: 'src/main.ts', line: line + 1, column: calls[line]!.indexOf('scaled(', first + 1) + 1 };
    const overloads = find(root(), 'src/geometry.ts', /^export function (scaled)\(shape: Circle\): Circle;/);
    const withFactor = find(root(), 'src/geometry.ts', /^export function (scaled)\(shape: Circle, factor: number\): Circle;/);
    assert.deepEqual(await definitionsAt(repo, one), [overloads]);
    assert.deepEqual(await definitionsAt(repo, two), [withFactor]);
    // At a signature's name: the implementation, declared last, as TypeScript goes from a signature to it.
    const implementation = find(root(), 'src/geometry.ts', /^export function (scaled)\(shape: Circle, factor = 2\): Circle \{/);
    assert.deepEqual(await definitionsAt(repo, overloads), [implementation]);
    assert.deepEqual(await definitionsAt(repo, implementation), [implementation]);
  });

  test('goToDefinition of an imported class and of a method call', async () => {
    const circle = at(root(), 'src/main.ts', 2, 'Circle');
    assert.deepEqual(await definitionsAt(repo, circle), [at(root(), 'src/shapes.ts', 12, 'Circle')]);
    // `new Circle(3).scale(2)`: Circle's own scale, not Scalable's.
    const scale = at(root(), 'src/main.ts', 4, 'scale');
    const d = await ok('goToDefinition', { repo, ...scale });
    assert.deepEqual(d.definitions.map(where), [at(root(), 'src/shapes.ts', 21, 'scale')]);
    assert.equal(d.definitions[0].container, 'Circle');
    assert.equal(d.definitions[0].kind, 'method');
    // The definition's span covers the method body (lines 21-23).
    assert.equal(d.definitions[0].enclosing_range.line, 21);
    assert.equal(d.definitions[0].enclosing_range.end_line, 23);
  });

  test('goToDefinition by name of a merged declaration returns both the interface and the value', async () => {
    const d = await ok('goToDefinition', { repo, symbol: 'Point' });
    assert.deepEqual(d.definitions.map(where).sort(byPosition), [
      at(root(), 'src/geometry.ts', 42, 'Point'),
      at(root(), 'src/geometry.ts', 46, 'Point'),
    ]);
  });

  test('findReferences of formatArea: the import, both calls and the declaration', async () => {
    const decl = at(root(), 'src/util/format.ts', 3, 'formatArea');
    const r = await ok('findReferences', { repo, ...decl });
    assert.equal(r.total, 4);
    assert.equal(r.truncated, false);
    assert.deepEqual(
      r.references.map((x: any) => ({ ...where(x), kind: x.kind })),
      [
        { ...at(root(), 'src/geometry.ts', 2, 'formatArea'), kind: 'import' },
        { ...at(root(), 'src/geometry.ts', 20, 'formatArea'), kind: 'call' },
        { ...at(root(), 'src/geometry.ts', 24, 'formatArea'), kind: 'call' },
        { ...decl, kind: 'definition' },
      ],
    );
    // Previews are the source lines.
    assert.equal(r.references[0].preview, "import { formatArea } from './util/format';");
  });

  test('documentSymbols of shapes.ts nests members under their classes', async () => {
    const r = await ok('documentSymbols', { repo, path: 'src/shapes.ts' });
    // The top level is exactly the file's exported classes and interfaces, in order.
    const declared = linesOf(root(), 'src/shapes.ts').flatMap((text, i) => {
      const m = /^export (?:abstract )?(class|interface) (\w+)/.exec(text);
      return m ? [[m[2], m[1], i + 1]] : [];
    });
    assert.ok(declared.length >= 6);
    assert.deepEqual(
      r.symbols.map((s: any) => [s.name, s.kind, s.selection_range.line]),
      declared,
    );
    const circle = r.symbols.find((s: any) => s.name === 'Circle');
    const members = circle.children.map((c: any) => c.name);
    for (const m of ['name', 'area', 'scale']) assert.ok(members.includes(m), `Circle lists ${m}: ${members}`);
    // The class's range spans its body, lines 12-24.
    assert.equal(circle.range.line, 12);
    assert.equal(circle.range.end_line, 24);
  });

  test("documentSymbols: every symbol's range holds its selection_range, a const bound to an arrow function's too", async () => {
    // LSP requires selectionRange inside range (editors reject an outline that breaks it). The extent of
    // `export const describe = (shape) => ...` is the arrow function's, which starts after the name.
    const inside = (outer: any, inner: any) =>
      (outer.line < inner.line || (outer.line === inner.line && outer.column <= inner.column)) &&
      (inner.end_line < outer.end_line || (inner.end_line === outer.end_line && inner.end_column <= outer.end_column));
    for (const path of trackedFiles(root()).filter((p) => p.endsWith('.ts'))) {
      const r = await ok('documentSymbols', { repo, path });
      const walk = (symbols: any[]): void => {
        for (const s of symbols) {
          assert.ok(
            inside(s.range, s.selection_range),
            `${path} ${s.name}: ${JSON.stringify(s.range)} holds ${JSON.stringify(s.selection_range)}`,
          );
          walk(s.children);
        }
      };
      walk(r.symbols);
    }
    const text = linesOf(root(), 'src/geometry.ts');
    const line = text.findIndex((l) => l.startsWith('export const describe = (')) + 1;
    const r = await ok('documentSymbols', { repo, path: 'src/geometry.ts' });
    const described = r.symbols.find((s: any) => s.name === 'describe');
    const name = at(root(), 'src/geometry.ts', line, 'describe').column;
    assert.deepEqual(described.selection_range, { line, column: name, end_line: line, end_column: name + 'describe'.length });
    // From the name to the end of the arrow function: the end of the line but its semicolon.
    assert.ok(text[line - 1]!.endsWith('`;'));
    assert.deepEqual(described.range, { line, column: name, end_line: line, end_column: text[line - 1]!.length });
  });

  test('the CLI answers too, with paths typed relative to the current directory inside the repository', () => {
    const r = sextant(['def', 'geometry.ts:4:17', '--json'], { env, cwd: join(root(), 'src') });
    assert.equal(r.code, 0, r.stderr);
    // geometry.ts:4 is `export function totalArea(`; column 17 is the name itself.
    assert.equal(at(root(), 'src/geometry.ts', 4, 'totalArea').column, 17);
    const result = JSON.parse(r.stdout);
    assert.deepEqual(result.definitions.map(where), [at(root(), 'src/geometry.ts', 4, 'totalArea')]);
    const refs = sextant(['refs', 'totalArea'], { env, cwd: root() });
    assert.equal(refs.code, 0, refs.stderr);
    // Among them: the declaration (geometry.ts:4), the call on line 24, the import and the call in main.ts.
    assert.match(refs.stdout, /^src\/geometry\.ts:4:17 +definition /m);
    assert.match(refs.stdout, /^src\/geometry\.ts:24:\d+ +call /m);
    assert.match(refs.stdout, /^src\/main\.ts:1:\d+ +import /m);
    assert.match(refs.stdout, /^src\/main\.ts:6:\d+ +call /m);
    // One line per reference, then the count.
    const listed = refs.stdout.split('\n').filter((l) => /^src\/\S+:\d+:\d+ /.test(l));
    assert.match(refs.stdout, new RegExp(`^${listed.length} references$`, 'm'));
  });

  test('the CLI takes a path inside the repository for --repo, as `sextant index` takes it', () => {
    const expected = [at(root(), 'src/geometry.ts', 4, 'totalArea')];
    // Inside the worktree, positions are typed relative to the current directory, as without --repo.
    for (const [repo, cwd, position] of [
      [root(), tmpdir(), 'src/geometry.ts:4:17'],
      ['.', join(root(), 'src'), 'geometry.ts:4:17'],
      [relative(tmpdir(), join(root(), 'src')), tmpdir(), 'src/geometry.ts:4:17'],
    ] as const) {
      const r = sextant(['def', position, '--repo', repo, '--json'], { env, cwd });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout).definitions.map(where), expected, `--repo ${repo} from ${cwd}`);
    }
    // A repository not indexed: the fix is named; a path to nothing is an unknown name.
    const plain = gitRepoOf('not-indexed', { 'a.ts': 'export const a = 1;\n' });
    const unindexed = sextant(['def', 'a.ts:1:14', '--repo', plain], { env, cwd: tmpdir() });
    assert.equal(unindexed.code, 1);
    assert.match(unindexed.stderr, /is not indexed yet: run `sextant index .+`, or pass --repo NAME\n$/);
    const nowhere = sextant(['def', 'a.ts:1:14', '--repo', './no/such/dir'], { env, cwd: tmpdir() });
    assert.match(nowhere.stderr, /unknown repository "\.\/no\/such\/dir" \(known repositories: /);
    removeDir(dirname(plain));
  });

  test('the CLI asked where there is no symbol, in an edited worktree, answers in one line on stderr and exits 1', () => {
    // The list of files changed since the index starts beside the answer; an answer of no symbol ends without it,
    // and the CLI closed the registry under it: an unhandled rejection, ~100 kB of bundle on stderr, exit 1.
    const main = join(root(), 'src', 'main.ts');
    const text = readFileSync(main, 'utf8');
    const untracked = join(root(), 'notes.txt');
    try {
      writeFileSync(main, text + '// edited\n');
      writeFileSync(untracked, 'not tracked\n');
      assert.match(readFileSync(main, 'utf8').split('\n')[0]!, /^import /);
      for (const command of ['refs', 'calls', 'def']) {
        const r = sextant([command, 'src/main.ts:1:1'], { env, cwd: root() });
        assert.equal(r.code, 1);
        assert.match(r.stderr, new RegExp(`^sextant ${command}: no symbol at src/main\\.ts:1:1 [^\\n]*\\n$`));
      }
    } finally {
      writeFileSync(main, text);
      rmSync(untracked, { force: true });
    }
  });
});

describe('py-shapes', () => {
  const repo = 'py-shapes';
  const root = () => roots[repo]!;

  test('the report says Python is precise, every module indexed', () => {
    const r = reports[repo]!;
    assert.equal(r.outcome, 'indexed');
    // main.py and the five modules of shapes/.
    assert.equal(r.languages.python.tier, 'precise');
    const modules = trackedFiles(root()).filter((p) => p.endsWith('.py'));
    assert.ok(modules.includes('main.py') && modules.includes('shapes/polygon.py'));
    assert.equal(r.languages.python.files, modules.length);
    assert.equal(r.languages.python.indexed_files, modules.length);
    assert.equal(r.languages.python.indexer, 'scip-python');
  });

  test('goToDefinition across modules: a function call and a class', async () => {
    assert.deepEqual(await definitionsAt(repo, at(root(), 'main.py', 7, 'make(')), [at(root(), 'shapes/geometry.py', 42, 'make')]);
    assert.deepEqual(await definitionsAt(repo, at(root(), 'main.py', 3, 'Square')), [at(root(), 'shapes/polygon.py', 28, 'Square')]);
    // A base class named in a class statement.
    assert.deepEqual(await definitionsAt(repo, at(root(), 'shapes/polygon.py', 28, 'Scalable')), [
      at(root(), 'shapes/base.py', 14, 'Scalable'),
    ]);
  });

  test('findReferences of total_area: its definition, the call in report(), and the import and call in main.py', async () => {
    const decl = at(root(), 'shapes/geometry.py', 14, 'total_area');
    const r = await ok('findReferences', { repo, ...decl });
    assert.deepEqual(
      r.references.map((x: any) => ({ ...where(x), kind: x.kind })),
      [
        { ...at(root(), 'main.py', 2, 'total_area'), kind: 'import' },
        { ...at(root(), 'main.py', 9, 'total_area'), kind: 'call' },
        { ...decl, kind: 'definition' },
        { ...at(root(), 'shapes/geometry.py', 35, 'total_area'), kind: 'call' },
      ],
    );
  });

  test('an attribute of a class with __slots__ is declared in the slot list and where __init__ assigns it, as pyright answers, and its uses are not the class', async () => {
    // scip-python names `self.x` and `p.x` in point.py with Point's own symbol, defined in the slot list; pyright's
    // goToDefinition gives the assignment `self.x = x` as well.
    const P = 'shapes/point.py';
    const slot = at(root(), P, 8, '"x"', { offset: 1 });
    const uses = [at(root(), P, 11, 'x ='), at(root(), P, 15, 'x*'), at(root(), P, 19, 'x +')];
    for (const use of uses) assert.deepEqual(await definitionsAt(repo, use), [slot, uses[0]], `${use.line}:${use.column}`);
    const refs = await ok('findReferences', { repo, ...uses[2]! });
    assert.deepEqual(refs.references.map(where), [slot, ...uses]);
    // Point's references are its definition and the names Point, not its attributes' uses.
    const point = await ok('findReferences', { repo, ...at(root(), P, 7, 'Point') });
    assert.deepEqual(
      point.references.map(where),
      [
        [7, 0],
        [18, 0],
        [18, 1],
        [19, 0],
        [22, 0],
        [23, 0],
        [26, 0],
      ].map(([line, nth]) => at(root(), P, line!, 'Point', { nth })),
    );
  });

  test('a module imported relatively (`from . import base`, `from .polygon import`) is defined in its file, and used at its name', async () => {
    // scip-python names it `base/__init__:`, where shapes/base.py defines `shapes.base`.
    const P = 'shapes/point.py';
    const base = { path: 'shapes/base.py', line: 1, column: 1 };
    assert.deepEqual(await definitionsAt(repo, at(root(), P, 3, 'base')), [base]);
    assert.deepEqual(await definitionsAt(repo, at(root(), P, 22, 'base.')), [base]);
    assert.deepEqual(await definitionsAt(repo, at(root(), P, 4, 'polygon')), [{ path: 'shapes/polygon.py', line: 1, column: 1 }]);
    // Its use starts at its name, as pyright's reference does (and it answers nothing at the dot), not at the dot
    // scip-python's occurrence spans.
    const polygon = await ok('findReferences', { repo, ...at(root(), P, 4, 'polygon') });
    assert.deepEqual(
      polygon.references.filter((r: any) => r.path === P).map((r: any) => [r.line, r.column, r.end_column]),
      [[4, at(root(), P, 4, 'polygon').column, at(root(), P, 4, 'polygon').column + 'polygon'.length]],
    );
    // One module for both spellings: the relative import's references include the absolute imports elsewhere.
    const refs = await ok('findReferences', { repo, ...at(root(), P, 3, 'base') });
    const found = refs.references.map(where);
    for (const p of [at(root(), P, 3, 'base'), at(root(), P, 22, 'base.'), at(root(), 'shapes/circle.py', 3, 'shapes.base')])
      assert.ok(
        found.some((f: any) => f.path === p.path && f.line === p.line),
        `${p.path}:${p.line} in ${JSON.stringify(found)}`,
      );
  });

  test('`from m import A as B` is a use of A at A and at B, and `as` is a keyword', async () => {
    // scip-python records one occurrence over all of `Square as Sq`.
    const P = 'shapes/point.py';
    const square = at(root(), 'shapes/polygon.py', 28, 'Square');
    assert.deepEqual(await definitionsAt(repo, at(root(), P, 4, 'Square')), [square]);
    assert.deepEqual(await definitionsAt(repo, at(root(), P, 4, 'Sq', { nth: 1 })), [square]);
    const keyword = await ok('goToDefinition', { repo, ...at(root(), P, 4, ' as ', { offset: 1 }) });
    assert.deepEqual([keyword.found, keyword.definitions], [false, []]);
    const refs = await ok('findReferences', { repo, ...square, limit: 2000 });
    const inPoint = refs.references.filter((r: any) => r.path === P).map((r: any) => ({ ...where(r), end_column: r.end_column }));
    const use = (line: number, needle: string, length: number, nth = 0) => ({
      ...at(root(), P, line, needle, { nth }),
      end_column: at(root(), P, line, needle, { nth }).column + length,
    });
    assert.deepEqual(inPoint, [use(4, 'Square', 6), use(4, 'Sq', 2, 1), use(22, 'Sq', 2)]);
  });

  test("a name in a module's __all__ is a reference to what the module defines or imports under it", async () => {
    // scip-python records nothing in strings; pyright counts `"moved"` in `__all__ = [...]` among moved's references.
    const P = 'shapes/point.py';
    const moved = await ok('findReferences', { repo, ...at(root(), P, 18, 'moved') });
    assert.deepEqual(
      moved.references.map((r: any) => ({ ...where(r), kind: r.kind })),
      [
        { ...at(root(), P, 18, 'moved'), kind: 'definition' },
        { ...at(root(), P, 26, 'moved'), kind: 'identifier' },
      ],
    );
    // An imported name (a module imported relatively here) is referred to as well.
    const base = await ok('findReferences', { repo, ...at(root(), P, 3, 'base') });
    assert.ok(base.references.some((r: any) => r.path === P && r.line === 26 && r.column === at(root(), P, 26, 'base').column));
  });

  test('documentSymbols of polygon.py lists its three classes with their methods', async () => {
    const r = await ok('documentSymbols', { repo, path: 'shapes/polygon.py' });
    assert.deepEqual(
      r.symbols.map((s: any) => s.name),
      ['Polygon', 'Rectangle', 'Square'],
    );
    const rectangle = r.symbols.find((s: any) => s.name === 'Rectangle');
    const members = rectangle.children.map((c: any) => c.name);
    for (const m of ['__init__', 'sides', 'area']) assert.ok(members.includes(m), `Rectangle lists ${m}: ${members}`);
  });
});

describe("sextant's own source", () => {
  const repo = 'sextant';
  const root = () => roots[repo]!;

  test('the report says TypeScript and Python are precise', () => {
    const r = reports[repo]!;
    assert.equal(r.outcome, 'indexed');
    assert.equal(r.languages.typescript.tier, 'precise');
    assert.equal(r.languages.python.tier, 'precise');
    // Every .ts file is indexed: those tsconfig.json includes (src, registry, test, scripts) by it, the fixtures by their own.
    assert.equal(r.languages.typescript.indexed_files, r.languages.typescript.files);
    const projects = r.indexers.find((i: any) => i.name === 'scip-typescript').projects;
    assert.equal(projects.find((p: any) => p.config === 'tsconfig.json').files, projectTypeScript(root()).length);
    assert.equal(
      projects.find((p: any) => p.config === 'test/fixtures/ts-shapes/tsconfig.json').files,
      filesUnder(root(), 'test/fixtures/ts-shapes/src', /\.ts$/).length,
    );
  });

  test('goToDefinition of UserError from an import lands on its class in src/errors.ts', async () => {
    const decl = find(root(), 'src/errors.ts', /^export class (UserError)\b/);
    const use = find(root(), 'src/cli/main.ts', /^import \{ (?:\w+, )*(UserError)\b/);
    assert.deepEqual(await definitionsAt(repo, use), [decl]);
  });

  test('findReferences of UserError lists an import in every file that imports it', async () => {
    const importers = projectTypeScript(root()).filter((p) =>
      /import\s*(type\s*)?\{[^}]*\bUserError\b[^}]*\}\s*from/.test(readFileSync(join(root(), p), 'utf8')),
    );
    assert.ok(importers.length >= 5, `UserError is imported widely (${importers.length})`);
    const r = await ok('findReferences', { repo, symbol: 'UserError', kind: 'import', limit: 2000 });
    assert.equal(r.truncated, false);
    const found = new Set(r.references.map((x: any) => x.path));
    assert.deepEqual(
      importers.filter((p) => !found.has(p)),
      [],
    );
    assert.ok(r.references.every((x: any) => x.kind === 'import'));
  });

  test("goToDefinition in sextant's Python helper", async () => {
    const use = find(root(), 'src/syntax/python_refs.py', /= (Collector)\(/);
    assert.deepEqual(await definitionsAt(repo, use), [find(root(), 'src/syntax/python_refs.py', /^class (Collector)\b/)]);
  });
});

describe('a worktree indexed under a name of its own', () => {
  test('`sextant index` without --repo indexes it under that name again, as reindex, watch and status do, not under a second one', () => {
    const named = testHome();
    const dir = tempDir('sextant-named-');
    const root = join(dir, 'folder-name');
    try {
      mkdirSync(root);
      git(root, 'init', '-q');
      writeFileSync(join(root, 'notes.txt'), 'a note\n');
      commitAll(root, 'a note');
      const first = sextant(['index', root, '--repo', 'chosen-name', '--json'], { env: named.env });
      assert.equal(first.code, 0, first.stderr);
      const again = sextant(['index', root, '--json'], { env: named.env });
      assert.equal(again.code, 0, again.stderr);
      assert.equal(JSON.parse(again.stdout).repo, 'chosen-name');
      const all = sextant(['status', '--all', '--json'], { env: named.env });
      assert.deepEqual(
        JSON.parse(all.stdout).map((s: { repo: string }) => s.repo),
        ['chosen-name'],
      );
    } finally {
      removeDir(dir);
      removeDir(named.home);
    }
  });
});
