// `sextant publish` of raw indexer output against `sextant index` of the same
// commit, on real TypeScript (rxjs, npm) and Python (requests, Debian): the
// same answers at hundreds of positions. Then the uploads a registry must
// refuse — cut short, a wrong checksum, a path out of the root, a commit the
// checkout does not have, ranges past the file — each with a message and the
// registry byte for byte as it was; upload states, replacement, offline
// repositories and answers at a commit nobody published.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import protobuf from 'protobufjs';
import { Navigation } from '../src/navigation/index.js';
import { openRegistry } from '../src/registry/open.js';
import type { Engine } from '../src/registry/engine.js';
import { requestsRepo } from './support/corpus.js';
import { indexedCorpus, type IndexedCorpus } from './support/indexed-corpus.js';
import { PROJECT_ROOT } from './support/paths.js';
import { commitAll, fixtureRepo, git, removeDir, tempDir } from './support/repos.js';
import { registryFingerprint, TEST_ENGINE } from './support/registry.js';
import { indexOrThrow, mcpSession, registryFile, sextant, testHome, toolError } from './support/sextant.js';
import { prng, shuffle } from './support/stats.js';

const run = promisify(execFile);
const bin = (name: string) => join(PROJECT_ROOT, 'node_modules', '.bin', name);

/** Runs an indexer the way a CI job would, from the repository root, into `out`. */
async function scipTypescript(root: string, out: string): Promise<void> {
  await run(bin('scip-typescript'), ['index', '--cwd', root, '--output', out, '--no-progress-bar'], { cwd: root });
}
async function scipPython(root: string, slug: string, out: string): Promise<void> {
  await run(bin('scip-python'), ['index', '--cwd', root, '--project-name', slug, '--project-version', '_', '--output', out, '--quiet'], {
    cwd: root,
  });
}

interface Decoded {
  metadata: unknown;
  documents: { relativePath: string; occurrences: { range: number[]; symbol: string }[] }[];
  externalSymbols?: unknown[];
}
const scipRoot = protobuf.loadSync(join(PROJECT_ROOT, 'proto', 'scip.proto'));
const IndexType = scipRoot.lookupType('scip.Index');
const decodeIndex = (file: string) => IndexType.decode(readFileSync(file)) as unknown as Decoded;

/** Byte offsets where the top-level fields of a SCIP file end (read independently of src/scip/stream.ts). */
function fieldEnds(bytes: Buffer): number[] {
  const ends: number[] = [];
  let at = 0;
  const varint = () => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[at++]!;
      value += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if ((b & 0x80) === 0) return value;
    }
  };
  while (at < bytes.length) {
    const tag = varint();
    assert.equal(tag & 7, 2, `top-level fields of a SCIP index are length-delimited (tag ${tag} at byte ${at})`);
    const length = varint();
    at += length;
    ends.push(at);
  }
  return ends;
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * What the registry holds: on SQLite its bytes and the files beside it (equal
 * before and after means nothing was written), on Postgres every table's rows.
 */
function fingerprint(home: string) {
  if (TEST_ENGINE === 'postgres') return registryFingerprint(home);
  const file = registryFile(home);
  const st = statSync(file, { bigint: true });
  return { files: readdirSync(dirname(file)).sort(), size: st.size, mtime: st.mtimeNs, sha: sha256(file) };
}

/** Positions drawn from an index's occurrences, spread over its documents. */
function drawPositions(file: string, count: number, seed: number): { path: string; line: number; column: number }[] {
  const all = decodeIndex(file).documents.flatMap((d) =>
    d.occurrences
      .filter((o) => o.symbol && o.range.length >= 3)
      .map((o) => ({ path: d.relativePath, line: o.range[0]! + 1, column: o.range[1]! + 1 })),
  );
  return shuffle(all, prng(seed)).slice(0, count);
}

/**
 * An answer, or its error, without how fresh it is against a worktree: the
 * published repository has none here (unknown), the indexed one has (fresh).
 */
