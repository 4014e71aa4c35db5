// A CommonJS package (test/fixtures/js-commonjs), as a language server answers
// it: `exports.name = ...` and `module.exports.name = ...` declare the
// module's exports, as do the properties of `module.exports = {...}`, and an
// importer reaches them through the module bound whole (`const math =
// require('./math'); math.add(...)`) or by name (`const { add, subtract: minus }
// = require('./math')`). scip-typescript gives each of those names a local
// symbol of its file and defines none, so goToDefinition found nothing and the
// exports had no references outside their module.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { at, pathLineColumn as where, type Position } from './support/positions.js';
import { fixtureRepo, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, sextant, testHome, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
const repo = 'js-commonjs';
let root: string;
let session: McpSession;

const MATH = 'lib/math.js';
const NAMESPACE = 'lib/use-namespace.js';
const DESTRUCTURED = 'lib/use-destructured.js';
const STRINGS = 'lib/strings.js';
const USE_STRINGS = 'lib/use-strings.js';
const USE_INSIDE = 'lib/use-inside.js';
const COMPILED = 'lib/compiled.js';
const USE_COMPILED = 'lib/use-compiled.js';

describe('CommonJS exports', () => {
  before(async () => {
    root = fixtureRepo(repo);
    indexOrThrow(root, env);
    session = await mcpSession(env);
  });
  after(async () => {
    await session?.close();
    removeDir(home);
    if (root) removeDir(root);
  });

  /** Where math.js declares each export: the name after `exports.`. */
  const declared = () => ({
    add: at(root, MATH, 4, 'add'),
    subtract: at(root, MATH, 8, 'subtract'),
    Counter: at(root, MATH, 12, 'Counter'),
    twice: at(root, MATH, 18, 'twice'),
  });
  const definitionsAt = async (p: Position) => (await session.ok('goToDefinition', { repo, ...p })).definitions as any[];
  /** An item of an answer as a line: kind, container, name and place. */
  const item = (x: any) => `${x.kind} ${x.container ? `${x.container}.` : ''}${x.name} ${where(x)}`;
  /** The callers of the function at `p`, each with its number of calls. */
  const callers = async (p: Position) =>
    (await session.ok('callHierarchy', { repo, ...p, direction: 'incoming' })).calls.map((c: any) => `${item(c.from)} ×${c.ranges.length}`);

  test('goToDefinition at an importer’s name for an export lands on the assignment that declares it, with its kind', async () => {
    const d = declared();
    const cases: [Position, Position, string][] = [
      [at(root, NAMESPACE, 4, 'add'), d.add, 'function'], // math.add(...)
      [at(root, NAMESPACE, 5, 'subtract'), d.subtract, 'function'], // math.subtract(...)
      [at(root, NAMESPACE, 6, 'Counter'), d.Counter, 'class'], // new math.Counter()
      [at(root, DESTRUCTURED, 5, 'add('), d.add, 'function'], // add, taken by name
      [at(root, DESTRUCTURED, 9, 'minus'), d.subtract, 'function'], // subtract, renamed minus
      [at(root, DESTRUCTURED, 9, 'twice'), d.twice, 'function'],
      [at(root, MATH, 18, 'add'), d.add, 'function'], // exports.add(...) inside the module itself
      [at(root, USE_STRINGS, 8, 'add'), d.add, 'function'], // require('./math').add(...)
    ];
    for (const [use, declaration, kind] of cases) {
      const found = await definitionsAt(use);
      assert.deepEqual(
        found.map((x) => [where(x), x.kind]),
        [[where(declaration), kind]],
        `${where(use)} → ${where(declaration)}`,
      );
    }
  });

  test('findReferences of an export spans its module and its importers, from the declaration or from a use', async () => {
    const expected = [
      at(root, DESTRUCTURED, 2, 'add'),
      at(root, DESTRUCTURED, 5, 'add('),
      at(root, MATH, 4, 'add'),
      at(root, MATH, 18, 'add'),
      at(root, NAMESPACE, 4, 'add'),
      at(root, USE_STRINGS, 8, 'add'),
    ]
      .map(where)
      .sort();
    for (const from of [declared().add, at(root, NAMESPACE, 4, 'add')]) {
      const answer = await session.ok('findReferences', { repo, ...from });
      assert.deepEqual(answer.references.map(where).sort(), expected, `from ${where(from)}`);
      assert.deepEqual(
        answer.references.filter((r: any) => r.kind === 'definition').map(where),
        [where(declared().add)],
        'the assignment is the one declaration',
      );
    }
    // A name taken renamed (`subtract: minus`) is the importer's own, from its binding or a use, as TypeScript lists it.
    const minus = [at(root, DESTRUCTURED, 2, 'minus'), at(root, DESTRUCTURED, 9, 'minus')].map(where);
    for (const from of [at(root, DESTRUCTURED, 2, 'minus'), at(root, DESTRUCTURED, 9, 'minus')]) {
      assert.deepEqual((await session.ok('findReferences', { repo, ...from })).references.map(where), minus, `from ${where(from)}`);
    }
  });

  test("a use of a name an importer binds renamed (`const { subtract: minus } = require('./math')`) is that name's reference, not the export's, and no call of it, as TypeScript answers", async () => {
    const use = at(root, DESTRUCTURED, 9, 'minus');
    // From the export: its declaration, the key that takes it, a use through the module; not `minus(...)`.
    const references = (await session.ok('findReferences', { repo, ...declared().subtract })).references.map(where);
    assert.deepEqual(references, [
      where(declared().subtract),
      where(at(root, DESTRUCTURED, 2, 'subtract')),
      where(at(root, NAMESPACE, 5, 'subtract')),
    ]);
    assert.deepEqual(await callers(declared().subtract), ['module use-namespace.js lib/use-namespace.js:1:1 ×1']);
    // From the name: the binding and the use, and goToDefinition still reaches the export.
    const own = (await session.ok('findReferences', { repo, ...use })).references;
    assert.deepEqual(
      own.map((r: any) => `${where(r)} ${r.kind}`),
      [`${where(at(root, DESTRUCTURED, 2, 'minus'))} definition`, `${where(use)} call`],
    );
    assert.deepEqual((await definitionsAt(use)).map(where), [where(declared().subtract)]);
  });

  test("a module exported under a name of its own (`exports.response = reply`) has that name's references there and in its importers, not the module's, as TypeScript lists them", async () => {
    const SERVER = 'lib/server.js';
    const USE = 'lib/use-server.js';
    // As typescript-language-server lists them at `{ response }`, with every file open: the export and the importers'
    // places of its name. At the export and at `server.response` it lists only the export, as it answers at any
    // CommonJS export's declaration; at `response.send` all but `server.response`. sextant answers the whole name at each.
    const places = [
      at(root, SERVER, 4, 'response'),
      at(root, USE, 3, 'response'),
      at(root, USE, 5, 'response'),
      at(root, USE, 6, 'response'),
    ];
    for (const from of places) {
      const references = (await session.ok('findReferences', { repo, ...from })).references;
      assert.deepEqual(references.map(where), places.map(where), `from ${where(from)}`);
    }
    // goToDefinition still reaches the module's object, and the name it is bound to keeps its own places.
    const reply = at(root, 'lib/reply.js', 2, 'reply');
    assert.deepEqual((await definitionsAt(at(root, USE, 3, 'response'))).map(where), [where(reply)]);
    assert.deepEqual(
      (await session.ok('findReferences', { repo, ...at(root, SERVER, 2, 'reply') })).references.map(where),
      [at(root, SERVER, 2, 'reply'), at(root, SERVER, 4, '= reply', { offset: 2 })].map(where),
    );
  });

  test("a property `Object.defineProperty(Socket, 'OPEN', ...)` declares is defined at its name's string: goToDefinition and findReferences there, in the file and in an importer, as TypeScript answers", async () => {
    const STATES = 'lib/ready-states.js';
    const USE = 'lib/use-ready-states.js';
    // As typescript-language-server answers, with every file open: the string, quotes and all, and the uses of the name.
    const open = at(root, STATES, 14, "'OPEN'");
    for (const from of [at(root, STATES, 8, 'OPEN'), at(root, USE, 3, 'OPEN'), open]) {
      const definitions = await definitionsAt(from);
      assert.deepEqual(definitions.map(item), [`property Socket.OPEN ${where(open)}`], `from ${where(from)}`);
    }
    const references = (await session.ok('findReferences', { repo, ...at(root, STATES, 8, 'OPEN') })).references;
    assert.deepEqual(
      references.map((r: any) => `${where(r)} ${r.kind}`),
      [
        `${where(at(root, STATES, 8, 'OPEN'))} identifier`,
        `${where(at(root, STATES, 14, 'OPEN'))} definition`,
        `${where(at(root, USE, 3, 'OPEN'))} identifier`,
      ],
    );
    // Each string names its own property.
    assert.deepEqual((await definitionsAt(at(root, STATES, 4, 'CONNECTING'))).map(item), [
      `property Socket.CONNECTING ${where(at(root, STATES, 13, "'CONNECTING'"))}`,
    ]);
  });

  test('workspaceSymbols and the CLI find an export by its name', async () => {
    const found = await session.ok('workspaceSymbols', { repo, query: 'subtract' });
    assert.ok(
      found.symbols.some((s: any) => where(s) === where(declared().subtract) && s.kind === 'function'),
      JSON.stringify(found.symbols),
    );
    const cli = sextant(['def', 'Counter', '--repo', repo], { env });
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, new RegExp(`^${where(declared().Counter)}  class Counter\\n`));
  });

  test('the calls in a function assigned to an export are the module’s, as TypeScript’s call hierarchy has them', async () => {
    // `exports.twice = (x) => exports.add(x, x)`: the arrow function is no declaration of its own there.
    const answer = await session.ok('callHierarchy', { repo, ...declared().add, direction: 'incoming' });
    assert.deepEqual(answer.calls.map((c: any) => `${c.from.kind} ${c.from.name}`).sort(), [
      'function total',
      'module math.js',
      'module use-namespace.js',
      'module use-strings.js',
    ]);
  });

  test('a method of `module.exports = {...}` is an export: reached by name and through the module, with its references and callers', async () => {
    const whisper = at(root, STRINGS, 8, 'whisper');
    const uses = [at(root, USE_STRINGS, 5, 'whisper'), at(root, USE_STRINGS, 7, 'whisper')];
    for (const use of uses) {
      assert.deepEqual(
        (await definitionsAt(use)).map((x) => [where(x), x.kind]),
        [[where(whisper), 'method']],
        where(use),
      );
    }
    const references = await session.ok('findReferences', { repo, ...whisper });
    const inside = [at(root, USE_INSIDE, 6, 'whisper'), at(root, USE_INSIDE, 10, 'whisper')];
    assert.deepEqual(
      references.references.map(where).sort(),
      [whisper, at(root, USE_STRINGS, 2, 'whisper'), ...uses, ...inside].map(where).sort(),
    );
    const callers = await session.ok('callHierarchy', { repo, ...whisper, direction: 'incoming' });
    assert.deepEqual(
      callers.calls.map((c: any) => [`${c.from.kind} ${c.from.name}`, c.ranges.length]),
      [
        ['function speak', 1],
        ['function shoutAll', 1],
        ['module use-strings.js', 2],
      ],
    );
  });

  test('`strings.whisper(...)` inside a function, with `strings` bound to `require(...)`, is the export, not any method named whisper', async () => {
    // voices.js declares another `whisper`: found by name, the use would be ambiguous and answer nothing.
    const whisper = at(root, STRINGS, 8, 'whisper');
    const uses = [at(root, USE_INSIDE, 6, 'whisper'), at(root, USE_INSIDE, 10, 'whisper')];
    for (const use of uses) {
      assert.deepEqual(
        (await definitionsAt(use)).map((x) => [where(x), x.kind]),
        [[where(whisper), 'method']],
        where(use),
      );
    }
    // `strings` there is the module, as at its binding; a module that assigns its exports whole is that assignment,
    // one that exports names one by one is the file.
    for (const name of [at(root, USE_INSIDE, 3, 'strings'), at(root, USE_INSIDE, 6, 'strings')]) {
      assert.deepEqual((await definitionsAt(name)).map(where), [where(at(root, STRINGS, 6, 'module'))], where(name));
    }
    assert.deepEqual(
      (await definitionsAt(at(root, NAMESPACE, 2, 'math'))).map((x) => `${x.kind} ${where(x)}`),
      [`module ${MATH}:2:1`], // its first token, past the comment above it
    );
    // Its references and callers, from the declaration, are in the test above.
  });

  test('goToDefinition around `module.exports = { shout, ... }` answers as TypeScript: the assignment from `module`; through the module, the property and the function it names; the function elsewhere', async () => {
    const assigned = at(root, STRINGS, 6, 'module');
    for (const p of [at(root, STRINGS, 6, 'exports'), assigned]) {
      assert.deepEqual((await definitionsAt(p)).map(where), [where(assigned)], where(p));
    }
    const shout = { declared: at(root, STRINGS, 2, 'shout'), property: at(root, STRINGS, 7, 'shout') };
    assert.deepEqual((await definitionsAt(shout.declared)).map(where), [where(shout.declared)]);
    assert.deepEqual(
      (await definitionsAt(at(root, USE_INSIDE, 10, 'shout'))).map(where).sort(),
      [where(shout.declared), where(shout.property)].sort(),
    );
  });

  test('a name bound to a module that assigns its exports whole goes where TypeScript goes: the class the module names, the declaration of the name it assigns', async () => {
    const USE = 'lib/use-assigned.js';
    const LIST = 'lib/list.js';
    const cursor = `class ${where(at(root, 'lib/cursor.js', 2, 'Cursor'))}`;
    const request = `variable ${where(at(root, 'lib/request.js', 2, 'request'))}`;
    const cases: [Position, string][] = [
      [at(root, USE, 2, 'Cursor'), cursor],
      [at(root, USE, 7, 'Cursor'), cursor],
      [at(root, 'lib/cursor.js', 2, 'exports'), cursor],
      [at(root, USE, 3, 'request'), request],
      [at(root, USE, 7, 'request'), request],
      // `module.exports = { first }`: an export list, not a value; the module, at its first token.
      [at(root, USE, 5, 'list'), `module ${LIST}:2:1`],
      [at(root, LIST, 6, 'exports'), `module ${LIST}:2:1`],
    ];
    for (const [p, expected] of cases) {
      assert.deepEqual(
        (await definitionsAt(p)).map((x) => `${x.kind} ${where(x)}`),
        [expected],
        where(p),
      );
    }
    // The export is defined as the class, and no reference of it: TypeScript's findReferences at `exports` lists no class.
    const references = await session.ok('findReferences', { repo, ...at(root, 'lib/cursor.js', 2, 'exports') });
    const listed = references.references.map(where);
    assert.ok(listed.includes(where(at(root, 'lib/cursor.js', 2, 'module'))), listed.join(', '));
    assert.ok(!listed.includes(where(at(root, 'lib/cursor.js', 2, 'Cursor'))), listed.join(', '));
    // `require('./request').get` is a member, not the module: the name it initializes is declared there.
    const lookup = at(root, USE, 4, 'lookup');
    assert.deepEqual((await definitionsAt(lookup)).map(where), [where(lookup)]);
  });

  test('a module that assigns a declared function whole (`module.exports = fn`, lodash’s style) is that function to its importers: their bindings, even one a line in a list or one marked `#__PURE__`, go to it and are among its references', async () => {
    const USE = 'lib/use-list.js';
    const baseEach = at(root, 'lib/base-each.js', 2, 'baseEach');
    const identity = at(root, 'lib/identity.js', 1, 'identity');
    const binding = at(root, USE, 2, 'baseEach');
    const use = at(root, USE, 7, 'baseEach');
    const referencesAt = async (p: Position) => ((await session.ok('findReferences', { repo, ...p })).references as any[]).map(where);
    // The second binding of the list, on a line of its own, as the first; `module` and `exports` of the assignment.
    for (const [p, expected] of [
      [binding, baseEach],
      [at(root, USE, 3, 'identity'), identity],
      // `= /*#__PURE__*/require(...)`, as bundlers write it.
      [at(root, 'lib/use-pure.js', 2, 'baseEach'), baseEach],
      [at(root, 'lib/base-each.js', 6, 'module'), baseEach],
      [at(root, 'lib/base-each.js', 6, 'exports'), baseEach],
    ] as const) {
      assert.deepEqual((await definitionsAt(p)).map(where), [where(expected)], where(p));
    }
    // TypeScript lists the binding and its uses from either, and both from the declaration (and it from a use).
    for (const [p, expected] of [
      [binding, [binding, use]],
      [use, [binding, use, baseEach]],
      [baseEach, [binding, use, baseEach]],
    ] as const) {
      const listed = await referencesAt(p);
      for (const e of expected) assert.ok(listed.includes(where(e)), `${where(p)}: ${listed.join(', ')}`);
    }
    // A use the index resolved to the function stays the function's, where it also gives it a local (the
    // function's `prototype` assigned): its references are the function's, not the module's specifiers.
    const wrapped = await referencesAt(at(root, USE, 11, 'wrapped'));
    assert.ok(wrapped.includes(where(at(root, 'lib/wrapped.js', 2, 'wrapped'))), wrapped.join(', '));
    assert.ok(!wrapped.some((w) => w.startsWith('lib/wrapped.js:1:')), wrapped.join(', '));
    assert.ok(!wrapped.includes(where(at(root, USE, 4, "'./wrapped'"))), wrapped.join(', '));
  });

  test('an imported function given properties (`createDuration.fn = ...`) is that function at its import, where the index adds locals: not also a declaration of its own', async () => {
    const USE = 'lib/use-durations.mjs';
    const declared = where(at(root, 'lib/durations.mjs', 2, 'createDuration'));
    for (const p of [at(root, USE, 1, 'createDuration'), at(root, USE, 3, 'createDuration')]) {
      assert.deepEqual((await definitionsAt(p)).map(where), [declared], where(p));
    }
  });

  test('a class a module assigns whole has methods of its own: a subclass in another module overrides them, and shares the calls through its base and `super`', async () => {
    const CURSOR = 'lib/cursor.js';
    const COUNTING = 'lib/counting-cursor.js';
    const next = { base: at(root, CURSOR, 3, 'next'), override: at(root, COUNTING, 5, 'next') };
    const skip = `method Cursor.skip ${where(at(root, CURSOR, 7, 'skip'))} ×2`;
    const counting = `method CountingCursor.next ${where(next.override)} ×1`;
    // `this.next()` in the base's skip and `super.next()` in the overrides, from either method, as TypeScript counts them.
    const skipping = `method SkippingCursor.next ${where(at(root, 'lib/skipping-cursor.js', 5, 'next'))} ×1`;
    assert.deepEqual(await callers(next.base), [counting, skip, skipping]);
    assert.deepEqual(await callers(next.override), [counting, skip, skipping]);
    assert.deepEqual((await definitionsAt(at(root, COUNTING, 7, 'next'))).map(item), [`method Cursor.next ${where(next.base)}`]);
    const supertypes = await session.ok('typeHierarchy', { repo, ...at(root, COUNTING, 4, 'CountingCursor'), direction: 'supertypes' });
    assert.deepEqual(supertypes.types.map(item), [`class Cursor ${where(at(root, CURSOR, 2, 'Cursor'))}`]);
  });

  test('a class declared by name that extends a class a module assigns whole (`class SkippingCursor extends Cursor`, undici’s handlers) overrides its methods: references, callers and `super` as TypeScript answers', async () => {
    const CURSOR = 'lib/cursor.js';
    const SKIPPING = 'lib/skipping-cursor.js';
    const next = { base: at(root, CURSOR, 3, 'next'), override: at(root, SKIPPING, 5, 'next') };
    // Every call of the base's `next` (its own `this.next()`, each subclass's `super.next()`) is one of the override's.
    const all = [
      `method CountingCursor.next ${where(at(root, 'lib/counting-cursor.js', 5, 'next'))} ×1`,
      `method Cursor.skip ${where(at(root, CURSOR, 7, 'skip'))} ×2`,
      `method SkippingCursor.next ${where(next.override)} ×1`,
    ];
    assert.deepEqual(await callers(next.override), all);
    assert.deepEqual(await callers(next.base), all);
    // The seven TypeScript lists from either method: both declarations and the base's, and every call.
    const expected = [
      next.base,
      next.override,
      at(root, 'lib/counting-cursor.js', 5, 'next'),
      at(root, CURSOR, 8, 'next'),
      at(root, CURSOR, 8, 'next', { nth: 1 }),
      at(root, 'lib/counting-cursor.js', 7, 'next'),
      at(root, SKIPPING, 6, 'next'),
    ]
      .map(where)
      .sort();
    for (const from of [next.override, next.base]) {
      const refs = await session.ok('findReferences', { repo, ...from });
      assert.deepEqual(refs.references.map(where).sort(), expected, `from ${where(from)}`);
    }
    assert.deepEqual((await definitionsAt(at(root, SKIPPING, 10, 'skip'))).map(item), [
      `method Cursor.skip ${where(at(root, CURSOR, 7, 'skip'))}`,
    ]);
  });

  test('a class a module assigns whole that extends a class another module assigns by its name (`module.exports = Store`, knex’s style) overrides its methods: references, callers and `super` as TypeScript answers', async () => {
    const STORE = 'lib/store.js';
    const MEMORY = 'lib/memory-store.js';
    const connect = { base: at(root, STORE, 7, 'connect'), override: at(root, MEMORY, 5, 'connect') };
    const expected = [connect.base, connect.override, at(root, STORE, 4, 'connect'), at(root, MEMORY, 6, 'connect')].map(where).sort();
    for (const from of [connect.override, connect.base]) {
      const refs = await session.ok('findReferences', { repo, ...from });
      assert.deepEqual(refs.references.map(where).sort(), expected, `from ${where(from)}`);
      assert.deepEqual(
        await callers(from),
        [`method MemoryStore.connect ${where(connect.override)} ×1`, `method Store.open ${where(at(root, STORE, 3, 'open'))} ×1`],
        `from ${where(from)}`,
      );
    }
    assert.deepEqual((await definitionsAt(at(root, MEMORY, 6, 'connect'))).map(item), [`method Store.connect ${where(connect.base)}`]);
  });

  test('a call through an export that names a function (`Utils.isConnectionError(err)`, `module.exports = { isConnectionError }`, knex’s style) is a call of the function, both ways of the call hierarchy', async () => {
    const retry = at(root, 'lib/use-errors.js', 4, 'retry');
    const callees = await session.ok('callHierarchy', { repo, ...retry, direction: 'outgoing' });
    // TypeScript's call hierarchy lists the two functions as callees (it gives each both calls' ranges).
    assert.deepEqual(
      callees.calls.map((c: any) => `${c.to.kind} ${c.to.name} ${where(c.to)} ×${c.ranges.length}`),
      [
        `function isConnectionError ${where(at(root, 'lib/errors.js', 2, 'isConnectionError'))} ×1`,
        `function describe ${where(at(root, 'lib/errors.js', 6, 'describe'))} ×1`,
      ],
    );
    const callers = await session.ok('callHierarchy', {
      repo,
      ...at(root, 'lib/errors.js', 2, 'isConnectionError'),
      direction: 'incoming',
    });
    assert.deepEqual(
      callers.calls.map((c: any) => `${c.from.name} ${where(c.from)}`),
      [`retry ${where(retry)}`],
    );
  });

  test('`this.client` in a subclass in another file, one class down or two, goes to the base’s `this.client = client`, as TypeScript answers (knex’s compilers)', async () => {
    const declared = where(at(root, 'lib/compiler.js', 4, 'client'));
    for (const use of [at(root, 'lib/pg-compiler.js', 6, 'client'), at(root, 'lib/pg10-compiler.js', 6, 'client')]) {
      assert.deepEqual(
        (await definitionsAt(use)).map((d: any) => `${d.kind} ${where(d)}`),
        [`property ${declared}`],
        where(use),
      );
    }
    // Its references, from the declaration or from either use: the three TypeScript lists, not `Connection`'s.
    const uses = [at(root, 'lib/pg-compiler.js', 6, 'client'), at(root, 'lib/pg10-compiler.js', 6, 'client')];
    for (const from of [at(root, 'lib/compiler.js', 4, 'client'), ...uses]) {
      const refs = await session.ok('findReferences', { repo, ...from, include_declaration: true });
      assert.deepEqual(refs.references.map(where).sort(), [declared, ...uses.map(where)].sort(), where(from));
      // The index links them: the property is named as Compiler's member (orchestrator/this-properties-patch.ts).
      assert.equal(refs.message, undefined, where(from));
    }
  });

  test('`this.skip()` in a subclass that inherits `skip` from a class a module assigns whole is a call of the base’s method: definition, references and callers as TypeScript answers', async () => {
    const CURSOR = 'lib/cursor.js';
    const use = at(root, 'lib/rewinding-cursor.js', 6, 'skip');
    const skip = at(root, CURSOR, 7, 'skip');
    assert.deepEqual((await definitionsAt(use)).map(where), [where(skip)]);
    const expected = [skip, use, at(root, 'lib/skipping-cursor.js', 9, 'skip'), at(root, 'lib/skipping-cursor.js', 10, 'skip')]
      .map(where)
      .sort();
    for (const from of [use, skip]) {
      const refs = await session.ok('findReferences', { repo, ...from });
      assert.deepEqual(refs.references.map(where).sort(), expected, `from ${where(from)}`);
    }
    const callers = await session.ok('callHierarchy', { repo, ...skip, direction: 'incoming' });
    assert.deepEqual(
      callers.calls.map((c: any) => `${c.from.name} ${where(c.from)}`),
      [`rewind ${where(at(root, 'lib/rewinding-cursor.js', 5, 'rewind'))}`, `skip ${where(at(root, 'lib/skipping-cursor.js', 9, 'skip'))}`],
    );
  });

  test('in a subclass of a class a module assigns whole, a call `this.tick()` of a function the base assigns to a property, and a read `this.stop` of a method it inherits, go to the base’s member; references from either end list both, as TypeScript answers', async () => {
    const TIMER = 'lib/timer.js';
    const LAP = 'lib/lap-timer.js';
    const cases: [Position, Position][] = [
      [at(root, LAP, 7, 'tick'), at(root, TIMER, 4, 'tick')],
      [at(root, LAP, 6, 'stop', { nth: 1 }), at(root, TIMER, 7, 'stop')],
    ];
    for (const [use, member] of cases) {
      assert.deepEqual((await definitionsAt(use)).map(where), [where(member)], where(use));
      for (const from of [use, member]) {
        const refs = await session.ok('findReferences', { repo, ...from });
        assert.deepEqual(refs.references.map(where).sort(), [where(member), where(use)].sort(), `from ${where(from)}`);
      }
    }
  });

  test('a method of a class a module assigns whole, called through an instance another module makes (`queue.push(x)`, which the index names with a local there), is that method: definition, references from either end and callers, as TypeScript answers; of two members so named, each use is the one whose module it imports', async () => {
    const cases: [Position, Position, string][] = [
      [
        at(root, 'lib/queue.js', 3, 'push'),
        at(root, 'lib/use-queue.js', 6, 'push'),
        `function enqueue ${where(at(root, 'lib/use-queue.js', 4, 'enqueue'))} ×1`,
      ],
      // A factory's literal, whose method the index names with locals in both files.
      [
        at(root, 'lib/buffer.js', 4, 'push'),
        at(root, 'lib/use-buffer.js', 5, 'push'),
        `function fill ${where(at(root, 'lib/use-buffer.js', 4, 'fill'))} ×1`,
      ],
    ];
    for (const [push, use, caller] of cases) {
      assert.deepEqual((await definitionsAt(use)).map(where), [where(push)], where(use));
      for (const from of [use, push]) {
        const refs = await session.ok('findReferences', { repo, ...from });
        assert.deepEqual(refs.references.map(where).sort(), [where(push), where(use)].sort(), `from ${where(from)}`);
      }
      assert.deepEqual(await callers(push), [caller]);
    }
  });

  test('a static method of a class a module assigns whole, called through the module’s binding (`Pool.create(2)`), is that method: definition, references from either end and callers, as TypeScript answers; one named `default` is not the module’s export', async () => {
    const create = at(root, 'lib/pool.js', 3, 'create');
    const use = at(root, 'lib/use-pool.js', 5, 'create');
    assert.deepEqual((await definitionsAt(use)).map(where), [where(create)]);
    for (const from of [use, create]) {
      const refs = await session.ok('findReferences', { repo, ...from });
      assert.deepEqual(refs.references.map(where).sort(), [where(create), where(use)].sort(), `from ${where(from)}`);
    }
    assert.deepEqual(await callers(create), [`function open ${where(at(root, 'lib/use-pool.js', 4, 'open'))} ×1`]);
    // A static member named `default` is no export of the module: its importers' bindings are the class alone.
    const bindings = [
      at(root, 'lib/use-pool.js', 2, 'Pool'),
      at(root, 'lib/use-pool-default.mjs', 2, 'Pool'),
      at(root, 'lib/use-pool-default.mjs', 4, 'Pool'),
    ];
    for (const binding of bindings)
      assert.deepEqual((await definitionsAt(binding)).map(where), [where(at(root, 'lib/pool.js', 2, 'Pool'))], where(binding));
  });

  test('a class a chain of assignments gives the module with no name of its own (`exports = module.exports = internals.Gate = class {...}`, where the index records no occurrence of `Gate`) is that module’s class: its static methods through the module’s binding, called or read, as TypeScript answers', async () => {
    const [open, check] = [at(root, 'lib/gate.js', 7, 'open'), at(root, 'lib/gate.js', 11, 'check')];
    const [called, read] = [at(root, 'lib/use-gate.js', 6, 'open'), at(root, 'lib/use-gate.js', 5, 'check')];
    assert.deepEqual((await definitionsAt(called)).map(where), [where(open)]);
    assert.deepEqual((await definitionsAt(read)).map(where), [where(check)]);
    const inModule = at(root, 'lib/gate.js', 8, 'check'); // this.check(request)
    for (const from of [read, check]) {
      const refs = await session.ok('findReferences', { repo, ...from });
      assert.deepEqual(refs.references.map(where).sort(), [where(check), where(inModule), where(read)].sort(), `from ${where(from)}`);
    }
    // TypeScript's call hierarchy counts a read of a method as a call of it.
    assert.deepEqual(await callers(check), [
      `method Gate.open ${where(open)} ×1`,
      `function admit ${where(at(root, 'lib/use-gate.js', 4, 'admit'))} ×1`,
    ]);
    // `exports` second in the chain (`module.exports = exports = internals.Token = class {...}`, joi's style).
    const [parse, parsed] = [at(root, 'lib/token.js', 5, 'parse'), at(root, 'lib/use-token.js', 5, 'parse')];
    assert.deepEqual((await definitionsAt(parsed)).map(where), [where(parse)]);
    const refs = await session.ok('findReferences', { repo, ...parse });
    assert.deepEqual(refs.references.map(where).sort(), [where(parse), where(parsed)].sort());
    assert.deepEqual(await callers(parse), [`function read ${where(at(root, 'lib/use-token.js', 4, 'read'))} ×1`]);
  });

  test('a member access through a variable holding an object literal (`const methods = { set() {...} }`, `module.exports = methods`, `require(...).set`) is that literal’s member, though another module the file imports has one of its name: definition, references from either end, callers and callees, as TypeScript answers', async () => {
    const use = 'lib/use-methods.js';
    const cases: [Position, Position][] = [
      [at(root, 'lib/array-methods.js', 3, 'set'), at(root, use, 6, 'set')], // ArrayMethods.set(...)
      [at(root, 'lib/map-methods.js', 3, 'set'), at(root, use, 7, 'set')], // MapMethods.set.call(...)
    ];
    const store = at(root, use, 5, 'store');
    for (const [set, call] of cases) {
      assert.deepEqual((await definitionsAt(call)).map(where), [where(set)], where(call));
      for (const from of [call, set]) {
        const refs = await session.ok('findReferences', { repo, ...from });
        assert.deepEqual(refs.references.map(where).sort(), [where(set), where(call)].sort(), `from ${where(from)}`);
      }
      assert.deepEqual(await callers(set), [`function store ${where(store)} ×1`]);
    }
    const callees = (await session.ok('callHierarchy', { repo, ...store, direction: 'outgoing' })).calls
      .filter((c: any) => c.to.path !== null)
      .map((c: any) => item(c.to));
    assert.deepEqual(callees, [`method set ${where(cases[0]![0])}`, `method set ${where(cases[1]![0])}`]);
  });

  test('a member access whose receiver is a new instance of a class another module assigns to its exports (`this._refs = new Ref.Manager()`, `const ids = new Ids.Ids()`, `new Ref.Manager().register`) is that class’s member, though another class the file imports has one of its name: definition, references from either end, callers and callees, as TypeScript answers', async () => {
    const use = 'lib/use-constructed.js';
    const [manager, ids] = [at(root, 'lib/refs-manager.js', 3, 'register'), at(root, 'lib/ids.js', 3, 'register')];
    const [add, track, once] = [at(root, use, 11, 'add'), at(root, use, 17, 'track'), at(root, use, 24, 'once')];
    const cases: [Position, Position[], string[]][] = [
      [
        manager,
        [at(root, use, 12, 'register'), at(root, use, 25, 'register')], // this._refs.register(schema), new Ref.Manager().register(schema)
        [`method add ${where(add)} ×1`, `function once ${where(once)} ×1`],
      ],
      [
        ids,
        [at(root, use, 13, 'register'), at(root, use, 19, 'register')], // this._ids.register(schema), ids.register(schema)
        [`method add ${where(add)} ×1`, `function track ${where(track)} ×1`],
      ],
    ];
    for (const [register, calls, callersThere] of cases) {
      for (const call of calls) assert.deepEqual((await definitionsAt(call)).map(where), [where(register)], where(call));
      for (const from of [register, ...calls]) {
        const refs = await session.ok('findReferences', { repo, ...from });
        assert.deepEqual(refs.references.map(where).sort(), [register, ...calls].map(where).sort(), `from ${where(from)}`);
      }
      assert.deepEqual(await callers(register), callersThere);
    }
    const callees = (await session.ok('callHierarchy', { repo, ...add, direction: 'outgoing' })).calls
      .filter((c: any) => c.to.path !== null)
      .map((c: any) => item(c.to))
      .sort();
    assert.deepEqual(callees, [`method register ${where(ids)}`, `method register ${where(manager)}`]);
  });

  test('an object literal’s getter and setter of one name are one symbol declared twice: a call hierarchy is rooted at the one asked at, and a use of the property is one reference and one call, as TypeScript answers', async () => {
    const FILE = 'lib/accessors.js';
    const [getter, setter] = [at(root, FILE, 3, 'url'), at(root, FILE, 7, 'url')];
    const write = at(root, FILE, 12, 'url'); // this.url = path
    for (const accessor of [getter, setter]) {
      const answer = await session.ok('callHierarchy', { repo, ...accessor, direction: 'incoming' });
      assert.equal(where(answer.item), where(accessor));
      assert.deepEqual(
        answer.calls.map((c: any) => `${item(c.from)} ×${c.ranges.length}`),
        [`method path ${where(at(root, FILE, 11, 'path'))} ×1`],
      );
      const refs = await session.ok('findReferences', { repo, ...accessor });
      assert.deepEqual(refs.references.map(where).sort(), [getter, setter, write].map(where).sort(), `from ${where(accessor)}`);
    }
  });

  test('a member a CommonJS module adds to its export, read through an ES module’s default import of it (`mod.version`, `import mod from "./app.js"`), is what `module.exports.version = ...` assigns, not another class’s member of that name, as TypeScript answers', async () => {
    const use = at(root, 'lib/use-app.mjs', 4, 'version', { nth: 1 });
    assert.deepEqual((await definitionsAt(use)).map(where), [where(at(root, 'lib/app.js', 4, 'version'))]);
  });

  test('a function assigned to an export (`exports.headers = function ...`) that a function only reads is no callee of it, as TypeScript’s call hierarchy lists none; one it calls is', async () => {
    const cycle = at(root, 'lib/use-handlers.js', 4, 'cycle');
    const callees = (await session.ok('callHierarchy', { repo, ...cycle, direction: 'outgoing' })).calls
      .filter((c: any) => c.to.path !== null)
      .map((c: any) => item(c.to));
    assert.deepEqual(callees, [`function payload ${where(at(root, 'lib/handlers.js', 6, 'payload'))}`]);
  });

  test('findReferences at `module` or `exports` of `module.exports` answers as TypeScript: at an assignment of a whole value, that assignment and the specifiers importing the module; at an export list, the name alone; elsewhere, the file’s other such names; at `exports.name = value`, that statement’s names', async () => {
    const place = (path: string, line: number, text: string) => where(at(root, path, line, text));
    const SETTINGS = 'lib/settings.js';
    const TIMEOUTS = 'lib/timeouts.js';
    const cases: [Position, string[]][] = [
      // `module.exports = {...}`, then `module.exports.__defineSetter__(...)`.
      [at(root, SETTINGS, 2, 'exports'), [place(SETTINGS, 2, 'module'), place('lib/use-settings.js', 2, './settings')]],
      [at(root, SETTINGS, 6, 'exports'), [place(SETTINGS, 2, 'module'), place(SETTINGS, 6, 'exports')]],
      [at(root, SETTINGS, 6, 'module'), [place(SETTINGS, 6, 'module')]],
      // A class assigned whole, which four modules import.
      [
        at(root, 'lib/cursor.js', 2, 'module'),
        [
          place('lib/counting-cursor.js', 2, './cursor'),
          place('lib/cursor.js', 2, 'module'),
          place('lib/rewinding-cursor.js', 2, './cursor'),
          place('lib/skipping-cursor.js', 2, './cursor'),
          place('lib/use-assigned.js', 2, './cursor'),
        ],
      ],
      // `module.exports = { first }`, an export list.
      [at(root, 'lib/list.js', 6, 'exports'), [place('lib/list.js', 6, 'exports')]],
      [at(root, 'lib/list.js', 6, 'module'), [place('lib/list.js', 6, 'module')]],
      // `exports.subtract = function subtract(...)`: the export's statement, as typescript-language-server lists it.
      [at(root, MATH, 8, 'exports'), [place(MATH, 8, 'exports'), place(MATH, 8, 'subtract')]],
      // `module.exports.after = after` alone.
      [at(root, TIMEOUTS, 6, 'exports'), [place(TIMEOUTS, 6, 'exports'), place(TIMEOUTS, 7, 'exports')]],
      [at(root, TIMEOUTS, 7, 'module'), [place(TIMEOUTS, 6, 'module'), place(TIMEOUTS, 7, 'module')]],
    ];
    for (const [p, expected] of cases) {
      const references = await session.ok('findReferences', { repo, ...p });
      assert.deepEqual(references.references.map(where), expected, where(p));
      assert.equal(references.total, expected.length, where(p));
    }
  });

  test('a module that assigns its export in both branches of an `if` (debug’s and React’s entry points) declares it at each: goToDefinition and findReferences at either `module.exports` list both, as TypeScript answers', async () => {
    const file = 'lib/entry.js';
    const assignments = [at(root, file, 3, 'module'), at(root, file, 5, 'module')];
    for (const p of [...assignments, at(root, file, 3, 'exports'), at(root, file, 5, 'exports')]) {
      assert.deepEqual((await definitionsAt(p)).map(where), assignments.map(where), where(p));
      const references = await session.ok('findReferences', { repo, ...p });
      assert.deepEqual(
        references.references.map((r: any) => `${where(r)} ${r.kind}`),
        assignments.map((a) => `${where(a)} definition`),
        where(p),
      );
    }
  });

  test('a member assigned through a name for the exports (`var api = module.exports; api.Server = Server`, http-proxy’s style) is an export: reached through `require(...).Server`, as TypeScript answers', async () => {
    const exported = at(root, 'lib/alias-exports.js', 8, 'Server');
    const use = 'lib/use-alias-exports.js';
    assert.deepEqual((await definitionsAt(at(root, use, 1, 'Server', { nth: 1 }))).map(where), [where(exported)]);
    assert.deepEqual((await definitionsAt(at(root, use, 4, 'Server'))).map(where), [
      where(exported),
      where(at(root, 'lib/alias-exports.js', 4, 'Server')),
    ]);
  });

  test('goToDefinition at `exports` of `exports.name = value` goes to the export `name` declares, as typescript-language-server does', async () => {
    const cases: [Position, Position][] = [
      [at(root, MATH, 8, 'exports'), at(root, MATH, 8, 'subtract')],
      [at(root, 'lib/use-settings.js', 4, 'exports'), at(root, 'lib/use-settings.js', 4, 'host')],
    ];
    for (const [p, expected] of cases) assert.deepEqual((await definitionsAt(p)).map(where), [where(expected)], where(p));
  });

  test("Babel's CommonJS output (`exports.default = isArrayLike; module.exports = exports.default;`, `exports.isGenerator = isGenerator` after its preamble): the functions are the exports, and the assignment to module.exports a declaration of its own, as TypeScript answers", async () => {
    const file = 'lib/babel-default.js';
    const fn = at(root, file, 7, 'isArrayLike');
    for (const p of [at(root, file, 6, 'default'), at(root, file, 6, 'isArrayLike'), fn])
      assert.deepEqual((await definitionsAt(p)).map(where), [where(fn)], where(p));
    const assigned = at(root, file, 10, 'module');
    for (const p of [assigned, at(root, file, 10, 'exports')]) {
      const [only, ...more] = await definitionsAt(p);
      assert.deepEqual([where(only), more.length], [where(assigned), 0], where(p));
      assert.equal(only.name, 'module.exports');
    }
    // After Babel's preamble (`exports.isIterable = exports.isGenerator = undefined`), `exports.isGenerator = isGenerator`
    // is an alias of the function, as everywhere else: goToDefinition at the export's name goes to the function alone.
    const named = 'lib/babel-named.js';
    const [isGenerator, isIterable] = [at(root, named, 8, 'isGenerator'), at(root, named, 12, 'isIterable')];
    for (const [p, expected] of [
      [at(root, named, 6, 'isIterable'), isIterable],
      [at(root, named, 6, 'isGenerator'), isGenerator],
      [at(root, named, 17, 'isGenerator'), isGenerator],
      [at(root, named, 18, 'isIterable'), isIterable],
    ] as const) {
      assert.deepEqual((await definitionsAt(p)).map(where), [where(expected)], where(p));
    }
  });

  test('a function a module assigns whole from its first line, where the module is declared too, is no callee, as in TypeScript’s call hierarchy (the module had become a function, which calls through it reached)', async () => {
    const use = at(root, 'lib/use-pick.js', 5, 'pick');
    assert.deepEqual(
      (await definitionsAt(use)).map((d) => `${d.kind} ${where(d)}`),
      [`function ${where(at(root, 'lib/pick.js', 1, 'exports'))}`],
    );
    const callees = await session.ok('callHierarchy', { repo, ...at(root, 'lib/use-pick.js', 4, 'pickName'), direction: 'outgoing' });
    assert.deepEqual(callees.calls, []);
  });

  test('the calls in an anonymous function (or arrow function) a module assigns whole to `module.exports` are the module’s, as TypeScript’s call hierarchy counts them', async () => {
    const module = (path: string) => `module ${path.slice('lib/'.length)} ${path}:1:1 ×1`;
    assert.deepEqual(await callers(at(root, 'lib/format.js', 2, 'format')), [module('lib/format-all.js'), module('lib/format-one.js')]);
  });

  test('a call through a property that holds a function (`utils.isObject(x)`, `export default { isObject, isText: isString }`) goes to the property and to the function, as TypeScript answers; a read of the property to the property', async () => {
    const CHECKS = 'lib/checks.mjs';
    const USE = 'lib/use-checks.mjs';
    const isObject = where(at(root, CHECKS, 2, 'isObject'));
    const isString = where(at(root, CHECKS, 4, 'isString'));
    const property = (line: number, name: string) => where(at(root, CHECKS, line, name));
    const cases: [Position, string[]][] = [
      // Called through the object: the property, and the function the call reaches (shorthand or not).
      [at(root, USE, 3, 'isObject'), [isObject, property(9, 'isObject')]],
      [at(root, USE, 3, 'isString'), [isString, property(10, 'isString')]],
      [at(root, USE, 3, 'isText'), [isString, property(11, 'isText')]],
      // Read, not called: the property alone.
      [at(root, USE, 4, 'isObject'), [property(9, 'isObject')]],
      [at(root, USE, 4, 'isText'), [property(11, 'isText')]],
      // A call of the function itself is the function alone, not the property that holds it.
      [at(root, CHECKS, 14, 'isObject('), [isObject]],
    ];
    for (const [position, expected] of cases) {
      const found = (await definitionsAt(position)).map((d) => where(d));
      assert.deepEqual(found.sort(), expected.sort(), where(position));
    }
  });

  test('a variable of the module named as an export that holds something else (`var label = ...` beside `exports.label = ...`) stays the module’s own: the export is declared at its assignment; one that exports the variable itself (`exports.tag = tag`) is the variable', async () => {
    const NAMESAKE = 'lib/namesake.js';
    const variable = at(root, NAMESAKE, 3, 'label');
    const exported = at(root, NAMESAKE, 5, 'label');
    const read = at(root, NAMESAKE, 6, 'label');
    const through = at(root, 'lib/use-namesake.js', 3, 'label');
    const tag = at(root, NAMESAKE, 10, 'tag');
    for (const [position, expected] of [
      [at(root, 'lib/use-namesake.js', 3, 'tag'), tag],
      [at(root, NAMESAKE, 13, 'tag'), tag],
      [exported, exported],
      [through, exported],
      [read, variable],
      [variable, variable],
    ] as const) {
      assert.deepEqual((await definitionsAt(position)).map(where), [where(expected)], where(position));
    }
    const references = async (p: Position) => (await session.ok('findReferences', { repo, ...p })).references.map((x: any) => where(x));
    assert.deepEqual(await references(variable), [where(variable), where(read)]);
    assert.deepEqual(await references(through), [where(exported), where(through)]);
  });

  test("a module that assigns a member whole (`module.exports = require('bson').Double`, `= require('./units').meters`) is that assignment, at `module`, at `exports` and at an importer’s binding, as TypeScript answers", async () => {
    const USE = 'lib/use-members.js';
    for (const [file, binding, use] of [
      ['lib/bson-double.js', at(root, USE, 1, 'Double'), at(root, USE, 4, 'Double')],
      ['lib/member-export.js', at(root, USE, 2, 'meters'), undefined],
    ] as const) {
      const assignment = at(root, file, 2, 'module');
      for (const position of [assignment, at(root, file, 2, 'exports'), binding, ...(use ? [use] : [])]) {
        assert.deepEqual((await definitionsAt(position)).map(where), [where(assignment)], where(position));
      }
    }
  });

  test('a variable exported in an export list (`module.exports = { table, lookup }`) is the variable alone at its uses, not the shorthand that lists it, as TypeScript answers', async () => {
    const RECORDS = 'lib/records.js';
    const table = where(at(root, RECORDS, 2, 'table'));
    for (const position of [at(root, RECORDS, 5, 'table'), at(root, 'lib/use-records.js', 3, 'table')]) {
      assert.deepEqual((await definitionsAt(position)).map(where), [table], where(position));
    }
  });

  test('a function exported as a shorthand property (`{ shout }`) is called through the module: references and callers', async () => {
    const shout = at(root, STRINGS, 2, 'shout');
    const references = await session.ok('findReferences', { repo, ...shout });
    assert.deepEqual(
      references.references.map(where).sort(),
      [shout, at(root, STRINGS, 7, 'shout'), at(root, USE_STRINGS, 6, 'shout'), at(root, USE_INSIDE, 10, 'shout')].map(where).sort(),
    );
    const callers = await session.ok('callHierarchy', { repo, ...shout, direction: 'incoming' });
    assert.deepEqual(
      callers.calls.map((c: any) => [`${c.from.kind} ${c.from.name}`, c.ranges.length]),
      [
        ['function shoutAll', 1],
        ['module use-strings.js', 1],
      ],
    );
  });
  test("a module assigned a call's result (`module.exports = makeReader('length')`) is an export of the function called: its importers' names and calls are the function's references and callers, one way, as TypeScript lists them", async () => {
    const MAKE = 'lib/make-reader.js';
    const LENGTH = 'lib/length-reader.js';
    const USE = 'lib/use-length.js';
    const references = await session.ok('findReferences', { repo, ...at(root, MAKE, 1, 'makeReader') });
    assert.deepEqual(
      references.references.map(where),
      [
        at(root, LENGTH, 1, 'makeReader'),
        at(root, LENGTH, 3, 'makeReader'),
        at(root, MAKE, 1, 'makeReader'),
        at(root, MAKE, 7, 'makeReader'),
        at(root, USE, 1, 'lengthOf'),
        at(root, USE, 4, 'lengthOf'),
      ].map(where),
    );
    assert.deepEqual(await callers(at(root, MAKE, 1, 'makeReader')), [
      `module length-reader.js ${LENGTH}:1:1 ×1`,
      `function total ${where(at(root, USE, 3, 'total'))} ×1`,
    ]);
    // At the importer's name, its own references alone (not the specifier of its `require`).
    const own = await session.ok('findReferences', { repo, ...at(root, USE, 4, 'lengthOf') });
    assert.deepEqual(own.references.map(where), [at(root, USE, 1, 'lengthOf'), at(root, USE, 4, 'lengthOf')].map(where));
  });

  test('tsc’s preamble, `exports.Equals = exports.equals = void 0`, declares nothing: its names are writes of the exports declared below; `exports` names the export but is no reference', async () => {
    // TypeScript binds no assignment of `void 0`: goToDefinition at an importer's `Equals` goes to the function alone.
    const fn = { Equals: at(root, COMPILED, 9, 'Equals'), equals: at(root, COMPILED, 5, 'equals') };
    const preamble = { Equals: at(root, COMPILED, 4, 'Equals'), equals: at(root, COMPILED, 4, 'equals') };
    for (const name of ['Equals', 'equals'] as const) {
      const use = at(root, USE_COMPILED, name === 'Equals' ? 4 : 5, `.${name}`, { offset: 1 });
      for (const position of [use, preamble[name]]) {
        const answer = await session.ok('goToDefinition', { repo, ...position });
        assert.deepEqual(
          answer.definitions.map((x: any) => `${where(x)} ${x.kind}`),
          [`${where(fn[name])} function`],
          where(position),
        );
      }
      const refs = await session.ok('findReferences', { repo, ...use });
      const listed = refs.references.map((x: any) => `${where(x)} ${x.kind}`);
      assert.ok(listed.includes(`${where(preamble[name])} write`), listed.join(', '));
      assert.ok(listed.includes(`${where(use)} identifier`), listed.join(', '));
      // `exports` of `exports.Equals = Equals` names the function (goToDefinition there goes to it), but
      // TypeScript's findReferences does not list it among the function's references.
      const declaring = at(root, COMPILED, name === 'Equals' ? 12 : 8, 'exports');
      assert.ok(!listed.some((x: string) => x.startsWith(`${where(declaring)} `)), listed.join(', '));
      assert.equal(refs.total, listed.length);
      const fromExports = await session.ok('goToDefinition', { repo, ...declaring });
      assert.deepEqual(
        fromExports.definitions.map((x: any) => where(x)),
        [where(fn[name])],
      );
    }
  });
  test('a name bound by `require(...)` is the module, as a namespace import’s name is: goToDefinition goes to the module, findReferences lists the names for it', async () => {
    // scip-typescript defines a variable at the binding, which nothing uses (each `compiled_1` is the module's symbol).
    const binding = at(root, USE_COMPILED, 3, 'compiled_1');
    const use = at(root, USE_COMPILED, 4, 'compiled_1');
    for (const position of [binding, use]) {
      const answer = await session.ok('goToDefinition', { repo, ...position });
      assert.deepEqual(
        answer.definitions.map((x: any) => `${where(x)} ${x.kind}`),
        [`${COMPILED}:1:1 module`],
        where(position),
      );
    }
    // Its references are the places that name the module so, in every file, as TypeScript's are: not the module's
    // own `exports`, nor the specifiers that import it.
    const again = 'lib/use-compiled-again.js';
    const references = [
      `${where(at(root, again, 3, 'compiled_1'))} import`,
      `${where(at(root, again, 4, 'compiled_1'))} identifier`,
      `${where(binding)} import`,
      `${where(use)} identifier`,
      `${where(at(root, USE_COMPILED, 5, 'compiled_1'))} identifier`,
    ];
    for (const position of [binding, use]) {
      const answer = await session.ok('findReferences', { repo, ...position });
      assert.deepEqual(
        answer.references.map((x: any) => `${where(x)} ${x.kind}`),
        references,
        where(position),
      );
      assert.equal(answer.total, references.length);
    }
    // At a specifier, the module's references: the specifiers, of kind import, among them.
    const specifier = at(root, USE_COMPILED, 3, '"./compiled"');
    const ofModule = (await session.ok('findReferences', { repo, ...specifier })).references.map((x: any) => `${where(x)} ${x.kind}`);
    // Each spans the specifier's text, inside its quotes, as TypeScript's references do.
    assert.ok(ofModule.includes(`${where(at(root, USE_COMPILED, 3, '"./compiled"', { offset: 1 }))} import`), ofModule.join(', '));
    assert.ok(ofModule.includes(`${where(at(root, again, 3, "'./compiled'", { offset: 1 }))} import`), ofModule.join(', '));
  });
});
