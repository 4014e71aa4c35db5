// Edited code on real repositories (issue 10, "Edited code"): a clone of rxjs
// (496 files, from npm) and of requests (from Debian) is indexed once; then an
// agent's edit adds a function and two calls to it in one file and changes a
// call in another, without reindexing. At the new code, goToDefinition,
// findReferences and callHierarchy (incoming and outgoing, one level) through
// the official MCP client must equal what the language server itself
// (typescript-language-server, pyright), asked directly on the edited tree,
// answers. At unchanged code the index answers (`source: "precise"`), each
// location saying where it came from. The tier's added latency over the
// server's own (warm, p50) and the time to the first tier answer from a cold
// server are printed as diagnostics; speed is never asserted here.
import assert from 'node:assert/strict';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { CallHierarchyItem, Range } from 'vscode-languageserver-protocol';
import { requestsRepo, rxjsWithDeclarationsRepo } from './support/corpus.js';
import { linesOf, trackedFiles, type Position } from './support/positions.js';
import { Pyright } from './support/pyright.js';
import { removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, testHome, type McpSession } from './support/sextant.js';
import { TypeScriptLanguageServer, type LspLocation } from './support/typescript-language-server.js';

/** What both directly-asked servers answer. */
interface Direct {
  definition(path: string, line: number, character: number): Promise<LspLocation[]>;
  references(path: string, line: number, character: number, includeDeclaration: boolean): Promise<LspLocation[]>;
  prepareCallHierarchy(path: string, line: number, character: number): Promise<CallHierarchyItem[]>;
  incomingCalls(item: CallHierarchyItem): Promise<{ from: CallHierarchyItem; fromRanges: Range[] }[]>;
  outgoingCalls(item: CallHierarchyItem): Promise<{ to: CallHierarchyItem; fromRanges: Range[] }[]>;
  stop(): Promise<void>;
}

const key = (p: { path: string; line: number; column: number }) => `${p.path}:${p.line}:${p.column}`;
const directKey = (l: LspLocation) => `${l.path}:${l.line + 1}:${l.character + 1}`;
const sortedSet = (xs: string[]) => [...new Set(xs)].sort();

/** The 1-based position of the `nth` whole-word `word` on the first line of `path` containing `marker`. */
function wordAt(root: string, path: string, marker: string, word: string, nth = 0): Position {
  const lines = linesOf(root, path);
  const i = lines.findIndex((l) => l.includes(marker));
  if (i < 0) throw new Error(`${path} has no line with ${marker}`);
  const hits = [...lines[i]!.matchAll(new RegExp(`(?<![\\w$])${word}(?![\\w$])`, 'g'))];
  if (!hits[nth]) throw new Error(`${path}:${i + 1} has no occurrence ${nth + 1} of ${word}`);
  return { path, line: i + 1, column: hits[nth]!.index + 1 };
}

/** Replaces the one line of a file containing `marker` with `replacement` (which may be several lines). */
function replaceLine(root: string, path: string, marker: string, replacement: string): void {
  const lines = linesOf(root, path);
  const hits = lines.filter((l) => l.includes(marker)).length;
  if (hits !== 1) throw new Error(`${path}: ${hits} lines contain ${marker}`);
  writeFileSync(join(root, path), lines.map((l) => (l.includes(marker) ? replacement : l)).join('\n'));
}