async function answer<T>(call: () => Promise<T>): Promise<Omit<T, 'index_freshness' | 'stale'> | { error: string }> {
  try {
    const { index_freshness: _freshness, stale: _stale, ...rest } = (await call()) as T & { index_freshness?: unknown; stale?: unknown };
    return uncounted(rest);
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * An answer with the names scip-typescript counts out per file (`local 12`, an object type's `typeLiteral3:`) left
 * uncounted: sextant's run of it names object types by where they start and passes through the types that hold them
 * (src/orchestrator/composed-types-patch.ts), so its counts differ from scip-typescript's alone for the same symbols.
 */
function uncounted<T>(value: T): T {
  if (typeof value === 'string') return value.replace(/^local \d+$/, 'local').replace(/typeLiteral\d+:/g, 'typeLiteral:') as T;
  if (Array.isArray(value)) return value.map(uncounted) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, uncounted(v)])) as T;
  return value;
}

/**
 * A published index's findReferences answer against `sextant index`'s: the same but in doc comments and at object
 * literals' keys. scip-typescript alone records no doc comment, which sextant's own run of it does
 * (src/orchestrator/doc-comments-patch.ts): there the published index has what sextant's parse finds in the comment's
 * text (`{@link X}`, from_source), and lacks what only the checker resolves (`{@link f#member}`). And sextant's run
 * links a literal's key to the property it sets of a union some members of which lack it (`{ error: reject }` passed
 * as `Partial<Observer<T>> | ((value: T) => void)`: src/orchestrator/contextual-properties-patch.ts), which
 * scip-typescript alone leaves a property of the literal's own. Everything else is equal.
 */
/** `name: value` or a shorthand `name` of `{ a, name }` at a reference's or a position's column. */
const LITERAL_KEY = /^[\p{L}_$][\p{L}\p{N}_$]*\s*(?::|,|\})/u;

/**
 * Whether the position is an object literal's key that the published index answers as a property of the literal's
 * own (defined at the key itself), where `sextant index` answers another definition (see sameReferencesBut).
 */
function ownKeyOnlyPublished(root: string, p: { path: string; line: number; column: number }, published: any, indexed: any): boolean {
  const text = readFileSync(join(root, p.path), 'utf8').split(/\r?\n/)[p.line - 1] ?? '';
  if (!LITERAL_KEY.test(text.slice(p.column - 1))) return false;
  const at = (d: any) => d.path === p.path && d.line === p.line && d.column === p.column;
  return published.definitions?.length > 0 && published.definitions.every(at) && !indexed.definitions?.every(at);
}

function sameReferencesBut(published: any, indexed: any, message: string): void {
  if (!('references' in published) || !('references' in indexed)) return assert.deepEqual(published, indexed, message);
  const key = (r: any) => `${r.path}:${r.line}:${r.column}`;
  const inComment = (r: any) => /^\s*(\/\*|\*)/.test(r.preview ?? '');
  const literalKey = (r: any) => LITERAL_KEY.test((r.preview ?? '').slice(r.column - 1));
  const plain = (r: any) => {
    const { from_source: _, ...rest } = r;
    return rest;
  };
  const indexedAt = new Map(indexed.references.map((r: any) => [key(r), r]));
  const publishedAt = new Set(published.references.map(key));
  for (const r of published.references) {
    const there = indexedAt.get(key(r));
    assert.ok(there || inComment(r), `${message}: ${key(r)} only in the published index`);
    if (there) assert.deepEqual(plain(r), plain(there), `${message}: ${key(r)}`);
  }
  for (const r of indexed.references)
    assert.ok(publishedAt.has(key(r)) || inComment(r) || literalKey(r), `${message}: ${key(r)} only in sextant index's`);
  const { references: _p, total: _pt, ...publishedRest } = published;
  const { references: _i, total: _it, ...indexedRest } = indexed;
  assert.deepEqual(publishedRest, indexedRest, message);
}

