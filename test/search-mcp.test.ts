// The search tier over MCP, as an agent meets it: registryStatus lists the
// repositories, searchCode searches one or all of them, coverage is reported,
// and neither a pathological regex nor a huge result set stops the server.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openRegistry } from '../src/registry/open.js';
import { searchCode } from '../src/search/code.js';
import { searchOnlyEnv } from './support/ripgrep.js';
import { fixtureRepo, git, gitRepoFrom, tempDir } from './support/repos.js';
import { indexOrThrow, mcpSession, registryFile, sextant, testHome, toolError, type McpSession } from './support/sextant.js';
import { displayedRegistry, TEST_ENGINE } from './support/registry.js';

const LONG_LINE = 1_000_000;
const BULK_FILES = 12;
const BULK_LINES = 30_000;
const BULK_LINE = 'match match match match match';
const SPANS_PER_LINE = 5;

/** Text that is hard for a backtracking engine and large for a result set. */
function stressRepo(): string {
  const dir = tempDir('sextant-stress-');
  mkdirSync(join(dir, 'bulk'));
  writeFileSync(join(dir, 'long.txt'), 'a'.repeat(LONG_LINE) + '\n' + 'x'.repeat(20_000) + '\n');
  // About 7 MB of lines of five matches each: 1.8 million matching spans, whose
  // full result set would be over 200 MB, far more than any budget returns.
  const lines = `${BULK_LINE}\n`.repeat(BULK_LINES);
  for (let i = 0; i < BULK_FILES; i++) writeFileSync(join(dir, 'bulk', `part${i}.txt`), lines);
  writeFileSync(join(dir, 'shared.ts'), 'export function sharedHelper() {}\n');
  writeFileSync(join(dir, 'image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]));
  return gitRepoFrom(dir, 'stress');
}

describe('search over MCP', () => {
  const { home, env } = testHome();
  let session: McpSession;
  let ts: string;
  let stress: string;

  before(async () => {
    ts = fixtureRepo('ts-shapes');
    stress = stressRepo();
    indexOrThrow(ts, env);
    indexOrThrow(stress, { ...env, ...searchOnlyEnv() });
    session = await mcpSession(env);
  });
  after(async () => session?.close());

  test('tools/list has searchCode, findFiles, countFiles and registryStatus with the DESIGN parameters', async () => {
    const { tools } = await session.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const params = (name: string) => Object.keys(byName.get(name)?.inputSchema.properties ?? {}).sort();
    // Every tool also takes max_bytes, its reply budget.
    assert.deepEqual(params('searchCode'), ['case_sensitive', 'context', 'extensions', 'limit', 'max_bytes', 'path', 'query', 'regex', 'repo']);
    const filters = [
      'name',
      'path',
      'regex',
      'case_sensitive',
      'search_path',
      'repos',
      'repo_names',
      'kind',
      'extensions',
      'min_size',
      'max_size',
      'modified_after',
      'modified_before',
      'include_offline',
    ];
    assert.deepEqual(params('countFiles'), [...filters, 'max_bytes'].sort());
    assert.deepEqual(params('findFiles'), [...filters, 'sort', 'desc', 'offset', 'limit', 'max_bytes'].sort());
    assert.deepEqual(params('registryStatus'), ['max_bytes']);
    const results = (name: string) => Object.keys(byName.get(name)?.outputSchema?.properties ?? {});
    for (const f of ['matches', 'total', 'truncated', 'searched', 'truncated_reason']) assert.ok(results('searchCode').includes(f), f);
    for (const f of ['hits', 'total', 'duration_ms', 'scan_state']) assert.ok(results('findFiles').includes(f), f);
    for (const f of ['version', 'pid', 'uptime_s', 'registry', 'totals', 'repos', 'scan_state'])
      assert.ok(results('registryStatus').includes(f), f);
    for (const name of ['searchCode', 'findFiles', 'countFiles', 'registryStatus'])
      assert.equal(byName.get(name)?.annotations?.readOnlyHint, true);
  });

  test('registryStatus lists every repository with its root, commit and totals', async () => {
    const status = await session.ok('registryStatus', {});
    assert.equal(status.pid > 0, true);
    assert.equal(status.registry.engine, TEST_ENGINE);
    assert.equal(status.registry.location, displayedRegistry(home));
    assert.equal(status.registry.text_index, TEST_ENGINE === 'postgres' ? 'pg_trgm' : 'fts5-trigram');
    // A postgres:// registry's user and password are not shown.
    assert.doesNotMatch(JSON.stringify(status), /:\/\/[^/"]*@/);
    assert.ok(status.registry.bytes > 0);
    assert.deepEqual(
      status.repos.map((r: { repo: string }) => r.repo),
      ['stress', 'ts-shapes'],
    );
    const tsRepo = status.repos.find((r: { repo: string }) => r.repo === 'ts-shapes');
    const tracked = git(ts, 'ls-files').trim().split('\n');
    assert.equal(tsRepo.root, ts);
    assert.equal(tsRepo.online, true);
    assert.equal(tsRepo.commit, git(ts, 'rev-parse', 'HEAD').trim());
    assert.equal(tsRepo.freshness, 'fresh');
    assert.equal(tsRepo.state, 'ready');
    assert.equal(tsRepo.files, tracked.length);
    assert.equal(tsRepo.entries, tsRepo.files + tsRepo.dirs);
    assert.equal(status.totals.repos, 2);
    assert.equal(status.totals.files, tracked.length + BULK_FILES + 3);
    assert.equal(status.scan_state.complete, true);
  });

  test('searchCode searches one repository or all of them, and says at which commits', async () => {
    const one = await session.ok('searchCode', { query: 'export function', repo: 'ts-shapes' });
    assert.deepEqual(one.searched, [{ repo: 'ts-shapes', commit: git(ts, 'rev-parse', 'HEAD').trim() }]);
    assert.ok(one.matches.length > 0 && one.matches.every((m: { repo: string }) => m.repo === 'ts-shapes'));
    const m = one.matches[0];
    const line = git(ts, 'show', `HEAD:${m.path}`).split('\n')[m.line - 1]!;
    assert.equal(line.slice(m.column - 1, m.end_column - 1).toLowerCase(), 'export function');
    assert.equal(m.preview, line);

    const all = await session.ok('searchCode', { query: 'export function', context: 2 });
    assert.deepEqual(
      all.searched.map((s: { repo: string }) => s.repo),
      ['stress', 'ts-shapes'],
    );
    assert.deepEqual([...new Set(all.matches.map((x: { repo: string }) => x.repo))], ['stress', 'ts-shapes']);
    const ctx = all.matches.find((x: { repo: string; line: number }) => x.repo === 'ts-shapes' && x.line > 2);
    assert.equal(ctx.before.length, 2);
    assert.equal(all.total, one.total + 1);
  });

  test('an empty list filters nothing out: extensions: [] searches and counts every file, repos: [] every repository', async () => {
    const without = await session.ok('searchCode', { query: 'export function' });
    const empty = await session.ok('searchCode', { query: 'export function', extensions: [] });
    assert.ok(without.total > 0);
    assert.equal(empty.total, without.total);
    const counted = await session.ok('countFiles', {});
    for (const filter of [{ extensions: [] }, { repos: [] }, { repo_names: [] }]) {
      assert.equal((await session.ok('countFiles', filter)).count, counted.count, JSON.stringify(filter));
    }
  });

  test('getIndexStatus reports search coverage: the binary file is counted as skipped, by reason', async () => {
    const status = await session.ok('getIndexStatus', { repo: 'stress' });
    assert.equal(status.capabilities.search.available, true);
    assert.equal(status.searchCoverage.expected, BULK_FILES + 3);
    assert.equal(status.searchCoverage.indexed, BULK_FILES + 2);
    assert.equal(status.searchCoverage.complete, false);
    assert.deepEqual(status.searchCoverage.skipped, [{ reason: 'binary', files: 1, examples: ['image.bin'] }]);
    assert.match(status.searchCoverageReason, /1 of 15 tracked files are not searchable \(1 binary\)/);
  });

  test('a catastrophic regex for backtracking engines answers, and the server keeps serving', async () => {
    const nested = await session.ok('searchCode', { query: '(a+)+$', regex: true, repo: 'stress', path: 'long.txt' });
    assert.equal(nested.total, 1);
    assert.equal(nested.truncated, false);
    assert.equal(nested.matches[0].end_column, LONG_LINE + 1);
    assert.ok(nested.matches[0].preview.length <= 300, 'the preview of a huge line is bounded');
    const none = await session.ok('searchCode', { query: '(x+x+)+y', regex: true, repo: 'stress' });
    assert.equal(none.total, 0);
    assert.equal(none.truncated, false);
    const after = await session.ok('searchCode', { query: 'sharedHelper' });
    assert.equal(after.total, 1);
  });

  test('a result set of over 200 MB stops at the match budget and says so; the server keeps serving', async () => {
    const huge = await session.ok('searchCode', { query: 'match', limit: 2000 });
    // What every match would weigh in the reply, had it been returned.
    const full = BULK_FILES * BULK_LINES * SPANS_PER_LINE * Buffer.byteLength(JSON.stringify(huge.matches[0]));
    assert.ok(full > 200 * 2 ** 20, `the full result set is ${(full / 2 ** 20).toFixed(0)} MB`);
    assert.ok(Buffer.byteLength(JSON.stringify(huge)) <= 2 ** 20, 'the reply stays within its budget');
    assert.equal(huge.matches.length, 2000);
    assert.equal(huge.truncated, true);
    assert.equal(huge.truncated_reason, 'match_budget');
    assert.equal(huge.total_exact, false);
    assert.ok(huge.total >= 100_000);
    const limited = await session.ok('searchCode', { query: 'sharedHelper', limit: 1 });
    assert.equal(limited.truncated, false);
    const status = await session.ok('registryStatus', {});
    assert.equal(status.repos.length, 2);
  });

  test('a search past its time budget is truncated with the reason, never silently partial', async () => {
    const engine = await openRegistry({ registry: registryFile(home) });
    try {
      const r = await searchCode(engine, { query: '[0-9]{9}', regex: true, repo: 'stress' }, { timeMs: 1, matches: 100_000 });
      assert.equal(r.truncated, true);
      assert.equal(r.truncated_reason, 'time_budget');
      assert.equal(r.total_exact, false);
      assert.equal(r.strategy, 'scan');
    } finally {
      await engine.close();
    }
  });

  test('bad queries get a one-line error that names the fix', async () => {
    assert.match(await toolError(session, 'searchCode', { query: 'a(', regex: true }), /not a valid RE2 regular expression.*regex: false/);
    assert.match(await toolError(session, 'searchCode', { query: 'x', repo: 'nope' }), /no repository named "nope"/);
    assert.match(await toolError(session, 'searchCode', { query: '' }), /query must not be empty/);
    assert.match(await toolError(session, 'searchCode', { query: 'a\nb' }), /one line/);
    assert.match(await toolError(session, 'searchCode', { query: 'x', context: 11 }), /context must be at most 10/);
    assert.match(await toolError(session, 'searchCode', { query: 'x', path: '' }), /path must not be empty/);
  });

  test('the CLI prints path:line:col and the line, and a table of files', () => {
    const r = sextant(['search', 'sharedHelper', '--repo', 'stress'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'shared.ts:1:17  export function sharedHelper() {}\n1 match in 1 repository\n');
    const json = sextant(['search', 'sharedHelper', '--all', '--json'], { env });
    assert.equal(JSON.parse(json.stdout).total, 1);
    const files = sextant(['files', 'shared', '--repo', 'stress'], { env });
    assert.equal(files.code, 0, files.stderr);
    assert.match(files.stdout, /^KIND\s+SIZE\s+MODIFIED\s+REPO\s+PATH\nfile\s+34\s+\S+ \S+\s+stress\s+shared\.ts\n1 entry\n$/);
    const count = sextant(['files', '--count', '--kind', 'dir', '--repo', 'stress', '--json'], { env });
    assert.equal(JSON.parse(count.stdout).count, 1);
    const bad = sextant(['search', 'x', '--colour'], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Unknown option '--colour'/);
  });
});

describe('searchCode after edits made since the index', () => {
  // The search reads the indexed text; the worktree has moved on. No match may
  // point at a line that now holds other text, and the answer says it is stale.
  const { home, env } = testHome();
  let session: McpSession;
  const staging = tempDir('sextant-search-edits-');
  writeFileSync(join(staging, 'a.ts'), 'export const alpha = 1;\nexport const beta = 2;\nexport function gamma() {\n  return alpha + beta;\n}\n');
  writeFileSync(join(staging, 'b.ts'), "import { alpha } from './a';\n");
  writeFileSync(join(staging, 'c.ts'), "export { alpha } from './a';\n");
  const repo = gitRepoFrom(staging, 'edited');
  const lineOf = (path: string, n: number) => readFileSync(join(repo, path), 'utf8').split('\n')[n - 1] ?? '';

  before(async () => {
    indexOrThrow(repo, env);
    session = await mcpSession(env);
  });
  after(async () => {
    await session?.close();
    for (const dir of [home, staging, join(repo, '..')]) rmSync(dir, { recursive: true, force: true });
  });

  test('a clean worktree: matches as indexed, no freshness claimed', async () => {
    const r = await session.ok('searchCode', { repo: 'edited', query: 'alpha' });
    assert.deepEqual(
      r.matches.map((m: any) => `${m.path}:${m.line}`),
      ['a.ts:1', 'a.ts:4', 'b.ts:1', 'c.ts:1'],
    );
    assert.ok(r.matches.every((m: any) => m.adjusted === undefined));
    assert.equal(r.index_freshness, undefined);
  });

  test('matches move with inserted lines, and those on changed lines or in deleted files are dropped and counted', async () => {
    writeFileSync(join(repo, 'a.ts'), '// one\n// two\nexport const alpha = 1;\nexport const beta = 2;\nexport function gamma() {\n  return 0;\n}\n');
    rmSync(join(repo, 'c.ts'));
    const r = await session.ok('searchCode', { repo: 'edited', query: 'alpha' });
    assert.deepEqual(
      r.matches.map((m: any) => [`${m.path}:${m.line}:${m.column}`, m.adjusted ?? false]),
      [
        ['a.ts:3:14', true],
        ['b.ts:1:10', false],
      ],
    );
    for (const m of r.matches) assert.equal(lineOf(m.path, m.line).slice(m.column - 1, m.end_column - 1), 'alpha', `${m.path}:${m.line} reads the match now`);
    assert.equal(r.total, 2);
    assert.equal(r.index_freshness, 'stale');
    assert.equal(r.stale, true);
    assert.equal(r.meta.index_freshness, 'stale');
    assert.deepEqual(r.adjusted_files, ['a.ts']);
    assert.equal(r.dropped_locations.on_changed_lines, 1);
    assert.equal(r.dropped_locations.in_deleted_files, 1);
    assert.match(r.dropped_locations.reason, /reindex/);
  });
});
