// Solution configs: a tsconfig.json that lists no files of its own and
// references the projects that do (`"files": []` with `references`, as Vite's
// templates write it at the root and Nx's in each library). A language server
// gives a file the first referenced project that includes it, with that
// project's options (`paths` aliases among them); so does sextant, and the
// referenced configs, and the configs they extend, shape a reindex as a
// tsconfig.json does. The answers are checked against typescript-language-server
// on the same tree.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { commitAll, gitRepoOf, removeDir } from './support/repos.js';
import { sextant, testHome } from './support/sextant.js';
import { TypeScriptLanguageServer, type LspLocation } from './support/typescript-language-server.js';

const repo = 'solution';
const { home, env } = testHome();
let root: string;
const cleanup: string[] = [];

const BASE = (strict: boolean) =>
  JSON.stringify({ compilerOptions: { strict, lib: ['es2022'], baseUrl: '.', paths: { '@acme/ui': ['libs/ui/src/index.ts'] } } }) + '\n';

const FILES: Record<string, string> = {
  'tsconfig.json':
    '{\n  "files": [],\n  "references": [{ "path": "./tsconfig.app.json" }, { "path": "./tsconfig.tools.json" }, { "path": "libs/ui" }]\n}\n',
  'tsconfig.base.json': BASE(true),
  // `paths` replaces the base's: the app adds its own alias for src.
  'tsconfig.app.json':
    '{ "extends": "./tsconfig.base.json", "compilerOptions": { "paths": { "@acme/ui": ["libs/ui/src/index.ts"], "@/*": ["./src/*"] } }, "include": ["src"] }\n',
  'tsconfig.tools.json': '{ "extends": "./tsconfig.base.json", "include": ["tools"] }\n',
  'src/lib/format.ts': 'export function formatCount(n: number): string {\n  return n === 1 ? "1 item" : `${n} items`;\n}\n',
  'src/main.ts':
    "import { formatCount } from '@/lib/format';\nimport { button } from '@acme/ui';\n\nexport const label = button(formatCount(3));\n",
  'tools/build.ts': "import { formatCount } from '../src/lib/format';\n\nexport const summary = formatCount(2);\n",
  'libs/ui/tsconfig.json': '{ "files": [], "references": [{ "path": "./tsconfig.lib.json" }, { "path": "./tsconfig.spec.json" }] }\n',
  'libs/ui/tsconfig.lib.json': '{ "extends": "../../tsconfig.base.json", "include": ["src/**/*.ts"], "exclude": ["src/**/*.spec.ts"] }\n',
  'libs/ui/tsconfig.spec.json': '{ "extends": "../../tsconfig.base.json", "include": ["src/**/*.spec.ts"] }\n',
  'libs/ui/src/index.ts': "export { button } from './button';\n",
  'libs/ui/src/button.ts': 'export function button(label: string): string {\n  return `[${label}]`;\n}\n',
  'libs/ui/src/button.spec.ts': "import { button } from './button';\n\nexport const shown = button('ok');\n",
  // Under no config: the inferred project's.
  'scripts/clean.js': "const { rmSync } = require('node:fs');\n\nrmSync('dist', { recursive: true, force: true });\n",
};

/** Overwrites a file of the solution repository (its folder exists). */
function write(path: string, text: string): void {
  writeFileSync(join(root, path), text);
}

