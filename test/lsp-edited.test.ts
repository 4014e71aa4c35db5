// Edited code: a file whose worktree text differs from the indexed blob is
// answered by its language server (typescript-language-server, pyright) from
// the current text, without reindexing; unchanged files still answer from the
// index. An agent's edit adds a function and two calls to it in one file.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { linesOf, type Position } from './support/positions.js';
import { commitAll, fixtureRepo, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, testHome, type McpSession } from './support/sextant.js';
import { TypeScriptLanguageServer } from './support/typescript-language-server.js';
import { LspPool, poolOptions } from '../src/lsp/pool.js';

const key = (p: { path: string; line: number; column: number }) => `${p.path}:${p.line}:${p.column}`;

/** Every position of `word` in a file, 1-based. */
function occurrences(root: string, path: string, word: string): Position[] {
  const out: Position[] = [];
  linesOf(root, path).forEach((text, i) => {
    for (const m of text.matchAll(new RegExp(`\\b${word}\\b`, 'g'))) out.push({ path, line: i + 1, column: m.index + 1 });
  });
  return out;
}

describe('edited TypeScript is answered by typescript-language-server', () => {
  const root = fixtureRepo('ts-shapes');
  const { home, env } = testHome();
  let session: McpSession;
  let server: TypeScriptLanguageServer;

  before(async () => {
    indexOrThrow(root, env);
    // The agent's edit, after the index: a new function and two calls to it.
    appendFileSync(
      join(root, 'src', 'main.ts'),
      '\nfunction shapeCount(list: unknown[]): number {\n  return list.length;\n}\nconsole.log(shapeCount(shapes), shapeCount(lines));\n',
    );
    // And a new file no index lists (untracked).
    writeFileSync(
      join(root, 'src', 'untracked.ts'),
      "import { unitRectangle } from './geometry';\nexport const unit = unitRectangle();\nexport class Area {\n  size(): number {\n    return 1;\n  }\n}\n",
    );
    session = await mcpSession(env);
    server = await TypeScriptLanguageServer.start(root);
  });
  after(async () => {
    await session?.close();
    await server?.stop();
    removeDir(home);
    removeDir(root);
  });

  test('goToDefinition and findReferences at the new code match the server asked directly, each location from lsp', async () => {
    const uses = occurrences(root, 'src/main.ts', 'shapeCount');
    assert.equal(uses.length, 3);
    const [definition, call] = [uses[0]!, uses[1]!];
    const def = await session.ok('goToDefinition', { repo: 'ts-shapes', ...call });
    assert.equal(def.source, 'lsp');
    assert.equal(def.meta.provenance, 'local-lsp');
    assert.deepEqual(def.definitions.map(key), [key(definition)]);
    assert.equal(def.definitions[0].source, 'lsp');

    const refs = await session.ok('findReferences', { repo: 'ts-shapes', ...call });
    const direct = await server.references('src/main.ts', call.line - 1, call.column - 1, true);
    const expected = direct.map((l) => `${l.path}:${l.line + 1}:${l.character + 1}`).sort();
    assert.deepEqual(refs.references.map(key).sort(), expected);
    assert.deepEqual(expected, uses.map(key).sort());
    assert.ok(refs.references.every((r: any) => r.source === 'lsp'));
    assert.equal(refs.partial, undefined, 'waited for the project to load within the budget');
  });

  test('status shows typescript-language-server, started by the query at edited code', async () => {
    const s = await session.ok('getIndexStatus', { repo: 'ts-shapes' });
    assert.equal(s.language_tiers.typescript.tier, 'precise');
    const server = s.language_servers.find((x: any) => x.server === 'typescript-language-server');
    assert.equal(server.state, 'ready');
    assert.ok(server.requests > 0 && server.pid > 0);
  });

  test('a file no index lists (untracked) is answered by the server, as the server answers it directly', async () => {
    const [call] = occurrences(root, 'src/untracked.ts', 'unitRectangle').slice(1);
    const def = await session.ok('goToDefinition', { repo: 'ts-shapes', ...call! });
    assert.equal(def.source, 'lsp');
    const direct = await server.definition('src/untracked.ts', call!.line - 1, call!.column - 1);
    assert.ok(direct.length > 0, 'the server finds the definition');
    assert.deepEqual(
      def.definitions.map((d: any) => `${d.path}:${d.line}`),
      direct.map((l) => `${l.path}:${l.line + 1}`),
    );
    assert.equal(def.definitions[0].path, 'src/geometry.ts');
  });

  test('documentSymbols of a file no index lists (untracked) is the server outline of it, in the file order', async () => {
    const r = await session.ok('documentSymbols', { repo: 'ts-shapes', path: 'src/untracked.ts' });
    assert.equal(r.source, 'lsp');
    assert.equal(r.meta.provenance, 'local-lsp');
    const outline = (list: any[]): unknown[] =>
      list.map((s) => [s.name, s.kind, key({ path: 'src/untracked.ts', ...s.selection_range }), outline(s.children)]);
    // The server lists them by name (Area first); the outline keeps the file order, as the index outline does.
    assert.deepEqual(outline(r.symbols), [
      ['unit', 'constant', 'src/untracked.ts:2:14', []],
      ['Area', 'class', 'src/untracked.ts:3:14', [['size', 'method', 'src/untracked.ts:4:3', []]]],
    ]);
    assert.deepEqual(r.symbols[1].range, { line: 3, column: 1, end_line: 7, end_column: 2 });
  });

  test('documentSymbols of an edited file is the server outline of its text now, with what the edit added', async () => {
    const r = await session.ok('documentSymbols', { repo: 'ts-shapes', path: 'src/main.ts' });
    assert.equal(r.source, 'lsp');
    const [definition] = occurrences(root, 'src/main.ts', 'shapeCount');
    const added = r.symbols.find((s: any) => s.name === 'shapeCount');
    assert.ok(added, JSON.stringify(r.symbols.map((s: any) => s.name)));
    assert.equal(added.kind, 'function');
    assert.deepEqual({ line: added.selection_range.line, column: added.selection_range.column }, { line: definition!.line, column: definition!.column });
    // The file's own constants, as before the edit.
    for (const name of ['shapes', 'lines', 'p']) assert.ok(r.symbols.some((s: any) => s.name === name), name);
  });

  test('an unchanged file still answers from the index', async () => {
    const [name] = occurrences(root, 'src/geometry.ts', 'totalArea');
    const def = await session.ok('goToDefinition', { repo: 'ts-shapes', ...name! });
    assert.equal(def.source, 'precise');
    assert.equal(def.meta.provenance, 'local-index');
  });

  test('findReferences at unchanged code keeps the index in unchanged files and takes the server in an edited one', async () => {
    const [definition] = occurrences(root, 'src/geometry.ts', 'totalArea');
    const before = await session.ok('findReferences', { repo: 'ts-shapes', ...definition! });
    // Another edit of main.ts: every line moves down one, and a new call comes last.
    const main = join(root, 'src', 'main.ts');
    writeFileSync(main, `// edited\n${readFileSync(main, 'utf8')}totalArea([]);\n`);
    const after = await session.ok('findReferences', { repo: 'ts-shapes', ...definition! });
    const unchanged = before.references.filter((r: any) => r.path !== 'src/main.ts');
    const inMain = occurrences(root, 'src/main.ts', 'totalArea');
    assert.equal(inMain.length, 3);
    assert.deepEqual(after.references.map(key).sort(), [...unchanged.map(key), ...inMain.map(key)].sort());
    assert.equal(after.total, unchanged.length + inMain.length);
    for (const r of after.references) assert.equal(r.source, r.path === 'src/main.ts' ? 'lsp' : 'precise', key(r));
    assert.equal(after.source, 'precise');
    assert.equal(after.meta.provenance, 'local-lsp');
  });

  test('goToDefinition at unchanged code whose definition is on a line changed since is the server\'s', async () => {
    // The signature line of formatArea changes; its call in geometry.ts does not.
    const format = join(root, 'src', 'util', 'format.ts');
    writeFileSync(format, readFileSync(format, 'utf8').replace('formatArea(value: number)', 'formatArea(value: number, digits = PRECISION)'));
    const [, call] = occurrences(root, 'src/geometry.ts', 'formatArea');
    const def = await session.ok('goToDefinition', { repo: 'ts-shapes', ...call! });
    const direct = await server.definition('src/geometry.ts', call!.line - 1, call!.column - 1);
    assert.equal(def.source, 'lsp');
    assert.equal(def.found, true);
    assert.deepEqual(
      def.definitions.map((d: any) => `${d.path}:${d.line}:${d.column}`),
      direct.map((l) => `${l.path}:${l.line + 1}:${l.character + 1}`),
    );
    assert.deepEqual(def.definitions.map((d: any) => d.path), ['src/util/format.ts']);
  });
});

