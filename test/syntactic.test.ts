// The syntactic tier: a language with no SCIP indexer (Go here), or whose
// indexer failed (Python excluded by its pyrightconfig.json), gets its
// definitions from the real universal-ctags. Expectations are read from the
// source text (`func Name(`, `type Name struct`), never copied from answers.
import assert from 'node:assert/strict';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { logrusRepo, semverRepo } from './support/corpus.js';
import { FIXTURES } from './support/paths.js';
import { at, linesOf, trackedFiles, where, type Position } from './support/positions.js';
import { commitAll, git, removeDir, tempDir } from './support/repos.js';
import { indexOrThrow, mcpSession, sextant, testHome, toolError, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
const cleanup: string[] = [home];
let session: McpSession;

/** Top-level declarations of Go files, from their text. */
interface GoDeclaration extends Position {
  name: string;
  kind: 'function' | 'method' | 'struct' | 'interface';
  receiver?: string;
}

function goDeclarations(root: string, paths: readonly string[]): GoDeclaration[] {
  const out: GoDeclaration[] = [];
  for (const path of paths) {
    // Lines inside a raw string literal (a Go program quoted in a test) declare nothing.
    let inRawString = false;
    linesOf(root, path).forEach((text, i) => {
      const quoted = inRawString;
      if ((text.split('`').length - 1) % 2 === 1) inRawString = !inRawString;
      if (quoted) return;
      const fn = /^func (\w+)\(/.exec(text);
      const method = /^func \(\w+ \*?(\w+)\) (\w+)\(/.exec(text);
      const type = /^type (\w+) (struct|interface) \{/.exec(text);
      if (fn) out.push({ name: fn[1]!, kind: 'function', path, line: i + 1, column: 6 });
      if (method)
        out.push({
          name: method[2]!,
          kind: 'method',
          receiver: method[1]!,
          path,
          line: i + 1,
          column: text.indexOf(`) ${method[2]}(`) + 3,
        });
      if (type) out.push({ name: type[1]!, kind: type[2] as 'struct' | 'interface', path, line: i + 1, column: 6 });
    });
  }
  return out;
}

/** Every whole-word occurrence of `word` in these files, as positions. */
function wordOccurrences(root: string, paths: readonly string[], word: string): Position[] {
  const out: Position[] = [];
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${word}(?![\\p{L}\\p{N}_])`, 'gu');
  for (const path of paths) {
    linesOf(root, path).forEach((text, i) => {
      for (const m of text.matchAll(pattern)) out.push({ path, line: i + 1, column: m.index + 1 });
    });
  }
  return out;
}

after(async () => {
  await session?.close();
  for (const dir of cleanup) removeDir(dir);
});

describe('a real Go repository (logrus, from Debian) is syntactic', () => {
  let root: string;
  let report: Record<string, any>;
  let goFiles: string[];
  let declarations: GoDeclaration[];

  before(async () => {
    root = logrusRepo();
    cleanup.push(dirname(root));
    report = indexOrThrow(root, env);
    goFiles = trackedFiles(root).filter((p) => p.endsWith('.go'));
    declarations = goDeclarations(root, goFiles);
    session = await mcpSession(env);
  });

  test('the index reports Go syntactic, from universal-ctags, and the repository partial', async () => {
    assert.equal(report.outcome, 'partial');
    assert.equal(report.languages.go.tier, 'syntactic');
    assert.equal(report.languages.go.files, goFiles.length);
    assert.equal(report.languages.go.indexed_files, goFiles.length);
    assert.equal(report.languages.go.indexer, 'universal-ctags');
    assert.ok(report.syntactic_definitions >= declarations.length, `${report.syntactic_definitions} definitions`);
    const ctags = report.indexers.find((i: any) => i.name === 'universal-ctags');
    assert.equal(ctags.status, 'ok');

    const status = await session.ok('getIndexStatus', { repo: 'logrus' });
    assert.equal(status.status, 'partial');
    assert.equal(status.indexed, true);
    assert.equal(status.language_tiers.go.tier, 'syntactic');
    assert.equal(status.capabilities.navigation.available, true);
    assert.match(status.capabilities.navigation.reason, /no precise index: go is syntactic/);
    assert.match(status.capabilities.navigation.reason, /call and type hierarchies need a precise index/);

    const cli = sextant(['status', 'logrus', '--json'], { env });
    assert.equal(cli.code, 0, cli.stderr);
    const cliStatus = JSON.parse(cli.stdout);
    assert.equal(cliStatus.status, 'partial');
    assert.equal(cliStatus.language_tiers.go.tier, 'syntactic');
    const text = sextant(['status', 'logrus'], { env });
    assert.match(text.stdout, /^logrus: partial at /m);
    assert.match(text.stdout, /go +\d+ files +syntactic/);
  });

  test('workspaceSymbols finds every top-level function and type of the source (func Name, type Name struct)', async () => {
    assert.ok(declarations.filter((d) => d.kind !== 'method').length > 100, 'logrus declares many functions and types');
    for (const d of declarations.filter((x) => x.kind !== 'method')) {
      const kind = d.kind === 'function' ? 'function' : d.kind;
      const r = await session.ok('workspaceSymbols', { repo: 'logrus', query: d.name, kind, limit: 500 });
      assert.equal(r.source, 'syntactic');
      const hit = r.symbols.find((s: any) => s.name === d.name && s.path === d.path && s.line === d.line);
      assert.ok(hit, `${d.kind} ${d.name} at ${d.path}:${d.line}`);
      assert.equal(hit.match, 'exact');
      assert.equal(hit.column, d.column);
    }
  });

  test('goToDefinition by name finds functions, types and methods where the source declares them', async () => {
    for (const d of declarations) {
      const r = await session.ok('goToDefinition', { repo: 'logrus', symbol: d.name });
      assert.equal(r.source, 'syntactic');
      assert.equal(r.found, true, d.name);
      const hit = r.definitions.find((x: any) => x.path === d.path && x.line === d.line);
      assert.ok(hit, `${d.name} at ${d.path}:${d.line}: ${JSON.stringify(r.definitions.map(where))}`);
      assert.equal(hit.kind, d.kind, `${d.name} at ${d.path}:${d.line}`);
      assert.equal(hit.column, d.column);
      assert.equal(hit.preview, linesOf(root, d.path)[d.line - 1]!.trimEnd());
      if (d.receiver) assert.match(hit.container, new RegExp(`(^|\\.)${d.receiver}$`));
    }
    // The CLI answers the same.
    const sample = declarations.find((d) => d.name === 'NewEntry')!;
    const cli = sextant(['def', 'NewEntry', '--repo', 'logrus', '--json'], { env });
    assert.equal(cli.code, 0, cli.stderr);
    const out = JSON.parse(cli.stdout);
    assert.equal(out.source, 'syntactic');
    assert.deepEqual(out.definitions.map(where), [where(sample)]);
  });

  test('goToDefinition at a use resolves the word under the cursor, same file first', async () => {
    // Every name declared in more than one file, used on a line of one of those files that is not a declaration.
    const byName = new Map<string, GoDeclaration[]>();
    for (const d of declarations) byName.set(d.name, [...(byName.get(d.name) ?? []), d]);
    let checked = 0;
    for (const [name, decls] of byName) {
      const files = new Set(decls.map((d) => d.path));
      if (files.size < 2) continue;
      for (const file of files) {
        const use = wordOccurrences(root, [file], name).find((p) => !decls.some((d) => d.path === p.path && d.line === p.line));
        if (!use) continue;
        const r = await session.ok('goToDefinition', { repo: 'logrus', ...use });
        assert.equal(r.source, 'syntactic');
        assert.equal(r.definitions[0].path, file, `${name} at ${use.path}:${use.line}: same file first`);
        for (const d of decls)
          assert.ok(
            r.definitions.some((x: any) => x.path === d.path && x.line === d.line),
            `${name}: ${d.path}:${d.line}`,
          );
        checked++;
      }
    }
    assert.ok(checked >= 5, `${checked} uses checked`);
  });

  test("documentSymbols nests a struct's fields and the methods declared with it by ctags scope", async () => {
    const r = await session.ok('documentSymbols', { repo: 'logrus', path: 'entry.go' });
    assert.equal(r.source, 'syntactic');
    const entry = r.symbols.find((s: any) => s.name === 'Entry' && s.kind === 'struct');
    assert.ok(entry, 'type Entry struct');
    const methods = declarations.filter((d) => d.path === 'entry.go' && d.receiver === 'Entry').map((d) => d.name);
    assert.ok(methods.length > 10);
    const children = entry.children.filter((c: any) => c.kind === 'method').map((c: any) => c.name);
    assert.deepEqual([...children].sort(), [...methods].sort());
    // Its fields, from the struct's body in the text.
    const lines = linesOf(root, 'entry.go');
    const start = lines.findIndex((l) => l.startsWith('type Entry struct'));
    const end = lines.findIndex((l, i) => i > start && l === '}');
    const fields = lines.slice(start + 1, end).flatMap((l) => /^\t(\w+)\s+\S/.exec(l)?.[1] ?? []);
    assert.deepEqual(
      entry.children.filter((c: any) => c.kind === 'field').map((c: any) => c.name),
      fields,
    );
    assert.equal(entry.range.line, start + 1);
    assert.equal(entry.range.end_line, end + 1);
  });

  test('findReferences answers whole-word text matches, flagged search, and says so', async () => {
    const expected = wordOccurrences(root, goFiles, 'NewEntry');
    const r = await session.ok('findReferences', { repo: 'logrus', symbol: 'NewEntry', limit: 2000 });
    assert.equal(r.source, 'search');
    assert.match(r.message, /^text matches, not resolved references/);
    assert.equal(r.total, expected.length);
    assert.deepEqual(r.references.map(where), expected);
    const declaration = declarations.find((d) => d.name === 'NewEntry')!;
    assert.deepEqual(r.references.filter((x: any) => x.is_definition).map(where), [where(declaration)]);
    const withoutDeclaration = await session.ok('findReferences', { repo: 'logrus', symbol: 'NewEntry', include_declaration: false });
    assert.equal(withoutDeclaration.total, expected.length - 1);

    const cli = sextant(['refs', 'NewEntry', '--repo', 'logrus'], { env });
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout.split('\n')[0]!, /^text matches, not resolved references/);
    assert.match(cli.stdout, new RegExp(`${expected.length} references`));

    // Kinds cannot be told from text: the request says how to fix itself.
    assert.match(
      await toolError(session, 'findReferences', { repo: 'logrus', symbol: 'NewEntry', kind: 'call' }),
      /text matches without kinds; omit kind/,
    );
  });

  test('a bad position in a Go file gets a one-line error that says how to fix it', async () => {
    const lines = linesOf(root, 'entry.go');
    const n = lines.length;
    assert.match(
      await toolError(session, 'goToDefinition', { repo: 'logrus', path: 'entry.go', line: n + 5, column: 1 }),
      new RegExp(`^line ${n + 5} is past the end of entry\\.go \\(${n} lines\\): pass a line between 1 and ${n}$`),
    );
    assert.match(
      await toolError(session, 'findReferences', { repo: 'logrus', path: 'entry.go', line: 1, column: lines[0]!.length + 5 }),
      /^column \d+ is past the end of line 1 of entry\.go/,
    );
    assert.match(await toolError(session, 'documentSymbols', { repo: 'logrus', path: '../entry.go' }), /leaves the repository/);
  });

  test('callHierarchy and typeHierarchy explain that they need the precise tier', async () => {
    const d = declarations.find((x) => x.name === 'NewEntry')!;
    const calls = await toolError(session, 'callHierarchy', {
      repo: 'logrus',
      path: d.path,
      line: d.line,
      column: d.column,
      direction: 'incoming',
    });
    assert.match(calls, /^callHierarchy needs the precise tier: entry\.go is go, which logrus has indexed syntactic/);
    assert.match(calls, /findReferences with whole-word text matches/);
    const entry = declarations.find((x) => x.name === 'Entry')!;
    const types = await toolError(session, 'typeHierarchy', { repo: 'logrus', ...where(entry), direction: 'supertypes' });
    assert.match(types, /^typeHierarchy needs the precise tier/);

    const cli = sextant(['calls', `${d.path}:${d.line}:${d.column}`, '--repo', 'logrus'], { env });
    assert.equal(cli.code, 1);
    assert.match(cli.stderr, /^sextant calls: callHierarchy needs the precise tier/);
    assert.equal(cli.stderr.trimEnd().split('\n').length, 1);
  });
});

describe('a real Rust crate (semver, from Debian) is syntactic', () => {
  let root: string;
  let report: Record<string, any>;
  let rustFiles: string[];
  /** `struct|enum|trait Name` and `fn name` declarations, from the text (doc comments excluded: they start with //). */
  const declared: (Position & { name: string; kind: string })[] = [];

  before(async () => {
    root = semverRepo();
    cleanup.push(dirname(root));
    report = indexOrThrow(root, env);
    rustFiles = trackedFiles(root).filter((p) => p.endsWith('.rs'));
    for (const path of rustFiles) {
      linesOf(root, path).forEach((text, i) => {
        const m = /^\s*(?:pub(?:\([\w:]+\))?\s+)?(?:const\s+)?(?:unsafe\s+)?(struct|enum|trait|fn) (\w+)/.exec(text);
        if (m) declared.push({ name: m[2]!, kind: m[1]!, path, line: i + 1, column: m.index + m[0].length - m[2]!.length + 1 });
      });
    }
    session ??= await mcpSession(env);
  });

  test('status: Rust syntactic, the crate partial', async () => {
    assert.equal(report.languages.rust.tier, 'syntactic');
    assert.equal(report.languages.rust.files, rustFiles.length);
    const status = await session.ok('getIndexStatus', { repo: 'semver' });
    assert.equal(status.status, 'partial');
    assert.equal(status.language_tiers.rust.tier, 'syntactic');
  });

  test('goToDefinition by name finds every struct, enum, trait and fn the source declares', async () => {
    assert.ok(declared.length > 50, `${declared.length} declarations`);
    const kinds: Record<string, string[]> = { struct: ['struct'], enum: ['enum'], trait: ['trait'], fn: ['function', 'method'] };
    for (const d of declared) {
      const r = await session.ok('goToDefinition', { repo: 'semver', symbol: d.name });
      assert.equal(r.source, 'syntactic');
      const hit = r.definitions.find((x: any) => x.path === d.path && x.line === d.line);
      assert.ok(hit, `${d.kind} ${d.name} at ${d.path}:${d.line}`);
      assert.equal(hit.column, d.column, `${d.name} at ${d.path}:${d.line}`);
      assert.ok(kinds[d.kind]!.includes(hit.kind), `${d.name}: ${hit.kind}`);
    }
  });

  test('an impl block does not answer for its type, and holds its methods in the outline', async () => {
    const version = declared.filter((d) => d.name === 'Version' && d.kind === 'struct');
    const r = await session.ok('goToDefinition', { repo: 'semver', symbol: 'Version' });
    assert.deepEqual(r.definitions.map(where), version.map(where));
    const lines = linesOf(root, 'src/lib.rs');
    const start = lines.indexOf('impl Version {');
    const end = lines.findIndex((l, i) => i > start && l === '}');
    const methods = declared.filter((d) => d.path === 'src/lib.rs' && d.line > start + 1 && d.line < end + 1 && d.kind === 'fn');
    assert.ok(methods.length > 0);
    const outline = await session.ok('documentSymbols', { repo: 'semver', path: 'src/lib.rs' });
    const block = outline.symbols.find((s: any) => s.name === 'impl Version');
    assert.ok(block, 'impl Version is listed by its header');
    assert.equal(block.selection_range.line, start + 1);
    assert.deepEqual(
      block.children.map((c: any) => [c.name, c.range.line]),
      methods.map((m) => [m.name, m.line]),
    );
  });

  test('references are text matches; hierarchies explain', async () => {
    const r = await session.ok('findReferences', { repo: 'semver', symbol: 'Comparator', limit: 2000 });
    assert.equal(r.source, 'search');
    assert.deepEqual(r.references.map(where), wordOccurrences(root, rustFiles, 'Comparator'));
    const d = declared.find((x) => x.name === 'Comparator')!;
    assert.match(
      await toolError(session, 'typeHierarchy', { repo: 'semver', ...where(d), direction: 'subtypes' }),
      /^typeHierarchy needs the precise tier: src\/lib\.rs is rust/,
    );
  });
});

describe('a mixed repository: TypeScript precise, Go and shell without an indexer, Python whose indexer indexes nothing', () => {
  let root: string;
  let report: Record<string, any>;

  before(async () => {
    const dir = tempDir();
    cleanup.push(dir);
    root = join(dir, 'tiers');
    cpSync(join(FIXTURES, 'ts-shapes'), root, { recursive: true });
    cpSync(join(FIXTURES, 'go-shell'), root, { recursive: true });
    cpSync(join(FIXTURES, 'py-shapes'), join(root, 'py'), { recursive: true });
    writeFileSync(join(root, 'pyrightconfig.json'), '{ "exclude": ["**"] }\n');
    git(root, 'init', '-q', '-b', 'main');
    commitAll(root, 'initial');
    report = indexOrThrow(root, env);
    session ??= await mcpSession(env);
  });

  test('each language gets its own tier, and the repository stays indexed', async () => {
    assert.equal(report.outcome, 'indexed');
    assert.equal(report.languages.typescript.tier, 'precise');
    for (const language of ['go', 'shell', 'python']) {
      assert.equal(report.languages[language].tier, 'syntactic', language);
      assert.equal(report.languages[language].indexer, 'universal-ctags');
    }
    // Python's indexer ran and indexed nothing: the reason says so, and the fix for precise navigation stays.
    assert.match(report.languages.python.reason, /scip-python/);
    assert.match(report.languages.python.recovery, /pyrightconfig\.json/);
    const status = await session.ok('getIndexStatus', { repo: 'tiers' });
    assert.equal(status.status, 'indexed');
    assert.equal(status.capabilities.navigation.available, true);
    assert.match(status.capabilities.navigation.reason, /go is syntactic: /);
  });

  test('a Go name resolves syntactically, a TypeScript one precisely', async () => {
    const go = await session.ok('goToDefinition', { repo: 'tiers', symbol: 'TotalArea' });
    assert.equal(go.source, 'syntactic');
    assert.deepEqual(go.definitions.map(where), [at(root, 'go/geometry/total.go', 4, 'TotalArea')]);
    const ts = await session.ok('goToDefinition', { repo: 'tiers', symbol: 'totalArea' });
    assert.equal(ts.source, 'precise');
    assert.deepEqual(ts.definitions.map(where), [at(root, 'src/geometry.ts', 4, 'totalArea')]);
    const shell = await session.ok('goToDefinition', { repo: 'tiers', symbol: 'build_all' });
    assert.equal(shell.source, 'syntactic');
    assert.deepEqual(shell.definitions.map(where), [at(root, 'scripts/deploy.sh', 4, 'build_all')]);
  });

  test('at a use, definitions rank same file, then same directory, then the rest', async () => {
    const inGeometry = await session.ok('goToDefinition', { repo: 'tiers', ...at(root, 'go/geometry/total.go', 14, 'NewCircle') });
    assert.deepEqual(inGeometry.definitions.map(where), [
      at(root, 'go/geometry/shape.go', 21, 'NewCircle'),
      at(root, 'go/legacy/legacy.go', 4, 'NewCircle'),
    ]);
    const inLegacy = await session.ok('goToDefinition', {
      repo: 'tiers',
      ...at(root, 'go/legacy/legacy.go', 10, 'NewCircle', { offset: 3 }),
    });
    assert.deepEqual(inLegacy.definitions.map(where), [
      at(root, 'go/legacy/legacy.go', 4, 'NewCircle'),
      at(root, 'go/geometry/shape.go', 21, 'NewCircle'),
    ]);
    // A keyword names nothing ctags defines: the answer says so instead of guessing.
    const keyword = await session.ok('goToDefinition', { repo: 'tiers', ...at(root, 'go/legacy/legacy.go', 10, 'return') });
    assert.equal(keyword.found, false);
    assert.match(keyword.message, /no definition of "return"/);
  });

  test('documentSymbols: Go and Python nested by scope, TypeScript still precise', async () => {
    const go = await session.ok('documentSymbols', { repo: 'tiers', path: 'go/geometry/shape.go' });
    assert.equal(go.source, 'syntactic');
    const outline = go.symbols.map((s: any) => [s.name, s.kind, s.children.map((c: any) => `${c.name}:${c.kind}`)]);
    assert.deepEqual(outline, [
      ['Shape', 'interface', ['Area:method']],
      ['Circle', 'struct', ['Radius:field', 'Area:method']],
      ['NewCircle', 'function', []],
    ]);
    const circle = go.symbols[1];
    assert.deepEqual(circle.selection_range, { line: 11, column: 6, end_line: 11, end_column: 12 });
    assert.equal(circle.detail, 'type Circle struct');
    const py = await session.ok('documentSymbols', { repo: 'tiers', path: 'py/shapes/base.py' });
    assert.equal(py.source, 'syntactic');
    assert.deepEqual(
      py.symbols.map((s: any) => [s.name, s.kind, s.children.map((c: any) => `${c.name}:${c.kind}`)]),
      [
        ['Shape', 'class', ['name:field', 'area:method']],
        ['Scalable', 'class', ['scale:method']],
      ],
    );
    const ts = await session.ok('documentSymbols', { repo: 'tiers', path: 'src/shapes.ts' });
    assert.equal(ts.source, 'precise');
  });

  test('workspaceSymbols merges the tiers, each syntactic symbol marked', async () => {
    const r = await session.ok('workspaceSymbols', { repo: 'tiers', query: 'Circle', kind: 'class' });
    const r2 = await session.ok('workspaceSymbols', { repo: 'tiers', query: 'Circle', kind: 'struct' });
    assert.equal(r.source, 'precise');
    const byPath = r.symbols.filter((s: any) => s.name === 'Circle').map((s: any) => [s.path, s.source ?? 'precise']);
    assert.deepEqual(byPath, [
      ['src/shapes.ts', 'precise'],
      ['py/shapes/circle.py', 'syntactic'],
    ]);
    assert.equal(r2.source, 'syntactic');
    assert.deepEqual(
      r2.symbols.map((s: any) => [s.path, s.line]),
      [['go/geometry/shape.go', 11]],
    );
  });

  test('findReferences on a Go name: text matches in the Go files only', async () => {
    const r = await session.ok('findReferences', { repo: 'tiers', ...at(root, 'go/geometry/total.go', 14, 'NewCircle') });
    assert.equal(r.source, 'search');
    const goFiles = trackedFiles(root).filter((p) => p.endsWith('.go'));
    assert.deepEqual(r.references.map(where), wordOccurrences(root, goFiles, 'NewCircle'));
    assert.match(r.message, /in the go files of tiers/);
  });

  test('a call hierarchy in a Go file explains; one in TypeScript still answers', async () => {
    const error = await toolError(session, 'callHierarchy', {
      repo: 'tiers',
      ...at(root, 'go/geometry/total.go', 4, 'TotalArea'),
      direction: 'incoming',
    });
    assert.match(error, /^callHierarchy needs the precise tier: go\/geometry\/total\.go is go/);
    const ts = await session.ok('callHierarchy', { repo: 'tiers', ...at(root, 'src/geometry.ts', 4, 'totalArea'), direction: 'incoming' });
    assert.equal(ts.source, 'precise');
    assert.ok(ts.calls.length > 0);
  });

  test('indexing again reuses every syntax document; an edited file alone is parsed again', async () => {
    const again = indexOrThrow(root, env);
    assert.equal(again.indexers.find((i: any) => i.name === 'universal-ctags').documents, 0);
    assert.equal(again.syntactic_definitions, report.syntactic_definitions);
    writeFileSync(
      join(root, 'go/legacy/legacy.go'),
      linesOf(root, 'go/legacy/legacy.go').join('\n') + '\n// Quarter is new.\nfunc Quarter() {}\n',
    );
    commitAll(root, 'add Quarter');
    const edited = indexOrThrow(root, env);
    assert.equal(edited.indexers.find((i: any) => i.name === 'universal-ctags').documents, 1);
    const r = await session.ok('goToDefinition', { repo: 'tiers', symbol: 'Quarter' });
    assert.deepEqual(r.definitions.map(where), [at(root, 'go/legacy/legacy.go', 14, 'Quarter')]);
  });

  test('without universal-ctags, Go stays search-only and says how to get it', async () => {
    const r = indexOrThrow(root, { ...env, SEXTANT_CTAGS: '/nonexistent/ctags' }, '--repo', 'tiers-no-ctags');
    assert.equal(r.languages.go.tier, 'search-only');
    assert.match(r.languages.go.reason, /universal-ctags is not installed \(no executable \/nonexistent\/ctags\)/);
    assert.match(r.languages.go.recovery, /apt-get install universal-ctags/);
    assert.equal(r.indexers.find((i: any) => i.name === 'universal-ctags').status, 'missing');
    const error = await toolError(session, 'documentSymbols', { repo: 'tiers-no-ctags', path: 'go/geometry/shape.go' });
    assert.match(error, /^go\/geometry\/shape\.go is go, which tiers-no-ctags has indexed search-only/);
    assert.match(error, /apt-get install universal-ctags/);
  });
});

describe('a syntactic repository edited since its index (logrus): answers follow the worktree, never its old lines', () => {
  const repo = 'logrus-edited';
  let root: string;
  let own: McpSession;
  let moved: GoDeclaration;
  let changed: GoDeclaration;
  let gone: GoDeclaration;
  const INSERTED = ['// three lines', '// added above', '// a function'];

  before(async () => {
    root = logrusRepo();
    cleanup.push(dirname(root));
    indexOrThrow(root, env, '--repo', repo);
    own = await mcpSession(env);
    const goFiles = trackedFiles(root).filter((p) => p.endsWith('.go'));
    const declarations = goDeclarations(root, goFiles);
    const unique = (d: GoDeclaration) => d.kind === 'function' && declarations.filter((x) => x.name === d.name).length === 1;
    // In entry.go: one function moved down by lines inserted above it, a later one whose declaration line changes.
    const inEntry = declarations.filter((d) => d.path === 'entry.go' && unique(d));
    moved = inEntry.find((d) => d.name === 'NewEntry')!;
    changed = inEntry.find((d) => d.line > moved.line)!;
    // In another file: a function declared nowhere else, its file deleted.
    gone = declarations.find((d) => d.path !== 'entry.go' && !d.path.includes('/') && unique(d) && d.name !== changed.name)!;
    assert.ok(moved && changed && gone, 'entry.go declares NewEntry and a later function; another file a function of its own');
    const lines = linesOf(root, 'entry.go');
    lines[changed.line - 1] += ' // changed';
    lines.splice(moved.line - 1, 0, ...INSERTED);
    writeFileSync(join(root, 'entry.go'), lines.join('\n'));
    rmSync(join(root, gone.path));
  });
  after(() => own?.close());

  /** The text a 1-based single-line location covers in the file as it is now. */
  const textAt = (l: { path: string; line: number; column: number; end_column: number }) =>
    linesOf(root, l.path)[l.line - 1]!.slice(l.column - 1, l.end_column - 1);

  test('goToDefinition by name: a moved definition at its line now, marked adjusted; one on a changed line or in a deleted file dropped and counted', async () => {
    const r = await own.ok('goToDefinition', { repo, symbol: moved.name });
    assert.equal(r.source, 'syntactic');
    assert.equal(r.stale, true);
    assert.equal(r.index_freshness, 'stale');
    assert.deepEqual(r.adjusted_files, ['entry.go']);
    assert.deepEqual(r.definitions.map(where), [{ path: 'entry.go', line: moved.line + INSERTED.length, column: moved.column }]);
    assert.equal(r.definitions[0].adjusted, true);
    assert.equal(textAt(r.definitions[0]), moved.name);
    assert.equal(r.definitions[0].preview, linesOf(root, 'entry.go')[moved.line + INSERTED.length - 1]!.trimEnd());
    assert.equal(r.definitions[0].enclosing_range.line, moved.line + INSERTED.length);

    const onChanged = await own.ok('goToDefinition', { repo, symbol: changed.name });
    assert.equal(onChanged.found, false);
    assert.deepEqual(onChanged.definitions, []);
    assert.equal(onChanged.dropped_locations.on_changed_lines, 1);

    const deleted = await own.ok('goToDefinition', { repo, symbol: gone.name });
    assert.equal(deleted.found, false);
    assert.equal(deleted.dropped_locations.in_deleted_files, 1);
  });

  test('a position is read in the current text: the moved name at its new line resolves to itself', async () => {
    const r = await own.ok('goToDefinition', { repo, path: 'entry.go', line: moved.line + INSERTED.length, column: moved.column });
    assert.equal(r.found, true);
    assert.deepEqual(r.definitions.map(where), [{ path: 'entry.go', line: moved.line + INSERTED.length, column: moved.column }]);
    // A comment line inserted since the index holds no name the index knows.
    const comment = await own.ok('goToDefinition', { repo, path: 'entry.go', line: moved.line, column: 4 });
    assert.equal(comment.found, false);
    const error = await toolError(own, 'goToDefinition', { repo, path: gone.path, line: gone.line, column: gone.column });
    assert.match(error, new RegExp(`^${gone.path.replace('.', '\\.')} is not in the worktree of ${repo} \\(.+\\): pass a file that exists there$`));
  });

  test('documentSymbols, workspaceSymbols and findReferences place every location on its name as the file reads now', async () => {
    const outline = await own.ok('documentSymbols', { repo, path: 'entry.go' });
    assert.equal(outline.stale, true);
    assert.equal(outline.dropped_locations.on_changed_lines, 1);
    const names: string[] = [];
    const walk = (symbols: any[]): void => {
      for (const s of symbols) {
        names.push(s.name);
        assert.equal(textAt({ path: 'entry.go', ...s.selection_range }), s.name, `${s.name} at ${JSON.stringify(s.selection_range)}`);
        walk(s.children);
      }
    };
    walk(outline.symbols);
    assert.ok(names.includes(moved.name) && !names.includes(changed.name), `${moved.name} listed, ${changed.name} left out`);
    const emptied = await own.ok('documentSymbols', { repo, path: gone.path });
    assert.deepEqual(emptied.symbols, []);
    assert.equal(emptied.stale, true);

    const found = await own.ok('workspaceSymbols', { repo, query: moved.name });
    const item = found.symbols.find((s: any) => s.name === moved.name);
    assert.deepEqual(where(item), { path: 'entry.go', line: moved.line + INSERTED.length, column: moved.column });
    assert.equal(item.adjusted, true);
    assert.equal(found.stale, true);

    const refs = await own.ok('findReferences', { repo, symbol: moved.name, limit: 2000 });
    assert.equal(refs.stale, true);
    assert.ok(refs.references.length > 1);
    for (const ref of refs.references) assert.equal(textAt(ref), moved.name, `${ref.path}:${ref.line}:${ref.column}`);
    assert.ok(refs.references.some((ref: any) => ref.path === 'entry.go' && ref.adjusted === true));
    assert.equal(refs.symbols[0].line, moved.line + INSERTED.length);
  });

  test('committed and indexed again, the same answers are fresh and unadjusted', async () => {
    commitAll(root, 'edited');
    indexOrThrow(root, env, '--repo', repo);
    const r = await own.ok('goToDefinition', { repo, symbol: moved.name });
    assert.equal(r.stale, false);
    assert.equal(r.index_freshness, 'fresh');
    assert.deepEqual(r.definitions.map(where), [{ path: 'entry.go', line: moved.line + INSERTED.length, column: moved.column }]);
    assert.equal(r.definitions[0].adjusted, undefined);
    assert.equal((await own.ok('goToDefinition', { repo, symbol: changed.name })).found, true);
  });
});
