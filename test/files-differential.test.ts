// findFiles and countFiles against the filesystem: every filter, every sort
// order both ways, and paging, compared with `git ls-files` plus stat of each
// file in the worktrees; a repository whose worktree is gone answers from the
// registry with its commit time.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { renameSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { requestsRepo, rxjsRepo } from './support/corpus.js';
import { searchOnlyEnv } from './support/ripgrep.js';
import { indexOrThrow, mcpSession, testHome, toolError, type McpSession } from './support/sextant.js';

interface Entry {
  repo: string;
  path: string;
  name: string;
  kind: 'file' | 'dir';
  size: number;
  mtime: number;
  extension: string;
}

/** What the filesystem says: tracked files with their stat, and the directories their paths imply. */
function fsEntries(repo: string, root: string): Entry[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  const out: Entry[] = [];
  const dirs = new Set<string>();
  const entry = (path: string, kind: 'file' | 'dir'): Entry => {
    const stat = statSync(join(root, path));
    const name = path.split('/').pop()!;
    const dot = name.lastIndexOf('.');
    return {
      repo,
      path,
      name,
      kind,
      size: kind === 'file' ? stat.size : 0,
      mtime: Math.floor(stat.mtimeMs / 1000),
      extension: kind === 'file' && dot > 0 ? name.slice(dot + 1).toLowerCase() : '',
    };
  };
  for (const f of files) {
    out.push(entry(f, 'file'));
    const parts = f.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  for (const d of dirs) out.push(entry(d, 'dir'));
  return out;
}

const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

function sorted(entries: Entry[], sort: keyof Entry, desc: boolean): Entry[] {
  const d = desc ? -1 : 1;
  return [...entries].sort((a, b) => d * (cmp(a[sort], b[sort]) || cmp(a.repo, b.repo) || cmp(a.path, b.path)));
}

const key = (e: { repo: string; path: string }) => `${e.repo}:${e.path}`;
const hitShape = (h: Entry) => ({
  repo: h.repo,
  path: h.path,
  name: h.name,
  kind: h.kind,
  size: h.size,
  mtime: h.mtime,
  extension: h.extension,
});

describe('findFiles and countFiles match git ls-files and stat', () => {
  const { env } = testHome();
  Object.assign(env, searchOnlyEnv());
  let session: McpSession;
  let all: Entry[];
  let rxjs: string;
  let requests: string;
  const base = Math.floor(Date.now() / 1000) - 86_400 * 30;

  before(async () => {
    rxjs = rxjsRepo();
    requests = requestsRepo();
    // Distinct modification times, so that mtime filters and sorting have something to tell apart.
    for (const root of [rxjs, requests]) {
      const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
      files.forEach((f, i) => utimesSync(join(root, f), base + i * 3600, base + i * 3600));
    }
    indexOrThrow(rxjs, env);
    indexOrThrow(requests, env);
    all = [...fsEntries('rxjs', rxjs), ...fsEntries('requests', requests)];
    session = await mcpSession(env);
  });
  after(async () => session?.close());

  const cases: [string, Record<string, unknown>, (e: Entry) => boolean][] = [
    ['everything', {}, () => true],
    ['name substring, case-insensitive', { name: 'subject' }, (e) => e.name.toLowerCase().includes('subject')],
    ['name, case-sensitive', { name: 'Subject', case_sensitive: true }, (e) => e.name.includes('Subject')],
    ['name as a regex', { name: '^[a-z]+\\.py$', regex: true }, (e) => /^[a-z]+\.py$/i.test(e.name)],
    ['name against the whole path', { name: 'operators/m', search_path: true }, (e) => e.path.toLowerCase().includes('operators/m')],
    ['path substring', { path: 'internal/scheduler' }, (e) => e.path.toLowerCase().includes('internal/scheduler')],
    ['path regex, case-sensitive', { path: '/[A-Z]', regex: true, case_sensitive: true }, (e) => /\/[A-Z]/.test(e.path)],
    ['one repository', { repos: ['requests'] }, (e) => e.repo === 'requests'],
    ['repositories by part of the name', { repo_names: ['RXJ'] }, (e) => e.repo === 'rxjs'],
    ['directories', { kind: 'dir' }, (e) => e.kind === 'dir'],
    ['files', { kind: 'file' }, (e) => e.kind === 'file'],
    ['symlinks (none are tracked)', { kind: 'symlink' }, () => false],
    [
      'extensions, with and without the dot',
      { extensions: ['py', '.JSON'] },
      (e) => e.kind === 'file' && ['py', 'json'].includes(e.extension),
    ],
    ['minimum size', { min_size: 10_000 }, (e) => e.size >= 10_000],
    ['maximum size', { max_size: 500, kind: 'file' }, (e) => e.kind === 'file' && e.size <= 500],
    ['modified after', { modified_after: base + 100 * 3600 }, (e) => e.mtime >= base + 100 * 3600],
    ['modified before', { modified_before: base + 10 * 3600 }, (e) => e.mtime <= base + 10 * 3600],
    [
      'several filters at once',
      { name: 'map', extensions: ['ts'], min_size: 1000, modified_after: base + 3600, repos: ['rxjs'] },
      (e) =>
        e.repo === 'rxjs' &&
        e.kind === 'file' &&
        e.name.toLowerCase().includes('map') &&
        e.extension === 'ts' &&
        e.size >= 1000 &&
        e.mtime >= base + 3600,
    ],
  ];

  for (const [title, filters, expect] of cases) {
    test(`filter: ${title}`, async () => {
      const wanted = sorted(all.filter(expect), 'name', false);
      const found = await session.ok('findFiles', { ...filters, limit: 5000 });
      assert.equal(found.total, wanted.length);
      assert.deepEqual(found.hits.map(hitShape), wanted.map(hitShape));
      const counted = await session.ok('countFiles', filters);
      assert.equal(counted.count, wanted.length);
      assert.equal(counted.scan_state.complete, true);
      if (title !== 'symlinks (none are tracked)' && title !== 'everything')
        assert.ok(wanted.length > 0 && wanted.length < all.length, 'the filter narrows');
    });
  }

  for (const sort of ['name', 'path', 'size', 'mtime', 'kind', 'extension'] as const) {
    for (const desc of [false, true]) {
      test(`sort by ${sort}${desc ? ', descending' : ''}, paged`, async () => {
        const wanted = sorted(all, sort, desc).map(key);
        const pages: string[] = [];
        for (let offset = 0; offset < wanted.length; offset += 97) {
          const page = await session.ok('findFiles', { sort, desc, offset, limit: 97 });
          assert.equal(page.total, wanted.length);
          assert.equal(page.offset, offset);
          pages.push(...page.hits.map(key));
        }
        assert.deepEqual(pages, wanted);
        const past = await session.ok('findFiles', { sort, desc, offset: wanted.length, limit: 10 });
        assert.deepEqual(past.hits, []);
      });
    }
  }

  test('bad filters get a one-line error that names the fix', async () => {
    assert.match(await toolError(session, 'findFiles', { limit: 5001 }), /limit must be at most 5000/);
    assert.match(await toolError(session, 'findFiles', { sort: 'color' }), /sort must be one of/);
    assert.match(await toolError(session, 'findFiles', { repos: ['nope'] }), /no repository named "nope".*registryStatus/);
    assert.match(await toolError(session, 'countFiles', { name: '(', regex: true }), /not a valid RE2 regular expression/);
    assert.match(await toolError(session, 'countFiles', { min_size: 10, max_size: 5 }), /swap them/);
    assert.match(await toolError(session, 'countFiles', { sort: 'name' }), /unknown argument "sort"/);
  });

  test('a repository whose worktree is gone is offline: left out unless include_offline, with its commit time', async () => {
    const moved = `${requests}-moved`;
    renameSync(requests, moved);
    try {
      const online = await session.ok('countFiles', {});
      assert.equal(online.count, all.filter((e) => e.repo === 'rxjs').length);
      assert.deepEqual(online.scan_state.offline_excluded, ['requests']);
      const commitTime = Number(execFileSync('git', ['show', '-s', '--format=%ct', 'HEAD'], { cwd: moved, encoding: 'utf8' }).trim());
      const offline = await session.ok('findFiles', { repos: ['requests'], include_offline: true, limit: 5000 });
      assert.equal(offline.total, all.filter((e) => e.repo === 'requests').length);
      for (const hit of offline.hits) assert.equal(hit.mtime, commitTime, `${hit.path} carries the commit time`);
      const status = await session.ok('registryStatus', {});
      const req = status.repos.find((r: { repo: string }) => r.repo === 'requests');
      assert.equal(req.online, false);
      assert.equal(req.root, requests);
    } finally {
      renameSync(moved, requests);
    }
  });
});