function p50(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Call hierarchies in one comparable form: the other end (or `outside NAME`) and the ranges of each call. */
function tierCalls(answer: any): string[] {
  return answer.calls
    .map((c: any) => {
      const end = c.from ?? c.to;
      const at = end.path === null ? `outside ${end.name}` : `${end.name}@${key(end)}`;
      return `${at} [${sortedSet(c.ranges.map(key)).join(' ')}]`;
    })
    .sort();
}

function directCalls(
  realRoot: string,
  item: CallHierarchyItem,
  calls: { from?: CallHierarchyItem; to?: CallHierarchyItem; fromRanges: Range[] }[],
): string[] {
  const pathOf = (uri: string) => {
    const rel = relative(realRoot, fileURLToPath(uri));
    return rel.startsWith('..') ? undefined : rel.split(sep).join('/');
  };
  return calls
    .map((c) => {
      const end = (c.from ?? c.to)!;
      const path = pathOf(end.uri);
      const s = end.selectionRange.start;
      const at = path === undefined ? `outside ${end.name}` : `${end.name}@${path}:${s.line + 1}:${s.character + 1}`;
      const rangesIn = pathOf(c.from ? c.from.uri : item.uri);
      const ranges = rangesIn === undefined ? [] : c.fromRanges.map((r) => `${rangesIn}:${r.start.line + 1}:${r.start.character + 1}`);
      return `${at} [${sortedSet(ranges).join(' ')}]`;
    })
    .sort();
}

/**
 * At each position of new code: goToDefinition, findReferences and
 * callHierarchy (both directions, one level) through MCP equal the server's
 * own answers, every location from `lsp`.
 */
async function compareAtNewCode(
  session: McpSession,
  slug: string,
  root: string,
  direct: Direct,
  positions: Position[],
): Promise<{ references: number; calls: number }> {
  const realRoot = realpathSync(root);
  const compared = { references: 0, calls: 0 };
  for (const p of positions) {
    const where = `${slug} ${key(p)}`;
    const def = await session.ok('goToDefinition', { repo: slug, ...p });
    assert.equal(def.source, 'lsp', where);
    assert.equal(def.meta.provenance, 'local-lsp', where);
    assert.equal(def.partial, undefined, `${where}: waited for the project within the budget`);
    const directDefs = (await direct.definition(p.path, p.line - 1, p.column - 1)).filter((l) => !l.path.startsWith('/'));
    assert.ok(directDefs.length > 0, `${where}: the server finds a definition`);
    assert.deepEqual(sortedSet(def.definitions.map(key)), sortedSet(directDefs.map(directKey)), `goToDefinition at ${where}`);
    assert.ok(
      def.definitions.every((d: any) => d.source === 'lsp'),
      where,
    );

    const refs = await session.ok('findReferences', { repo: slug, ...p, include_declaration: true, limit: 500 });
    const directRefs = (await direct.references(p.path, p.line - 1, p.column - 1, true)).filter((l) => !l.path.startsWith('/'));
    assert.ok(directRefs.length >= 2, `${where}: the server finds the uses`);
    assert.equal(refs.source, 'lsp', where);
    assert.deepEqual(sortedSet(refs.references.map(key)), sortedSet(directRefs.map(directKey)), `findReferences at ${where}`);
    assert.ok(
      refs.references.every((r: any) => r.source === 'lsp'),
      where,
    );
    compared.references += refs.references.length;

    const [item] = await direct.prepareCallHierarchy(p.path, p.line - 1, p.column - 1);
    if (!item) continue;
    for (const direction of ['incoming', 'outgoing'] as const) {
      const calls = await session.ok('callHierarchy', { repo: slug, ...p, direction, depth: 1, limit: 200 });
      assert.equal(calls.source, 'lsp', where);
      const s = item.selectionRange.start;
      assert.equal(
        `${calls.item.name}@${key(calls.item)}`,
        `${item.name}@${relative(realRoot, fileURLToPath(item.uri)).split(sep).join('/')}:${s.line + 1}:${s.character + 1}`,
      );
      const directAnswer = direction === 'incoming' ? await direct.incomingCalls(item) : await direct.outgoingCalls(item);
      assert.deepEqual(tierCalls(calls), directCalls(realRoot, item, directAnswer), `callHierarchy ${direction} at ${where}`);
      for (const c of calls.calls)
        assert.ok(
          c.ranges.every((r: any) => r.source === 'lsp'),
          where,
        );
      compared.calls += calls.calls.length;
    }
  }
  return compared;
}

/** The index answers at unchanged code; in a merged findReferences every location says its source. */
async function assertFromIndex(
  session: McpSession,
  slug: string,
  root: string,
  direct: Direct,
  definitionAt: Position,
  referencesAt: Position,
  edited: string[],
  /** A function's name on an unchanged line, its body edited. */
  outgoingAt?: Position,
) {
  const def = await session.ok('goToDefinition', { repo: slug, ...definitionAt });
  assert.equal(def.source, 'precise', key(definitionAt));
  assert.equal(def.meta.provenance, 'local-index');
  assert.ok(def.definitions.length > 0 && def.definitions.every((d: any) => d.source !== 'lsp'));
  const refs = await session.ok('findReferences', { repo: slug, ...referencesAt, limit: 500 });
  assert.equal(refs.source, 'precise', key(referencesAt));
  for (const r of refs.references) {
    assert.equal(r.source, edited.includes(r.path) ? 'lsp' : 'precise', `${key(r)} says where it came from`);
  }
  assert.ok(
    refs.references.some((r: any) => r.source === 'precise'),
    'the index still answers in unchanged files',
  );
  assert.ok(
    refs.references.some((r: any) => r.source === 'lsp'),
    'the server answers in the edited files',
  );
  assert.equal(refs.meta.provenance, 'local-lsp');
  // The index's references in unchanged files and the server's in edited ones: what the server finds on the whole edited tree.
  const directRefs = await direct.references(referencesAt.path, referencesAt.line - 1, referencesAt.column - 1, true);
  assert.deepEqual(
    sortedSet(refs.references.map(key)),
    sortedSet(directRefs.filter((l) => !l.path.startsWith('/')).map(directKey)),
    `findReferences at ${key(referencesAt)}`,
  );
  const calls = await session.ok('callHierarchy', { repo: slug, ...definitionAt, direction: 'incoming', depth: 1 });
  assert.equal(calls.source, 'precise', key(definitionAt));
  // The index's callers in unchanged files, the server's in edited ones: the server's own on the whole edited tree.
  for (const c of calls.calls) {
    for (const r of c.ranges) assert.equal(r.source, edited.includes(r.path) ? 'lsp' : 'precise', `${key(r)} says where it came from`);
  }
  const [item] = await direct.prepareCallHierarchy(definitionAt.path, definitionAt.line - 1, definitionAt.column - 1);
  assert.ok(item, key(definitionAt));
  assert.deepEqual(
    tierCalls(calls),
    directCalls(realpathSync(root), item, await direct.incomingCalls(item)),
    `callHierarchy at ${key(definitionAt)}`,
  );
  // Outgoing calls of a function whose body was edited: the server's own, each range saying so.
  if (outgoingAt) {
    const out = await session.ok('callHierarchy', { repo: slug, ...outgoingAt, direction: 'outgoing', depth: 1 });
    assert.equal(out.source, 'precise', key(outgoingAt));
    const [function1] = await direct.prepareCallHierarchy(outgoingAt.path, outgoingAt.line - 1, outgoingAt.column - 1);
    assert.ok(function1 && out.calls.length > 0, key(outgoingAt));
    assert.deepEqual(
      tierCalls(out),
      directCalls(realpathSync(root), function1, await direct.outgoingCalls(function1)),
      `outgoing at ${key(outgoingAt)}`,
    );
    for (const c of out.calls)
      assert.ok(
        c.ranges.every((r: any) => r.source === 'lsp'),
        key(outgoingAt),
      );
  }
}

/**
 * The first goToDefinition at edited code through a session whose server has
 * not started (spawned, project loaded, answer complete), then the same of the
 * server started and asked directly, one after the other.
 */
async function coldFirstAnswer(
  t: TestContext,
  session: McpSession,
  slug: string,
  at: Position,
  start: () => Promise<Direct>,
): Promise<{ direct: Direct; definitions: string[] }> {
  let started = performance.now();
  const def = await session.ok('goToDefinition', { repo: slug, ...at });
  const tier = performance.now() - started;
  assert.equal(def.source, 'lsp');
  assert.equal(def.partial, undefined, 'waited for the project within the budget');
  started = performance.now();
  const direct = await start();
  const own = await direct.definition(at.path, at.line - 1, at.column - 1);
  t.diagnostic(
    `${slug}: first answer at edited code from a cold server: tier ${(tier / 1000).toFixed(2)} s, server spawned and asked directly ${((performance.now() - started) / 1000).toFixed(2)} s`,
  );
  assert.deepEqual(def.definitions.map(key), own.filter((l) => !l.path.startsWith('/')).map(directKey));
  return { direct, definitions: def.definitions.map(key) };
}

/** Warm p50 of goToDefinition through the tier against the server's own, alternating position by position. */
async function warmLatency(t: TestContext, session: McpSession, slug: string, direct: Direct, positions: Position[], rounds = 10) {
  const tier: number[] = [];
  const own: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const p of positions) {
      let started = performance.now();
      await session.ok('goToDefinition', { repo: slug, ...p });
      tier.push(performance.now() - started);
      started = performance.now();
      await direct.definition(p.path, p.line - 1, p.column - 1);
      own.push(performance.now() - started);
    }
  }
  t.diagnostic(
    `${slug} warm goToDefinition at edited code, p50 over ${tier.length}: tier ${p50(tier).toFixed(1)} ms (MCP), server directly ${p50(own).toFixed(1)} ms, added ${(p50(tier) - p50(own)).toFixed(1)} ms`,
  );
}

