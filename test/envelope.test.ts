// The provenance envelope (`meta`) on every tool's answer, SRC's
// get_index_status against the SRC output schema copied verbatim from
// reference/src-get_index_status.txt, instruction signals found in the
// repository text answers carry, and byte budgets on replies.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { FIXTURES } from './support/paths.js';
import { at } from './support/positions.js';
import { rxjsRepo } from './support/corpus.js';
import { hookedSession, MAX_REPLY_BYTES } from './support/fuzz-run.js';
import { fixtureRepo, git, removeDir, tempDir } from './support/repos.js';
import { indexOrThrow, mcpSession, testHome, type McpSession } from './support/sextant.js';

const SRC_SCHEMA = JSON.parse(readFileSync(join(FIXTURES, 'src-get_index_status.output.schema.json'), 'utf8'));
const validator = new Ajv2020({ strict: false }).compile(SRC_SCHEMA);
/** Why a value fails the SRC schema, or null. */
const srcSchemaErrors = (value: unknown): string | null => (validator(value) ? null : JSON.stringify(validator.errors));
const PROVENANCES = ['local-analysis', 'local-filesystem', 'local-index', 'local-lsp'];
const KINDS = SRC_SCHEMA.properties.meta.properties.instruction_signals.properties.kinds.items.enum as string[];

interface Planted {
  path: string;
  line: number;
  column: number | null;
  kind: string;
  in?: string;
}
const planted = (JSON.parse(readFileSync(join(FIXTURES, 'signals', 'expected.json'), 'utf8')) as { planted: Planted[] }).planted;

const { home, env } = testHome();
let session: McpSession;
let ts: string;
let signals: string;
let outside: string;

before(async () => {
  ts = fixtureRepo('ts-shapes');
  signals = fixtureRepo('signals');
  outside = tempDir('sextant-outside-');
  for (const root of [ts, signals]) indexOrThrow(root, env);
  session = await mcpSession(env);
});

after(async () => {
  await session?.close();
  for (const root of [ts, signals]) if (root) removeDir(join(root, '..'));
  removeDir(outside);
  removeDir(home);
});

/** The envelope's fields hold the values SRC allows. */
function assertMeta(meta: any, commit: string | null) {
  assert.ok(meta, 'meta is present');
  assert.ok(!Number.isNaN(Date.parse(meta.generated_at)));
  assert.equal(meta.local_only, true);
  assert.equal(meta.bounded, true);
  assert.ok(PROVENANCES.includes(meta.provenance), meta.provenance);
  assert.ok(['precise', 'approximate', 'unknown'].includes(meta.coverage));
  assert.ok(meta.confidence >= 0 && meta.confidence <= 1);
  assert.ok(['fresh', 'stale', 'unknown'].includes(meta.index_freshness));
  if (commit) assert.equal(meta.source_revision, commit);
  assert.equal(typeof meta.truncated, 'boolean');
  assert.equal(typeof meta.source_is_untrusted, 'boolean');
  const s = meta.instruction_signals;
  assert.equal(s.detected, s.count > 0);
  assert.ok(s.kinds.every((k: string) => KINDS.includes(k)));
  assert.ok(s.scanned_bytes >= 0);
}

describe('meta on every answer', () => {
  test('every tool answers with an envelope whose enums are valid, naming the commit it read', async () => {
    const commit = git(ts, 'rev-parse', 'HEAD').trim();
    const position = { repo: 'ts-shapes', ...at(ts, 'src/main.ts', 5, 'report') };
    const circle = { repo: 'ts-shapes', ...at(ts, 'src/shapes.ts', 12, 'Circle') };
    const answers = {
      getIndexStatus: await session.ok('getIndexStatus', { repo: 'ts-shapes' }),
      goToDefinition: await session.ok('goToDefinition', { repo: 'ts-shapes', symbol: 'report' }),
      findReferences: await session.ok('findReferences', { repo: 'ts-shapes', symbol: 'report' }),
      documentSymbols: await session.ok('documentSymbols', { repo: 'ts-shapes', path: 'src/geometry.ts' }),
      workspaceSymbols: await session.ok('workspaceSymbols', { repo: 'ts-shapes', query: 'area' }),
      callHierarchy: await session.ok('callHierarchy', { ...position, direction: 'incoming' }),
      typeHierarchy: await session.ok('typeHierarchy', { ...circle, direction: 'supertypes' }),
    };
    for (const [tool, answer] of Object.entries(answers)) {
      assertMeta(answer.meta, commit);
      assert.equal(answer.meta.provenance, 'local-index', tool);
    }
    assert.equal(answers.goToDefinition.meta.coverage, 'precise');
    // Previews are repository text; a status is not.
    assert.equal(answers.findReferences.meta.source_is_untrusted, true);
    assert.ok(answers.findReferences.meta.instruction_signals.scanned_bytes > 0);
    assert.equal(answers.findReferences.meta.instruction_signals.detected, false);
  });
});

