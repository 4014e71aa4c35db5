// searchCode against ripgrep: on real code (rxjs from npm, requests from
// Debian), each query's set of matching (path, line) must be exactly what
// `rg --no-ignore` finds in the same tracked files. Literals, regexes,
// case-insensitive and case-sensitive, path globs, extensions, a 2-character
// query and regexes with no literal (the bounded scan) all included.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { requestsRepo, rxjsRepo } from './support/corpus.js';
import { ripgrepLines, searchOnlyEnv, type RgQuery } from './support/ripgrep.js';
import { indexOrThrow, mcpSession, testHome, type McpSession } from './support/sextant.js';

type Case = RgQuery & { strategy?: 'index' | 'scan' };

const RXJS: Case[] = [
  { query: 'subscribe', strategy: 'index' },
  { query: 'export function', strategy: 'index' },
  { query: 'pipe(' },
  { query: '@deprecated' },
  { query: 'mergeMap' },
  { query: 'this._' },
  { query: 'new Subject' },
  { query: 'Observable', case_sensitive: true, path: 'src/internal/operators/**' },
  { query: 'observable', case_sensitive: true },
  { query: 'SUBSCRIBER' },
  { query: '&&', strategy: 'scan' },
  { query: '??', strategy: 'scan' },
  { query: 'x', path: 'src/internal/util/**', strategy: 'scan' },
  { query: 'operate(', path: 'src/internal/operators/**' },
  { query: 'Subject', path: '*Subject*.ts' },
  { query: 'import', path: 'src/*.ts' },
  { query: 'export', extensions: ['json'] },
  { query: 'scheduler', extensions: ['.ts'], path: 'src/internal/scheduler/*' },
  { query: 'function\\s+\\w+\\(', regex: true },
  { query: 'export (class|interface) \\w+', regex: true, strategy: 'index' },
  { query: 'Subject<.*>', regex: true },
  { query: '^import', regex: true },
  { query: ';$', regex: true, path: 'src/internal/util/**', strategy: 'scan' },
  { query: '\\bnull\\b', regex: true },
  { query: '[A-Z]{5,}', regex: true, case_sensitive: true, strategy: 'scan' },
  { query: 'switchMap|concatMap', regex: true, strategy: 'index' },
  { query: '\\d{3,}', regex: true, strategy: 'scan' },
  { query: 'catch\\s*\\(', regex: true },
  { query: 'get \\w+\\(\\)', regex: true },
  { query: '[xyz]{3}', regex: true, strategy: 'scan' },
  { query: '(a+)+$', regex: true },
  { query: 'Observable<[A-Z]\\w*>', regex: true, case_sensitive: true },
  { query: '(?:merge|concat)(Map|All)\\b', regex: true },
  { query: 'TODO|FIXME|XXX', regex: true },
];

const REQUESTS: Case[] = [
  { query: 'def ', strategy: 'index' },
  { query: 'self.' },
  { query: 'HTTPError' },
  { query: 'urllib3', case_sensitive: true },
  { query: 'None', case_sensitive: true },
  { query: '"""' },
  { query: 'os', strategy: 'scan' },
  { query: 'def (get|post|put)\\(', regex: true, strategy: 'index' },
  { query: '^class \\w+\\(.*\\):$', regex: true },
  { query: 'except \\w+( as \\w+)?:', regex: true },
  { query: 'raise \\w+Error', regex: true },
  { query: '\\w+\\s*=\\s*\\d+', regex: true, strategy: 'scan' },
  { query: 'import', extensions: ['py'], path: 'requests/a*' },
];

describe('searchCode matches ripgrep on real repositories', () => {
  const { env } = testHome();
  Object.assign(env, searchOnlyEnv());
  let rxjs: string;
  let requests: string;
  let session: McpSession;

  before(async () => {
    rxjs = rxjsRepo();
    requests = requestsRepo();
    // Search-only: the search tier needs only the files' text, and is tested apart from the indexers.
    for (const root of [rxjs, requests]) assert.equal(indexOrThrow(root, env).outcome, 'search-only');
    session = await mcpSession(env);
  });
  after(async () => session?.close());

  const nonEmpty: string[] = [];
  const run = (repo: string, root: () => string, c: Case) =>
    test(`${repo}: ${JSON.stringify(c)}`, async () => {
      const { strategy, ...q } = c;
      const result = await session.ok('searchCode', { repo, ...q, limit: 2000 });
      assert.equal(result.truncated, false, `not truncated (${result.truncated_reason})`);
      assert.equal(result.total_exact, true);
      assert.deepEqual(
        result.searched.map((s: { repo: string }) => s.repo),
        [repo],
      );
      if (strategy) assert.equal(result.strategy, strategy);
      const got = new Set<string>(result.matches.map((m: { path: string; line: number }) => `${m.path}:${m.line}`));
      const expected = ripgrepLines(root(), q);
      assert.deepEqual([...got].sort(), [...expected].sort());
      assert.ok(result.total >= got.size, 'total counts every matching span');
      if (expected.size > 0) nonEmpty.push(JSON.stringify(c));
    });

  for (const c of RXJS) run('rxjs', () => rxjs, c);
  for (const c of REQUESTS) run('requests', () => requests, c);

  test('the queries are at least 40 and nearly all find something', () => {
    assert.ok(RXJS.length + REQUESTS.length >= 40);
    assert.ok(nonEmpty.length >= RXJS.length + REQUESTS.length - 3, `queries with matches: ${nonEmpty.length}`);
  });
});