function cli(...args: string[]): any {
  const r = sextant([...args, '--json'], { env });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const scip = (report: any) => report.indexers.find((i: any) => i.name === 'scip-typescript');
/** A location as `path:line:column` (1-based), from sextant's answer or the server's. */
const at = (l: { path: string; line: number; column: number }) => `${l.path}:${l.line}:${l.column}`;
const lspAt = (l: LspLocation) => `${l.path}:${l.line + 1}:${l.character + 1}`;

before(() => {
  root = gitRepoOf(repo, FILES);
  cli('index', root);
});

after(() => {
  for (const dir of [dirname(root), ...cleanup, home]) removeDir(dir);
});

/**
 * Asks typescript-language-server and sextant (`slug` in the registry) at
 * every position of `root`, with those files and `alsoOpen` open in the
 * server: the same definitions and references. `serverAnswers` checks that
 * the server's definitions are the ones the test is about.
 */
async function answersAsTheServer(
  root: string,
  slug: string,
  positions: readonly [string, number, number][],
  alsoOpen: readonly string[],
  serverAnswers: (expected: string[], where: string) => void,
): Promise<void> {
  const server = await TypeScriptLanguageServer.start(root);
  try {
    for (const path of new Set([...positions.map(([p]) => p), ...alsoOpen])) await server.open(path);
    for (const [path, line, column] of positions) {
      const where = `${path}:${line}:${column}`;
      const expected = (await server.definition(path, line - 1, column - 1)).map(lspAt).sort();
      serverAnswers(expected, where);
      assert.deepEqual(cli('def', where, '--repo', slug).definitions.map(at).sort(), expected, `definitions at ${where}`);
      const expectedRefs = (await server.references(path, line - 1, column - 1, true)).map(lspAt).sort();
      assert.deepEqual(cli('refs', where, '--repo', slug).references.map(at).sort(), expectedRefs, `references at ${where}`);
    }
  } finally {
    await server.stop();
  }
}

/** A second repository: references the planner must not follow, and one it cannot read. */
const BROKEN: Record<string, string> = {
  'tsconfig.json':
    '{ "files": [], "references": [{ "path": "./tsconfig.app.json" }, { "path": "./tsconfig.lib.json" }, { "path": "../outside" }, { "path": "./missing.json" }] }\n',
  'tsconfig.app.json': '{ "include": ["src"\n',
  'tsconfig.lib.json': '{ "include": ["lib"], "references": [{ "path": "./tsconfig.json" }] }\n',
  'src/a.ts': 'export const a = 1;\n',
  'lib/b.ts': 'export const b = 2;\n',
};

describe('a solution config and the projects it references', () => {
  test('each referenced project owns the files it includes; status lists each with its files, the inferred project only what no config includes', () => {
    const status = cli('status', repo);
    const projects = status.projects.map((p: any) => [p.config, p.files, p.indexed_files, p.problem]);
    assert.deepEqual(projects, [
      ['libs/ui/tsconfig.lib.json', 2, 2, null],
      ['libs/ui/tsconfig.spec.json', 1, 1, null],
      ['tsconfig.app.json', 2, 2, null],
      ['tsconfig.tools.json', 1, 1, null],
      [null, 1, 1, null],
    ]);
  });

  test("goToDefinition and findReferences through the referenced projects' `paths` aliases answer as typescript-language-server does", async () => {
    // src/main.ts: `button(formatCount(3))` on line 4; libs/ui/src/button.ts: `button` on line 1.
    const positions: [string, number, number][] = [
      ['src/main.ts', 4, 22],
      ['src/main.ts', 4, 30],
      ['src/main.ts', 1, 12],
      ['libs/ui/src/button.ts', 1, 19],
      ['tools/build.ts', 3, 25],
    ];
    // A file of every project is open, so that the server has loaded each (its references search only those).
    await answersAsTheServer(root, repo, positions, ['libs/ui/src/button.spec.ts'], (expected, where) =>
      assert.ok(
        expected.every((l) => !l.startsWith('/')),
        `the server resolves ${where} inside the repository`,
      ),
    );
  });

  test('a referenced config that cannot be read is named with its error; a reference outside the repository, to no file, or back to the solution is not followed', () => {
    const broken = gitRepoOf('broken', BROKEN);
    cleanup.push(dirname(broken));
    // What `../outside` names, beside the repository: never read.
    writeFileSync(join(dirname(broken), 'outside'), 'not a config\n');
    cli('index', broken);
    const projects = cli('status', 'broken').projects.map((p: any) => [p.config, p.files, p.problem]);
    assert.deepEqual(projects, [
      ['tsconfig.lib.json', 1, null],
      [null, 1, null],
      ['tsconfig.app.json', 0, "tsconfig.app.json cannot be read: ']' expected."],
    ]);
  });

  test('an edit to a referenced config, or to a config it extends, makes every project run', () => {
    write('tsconfig.base.json', BASE(false));
    commitAll(root, 'loosen the base');
    let report = cli('reindex', root).report;
    assert.equal(scip(report).projects_reused, 0);
    assert.ok(
      scip(report).projects.every((p: any) => p.granularity === 'project' && p.fallback === 'tsconfig.base.json changed'),
      JSON.stringify(scip(report).projects),
    );
    write(
      'libs/ui/tsconfig.spec.json',
      '{ "extends": "../../tsconfig.base.json", "include": ["src/**/*.spec.ts"], "compilerOptions": { "noEmit": true } }\n',
    );
    commitAll(root, 'spec: no emit');
    report = cli('reindex', root).report;
    assert.equal(scip(report).projects_reused, 0);
    assert.ok(scip(report).projects.every((p: any) => p.fallback === 'libs/ui/tsconfig.spec.json changed'));
    // An edit to a source file still runs its own project only.
    write('libs/ui/src/button.spec.ts', "import { button } from './button';\n\nexport const shown = button('yes');\n");
    commitAll(root, 'spec: yes');
    report = cli('reindex', root).report;
    assert.equal(scip(report).projects_reused, 4);
  });
});

/**
 * Composite projects that import each other by package name, as a workspace
 * links them: `@ws/store`'s package.json points at its output
 * (`dist/index.d.ts`), which is not built. The compiler finds the sources
 * only through the referencing project's `references`.
 */
const COMPOSITE = (extra: object) =>
  JSON.stringify({
    compilerOptions: {
      composite: true,
      strict: true,
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'bundler',
      outDir: 'dist',
      rootDir: 'src',
    },
    include: ['src'],
    ...extra,
  }) + '\n';
const WORKSPACE: Record<string, string> = {
  'package.json': '{ "name": "ws", "private": true, "workspaces": ["packages/*"] }\n',
  '.gitignore': 'node_modules\ndist\n',
  'tsconfig.json': '{ "files": [], "references": [{ "path": "packages/store" }, { "path": "packages/app" }] }\n',
  'packages/store/package.json':
    '{ "name": "@ws/store", "version": "1.0.0", "type": "module", "types": "./dist/index.d.ts", "exports": { ".": { "types": "./dist/index.d.ts", "import": "./dist/index.js" } } }\n',
  'packages/store/tsconfig.json': COMPOSITE({}),
  'packages/store/src/index.ts': "export { createStore, type Store } from './store';\n",
  'packages/store/src/store.ts':
    'export interface Store<T> {\n  get(): T;\n  set(value: T): void;\n}\n\nexport function createStore<T>(initial: T): Store<T> {\n  let value = initial;\n  return { get: () => value, set: (next) => void (value = next) };\n}\n',
  'packages/app/package.json': '{ "name": "@ws/app", "version": "1.0.0", "type": "module", "dependencies": { "@ws/store": "1.0.0" } }\n',
  'packages/app/tsconfig.json': COMPOSITE({ references: [{ path: '../store' }] }),
  'packages/app/src/counter.ts':
    "import { createStore, type Store } from '@ws/store';\n\nexport const counter: Store<number> = createStore(0);\n\nexport function increment(): void {\n  counter.set(counter.get() + 1);\n}\n",
  'packages/app/src/labels.ts': "import { createStore } from '@ws/store';\n\nexport const labels = createStore<string[]>([]);\n",
  'packages/app/src/main.ts': "import { increment } from './counter';\n\nincrement();\n",
  'packages/app/src/reset.ts': "import { counter } from './counter';\n\nexport const reset = () => counter.set(0);\n",
};

describe('composite projects that import each other by package name, unbuilt', () => {
  let ws: string;
  before(() => {
    ws = gitRepoOf('ws', WORKSPACE);
    cleanup.push(dirname(ws));
    // What a workspace install makes: untracked, ignored.
    mkdirSync(join(ws, 'node_modules', '@ws'), { recursive: true });
    symlinkSync('../../packages/store', join(ws, 'node_modules', '@ws', 'store'));
    cli('index', ws);
  });

  // counter.ts: the import of createStore, the type Store, the call, and a member through the type;
  // store.ts: createStore's declaration and Store's `set`.
  const positions: [string, number, number][] = [
    ['packages/app/src/counter.ts', 1, 10],
    ['packages/app/src/counter.ts', 3, 23],
    ['packages/app/src/counter.ts', 3, 39],
    ['packages/app/src/counter.ts', 6, 11],
    ['packages/store/src/store.ts', 6, 17],
    ['packages/store/src/store.ts', 3, 3],
  ];

  /** The server must answer in the store's sources. */
  const sameAsTheServer = () =>
    answersAsTheServer(ws, 'ws', positions, [], (expected, where) =>
      assert.ok(
        expected.some((l) => l.startsWith('packages/store/src/store.ts:')),
        `the server answers ${where} in the store's sources: ${expected}`,
      ),
    );

  test("an import of a referenced project's package answers its sources, and their references reach the importers, as typescript-language-server does", async () => {
    await sameAsTheServer();
  });

  test('so does an incremental run that indexes the edited file alone', async () => {
    writeFileSync(
      join(ws, 'packages/app/src/labels.ts'),
      "import { createStore } from '@ws/store';\n\nexport const labels = createStore<string[]>(['a']);\n",
    );
    commitAll(ws, 'a first label');
    const report = cli('reindex', ws).report;
    const app = scip(report).projects.find((p: any) => p.config === 'packages/app/tsconfig.json');
    assert.equal(app?.granularity, 'files', JSON.stringify(scip(report).projects));
    await sameAsTheServer();
  });
});