describe('get_index_status (SRC)', () => {
  test('a directory inside an indexed repository: its index, valid against the SRC output schema', async () => {
    const r = await session.ok('get_index_status', { directory: join(ts, 'src') });
    assert.equal(srcSchemaErrors(r), null);
    assert.equal(r.schema_version, 1);
    assert.equal(r.success, true);
    assert.equal(r.data.exists, true);
    assert.equal(r.data.directory, join(ts, 'src'));
    const tracked = git(ts, 'ls-files').trim().split('\n');
    assert.equal(r.data.totalFiles, tracked.length);
    assert.equal(r.data.languages.typescript, tracked.filter((p) => p.endsWith('.ts')).length);
    assert.ok(r.data.totalChunks > 0);
    assert.equal(r.data.index_freshness, 'fresh');
    assert.equal(r.meta.source_revision, git(ts, 'rev-parse', 'HEAD').trim());
  });

  test('a directory outside every repository is exists: false, not an error', async () => {
    const r = await session.ok('get_index_status', { directory: outside });
    assert.equal(srcSchemaErrors(r), null);
    assert.equal(r.success, true);
    assert.equal(r.data.exists, false);
    assert.equal(r.data.totalFiles, 0);
  });

  test('bad arguments get an SRC envelope with success false and a one-line error', async () => {
    for (const args of [{ directory: 42 }, { directory: '.', extra: 1 }, { directory: 'x'.repeat(5000) }]) {
      const r = await session.call('get_index_status', args);
      assert.equal(r.isError, true);
      assert.equal(srcSchemaErrors(r.result), null);
      assert.equal(r.result.success, false);
      assert.doesNotMatch(r.result.error, /\n/);
      assert.ok(r.result.error.length < 300, 'the error does not echo the argument');
    }
  });
});

describe('instruction signals in answers', () => {
  test('definitions whose previews carry planted text report each signal with its kind and position', async () => {
    const lines = readFileSync(join(FIXTURES, 'signals', 'src', 'planted.ts'), 'utf8').split('\n');
    // The planted lines that declare a constant: goToDefinition's preview is that line.
    const declared = planted.filter((p) => p.in === undefined && /^(export )?const (\w+)/.test(lines[p.line - 1]!));
    assert.ok(declared.length >= 10, `${declared.length} planted declarations`);
    let found = 0;
    for (const p of declared) {
      const name = /^(?:export )?const (\w+)/.exec(lines[p.line - 1]!)![1]!;
      const r = await session.ok('goToDefinition', { repo: 'signals', symbol: name });
      const def = r.definitions.find((d: any) => d.line === p.line);
      assert.ok(def, `${name} is defined at line ${p.line}`);
      assert.equal(r.meta.source_is_untrusted, true);
      const s = r.meta.instruction_signals.signals.find((s: any) => s.kind === p.kind && s.line === p.line);
      if (s && s.column === p.column && s.source === 'src/planted.ts') found++;
    }
    assert.ok(found / declared.length >= 0.95, `${found} of ${declared.length} found with kind and position`);
  });
});

describe('reply budgets', () => {
  test('a reply over max_bytes is cut at whole items, flagged, and says how to narrow the query', async () => {
    const full = await session.ok('findReferences', { repo: 'ts-shapes', symbol: 'Shape' });
    assert.ok(full.references.length > 3, 'enough references to cut');
    const budget = Buffer.byteLength(JSON.stringify(full)) - 200;
    const cut = await session.ok('findReferences', { repo: 'ts-shapes', symbol: 'Shape', max_bytes: Math.max(1024, budget) });
    assert.ok(Buffer.byteLength(JSON.stringify(cut)) <= Math.max(1024, budget));
    assert.ok(cut.references.length < full.references.length);
    assert.deepEqual(cut.references, full.references.slice(0, cut.references.length), 'whole items, in order');
    assert.equal(cut.truncated, true);
    assert.equal(cut.meta.truncated, true);
    assert.match(cut.truncation_hint, /narrow the query/);
  });

  test('a max_bytes smaller than the reply with every list emptied is refused in one line naming the size that fits', async () => {
    // A status is mostly fields: at 1024 bytes it cannot be cut to fit (it was sent whole, 4-5 kB, flagged truncated).
    const refused = await session.call('getIndexStatus', { repo: 'ts-shapes', max_bytes: 1024 });
    assert.equal(refused.isError, true);
    const m =
      /^max_bytes 1024 is too small for this reply: with every list emptied it still takes (\d+) bytes; pass max_bytes of at least \1$/.exec(
        refused.result.error,
      );
    assert.ok(m, refused.result.error);
    const fits = await session.ok('getIndexStatus', { repo: 'ts-shapes', max_bytes: Number(m[1]) });
    assert.equal(fits.repo, 'ts-shapes');
  });
});