describe('files changed since the index that its answer does not go through', () => {
  const root = fixtureRepo('ts-shapes');
  const { home, env } = testHome();
  let session: McpSession;
  let server: TypeScriptLanguageServer;
  const largest = () => occurrences(root, 'src/geometry.ts', 'largest')[0]!;

  before(async () => {
    indexOrThrow(root, env);
    // After the index: a new file (untracked) and an edit of a file the index has, each using largest(), which the
    // index's answer finds only in geometry.ts; and an edit of main.ts that names nothing of geometry's.
    writeFileSync(join(root, 'src', 'ranking.ts'), "import { largest } from './geometry';\nexport const top = largest([]);\n");
    appendFileSync(join(root, 'src', 'measure.ts'), "\nimport { largest } from './geometry';\nexport function biggest(shapes: readonly Shape[]) {\n  return largest(shapes);\n}\n");
    appendFileSync(join(root, 'src', 'main.ts'), '\nconsole.log(0);\n');
    session = await mcpSession(env);
    server = await TypeScriptLanguageServer.start(root);
  });
  after(async () => {
    await session?.close();
    await server?.stop();
    removeDir(home);
    removeDir(root);
  });

  const direct = async (at: Position) =>
    (await server.references(at.path, at.line - 1, at.column - 1, true)).map((l) => `${l.path}:${l.line + 1}:${l.character + 1}`).sort();

  test('findReferences lists the uses they add, from the server, beside the index in unchanged files', async () => {
    const refs = await session.ok('findReferences', { repo: 'ts-shapes', ...largest() });
    const expected = await direct(largest());
    assert.ok(expected.some((k) => k.startsWith('src/ranking.ts:')) && expected.some((k) => k.startsWith('src/measure.ts:')), expected.join(' '));
    assert.deepEqual(refs.references.map(key).sort(), expected);
    assert.equal(refs.total, expected.length);
    for (const r of refs.references) assert.equal(r.source, r.path === 'src/geometry.ts' ? 'precise' : 'lsp', key(r));
    assert.equal(refs.meta.provenance, 'local-lsp');
  });

  test('callHierarchy lists the callers they add, from the server', async () => {
    const calls = await session.ok('callHierarchy', { repo: 'ts-shapes', ...largest(), direction: 'incoming' });
    assert.deepEqual(calls.calls.map((c: any) => `${c.from.path}:${c.from.name}`).sort(), [
      'src/geometry.ts:report',
      'src/measure.ts:biggest',
      'src/ranking.ts:ranking.ts',
    ]);
  });

  test('a name no changed file spells is answered by the index alone, without asking the server', async () => {
    const [countDown] = occurrences(root, 'src/geometry.ts', 'countDown');
    const refs = await session.ok('findReferences', { repo: 'ts-shapes', ...countDown! });
    assert.deepEqual(refs.references.map(key).sort(), await direct(countDown!));
    assert.ok(refs.references.every((r: any) => r.source === undefined), 'no location from the server');
    assert.equal(refs.meta.provenance, 'local-index');
  });

  test('workspaceSymbols and goToDefinition by name find what a changed file declares, from the server', async () => {
    const found = await session.ok('workspaceSymbols', { repo: 'ts-shapes', query: 'biggest' });
    const [declared] = occurrences(root, 'src/measure.ts', 'biggest');
    assert.deepEqual(
      found.symbols.map((s: any) => [s.name, s.kind, key(s), s.match, s.source]),
      [['biggest', 'function', key(declared!), 'exact', 'lsp']],
    );
    assert.equal(found.total, 1);
    const byName = await session.ok('goToDefinition', { repo: 'ts-shapes', symbol: 'biggest' });
    assert.equal(byName.found, true);
    assert.deepEqual(byName.definitions.map((d: any) => [key(d), d.source]), [[key(declared!), 'lsp']]);
    // A changed file that holds the name but declares nothing of it leaves the index's answer as it was.
    const indexed = await session.ok('workspaceSymbols', { repo: 'ts-shapes', query: 'largest' });
    assert.deepEqual(
      indexed.symbols.map((s: any) => [s.name, s.path, s.source ?? 'precise']),
      [['largest', 'src/geometry.ts', 'precise']],
    );
  });

  test('with a kind filter, which a server cannot apply, the answer is the index\'s, stale, naming the files not searched', async () => {
    const refs = await session.ok('findReferences', { repo: 'ts-shapes', ...largest(), kind: 'call' });
    assert.deepEqual(
      refs.references.map((r: any) => r.path),
      ['src/geometry.ts'],
    );
    assert.equal(refs.stale, true);
    assert.equal(refs.index_freshness, 'stale');
    assert.match(refs.message, /^2 files changed since the index name it and were not searched \(a kind filter does not apply to a language server's references\): src\/(measure|ranking)\.ts, src\/(measure|ranking)\.ts; reindex to include them$/);
  });

  test('a file created after an answer is seen by the next ones (the server follows the worktree)', async () => {
    await session.ok('findReferences', { repo: 'ts-shapes', ...largest() });
    writeFileSync(join(root, 'src', 'later.ts'), "import { largest } from './geometry';\nlargest([]);\n");
    // File events reach the server within moments: ask until the answer has the new file, for at most 30 s.
    let refs: any;
    for (let i = 0; i < 300; i++) {
      refs = await session.ok('findReferences', { repo: 'ts-shapes', ...largest() });
      if (refs.references.some((r: any) => r.path === 'src/later.ts')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(refs.references.map(key).sort(), await direct(largest()));
    assert.ok(refs.references.some((r: any) => r.path === 'src/later.ts'));
  });
});

describe('files changed since the index, with no language server to search them', () => {
  const root = fixtureRepo('ts-shapes');
  const { home, env } = testHome();
  env.SEXTANT_LSP = '0';
  let session: McpSession;
  const largest = () => occurrences(root, 'src/geometry.ts', 'largest')[0]!;

  before(async () => {
    indexOrThrow(root, env);
    writeFileSync(join(root, 'src', 'ranking.ts'), "import { largest } from './geometry';\nexport const top = largest([]);\n");
    session = await mcpSession(env);
  });
  after(async () => {
    await session?.close();
    removeDir(home);
    removeDir(root);
  });

  test('findReferences keeps the index\'s references and says stale, naming the file it did not search', async () => {
    const refs = await session.ok('findReferences', { repo: 'ts-shapes', ...largest() });
    assert.deepEqual([...new Set(refs.references.map((r: any) => r.path))], ['src/geometry.ts']);
    assert.equal(refs.stale, true);
    assert.equal(refs.index_freshness, 'stale');
    assert.equal(
      refs.message,
      '1 file changed since the index names it and was not searched (no language server for typescript): src/ranking.ts; reindex to include them',
    );
  });

  test('workspaceSymbols and goToDefinition by name say so too', async () => {
    const found = await session.ok('workspaceSymbols', { repo: 'ts-shapes', query: 'top' });
    assert.equal(found.stale, true);
    assert.equal(
      found.message,
      '1 file changed since the index holds the name and was not searched (no language server for typescript): src/ranking.ts; reindex to include them',
    );
    const byName = await session.ok('goToDefinition', { repo: 'ts-shapes', symbol: 'top' });
    assert.equal(byName.found, false);
    assert.equal(byName.stale, true);
    assert.match(byName.message, /^no definition named exactly "top" in ts-shapes: .*; 1 file changed since the index holds the name and was not searched/);
  });

  test('callHierarchy says so in its notes; a name no changed file spells stays fresh', async () => {
    const calls = await session.ok('callHierarchy', { repo: 'ts-shapes', ...largest(), direction: 'incoming' });
    assert.equal(calls.stale, true);
    assert.ok(calls.notes.some((n: string) => n.startsWith('1 file changed since the index names it and was not searched')), calls.notes.join(' | '));
    const [countDown] = occurrences(root, 'src/geometry.ts', 'countDown');
    const refs = await session.ok('findReferences', { repo: 'ts-shapes', ...countDown! });
    assert.equal(refs.stale, false);
    assert.equal(refs.index_freshness, 'fresh');
    assert.equal(refs.message, undefined);
  });
});

describe('files changed by commits since the index (HEAD answered by its nearest indexed ancestor)', () => {
  const root = fixtureRepo('ts-shapes');
  const { home, env } = testHome();
  let session: McpSession;
  let server: TypeScriptLanguageServer;
  const largest = () => occurrences(root, 'src/geometry.ts', 'largest')[0]!;

  before(async () => {
    indexOrThrow(root, env);
    // Committed after the index, not indexed: a new file using largest(). The worktree is clean (git status lists nothing).
    writeFileSync(join(root, 'src', 'ranking.ts'), "import { largest } from './geometry';\nexport const top = largest([]);\n");
    commitAll(root, 'rank shapes');
    session = await mcpSession(env);
    server = await TypeScriptLanguageServer.start(root);
  });
  after(async () => {
    await session?.close();
    await server?.stop();
    removeDir(home);
    removeDir(root);
  });

  test('findReferences has the uses they add, from the server, as the server answers directly', async () => {
    const refs = await session.ok('findReferences', { repo: 'ts-shapes', ...largest() });
    const direct = (await server.references('src/geometry.ts', largest().line - 1, largest().column - 1, true))
      .map((l) => `${l.path}:${l.line + 1}:${l.character + 1}`)
      .sort();
    assert.ok(direct.some((k) => k.startsWith('src/ranking.ts:')), direct.join(' '));
    assert.deepEqual(refs.references.map(key).sort(), direct);
    assert.ok(refs.references.filter((r: any) => r.path === 'src/ranking.ts').every((r: any) => r.source === 'lsp'));
    assert.equal(refs.nearest_commit.distance, 1);
  });
});

describe('edited Python is answered by pyright', () => {
  const root = fixtureRepo('py-shapes');
  const { home, env } = testHome();
  let session: McpSession;

  before(async () => {
    indexOrThrow(root, env);
    appendFileSync(
      join(root, 'main.py'),
      '\n\ndef shape_count(items):\n    return len(items)\n\n\nprint(shape_count([1]), shape_count([]))\n',
    );
    session = await mcpSession(env);
  });
  after(async () => {
    await session?.close();
    removeDir(home);
    removeDir(root);
  });

  test('goToDefinition and findReferences at the new function come from pyright, from the current text', async () => {
    const uses = occurrences(root, 'main.py', 'shape_count');
    assert.equal(uses.length, 3);
    const def = await session.ok('goToDefinition', { repo: 'py-shapes', ...uses[2]! });
    assert.equal(def.source, 'lsp');
    assert.deepEqual(def.definitions.map(key), [key(uses[0]!)]);
    const refs = await session.ok('findReferences', { repo: 'py-shapes', ...uses[1]! });
    assert.deepEqual(refs.references.map(key).sort(), uses.map(key).sort());
    assert.ok(refs.references.every((r: any) => r.source === 'lsp'));
    const unchanged = occurrences(root, 'shapes/geometry.py', 'total_area')[0]!;
    assert.equal((await session.ok('goToDefinition', { repo: 'py-shapes', ...unchanged })).source, 'precise');
  });

  test("documentSymbols of a new Python file is pyright's outline, without parameters and locals, as the index's", async () => {
    writeFileSync(
      join(root, 'shapes', 'fresh.py'),
      'LIMIT = 3\n\n\nclass Fresh:\n    size = 1\n\n    def grow(self, by):\n        more = by + 1\n\n        def twice():\n            return more * 2\n\n        return twice()\n',
    );
    const r = await session.ok('documentSymbols', { repo: 'py-shapes', path: 'shapes/fresh.py' });
    assert.equal(r.source, 'lsp');
    const outline = (list: any[]): unknown[] => list.map((s) => [s.name, s.kind, s.selection_range.line, outline(s.children)]);
    assert.deepEqual(outline(r.symbols), [
      ['LIMIT', 'constant', 1, []],
      [
        'Fresh',
        'class',
        4,
        [
          ['size', 'variable', 5, []],
          ['grow', 'method', 7, [['twice', 'function', 10, []]]],
        ],
      ],
    ]);
  });
});

/**
 * A session over ts-shapes indexed, then edited (a function and a call appended to src/main.ts), whose answers never
 * wait for the language server to load a project (SEXTANT_LSP_WAIT_SECONDS=0): one is partial unless the server had
 * loaded it before the question.
 */
function editedWithoutWaiting(): { root: string; session: () => McpSession } {
  const root = fixtureRepo('ts-shapes');
  const { home, env } = testHome();
  env.SEXTANT_LSP_WAIT_SECONDS = '0';
  let session: McpSession;
  before(async () => {
    indexOrThrow(root, env);
    appendFileSync(
      join(root, 'src', 'main.ts'),
      '\nfunction shapeCount(list: unknown[]): number {\n  return list.length;\n}\nshapeCount(shapes);\n',
    );
    session = await mcpSession(env);
  });
  after(async () => {
    await session?.close();
    removeDir(home);
    removeDir(root);
  });
  return { root, session: () => session };
}

describe('edited code while the server still loads', () => {
  const { root, session } = editedWithoutWaiting();

  test('the first answer is flagged partial with the seconds so far, never an empty unflagged one', async () => {
    const call = occurrences(root, 'src/main.ts', 'shapeCount')[1]!;
    const refs = await session().ok('findReferences', { repo: 'ts-shapes', ...call });
    assert.equal(refs.partial, true);
    assert.match(refs.partial_reason, /^typescript-language-server is still loading ts-shapes \(\d+\.\d s so far\)/);
    assert.equal(refs.meta.coverage, 'approximate');
  });
});

describe('edited code, once any question has been answered', () => {
  const { root, session } = editedWithoutWaiting();

  test('has its language server started and its project loaded before the first question about it', async () => {
    const serverState = async () =>
      (await session().ok('getIndexStatus', { repo: 'ts-shapes' })).language_servers.find(
        (x: any) => x.server === 'typescript-language-server',
      );
    // The first answer, about nothing edited, is what starts the warm-up (in the background, after it).
    const first = await serverState();
    assert.equal(first.state, 'not_started');
    let state = first.state;
    for (let i = 0; i < 600 && state !== 'ready'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = (await serverState()).state;
    }
    assert.equal(state, 'ready', 'started and loaded without a question about edited code');
    const call = occurrences(root, 'src/main.ts', 'shapeCount')[1]!;
    const refs = await session().ok('findReferences', { repo: 'ts-shapes', ...call });
    assert.equal(refs.source, 'lsp');
    assert.equal(refs.partial, undefined, 'the project was loaded before the question');
    assert.deepEqual(refs.references.map(key).sort(), occurrences(root, 'src/main.ts', 'shapeCount').map(key).sort());
  });
});

describe('two first questions at once', () => {
  const root = fixtureRepo('ts-shapes');
  const { home, env } = testHome();
  after(() => {
    removeDir(home);
    removeDir(root);
  });

  test('both wait for the server they start together to load its project: neither answers partial', async () => {
    const pool = new LspPool(poolOptions(env), env);
    try {
      const ask = () =>
        pool.ask<unknown[]>({ slug: 'ts-shapes', root }, 'typescript', 'src/main.ts', 'textDocument/documentSymbol', (uri) => ({
          textDocument: { uri },
        }));
      const asked = ask();
      // The second comes while the first's server is spawned but has not answered initialize yet.
      const state = () => pool.status('ts-shapes', ['typescript'])[0]?.state;
      while (state() !== 'starting') await new Promise((resolve) => setTimeout(resolve, 1));
      const [first, second] = await Promise.all([asked, ask()]);
      assert.deepEqual([first.loadingSeconds, second.loadingSeconds], [null, null]);
      assert.ok(first.value.length > 0);
      assert.deepEqual(second.value, first.value);
    } finally {
      await pool.close();
    }
  });
});
