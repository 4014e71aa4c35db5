// Indexing real third-party code end to end: rxjs (TypeScript, ~250 files)
// and python requests, each through `sextant index` into a real registry and
// asked over MCP. Line numbers of third-party code are not pinned: the
// expectations are structural facts found in the source text (where
// `export class Observable` is, which files import it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { requestsRepo, rxjsRepo } from './support/corpus.js';
import { byPosition, find, where } from './support/positions.js';
import { filesUnder, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, testHome, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
let session: McpSession;
let rxjs: string;
let requests: string;
const reports: Record<string, Record<string, any>> = {};

async function ok(name: string, args: Record<string, unknown>): Promise<any> {
  const r = await session.call(name, args);
  assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} failed: ${JSON.stringify(r.result)}`);
  return r.result;
}

before(async () => {
  rxjs = rxjsRepo();
  requests = requestsRepo();
  reports.rxjs = indexOrThrow(rxjs, env);
  reports.requests = indexOrThrow(requests, env);
  session = await mcpSession(env);
});

after(async () => {
  await session?.close();
  for (const root of [rxjs, requests]) if (root) removeDir(join(root, '..'));
  removeDir(home);
});

describe('rxjs', () => {
  test('the report says TypeScript is precise and every .ts file under src/ was indexed', () => {
    const r = reports.rxjs!;
    assert.equal(r.outcome, 'indexed');
    const sources = filesUnder(rxjs, 'src', /\.ts$/);
    assert.ok(sources.length > 200);
    assert.equal(r.languages.typescript.tier, 'precise');
    assert.equal(r.languages.typescript.files, sources.length);
    assert.equal(r.languages.typescript.indexed_files, sources.length);
  });

  test('goToDefinition of an imported Observable lands on `export class Observable` in src/internal/Observable.ts', async () => {
    const decl = find(rxjs, 'src/internal/Observable.ts', /^export class (Observable)\b/);
    const use = find(rxjs, 'src/internal/util/lift.ts', /^import \{ (Observable) \} from '\.\.\/Observable'/);
    const r = await ok('goToDefinition', { repo: 'rxjs', ...use });
    assert.deepEqual(r.definitions.map(where), [decl]);
    assert.equal(r.definitions[0].kind, 'class');
    // A use as a type, in a signature, resolves the same way.
    const typeUse = find(rxjs, 'src/internal/observable/ConnectableObservable.ts', /refCount\(\): (Observable)</);
    const t = await ok('goToDefinition', { repo: 'rxjs', ...typeUse });
    assert.deepEqual(t.definitions.map(where), [decl]);
  });

  test('findReferences of Observable lists an import in every file that imports it from its module', async () => {
    const importers = filesUnder(rxjs, 'src', /\.ts$/).filter((p) =>
      /import\s*(type\s*)?\{[^}]*\bObservable\b[^}]*\}\s*from\s*'(\.\.?\/)+(internal\/)?Observable'/.test(
        readFileSync(join(rxjs, p), 'utf8'),
      ),
    );
    assert.ok(importers.length > 50, `${importers.length} files import Observable`);
    const r = await ok('findReferences', { repo: 'rxjs', symbol: 'Observable', kind: 'import', limit: 2000 });
    assert.equal(r.truncated, false);
    const found = new Set(r.references.map((x: any) => x.path));
    assert.deepEqual(
      importers.filter((p) => !found.has(p)),
      [],
    );
    // The class is the symbol these references belong to.
    assert.ok(r.symbols.some((s: any) => s.path === 'src/internal/Observable.ts' && s.kind === 'class'));
  });

  test('findReferences of Observable is truncated at the default limit of 200, and says so', async () => {
    const decl = find(rxjs, 'src/internal/Observable.ts', /^export class (Observable)\b/);
    const r = await ok('findReferences', { repo: 'rxjs', ...decl });
    assert.equal(r.limit, 200);
    assert.equal(r.references.length, 200);
    assert.equal(r.truncated, true);
    assert.ok(r.total > 200, `total ${r.total}`);
    // Sorted by path, then position.
    const positions = r.references.map(where);
    assert.deepEqual([...positions].sort(byPosition), positions);
  });
});

describe('requests', () => {
  test('the report says Python is precise and every module was indexed', () => {
    const r = reports.requests!;
    assert.equal(r.outcome, 'indexed');
    const modules = filesUnder(requests, 'requests', /\.py$/);
    assert.equal(r.languages.python.tier, 'precise');
    assert.equal(r.languages.python.files, modules.length);
    assert.equal(r.languages.python.indexed_files, modules.length);
  });

  test('goToDefinition of sessions.Session() in api.py lands on `class Session` in sessions.py', async () => {
    const use = find(requests, 'requests/api.py', /sessions\.(Session)\(\)/);
    const r = await ok('goToDefinition', { repo: 'requests', ...use });
    assert.deepEqual(r.definitions.map(where), [find(requests, 'requests/sessions.py', /^class (Session)\(/)]);
    assert.equal(r.definitions[0].kind, 'class');
  });

  test('goToDefinition of request() inside get() lands on the module function, not Session.request', async () => {
    const use = find(requests, 'requests/api.py', /return (request)\("get"/);
    const r = await ok('goToDefinition', { repo: 'requests', ...use });
    assert.deepEqual(r.definitions.map(where), [find(requests, 'requests/api.py', /^def (request)\(/)]);
  });

  test('findReferences of the module function request() counts the calls in api.py', async () => {
    const decl = find(requests, 'requests/api.py', /^def (request)\(/);
    const text = readFileSync(join(requests, 'requests/api.py'), 'utf8');
    // Every `return request(` in api.py (get, options, head, post, put, patch, delete) calls it.
    const calls = text.split('\n').filter((l) => /^\s+return request\(/.test(l)).length;
    assert.ok(calls >= 7);
    const r = await ok('findReferences', { repo: 'requests', ...decl, kind: 'call' });
    const inApi = r.references.filter((x: any) => x.path === 'requests/api.py');
    assert.equal(inApi.length, calls);
    // Session.request (self.request(...)) is another symbol: none of its calls are here.
    assert.ok(r.references.every((x: any) => !/self\.request\(/.test(x.preview)));
  });
});