describe('the largest replies', () => {
  let rxjs: string;
  let s: Awaited<ReturnType<typeof hookedSession>>;
  before(async () => {
    rxjs = rxjsRepo();
    indexOrThrow(rxjs, env);
    s = await hookedSession(env, outside);
  });
  after(async () => {
    await s?.session.close();
    if (rxjs) removeDir(join(rxjs, '..'));
  });

  /** A call's structured result and the size of its whole JSON-RPC reply as it came over stdio. */
  async function sized(tool: string, args: Record<string, unknown>): Promise<{ result: any; bytes: number }> {
    s.reset();
    const result = await s.session.ok(tool, args);
    return { result, bytes: Buffer.byteLength(s.last()!) };
  }

  test('every list-producing tool at its maximal limits and depth on rxjs: at most 1 MiB, flagged truncated when cut', async () => {
    const operate = (await s.session.ok('goToDefinition', { repo: 'rxjs', symbol: 'operate' })).definitions[0];
    const subscription = (await s.session.ok('goToDefinition', { repo: 'rxjs', symbol: 'Subscription' })).definitions[0];
    const at = (d: any) => ({ repo: 'rxjs', path: d.path, line: d.line, column: d.column });
    const calls: [string, Record<string, unknown>][] = [
      ['searchCode', { repo: 'rxjs', query: 'return', limit: 2000, context: 10 }],
      ['searchCode', { query: 'e', limit: 2000, context: 10 }],
      ['findReferences', { repo: 'rxjs', symbol: 'Observable', limit: 2000 }],
      ['findReferences', { repo: 'rxjs', symbol: 'pipe', limit: 2000 }],
      ['workspaceSymbols', { repo: 'rxjs', query: 'e', limit: 500 }],
      ['findFiles', { limit: 5000 }],
      ['callHierarchy', { ...at(operate), direction: 'incoming', depth: 5, limit: 1000, include_references: true }],
      ['typeHierarchy', { ...at(subscription), direction: 'subtypes', depth: 5 }],
      ['documentSymbols', { repo: 'rxjs', path: 'src/internal/Observable.ts' }],
      ['registryStatus', {}],
    ];
    let cut = 0;
    for (const [tool, args] of calls) {
      const full = await sized(tool, args);
      const largest = await sized(tool, { ...args, max_bytes: MAX_REPLY_BYTES * 8 });
      const small = await sized(tool, { ...args, max_bytes: 64 * 1024 });
      const what = `${tool} ${JSON.stringify(args)}`;
      for (const r of [full, largest]) assert.ok(r.bytes <= MAX_REPLY_BYTES, `${what}: a reply of ${r.bytes} bytes`);
      assert.ok(small.bytes <= 64 * 1024, `${what} with max_bytes 65536: a reply of ${small.bytes} bytes`);
      for (const r of [full, largest, small]) {
        if (r.result.truncation_hint !== undefined) assert.equal(r.result.truncated, true, what);
        assert.equal(
          r.result.meta.truncated,
          r.result.truncated === true || r.result.limit_clamped === true || r.result.depth_clamped === true,
          what,
        );
      }
      // Where the answer at the default budget is larger than the small budget, the small one was cut, says so, and says how to narrow.
      if (full.bytes > 64 * 1024) {
        cut++;
        assert.equal(small.result.truncated, true, what);
        assert.match(small.result.truncation_hint, /narrow the query/, what);
      }
    }
    assert.ok(cut >= 4, `${cut} answers were larger than 64 KiB: the repository is large enough to test cutting`);
    // The largest answer of all is cut by the budget, not by luck.
    const big = await sized('searchCode', { repo: 'rxjs', query: 'return', limit: 2000, context: 10, max_bytes: MAX_REPLY_BYTES });
    assert.equal(big.result.truncated, true);
    assert.match(big.result.truncation_hint, /narrow the query/);
    assert.ok(big.bytes > MAX_REPLY_BYTES / 2, `the budget is used: ${big.bytes} bytes`);
  });
});