/** p50 of goToDefinition and findReferences at unchanged positions (the index's answers). */
async function indexLatency(session: McpSession, slug: string, positions: Position[], rounds = 5): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const p of positions) {
      const started = performance.now();
      await session.ok('goToDefinition', { repo: slug, ...p });
      await session.ok('findReferences', { repo: slug, ...p });
      times.push(performance.now() - started);
    }
  }
  return p50(times);
}

describe('edited rxjs (496 files): the tier at new code equals typescript-language-server on the edited tree', () => {
  const { home, env } = testHome();
  // A real project on a shared machine may take longer to load than the default budget: the first answer waits for it.
  Object.assign(env, { SEXTANT_LSP_REQUEST_SECONDS: '120', SEXTANT_LSP_WAIT_SECONDS: '120' });
  const ARGS = 'src/internal/util/args.ts';
  const MERGE = 'src/internal/observable/merge.ts';
  const CONCAT = 'src/internal/observable/concat.ts';
  const MAP = 'src/internal/operators/map.ts';
  let repo: string;
  let session: McpSession;
  let direct: TypeScriptLanguageServer;
  let indexBefore: { merged: number; untouched: number };
  const unchanged = () => [
    wordAt(repo, CONCAT, 'from(args, popScheduler(args))', 'popScheduler'),
    wordAt(repo, MERGE, 'popNumber(args, Infinity)', 'popNumber'),
  ];
  /** Unchanged code whose references lie in no edited file: no server is asked there. */
  const untouched = () => [
    wordAt(repo, CONCAT, 'from(args, popScheduler(args))', 'concatAll'),
    wordAt(repo, MAP, 'return operate(', 'operate'),
  ];

  before(async () => {
    repo = rxjsWithDeclarationsRepo();
    assert.ok(trackedFiles(repo).length >= 300, 'a repository of at least 300 files');
    indexOrThrow(repo, env);
    session = await mcpSession(env);
    indexBefore = { merged: await indexLatency(session, 'rxjs', unchanged()), untouched: await indexLatency(session, 'rxjs', untouched()) };
    // The agent's edit: a new function popIf and two calls to it in args.ts ...
    replaceLine(
      repo,
      ARGS,
      'export function popResultSelector(',
      [
        'export function popIf<T>(args: any[], test: (value: unknown) => boolean): T | undefined {',
        '  return test(last(args)) ? args.pop() : undefined;',
        '}',
        '',
        'export function popResultSelector(args: any[]): ((...args: unknown[]) => unknown) | undefined {',
      ].join('\n'),
    );
    replaceLine(repo, ARGS, 'return isFunction(last(args))', '  return popIf(args, isFunction);');
    replaceLine(repo, ARGS, 'return isScheduler(last(args))', '  return popIf(args, isScheduler);');
    // ... and a call changed in merge.ts: popScheduler(args) becomes popIf(args, isScheduler).
    replaceLine(
      repo,
      MERGE,
      "from '../util/args'",
      "import { popIf, popNumber } from '../util/args';\nimport { isScheduler } from '../util/isScheduler';",
    );
    replaceLine(repo, MERGE, 'const scheduler = popScheduler(args);', '  const scheduler = popIf<SchedulerLike>(args, isScheduler);');
  });
  after(async () => {
    await session?.close();
    await direct?.stop();
    removeDir(home);
    if (repo) removeDir(dirname(repo));
  });

  test('the first tier answer from a cold server waits for the project, and is complete', async (t) => {
    const call = wordAt(repo, ARGS, 'return popIf(args, isFunction)', 'popIf');
    const cold = await coldFirstAnswer(t, session, 'rxjs', call, () => TypeScriptLanguageServer.start(repo));
    direct = cold.direct as TypeScriptLanguageServer;
    assert.deepEqual(cold.definitions, [key(wordAt(repo, ARGS, 'export function popIf', 'popIf'))]);
  });

  test('goToDefinition, findReferences and callHierarchy at the new code match the server asked directly', async (t) => {
    const compared = await compareAtNewCode(session, 'rxjs', repo, direct, [
      wordAt(repo, ARGS, 'export function popIf', 'popIf'),
      wordAt(repo, ARGS, 'return popIf(args, isScheduler)', 'popIf'),
      wordAt(repo, ARGS, 'return test(last(args))', 'last'),
      wordAt(repo, MERGE, 'popIf<SchedulerLike>(args, isScheduler)', 'popIf'),
      wordAt(repo, MERGE, 'popIf<SchedulerLike>(args, isScheduler)', 'isScheduler'),
    ]);
    // popIf's callers (popResultSelector, popScheduler, merge) and callees (test is a parameter; last) at least.
    assert.ok(compared.references >= 4 * 5 && compared.calls >= 4, JSON.stringify(compared));
    t.diagnostic(`rxjs: compared ${compared.references} references and ${compared.calls} call hierarchy edges`);
  });

  test('unchanged code still answers from the index, each location saying its source', async (t) => {
    const [inConcat, popNumberCall] = unchanged();
    const popScheduler = wordAt(repo, ARGS, 'export function popScheduler', 'popScheduler');
    await assertFromIndex(session, 'rxjs', repo, direct, inConcat!, inConcat!, [ARGS, MERGE], popScheduler);
    await assertFromIndex(session, 'rxjs', repo, direct, popNumberCall!, popNumberCall!, [ARGS, MERGE]);
    for (const p of untouched()) {
      const refs = await session.ok('findReferences', { repo: 'rxjs', ...p });
      assert.equal(refs.meta.provenance, 'local-index', `${key(p)}: no server is asked when no reference lies in an edited file`);
    }
    const after = { merged: await indexLatency(session, 'rxjs', unchanged()), untouched: await indexLatency(session, 'rxjs', untouched()) };
    t.diagnostic(
      `rxjs: goToDefinition + findReferences at unchanged code, p50 before the edit -> after: ` +
        `${indexBefore.untouched.toFixed(1)} -> ${after.untouched.toFixed(1)} ms where no reference is in an edited file, ` +
        `${indexBefore.merged.toFixed(1)} -> ${after.merged.toFixed(1)} ms where the server's references in edited files are merged in`,
    );
  });

  test('latency: the tier against the server it runs, warm', async (t) => {
    await warmLatency(t, session, 'rxjs', direct, [
      wordAt(repo, ARGS, 'return popIf(args, isFunction)', 'popIf'),
      wordAt(repo, MERGE, 'popIf<SchedulerLike>(args, isScheduler)', 'popIf'),
      wordAt(repo, MERGE, 'popIf<SchedulerLike>(args, isScheduler)', 'isScheduler'),
    ]);
  });
});

