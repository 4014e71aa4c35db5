// Names the index resolved to nothing (test/fixtures/js-untyped): in
// JavaScript without types, `server.port` on an untyped parameter and
// `require` without Node's types have no symbol in scip-typescript's index
// (one in eight identifiers of express, hono, mobx and commander sampled).
// goToDefinition and findReferences there used to answer nothing, saying the
// position was "whitespace, a keyword, a literal or a comment". They now
// answer by the name's spelling, marked `source: "search"`: the index's
// definitions of that name, and its whole-word text matches. A library
// function no index defines (`JSON.stringify`) has a call hierarchy too: its
// callers in the project asked about, as a language server lists them.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { at, pathLineColumn as where, type Position } from './support/positions.js';
import { fixtureRepo, gitRepoOf, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, sextant, testHome, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
const repo = 'js-untyped';
let root: string;
/** Another repository of the registry that calls JSON.stringify too. */
let other: string;
let session: McpSession;

const SERVER = 'lib/server.js';
const START = 'lib/start.js';
const FORMAT = 'lib/format.js';
const ERRORS = 'lib/errors.js';

describe('names the index resolved to nothing', () => {
  before(async () => {
    root = fixtureRepo(repo);
    indexOrThrow(root, env);
    other = gitRepoOf('other-json', {
      'dump.js':
        'function dump(x) {\n  return JSON.stringify(x);\n}\nclass DumpError extends Error {}\nmodule.exports = { dump, DumpError };\n',
    });
    indexOrThrow(other, env);
    session = await mcpSession(env);
  });
  after(async () => {
    await session?.close();
    removeDir(home);
    if (root) removeDir(root);
    if (other) removeDir(other);
  });

  /** `server.port`, a property of an untyped parameter. */
  const port = (): Position => at(root, START, 6, 'port');
  /** Where the class assigns it in its constructor: `this.port = 8080`. */
  const declared = (): Position => at(root, SERVER, 4, 'port');

  test('goToDefinition at a property of an untyped value lists the definitions of its name, as search', async () => {
    const r = await session.ok('goToDefinition', { repo, ...port() });
    assert.equal(r.found, true);
    assert.equal(r.source, 'search');
    assert.equal(r.meta.provenance, 'local-analysis');
    assert.equal(r.meta.coverage, 'approximate');
    assert.deepEqual(
      r.definitions.map((d: any) => `${where(d)} ${d.kind} ${d.name}`),
      [`${where(declared())} property port`],
    );
    assert.match(
      r.message,
      new RegExp(`resolved "port" at ${where(port())} to nothing .*matched by spelling, not resolved \\(members first`),
    );
  });

  test('findReferences there lists every whole-word occurrence of the name, the definition marked, comments included', async () => {
    const r = await session.ok('findReferences', { repo, ...port() });
    assert.equal(r.source, 'search');
    assert.deepEqual(
      r.references.map((x: any) => `${where(x)} ${x.kind}`),
      [
        `${where(declared())} definition`,
        `${where(at(root, SERVER, 8, 'port'))} identifier`, // return this.port
        `${where(at(root, START, 5, 'port'))} identifier`, // the comment above the use
        `${where(port())} identifier`,
      ],
    );
    assert.equal(r.total, 4);
    assert.equal(r.truncated, false);
    assert.match(r.message, /^text matches, not resolved references: the index resolved "port" at .* to nothing/);
    const uses = await session.ok('findReferences', { repo, ...port(), include_declaration: false });
    assert.equal(uses.total, 3);
    assert.ok(uses.references.every((x: any) => x.kind === 'identifier' && !x.is_definition));
    // Past the limit, matches are counted, not returned.
    const first = await session.ok('findReferences', { repo, ...port(), limit: 2 });
    assert.deepEqual(
      first.references.map((x: any) => where(x)),
      r.references.slice(0, 2).map((x: any) => where(x)),
    );
    assert.equal(first.total, 4);
    assert.equal(first.truncated, true);
  });

  test('text matches asked again after an edit follow it: a moved match at its line now, marked adjusted', async () => {
    // The server keeps a name's scan of the indexed text; edits are applied to it at each question.
    const shown = (x: any) => `${where(x)} ${x.kind}${x.adjusted ? ' adjusted' : ''}`;
    /** The references at `port` on a line of START, once they are `expected` (the server sees an edit when its watch does). */
    const settled = async (line: number, expected: string[]) => {
      let r: any;
      for (let i = 0; i < 100; i++) {
        r = await session.ok('findReferences', { repo, ...at(root, START, line, 'port') });
        if (JSON.stringify(r.references.map(shown)) === JSON.stringify(expected)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return r;
    };
    const before = (await session.ok('findReferences', { repo, ...port() })).references.map(shown);
    const file = join(root, START);
    const text = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, `// a line above\n${text}`);
      const moved = [
        `${where(declared())} definition`,
        `${where(at(root, SERVER, 8, 'port'))} identifier`,
        `${where(at(root, START, 6, 'port'))} identifier adjusted`,
        `${where(at(root, START, 7, 'port'))} identifier adjusted`,
      ];
      const r = await settled(7, moved);
      assert.deepEqual(r.references.map(shown), moved);
      assert.equal(r.total, 4);
    } finally {
      writeFileSync(file, text);
    }
    assert.deepEqual((await settled(6, before)).references.map(shown), before);
  });

  test('a kind filter cannot apply to text matches: a one-line error naming the fix', async () => {
    const r = await session.call('findReferences', { repo, ...port(), kind: 'call' });
    assert.equal(r.isError, true);
    assert.match(r.result.error, /^kind "call" cannot be told at lib\/start\.js:6:\d+: .*text matches without kinds; omit kind$/);
  });

  test('a global the indexer has no declaration for: no definition named so, and its text matches', async () => {
    const use = at(root, START, 2, 'require');
    const d = await session.ok('goToDefinition', { repo, ...use });
    assert.equal(d.found, false);
    assert.equal(d.source, 'search');
    assert.match(
      d.message,
      /resolved "require" at .* to nothing .*nothing in the index is named "require": findReferences there lists its text matches$/,
    );
    const r = await session.ok('findReferences', { repo, ...use });
    assert.deepEqual(
      r.references.map((x: any) => where(x)),
      [where(use)],
    );
  });

  test('a reserved word is no name to look up: nothing found, and the position is explained as before', async () => {
    const self = at(root, SERVER, 8, 'this');
    const d = await session.ok('goToDefinition', { repo, ...self });
    assert.equal(d.found, false);
    assert.equal(d.source, 'precise');
    assert.match(d.message, /^no symbol at lib\/server\.js:8:\d+ \(whitespace, a keyword, a literal or a comment\)/);
    const r = await session.ok('findReferences', { repo, ...self });
    assert.equal(r.total, 0);
  });

  test('a resolved name still answers from the index', async () => {
    const d = await session.ok('goToDefinition', { repo, ...at(root, START, 6, 'server') });
    assert.equal(d.source, 'precise');
    assert.deepEqual(
      d.definitions.map((x: any) => where(x)),
      [where(at(root, START, 4, 'server'))],
    );
  });

  test('a hierarchy at such a name is refused with the reason, not as whitespace', async () => {
    const r = await session.call('callHierarchy', { repo, ...port(), direction: 'incoming' });
    assert.equal(r.isError, true);
    assert.match(r.result.error, /^no symbol at lib\/start\.js:6:\d+: the index resolved "port" there to nothing \(a property of a value/);
    assert.doesNotMatch(r.result.error, /whitespace/);
  });

  test('the CLI prints what the answer says of itself before the definitions', () => {
    const p = port();
    const r = sextant(['def', `${p.path}:${p.line}:${p.column}`], { env, cwd: root });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /matched by spelling, not resolved/);
    assert.equal(lines[1], `${where(declared())}  property Server.port`);
  });

  test('a library function no index defines has its callers in the project asked about, not in every repository', async () => {
    const stringify = at(root, FORMAT, 3, 'stringify');
    const r = await session.ok('callHierarchy', { repo, ...stringify, direction: 'incoming' });
    assert.equal(r.source, 'precise');
    assert.equal(r.item.name, 'stringify');
    assert.equal(r.item.path, null);
    assert.match(r.item.symbol, /lib\.es5\.d\.ts`\/JSON#stringify\(\)\.$/);
    assert.match(r.item.detail, /^typescript@\d/);
    assert.deepEqual(
      r.calls.map(
        (c: any) =>
          `${c.from.repo}:${c.from.path}:${c.from.line} ${c.from.kind} ${c.from.name} ${c.ranges.map((x: any) => x.line).join(',')}`,
      ),
      [`${repo}:${FORMAT}:1 module format.js 6`, `${repo}:${FORMAT}:2 function toJson 3`],
    );
    assert.deepEqual(r.notes, [
      `stringify is defined outside the indexed code (${r.item.detail}): its callers are the calls of it in the project asked in`,
    ]);
    // The other repository's dump() calls it too: a language server of this project would not list it.
    const there = await session.ok('callHierarchy', { repo: 'other-json', path: 'dump.js', line: 2, column: 15, direction: 'incoming' });
    assert.deepEqual(
      there.calls.map((c: any) => `${c.from.repo} ${c.from.name}`),
      ['other-json dump'],
    );
    const out = await session.ok('callHierarchy', { repo, ...stringify, direction: 'outgoing' });
    assert.deepEqual(out.calls, []);
    assert.match(out.notes[0], /^stringify is defined outside the indexed code \(typescript@.*\): what it calls is in no index$/);
  });

  test("a library type no index defines has this repository's subtypes, and supertypes in no index", async () => {
    const error = at(root, ERRORS, 2, 'Error {');
    const r = await session.ok('typeHierarchy', { repo, ...error, direction: 'subtypes', depth: 2 });
    assert.equal(r.item.name, 'Error');
    assert.equal(r.item.path, null);
    const tree = (types: any[]): string[] =>
      types.map((t) => `${t.path}:${t.line} ${t.name}${t.types ? ` [${tree(t.types).join(', ')}]` : ''}`);
    // Not other-json's DumpError, which extends it too; TimeoutError under ClosedError, which it extends.
    assert.deepEqual(tree(r.types), [`${ERRORS}:2 ClosedError [${ERRORS}:4 TimeoutError]`]);
    assert.match(
      r.message,
      /^Error is defined outside the indexed code \(typescript@.*\): its subtypes are the types of js-untyped that extend or implement it$/,
    );
    const up = await session.ok('typeHierarchy', { repo, ...error, direction: 'supertypes' });
    assert.deepEqual(up.types, []);
    assert.match(up.message, /its supertypes are in no index$/);
  });
});
