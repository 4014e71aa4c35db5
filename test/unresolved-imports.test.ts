// Names imported from a module the indexer could not resolve: a package not
// installed when the repository was indexed, as @reduxjs/toolkit's sources
// are without `npm install` (`import type { UnknownAction } from 'redux'`,
// and files that only re-export, `export { current, isDraft } from 'immer'`).
// scip-typescript gives each such name a local symbol and no definition, so
// goToDefinition answered nothing at its uses, and nowhere in a file of
// re-exports (8 of RTK's 107 files). TypeScript's language server calls the
// binding in the import clause the declaration of an alias it cannot
// resolve, and so does sextant now, in Python too (`from absent_pkg import
// render`). A file importing such a name from the file that re-exports it
// answers its own import binding, as the server does (it cannot follow the
// alias further), and the name's references span both files.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { at, pathLineColumn as where } from './support/positions.js';
import { gitRepoOf, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, testHome, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
const repo = 'absent-deps';
let root: string;
let session: McpSession;

const VENDOR = 'src/vendor.ts';
const CONFIG = 'src/config.ts';
const REPORT = 'tools/report.py';
const FACADE = 'src/facade.ts';
const USES_FACADE = 'src/uses-facade.ts';
const CHANNELS = 'src/channels.d.ts';

describe('names imported from a module the index does not cover', () => {
  before(async () => {
    root = gitRepoOf(repo, {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { strict: true, module: 'esnext', moduleResolution: 'bundler' },
        include: ['src'],
      }),
      [VENDOR]: "export {\n  load,\n  dump as toYaml,\n} from 'yaml-absent';\n",
      [CONFIG]: [
        "import type { Schema } from 'yaml-absent';",
        "import * as colors from 'colors-absent';",
        "import { load } from './vendor';",
        '',
        'export function readConfig(text: string, schema: Schema): unknown {',
        '  colors.enable();',
        '  return load(text, { schema });',
        '}',
        '',
      ].join('\n'),
      [FACADE]:
        "import { stringify, parse as parseYaml } from 'yaml-absent';\n\nexport { stringify, parseYaml };\nexport const helpers = { stringify };\n",
      [USES_FACADE]: "import { stringify } from './facade';\n\nexport const out = stringify({});\n",
      [CHANNELS]: "import type { Channel } from 'channel-absent';\nexport type { Channel };\nexport declare let metrics: Channel;\n",
      [REPORT]: 'from absent_pkg import render\nimport absent_mod as am\n\n\ndef report(rows):\n    return render(am.style, rows)\n',
    });
    indexOrThrow(root, env);
    session = await mcpSession(env);
  });
  after(async () => {
    await session?.close();
    removeDir(home);
    if (root) removeDir(root);
  });

  test('goToDefinition at a use answers the binding in the import clause, naming the module', async () => {
    const r = await session.ok('goToDefinition', { repo, ...at(root, CONFIG, 5, 'Schema') });
    assert.equal(r.found, true);
    assert.equal(r.source, 'precise');
    assert.deepEqual(
      r.definitions.map((d: any) => `${where(d)} ${d.kind} ${d.name} ${d.signature}`),
      [`${where(at(root, CONFIG, 1, 'Schema'))} unknown Schema from 'yaml-absent'`],
    );
  });

  test('a namespace import is the definition of its name', async () => {
    const r = await session.ok('goToDefinition', { repo, ...at(root, CONFIG, 6, 'colors') });
    assert.deepEqual(
      r.definitions.map((d: any) => where(d)),
      [where(at(root, CONFIG, 2, 'colors'))],
    );
  });

  test('every name of a file that only re-exports answers goToDefinition with itself', async () => {
    for (const [line, name] of [
      [2, 'load'],
      [3, 'toYaml'],
    ] as const) {
      const p = at(root, VENDOR, line, name);
      const r = await session.ok('goToDefinition', { repo, ...p });
      assert.equal(r.found, true, `${name}: ${r.message}`);
      assert.deepEqual(
        r.definitions.map((d: any) => where(d)),
        [where(p)],
        name,
      );
    }
  });

  test('findReferences lists the import as the declaration beside the uses', async () => {
    const r = await session.ok('findReferences', { repo, ...at(root, CONFIG, 5, 'Schema') });
    assert.equal(r.source, 'precise');
    assert.deepEqual(
      r.references.map((x: any) => `${where(x)} ${x.is_definition}`),
      [`${where(at(root, CONFIG, 1, 'Schema'))} true`, `${where(at(root, CONFIG, 5, 'Schema'))} false`],
    );
  });

  test('a file importing a re-exported name from its re-exporter answers its own import binding, as the server does, and its references cross files', async () => {
    const reexport = at(root, VENDOR, 2, 'load');
    const binding = at(root, CONFIG, 3, 'load');
    for (const position of [at(root, CONFIG, 7, 'load'), binding]) {
      const d = await session.ok('goToDefinition', { repo, ...position });
      assert.equal(d.found, true, d.message);
      assert.deepEqual(
        d.definitions.map((x: any) => `${where(x)} ${x.kind} ${x.signature}`),
        [`${where(binding)} unknown from 'yaml-absent'`],
        where(position),
      );
    }
    const own = await session.ok('goToDefinition', { repo, ...reexport });
    assert.deepEqual(
      own.definitions.map((x: any) => where(x)),
      [where(reexport)],
    );
    const r = await session.ok('findReferences', { repo, ...reexport });
    assert.deepEqual(
      r.references.map((x: any) => `${where(x)} ${x.kind}`),
      [`${where(at(root, CONFIG, 3, 'load'))} import`, `${where(at(root, CONFIG, 7, 'load'))} call`, `${where(reexport)} definition`],
    );
  });

  test('a name an export list exports from such an import (`export { stringify }`) is its own definition, and the references reach the files importing it from there', async () => {
    // As typescript-language-server lists them, from any of the five places (preact's compat/src/index.js).
    const binding = at(root, FACADE, 1, 'stringify');
    const listed = at(root, FACADE, 3, 'stringify');
    const expected = [
      `${where(binding)} definition`,
      `${where(listed)} identifier`,
      `${where(at(root, FACADE, 4, 'stringify'))} identifier`,
      `${where(at(root, USES_FACADE, 1, 'stringify'))} import`,
      `${where(at(root, USES_FACADE, 3, 'stringify'))} call`,
    ];
    for (const position of [binding, listed, at(root, USES_FACADE, 3, 'stringify')]) {
      const r = await session.ok('findReferences', { repo, ...position });
      assert.deepEqual(
        r.references.map((x: any) => `${where(x)} ${x.kind}`),
        expected,
        where(position),
      );
    }
    // TypeScript cannot follow the alias past the binding, and answers the name in the list (lru-cache's `export type
    // { Channel }` of a name from node:diagnostics_channel without @types/node); at a use, it answers the binding.
    const d = await session.ok('goToDefinition', { repo, ...listed });
    assert.equal(d.found, true, d.message);
    assert.deepEqual(
      d.definitions.map((x: any) => `${where(x)} ${x.kind} ${x.signature}`),
      [`${where(listed)} unknown from 'yaml-absent'`],
    );
    const used = await session.ok('goToDefinition', { repo, ...at(root, FACADE, 4, 'stringify') });
    assert.deepEqual(
      used.definitions.map((x: any) => where(x)),
      [where(binding)],
    );
    // A type-only list in a declaration file, likewise.
    for (const [line, expected] of [
      [2, at(root, CHANNELS, 2, 'Channel')],
      [3, at(root, CHANNELS, 1, 'Channel')],
    ] as const) {
      const c = await session.ok('goToDefinition', { repo, ...at(root, CHANNELS, line, 'Channel') });
      assert.deepEqual(
        c.definitions.map((x: any) => where(x)),
        [where(expected)],
        `${CHANNELS}:${line}`,
      );
    }
    // A binding renamed in its import clause (`parse as parseYaml`) is exported by the name it binds.
    const renamed = await session.ok('findReferences', { repo, ...at(root, FACADE, 3, 'parseYaml') });
    assert.deepEqual(
      renamed.references.map((x: any) => where(x)),
      [where(at(root, FACADE, 1, 'parseYaml')), where(at(root, FACADE, 3, 'parseYaml'))],
    );
  });

  test('in Python too: the import binding is the definition, naming the module, and a hierarchy there says why it has none', async () => {
    const use = at(root, REPORT, 6, 'render');
    const d = await session.ok('goToDefinition', { repo, ...use });
    assert.equal(d.found, true, d.message);
    assert.deepEqual(
      d.definitions.map((x: any) => `${where(x)} ${x.kind} ${x.signature}`),
      [`${where(at(root, REPORT, 1, 'render'))} unknown from absent_pkg`],
    );
    const r = await session.call('callHierarchy', { repo, ...use, direction: 'outgoing' });
    assert.equal(r.isError, true);
    assert.match(
      r.result.error,
      /^cannot build a call hierarchy: render is imported from absent_pkg, a module the indexer could not resolve/,
    );
  });
});