describe('sextant publish', () => {
  const cleanup: string[] = [];
  const scip = tempDir('sextant-publish-scip-');
  cleanup.push(scip);
  // What `sextant index` answers is the reference, on SQLite in either run: on Postgres what is published is held
  // equal to it across engines, and the suite does not ingest rxjs and requests into Postgres twice. rxjs's checkout,
  // raw index and reference are the suite's shared ones (support/indexed-corpus.ts: nothing here changes them);
  // requests gets a checkout of its own, which the tests below commit to.
  const indexed = testHome('sqlite');
  const published = testHome();
  cleanup.push(indexed.home, published.home);
  let rxjsIndexed: IndexedCorpus;
  let rxjsScip = '';
  const requestsScip = join(scip, 'requests.scip');
  let rxjs = '';
  let requests = '';
  let rxjsCommit = '';
  let requestsCommit = '';
  let engines: Engine[] = [];

  before(async () => {
    rxjsIndexed = indexedCorpus('rxjs');
    rxjs = rxjsIndexed.repo;
    rxjsScip = rxjsIndexed.scip;
    requests = requestsRepo();
    cleanup.push(dirname(requests));
    rxjsCommit = git(rxjs, 'rev-parse', 'HEAD').trim();
    requestsCommit = git(requests, 'rev-parse', 'HEAD').trim();
    // The raw indexer, once for the whole file; `sextant index` runs it again its own way.
    await scipPython(requests, 'requests', requestsScip);
    indexOrThrow(requests, indexed.env, '--repo', 'requests');
  });

  after(async () => {
    for (const engine of engines) await engine.close();
    for (const dir of cleanup) removeDir(dir);
  });

  test('publishing raw indexer output with --root answers as `sextant index` of the same commit, but in doc comments and object literal keys (rxjs, requests)', async () => {
    for (const [scipFile, slug, root, commit] of [
      [rxjsScip, 'rxjs', rxjs, rxjsCommit],
      [requestsScip, 'requests', requests, requestsCommit],
    ] as const) {
      const r = sextant(['publish', scipFile, '--repo', slug, '--commit', commit, '--root', root, '--sha256', sha256(scipFile), '--json'], {
        env: published.env,
      });
      assert.equal(r.code, 0, r.stderr);
      const report = JSON.parse(r.stdout);
      assert.equal(report.upload_state, 'completed');
      assert.equal(report.with_root, true);
      assert.ok(report.documents > 10, `${slug}: ${report.documents} documents`);
    }
    const rxjsIndex = await openRegistry({ registry: registryFile(rxjsIndexed.home) });
    const requestsIndex = await openRegistry({ registry: registryFile(indexed.home) });
    const b = await openRegistry({ registry: registryFile(published.home) });
    engines = [rxjsIndex, requestsIndex, b];
    const viaPublish = new Navigation(b);
    for (const [scipFile, slug, root, viaIndex] of [
      [rxjsScip, 'rxjs', rxjs, new Navigation(rxjsIndex)],
      [requestsScip, 'requests', requests, new Navigation(requestsIndex)],
    ] as const) {
      let compared = 0;
      let found = 0;
      for (const p of drawPositions(scipFile, 120, slug.length)) {
        const q = { repo: slug, ...p };
        const defs = await Promise.all([viaIndex, viaPublish].map((n) => answer(() => n.goToDefinition(q as never))));
        // At a literal's key that sets a property of a union some members of which lack it, sextant's run answers
        // that property, and the raw index the key itself, as a property of the literal's own.
        if (ownKeyOnlyPublished(root, p, defs[1], defs[0])) continue;
        assert.deepEqual(defs[1], defs[0], `goToDefinition ${slug} ${p.path}:${p.line}:${p.column}`);
        const refs = await Promise.all(
          [viaIndex, viaPublish].map((n) => answer(() => n.findReferences({ ...q, include_declaration: true, limit: 2000 } as never))),
        );
        sameReferencesBut(refs[1], refs[0], `findReferences ${slug} ${p.path}:${p.line}:${p.column}`);
        compared++;
        if ('found' in defs[0] && defs[0].found) found++;
      }
      assert.ok(compared >= 100, `${slug}: ${compared} positions compared`);
      // Equal answers are only worth something if they say something.
      assert.ok(found >= 80, `${slug}: only ${found} of ${compared} positions found a definition`);
    }
    // Search and syntax-derived additions came from the checkout: the status says the texts are all there.
    const status = await viaPublish.getIndexStatus({ repo: 'rxjs' });
    assert.equal(status.searchCoverage?.complete, true);
    assert.equal(status.uploads[0]?.state, 'completed');
    assert.equal(status.online, false, 'a published repository has no worktree registered here');
  });

  describe('rejections leave the registry byte for byte unchanged', () => {
    // Taken once: every rejection must leave the registry as it was before the first.
    let before: ReturnType<typeof fingerprint> | undefined;
    const rejects = (args: string[], message: RegExp) => {
      const was = (before ??= fingerprint(published.home));
      const r = sextant(['publish', ...args], { env: published.env });
      assert.equal(r.code, 1, `exit ${r.code}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split('\n').length, 1, 'one line');
      assert.equal(r.stdout, '');
      assert.deepEqual(fingerprint(published.home), was);
    };

    test('a file cut inside a field, at several offsets, is rejected as truncated', () => {
      const bytes = readFileSync(rxjsScip);
      const ends = fieldEnds(bytes);
      // Inside the metadata, inside a tag or length, mid-file, one byte short.
      for (const cut of [5, ends[0]! + 1, ends[Math.floor(ends.length / 2)]! + 3, Math.floor(bytes.length / 2), bytes.length - 1]) {
        assert.ok(!ends.includes(cut), `offset ${cut} is inside a field`);
        const file = join(scip, `cut-${cut}.scip`);
        writeFileSync(file, bytes.subarray(0, cut));
        rejects([file, '--repo', 'rxjs', '--commit', rxjsCommit, '--root', rxjs], /truncated.*upload the complete file/);
      }
      // Cut exactly before the first document: the metadata is all there is.
      const file = join(scip, 'cut-metadata-only.scip');
      writeFileSync(file, bytes.subarray(0, ends[0]));
      rejects([file, '--repo', 'rxjs', '--commit', rxjsCommit], /holds no documents/);
    });

    test('a file cut between two documents decodes cleanly: --sha256 and --size catch it', () => {
      const bytes = readFileSync(rxjsScip);
      const ends = fieldEnds(bytes);
      const file = join(scip, 'cut-between.scip');
      writeFileSync(file, bytes.subarray(0, ends[Math.floor(ends.length / 2)]));
      rejects(
        [file, '--repo', 'rxjs', '--commit', rxjsCommit, '--sha256', sha256(rxjsScip)],
        /sha256 [0-9a-f]{64}, not the --sha256 given/,
      );
      rejects([file, '--repo', 'rxjs', '--commit', rxjsCommit, '--size', String(bytes.length)], /not the --size/);
      // Without a checksum it is accepted (it is a valid index of fewer files), but with --root the tier names the gap.
      const scratch = testHome();
      try {
        const r = sextant(['publish', file, '--repo', 'rxjs', '--commit', rxjsCommit, '--root', rxjs, '--json'], { env: scratch.env });
        assert.equal(r.code, 0, r.stderr);
        const typescript = JSON.parse(r.stdout).languages.typescript;
        assert.equal(typescript.tier, 'precise');
        assert.ok(typescript.indexed_files < typescript.files);
        assert.match(typescript.reason, /have no document in the uploaded index .*cut short \(pass --sha256/);
      } finally {
        removeDir(scratch.home);
      }
    });

    test('a sha256 that does not match is rejected', () => {
      rejects(
        [requestsScip, '--repo', 'requests', '--commit', requestsCommit, '--sha256', 'ab'.repeat(32)],
        /not the --sha256 given.*copy the file again/,
      );
    });

    test("a document path with '..' (or absolute) is rejected", () => {
      for (const bad of ['../outside.py', 'requests/../../outside.py', '/etc/passwd']) {
        const index = decodeIndex(requestsScip);
        index.documents[1]!.relativePath = bad;
        const file = join(scip, 'bad-path.scip');
        writeFileSync(file, IndexType.encode(IndexType.fromObject(index as never)).finish());
        rejects([file, '--repo', 'requests', '--commit', requestsCommit], /not inside the project root.*index from the repository root/);
      }
    });

    test('a commit the checkout does not have is rejected with --root', () => {
      rejects([requestsScip, '--repo', 'requests', '--commit', 'deadbeef'.repeat(5), '--root', requests], /does not exist in .*fetch it/);
      rejects([requestsScip, '--repo', 'requests', '--commit', 'deadbeef', '--root', requests], /not a full commit hash/);
    });

    test("a checkout holding none of the index's documents (another repository's) is rejected", () => {
      rejects(
        [requestsScip, '--repo', 'requests', '--commit', rxjsCommit, '--root', rxjs],
        /none of the \d+ documents .* is a file of .*--root/,
      );
    });

    test('occurrence ranges past the text of the files at the commit, or a checkout at another commit, are rejected', () => {
      // The next commit shortens a file the index covers: the old index does not fit it.
      const target = 'requests/models.py';
      writeFileSync(join(requests, target), '# emptied\n');
      const next = commitAll(requests, 'shorten models.py');
      try {
        rejects(
          [requestsScip, '--repo', 'requests', '--commit', next, '--root', requests],
          /requests\/models\.py.*range .* lies outside the file at/,
        );
      } finally {
        git(requests, 'checkout', '-q', requestsCommit);
      }
      // The commit exists but another is checked out: the texts would not be the commit's.
      rejects(
        [requestsScip, '--repo', 'requests', '--commit', next, '--root', requests],
        /has [0-9a-f]{12} checked out, not [0-9a-f]{12}: check it out there/,
      );
    });

    test('an index without metadata is rejected', () => {
      const index = decodeIndex(requestsScip);
      delete (index as Partial<Decoded>).metadata;
      const file = join(scip, 'no-metadata.scip');
      writeFileSync(file, IndexType.encode(IndexType.fromObject(index as never)).finish());
      rejects([file, '--repo', 'requests', '--commit', requestsCommit], /has no metadata/);
    });
  });

  test('upload states: completed, replaced atomically on a second upload of the commit, errored with the reason', async () => {
    const env = published.env;
    const first = sextant(['status', 'requests', '--json'], { env });
    const before = JSON.parse(first.stdout);
    const r = sextant(['publish', requestsScip, '--repo', 'requests', '--commit', requestsCommit, '--root', requests, '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    const status = JSON.parse(sextant(['status', 'requests', '--json'], { env }).stdout);
    assert.deepEqual(report.replaced, [status.uploads[1].index_id]);
    assert.equal(status.uploads[0].state, 'completed');
    assert.equal(status.uploads[0].index_id, report.index_id);
    assert.equal(status.uploads[0].id, before.uploads[0].id + 1);
    const engine = await openRegistry({ registry: registryFile(published.home) });
    try {
      const atCommit = await engine.db
        .selectFrom('indexes as i')
        .innerJoin('repos as r', 'r.id', 'i.repo_id')
        .select(['i.id', 'i.state'])
        .where('r.slug', '=', 'requests')
        .where('i.commit_sha', '=', requestsCommit)
        .where('i.state', '=', 'published')
        .execute();
      assert.deepEqual(
        atCommit.map((i) => i.id),
        [report.index_id],
        'one published index per (repository, commit)',
      );
      // A writer holds the repository: the upload passes validation, waits (queued), then errors with why.
      const repo = await engine.db.selectFrom('repos').select('id').where('slug', '=', 'requests').executeTakeFirstOrThrow();
      await engine.db
        .insertInto('locks')
        .values({
          repo_id: repo.id,
          run_id: 0,
          pid: process.pid,
          host: (await import('node:os')).hostname(),
          acquired_at: new Date().toISOString(),
        })
        .execute();
      const blocked = sextant(['publish', requestsScip, '--repo', 'requests', '--commit', requestsCommit], { env });
      await engine.db.deleteFrom('locks').where('repo_id', '=', repo.id).execute();
      assert.equal(blocked.code, 1);
      assert.match(blocked.stderr, /another sextant run/);
    } finally {
      await engine.close();
    }
    const after = JSON.parse(sextant(['status', 'requests', '--json'], { env }).stdout);
    assert.equal(after.uploads[0].state, 'errored');
    assert.match(after.uploads[0].reason, /another sextant run/);
    assert.equal(after.commit, requestsCommit, 'the published index still serves');
  });

  test('without --root: navigation only, search coverage null with the reason, offline in findFiles and registryStatus', async () => {
    const env = published.env;
    const r = sextant(['publish', requestsScip, '--repo', 'requests-ci', '--commit', requestsCommit, '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).with_root, false);
    const session = await mcpSession(env);
    try {
      const status = (await session.call('getIndexStatus', { repo: 'requests-ci' })).result;
      assert.equal(status.searchCoverage, null);
      assert.match(status.searchCoverageReason, /without --root/);
      assert.equal(status.capabilities.search.available, false);
      assert.equal(status.online, false);
      // Checked against a clone at the commit, it is fresh; an edit there is the one file that differs.
      const clone = (await session.call('getIndexStatus', { repo: 'requests-ci', repo_path: requests })).result;
      assert.equal(clone.freshness, 'fresh', clone.freshness_reason);
      appendFileSync(join(requests, 'requests/api.py'), '\n# edited\n');
      try {
        const edited = (await session.call('getIndexStatus', { repo: 'requests-ci', repo_path: requests })).result;
        assert.equal(edited.freshness, 'stale');
        assert.deepEqual(edited.freshness_evidence.changed_files, ['requests/api.py']);
      } finally {
        git(requests, 'checkout', '--', 'requests/api.py');
      }
      const viaRoot = (await session.call('goToDefinition', { repo: 'requests', symbol: 'Session' })).result;
      const viaCi = (await session.call('goToDefinition', { repo: 'requests-ci', symbol: 'Session' })).result;
      assert.ok(viaRoot.found);
      assert.deepEqual(
        viaCi.definitions.map((d: any) => [d.path, d.line, d.column]),
        viaRoot.definitions.map((d: any) => [d.path, d.line, d.column]),
      );
      const files = (await session.call('findFiles', { repos: ['requests-ci'] })).result;
      assert.equal(files.total, 0);
      assert.ok(files.scan_state.offline_excluded.includes('requests-ci'));
      // The command line says what it left out, and how to include it.
      for (const args of [
        ['files', '--repo', 'requests-ci'],
        ['files', '--repo', 'requests-ci', '--count'],
      ]) {
        const cli = sextant(args, { env });
        assert.equal(cli.code, 0, cli.stderr);
        assert.match(cli.stdout, /^0 entries\nleft out 1 offline repository \(requests-ci\): pass --include-offline/m);
      }
      const offline = (await session.call('findFiles', { repos: ['requests-ci'], include_offline: true, extensions: ['py'] })).result;
      assert.ok(offline.total > 10, `${offline.total} files with include_offline`);
      // Without --root no file's blob is known: sizes are unknown (null), never a made-up 0, and no size filter matches them.
      assert.deepEqual([...new Set(offline.hits.map((h: any) => h.size))], [null]);
      const sized = (await session.call('findFiles', { repos: ['requests-ci'], include_offline: true, kind: 'file', max_size: 1_000_000 }))
        .result;
      assert.equal(sized.total, 0);
      // The same files published with --root have their sizes, as the checkout has them.
      const rooted = (await session.call('findFiles', { repos: ['requests'], include_offline: true, name: 'api.py' })).result;
      assert.equal(rooted.hits[0].size, statSync(join(requests, 'requests', 'api.py')).size);
      const cli = sextant(['files', 'api.py', '--repo', 'requests-ci', '--include-offline'], { env });
      assert.match(cli.stdout, /^file\s+-\s+/m, 'the command line prints an unknown size as -');
      const registry = (await session.call('registryStatus', {})).result;
      assert.equal(registry.repos.find((x: any) => x.repo === 'requests-ci').online, false);
      // Search has no text of it: asked by name, it says so and how to fix it, never "no match".
      const named = await toolError(session, 'searchCode', { query: 'class Session', repo: 'requests-ci' });
      assert.match(named, /requests-ci.*without --root.*--root DIR/);
      // Asked of every repository, it is named apart from those searched.
      const all = (await session.call('searchCode', { query: 'class Session' })).result;
      assert.ok(!all.searched.some((x: any) => x.repo === 'requests-ci'), JSON.stringify(all.searched));
      assert.deepEqual(
        all.unsearchable.map((x: any) => [x.repo, x.commit]),
        [['requests-ci', requestsCommit]],
      );
      assert.match(all.unsearchable[0].reason, /without --root/);
    } finally {
      await session.close();
    }
  });

  test('a query at an unpublished commit answers from its nearest published ancestor, flagged', async () => {
    const repo = fixtureRepo('ts-shapes');
    cleanup.push(dirname(repo));
    const { env } = published;
    const c1 = git(repo, 'rev-parse', 'HEAD').trim();
    const s1 = join(scip, 'shapes-1.scip');
    await scipTypescript(repo, s1);
    appendFileSync(join(repo, 'src', 'main.ts'), '\n// second\n');
    const c2 = commitAll(repo, 'second');
    appendFileSync(join(repo, 'src', 'main.ts'), '\n// third\n');
    const c3 = commitAll(repo, 'third');
    const s3 = join(scip, 'shapes-3.scip');
    await scipTypescript(repo, s3);
    git(repo, 'checkout', '-q', c1);
    assert.equal(sextant(['publish', s1, '--repo', 'shapes', '--commit', c1, '--root', repo], { env }).code, 0);
    git(repo, 'checkout', '-q', c3);
    // Pushed together, only the tip was indexed: c2 is known from c3's ancestry.
    assert.equal(sextant(['publish', s3, '--repo', 'shapes', '--commit', c3, '--root', repo], { env }).code, 0);
    const session = await mcpSession(env);
    try {
      const at = async (commit: string) => (await session.call('goToDefinition', { repo: 'shapes', symbol: 'Shape', commit })).result;
      const middle = await at(c2);
      assert.deepEqual(middle.nearest_commit, { requested: c2, commit: c1, distance: 1 });
      assert.equal(middle.commit, c1);
      assert.ok(middle.found);
      const tip = await at(c3);
      assert.equal(tip.nearest_commit, undefined);
      assert.equal(tip.commit, c3);
      const refs = (await session.call('findReferences', { repo: 'shapes', symbol: 'Shape', commit: c2 })).result;
      assert.equal(refs.nearest_commit.distance, 1);
      const unknown = await session.call('goToDefinition', { repo: 'shapes', symbol: 'Shape', commit: 'f'.repeat(40) });
      assert.equal(unknown.isError, true);
      assert.match(unknown.result.error, /no published index at ffffffffffff nor at an ancestor/);
    } finally {
      await session.close();
    }
    // Without --root, --parents reports the commit's parents (checked like --commit).
    const report = sextant(['publish', s3, '--repo', 'shapes-ci', '--commit', c3, '--parents', c2, '--json'], { env });
    assert.equal(report.code, 0, report.stderr);
    assert.equal(JSON.parse(report.stdout).parents_recorded, 1);
    const bad = sextant(['publish', s3, '--repo', 'shapes-ci', '--commit', c3, '--parents', 'HEAD~1'], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--parents "HEAD~1" is not a full commit hash/);
  });
});
