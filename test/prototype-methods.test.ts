// Members JavaScript declares by assignment (test/fixtures/js-prototype), as a
// language server answers them: `Queue.prototype.push = function () {...}`
// declares a method of Queue's instances, `Queue.create = function () {...}`
// one of Queue itself. scip-typescript names each with a local symbol of its
// file, defines nothing, and gives each importer's `q.push` a local of its own:
// goToDefinition found nothing, and the call hierarchy refused them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { at, pathLineColumn as where } from './support/positions.js';
import { fixtureRepo, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, testHome, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
const repo = 'js-prototype';
let root: string;
let session: McpSession;

const QUEUE = 'lib/queue.js';
const USE = 'lib/use.js';
const APP = 'lib/app.js';
const COUNTER = 'lib/counter.js';
const COUNT_USE = 'lib/count-use.js';
const SERVICE = 'lib/service.js';
const SETUP = 'lib/setup.js';

describe('members declared by assignment', () => {
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

  const declared = () => ({
    push: at(root, QUEUE, 7, 'push'),
    notify: at(root, QUEUE, 12, 'notify'),
    size: at(root, QUEUE, 16, 'size'),
    create: at(root, QUEUE, 20, 'create'),
  });

  test('goToDefinition at a call of a prototype method, in its file or another, lands on its assignment: a method of Queue', async () => {
    const d = declared();
    const cases = [
      [at(root, QUEUE, 9, 'notify'), d.notify], // this.notify() in push
      [at(root, USE, 5, 'push'), d.push], // q.push(1) in an importer
      [d.size, d.size],
      [at(root, USE, 4, 'create'), d.create], // Queue.create(), Queue's own
    ] as const;
    for (const [use, declaration] of cases) {
      const answer = await session.ok('goToDefinition', { repo, ...use });
      assert.equal(answer.source, 'precise', where(use));
      assert.deepEqual(
        answer.definitions.map((x: any) => [where(x), x.kind, x.container]),
        [[where(declaration), 'method', 'Queue']],
        `${where(use)} → ${where(declaration)}`,
      );
    }
  });

  test('findReferences of a prototype method spans its file and its importers', async () => {
    const answer = await session.ok('findReferences', { repo, ...declared().push });
    assert.deepEqual(
      answer.references.map(where).sort(),
      [declared().push, at(root, USE, 5, 'push'), at(root, USE, 6, 'push')].map(where).sort(),
    );
  });

  test('call hierarchies leave members declared by assignment out, as TypeScript’s does: their calls are the module’s, and they are no callee', async () => {
    const incoming = async (p: ReturnType<typeof declared>['push']) =>
      (await session.ok('callHierarchy', { repo, ...p, direction: 'incoming' })).calls.map(
        (c: any) => `${c.from.kind} ${c.from.name} ×${c.ranges.length}`,
      );
    // `report(...)` in notify: a call of the module.
    assert.deepEqual(await incoming(at(root, QUEUE, 24, 'report')), ['module queue.js ×1']);
    // fill calls Queue.create() and q.push() twice: none is listed.
    const outgoing = await session.ok('callHierarchy', { repo, ...at(root, USE, 3, 'fill'), direction: 'outgoing' });
    assert.deepEqual(outgoing.calls, []);
    for (const member of [declared().push, declared().create]) {
      const refused = await session.call('callHierarchy', { repo, ...member, direction: 'incoming' });
      assert.equal(refused.isError, true, where(member));
      assert.match(
        refused.result.error,
        /is a method JavaScript declares by assigning a function to it \(on Queue or its prototype\).*findReferences lists its uses/,
      );
    }
    const item = (await session.ok('goToDefinition', { repo, ...declared().notify })).definitions[0];
    assert.equal(item.enclosing_range, null, 'no span of its own');
  });

  test('an assignment to a member of a function of its file (`fill.notify = false`) declares that function’s property, not a use of another’s', async () => {
    const own = at(root, USE, 10, 'notify');
    const answer = await session.ok('goToDefinition', { repo, ...own });
    assert.deepEqual(
      answer.definitions.map((x: any) => [where(x), x.kind, x.container]),
      [[where(own), 'property', 'fill']],
    );
    const references = await session.ok('findReferences', { repo, ...declared().notify });
    assert.deepEqual(references.references.map(where).sort(), [declared().notify, at(root, QUEUE, 9, 'notify')].map(where).sort());
  });

  test('an assignment in a nested function (`createDebug.names = []` in `enable`) assigns the member the outer one declared, and declares none', async () => {
    // TypeScript looks the function up in the assignment's own scopes only (debug's src/common.js).
    const declaredAt = at(root, SETUP, 7, 'names');
    const places = [declaredAt, at(root, SETUP, 10, 'names'), at(root, SETUP, 11, 'names')];
    for (const position of places) {
      const answer = await session.ok('goToDefinition', { repo, ...position });
      assert.deepEqual(
        answer.definitions.map((x: any) => [where(x), x.kind, x.container]),
        [[where(declaredAt), 'property', 'createDebug']],
        where(position),
      );
    }
    const references = await session.ok('findReferences', { repo, ...places[1]! });
    assert.deepEqual(references.references.map(where), places.map(where));
  });

  test('a member assigned to what a module exports whole (`var app = exports = module.exports = {}`) is an export, reached from importers', async () => {
    const init = at(root, APP, 4, 'init');
    const ready = at(root, APP, 8, 'ready');
    for (const [use, declaration] of [
      [at(root, USE, 15, 'init'), init], // app.init() in an importer
      [at(root, APP, 5, 'ready'), ready], // this.ready() in the module
    ] as const) {
      const answer = await session.ok('goToDefinition', { repo, ...use });
      assert.deepEqual(
        answer.definitions.map((x: any) => [where(x), x.kind]),
        [[where(declaration), 'function']],
        where(use),
      );
    }
    // As `exports.init = function` is: a callable export, whose calls are the module's.
    const callers = await session.ok('callHierarchy', { repo, ...init, direction: 'incoming' });
    assert.deepEqual(
      callers.calls.map((c: any) => `${c.from.kind} ${c.from.name}`),
      ['module use.js'],
    );
  });

  test('a value that is no function on the prototype (`Queue.prototype.limit = 10`) is no method', async () => {
    const limit = at(root, QUEUE, 18, 'limit');
    const answer = await session.call('callHierarchy', { repo, ...limit, direction: 'incoming' });
    assert.equal(answer.isError, true, JSON.stringify(answer));
  });

  // `this.count = 0` declares a property (TypeScript binds it so), in a class
  // whose base declares it too: the class's own, overriding the base's.
  // TypeScript's goToDefinition at the assignment answers it, at the class's
  // reads the base's (through the type), and its findReferences lists both.
  // scip-typescript gives such an assignment a local of its own that nothing
  // else uses. The expectations are typescript-language-server's on this tree.
  describe('properties assigned on `this`', () => {
    const references = async (position: { path: string; line: number; column: number }) =>
      (await session.ok('findReferences', { repo, ...position })).references.map((x: any) => `${where(x)} ${x.kind}`);
    const definitions = async (position: { path: string; line: number; column: number }) =>
      (await session.ok('goToDefinition', { repo, ...position })).definitions.map((x: any) => `${where(x)} ${x.kind}`);

    test("a subclass's assignment of an inherited property overrides the base's: both answer together, from an importer too", async () => {
      const declared = at(root, COUNTER, 4, 'count');
      const reset = at(root, COUNTER, 14, 'count'); // the subclass's reset()
      const uses = [
        `${where(at(root, COUNT_USE, 4, '.count', { offset: 1 }))} write`,
        `${where(at(root, COUNT_USE, 6, '.count', { offset: 1 }))} identifier`,
        `${where(declared)} definition`,
        `${where(at(root, COUNTER, 8, 'count'))} write`, // += in the base
        `${where(reset)} definition`,
        `${where(at(root, COUNTER, 18, 'count'))} identifier`, // the subclass's getter
      ];
      for (const [position, defined] of [
        [reset, reset],
        [at(root, COUNT_USE, 4, '.count', { offset: 1 }), declared],
        [declared, declared],
      ] as const) {
        assert.deepEqual(await references(position), uses, where(position));
        assert.deepEqual(await definitions(position), [`${where(defined)} property`], where(position));
      }
    });

    test('an assignment of a property a declaration file gives the base class overrides that declaration', async () => {
      const declared = at(root, 'lib/context.d.ts', 2, 'ready');
      const write = at(root, SERVICE, 7, 'ready');
      assert.deepEqual(await definitions(write), [`${where(write)} property`]);
      assert.deepEqual(await definitions(at(root, SERVICE, 6, 'ready')), [`${where(declared)} property`]);
      assert.deepEqual(await references(write), [
        `${where(declared)} definition`,
        `${where(at(root, SERVICE, 6, 'ready'))} identifier`,
        `${where(write)} definition`,
      ]);
    });

    test('two classes of one file that each assign `label` keep a property each', async () => {
      const tag = at(root, COUNTER, 25, 'label');
      const note = at(root, COUNTER, 31, 'label');
      assert.deepEqual(await references(tag), [`${where(tag)} definition`]);
      assert.deepEqual(await references(note), [`${where(note)} definition`, `${where(at(root, COUNTER, 35, 'label'))} identifier`]);
    });
  });
});