describe('edited requests: the tier at new code equals pyright on the edited tree', () => {
  const { home, env } = testHome();
  // A real project on a shared machine may take longer to load than the default budget: the first answer waits for it.
  Object.assign(env, { SEXTANT_LSP_REQUEST_SECONDS: '120', SEXTANT_LSP_WAIT_SECONDS: '120' });
  const UTILS = 'requests/utils.py';
  const ADAPTERS = 'requests/adapters.py';
  let repo: string;
  let session: McpSession;
  let direct: Pyright;

  before(async () => {
    repo = requestsRepo();
    indexOrThrow(repo, env);
    // The agent's edit: a new function and two calls to it in utils.py ...
    replaceLine(
      repo,
      UTILS,
      'def get_auth_from_url(url):',
      ['def unquote_or_empty(value):', '    return unquote(value) if value else ""', '', '', 'def get_auth_from_url(url):'].join('\n'),
    );
    replaceLine(
      repo,
      UTILS,
      'auth = (unquote(parsed.username), unquote(parsed.password))',
      '        auth = (unquote_or_empty(parsed.username), unquote_or_empty(parsed.password))',
    );
    // ... and a call changed in adapters.py.
    const proxyHeaders = linesOf(repo, ADAPTERS).filter((l) => l.includes('get_auth_from_url(proxy)'));
    assert.equal(proxyHeaders.length, 2);
    const text = readFileSync(join(repo, ADAPTERS), 'utf8');
    const last = text.lastIndexOf('get_auth_from_url(proxy)');
    writeFileSync(
      join(repo, ADAPTERS),
      `${text.slice(0, last)}get_auth_from_url(proxy.strip())${text.slice(last + 'get_auth_from_url(proxy)'.length)}`,
    );
    session = await mcpSession(env);
  });
  after(async () => {
    await session?.close();
    await direct?.stop();
    removeDir(home);
    if (repo) removeDir(dirname(repo));
  });

  test('the first tier answer from a cold pyright is complete', async (t) => {
    const call = wordAt(repo, UTILS, 'auth = (unquote_or_empty(', 'unquote_or_empty');
    const cold = await coldFirstAnswer(t, session, 'requests', call, () => Pyright.start(repo));
    direct = cold.direct as Pyright;
    assert.deepEqual(cold.definitions, [key(wordAt(repo, UTILS, 'def unquote_or_empty', 'unquote_or_empty'))]);
  });

  test('goToDefinition, findReferences and callHierarchy at the new code match pyright asked directly', async (t) => {
    const compared = await compareAtNewCode(session, 'requests', repo, direct, [
      wordAt(repo, UTILS, 'def unquote_or_empty', 'unquote_or_empty'),
      wordAt(repo, UTILS, 'auth = (unquote_or_empty(', 'unquote_or_empty', 1),
      wordAt(repo, ADAPTERS, 'get_auth_from_url(proxy.strip())', 'get_auth_from_url'),
    ]);
    assert.ok(compared.references >= 3 * 3 && compared.calls >= 3, JSON.stringify(compared));
    t.diagnostic(`requests: compared ${compared.references} references and ${compared.calls} call hierarchy edges`);
  });

  test('unchanged code still answers from the index, each location saying its source', async () => {
    const call = wordAt(repo, ADAPTERS, 'get_auth_from_url(proxy)', 'get_auth_from_url');
    const edited = wordAt(repo, UTILS, 'def get_auth_from_url', 'get_auth_from_url');
    await assertFromIndex(session, 'requests', repo, direct, call, call, [UTILS, ADAPTERS], edited);
  });

  test('latency: the tier against pyright, warm', async (t) => {
    await warmLatency(t, session, 'requests', direct, [
      wordAt(repo, UTILS, 'auth = (unquote_or_empty(', 'unquote_or_empty'),
      wordAt(repo, ADAPTERS, 'get_auth_from_url(proxy.strip())', 'get_auth_from_url'),
    ]);
  });
});
