// Concurrent writers into one registry: four `sextant index` runs publish
// four repositories (each at a commit of its own) at the same time, while
// four MCP clients query all four throughout, and a fifth run is SIGKILLed
// while it writes. Every answer must be either "not published yet" or exactly
// the answer of the finished index (never a partial one), every run must
// publish, and afterwards the registry's rows must agree with each other: no
// row referring to a missing one, counts that add up, no index half built.
// The same on each engine; the one that matters across hosts is Postgres.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SEXTANT_BIN } from './support/paths.js';
import { registry, scalar } from './support/index-runs.js';
import { TEST_ENGINE } from './support/registry.js';
import { commitAll, fixtureRepo, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, sextantAsync, testHome, withoutMeta, type CliResult, type McpSession } from './support/sextant.js';

const PUBLISHERS = 4;
const CLIENTS = 4;
const { home, env } = testHome();
const cleanup: string[] = [home];
const repos: { slug: string; root: string; commit: string }[] = [];
let killed: { slug: string; root: string; commit: string };

interface Answer {
  client: number;
  slug: string;
  tool: string;
  isError: boolean;
  result: any;
}
const answers: Answer[] = [];
let published: (CliResult & { report?: any })[] = [];
let killedAt = 0;

/** The queries each client asks of each repository, again and again. */
const queries = (slug: string, n: number) => [
  { tool: 'findReferences', args: { repo: slug, symbol: 'formatArea' } },
  { tool: 'workspaceSymbols', args: { repo: slug, query: `onlyIn${n}` } },
  { tool: 'documentSymbols', args: { repo: slug, path: `src/only${n}.ts` } },
];

/**
 * A copy of ts-shapes with a file of its own, committed: a commit no other
 * copy has. Its package has a name of its own, so that its symbols are its
 * own (navigation follows a symbol into every repository that has it), while
 * the files it shares with the other copies are stored once for all of them.
 */
function variant(n: number): { slug: string; root: string; commit: string } {
  const root = fixtureRepo('ts-shapes');
  cleanup.push(join(root, '..'));
  const manifest = join(root, 'package.json');
  writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"name": "ts-shapes"', `"name": "ts-shapes-${n}"`));
  appendFileSync(join(root, 'src', `only${n}.ts`), `export function onlyIn${n}(x: number): number {\n  return x * ${n};\n}\n`);
  return { slug: `pub-${n}`, root, commit: commitAll(root, `variant ${n}`) };
}

before(async () => {
  for (let n = 0; n < PUBLISHERS; n++) repos.push(variant(n));
  const k = variant(PUBLISHERS);
  killed = { slug: 'pub-killed', root: k.root, commit: k.commit };

  const sessions: McpSession[] = [];
  // Without automatic reindexing: a query about a repository whose publisher is still running must not start a job of its own.
  for (let c = 0; c < CLIENTS; c++) sessions.push(await mcpSession({ ...env, SEXTANT_AUTO_REINDEX: '0' }));
  let publishing = true;
  const clients = sessions.map(async (session, client) => {
    // Each client asks until every publish has landed, then one more round of everything.
    for (let lastRound = false; ; ) {
      for (const [n, { slug }] of repos.entries())
        for (const q of queries(slug, n)) {
          const r = await session.call(q.tool, q.args);
          answers.push({ client, slug, tool: q.tool, isError: r.isError, result: r.result });
        }
      if (lastRound) break;
      lastRound = !publishing;
    }
  });

  const index = (root: string, slug: string) =>
    sextantAsync(['index', root, '--repo', slug, '--json'], { env }).then((r) => ({
      ...r,
      report: r.code === 0 ? JSON.parse(r.stdout) : undefined,
    }));
  const runs = repos.map((r) => index(r.root, r.slug));
  // The fifth writer is killed while it writes: as soon as the symbols of its own file are stored (its
  // documents are being written, its index not yet published), or at the latest when its run ends.
  const victim = spawn(process.execPath, [SEXTANT_BIN, 'index', killed.root, '--repo', killed.slug, '--json'], { env, stdio: 'ignore' });
  let victimExited = false;
  victim.on('exit', () => (victimExited = true));
  for (let i = 0; i < 3000 && !victimExited; i++) {
    let db: ReturnType<typeof registry> | undefined;
    try {
      db = registry(home);
      if (Number(scalar<number>(db, `select count(*) from symbols where symbol like '%onlyIn${PUBLISHERS}%'`)) > 0) break;
    } catch {
      // The registry's tables are not created yet.
    } finally {
      db?.close();
    }
    await sleep(10);
  }
  victim.kill('SIGKILL');
  killedAt = Date.now();
  published = await Promise.all(runs);
  publishing = false;
  await Promise.all(clients);
  for (const s of sessions) await s.close();
});

after(() => {
  for (const dir of cleanup) removeDir(dir);
});

test(`${PUBLISHERS} concurrent publishers of different repositories and commits all publish (${TEST_ENGINE})`, () => {
  assert.ok(killedAt > 0);
  for (const [n, r] of published.entries()) {
    assert.equal(r.code, 0, `publisher ${n}: ${r.stderr}`);
    assert.equal(r.report.outcome, 'indexed');
    assert.equal(r.report.commit, repos[n]!.commit);
  }
});

test('readers saw each repository either not yet published or wholly published, never partly', async (t) => {
  const session = await mcpSession(env);
  const expected = new Map<string, any>();
  try {
    for (const [n, { slug }] of repos.entries())
      for (const q of queries(slug, n)) expected.set(`${slug} ${q.tool}`, withoutMeta(await session.ok(q.tool, q.args)));
  } finally {
    await session.close();
  }
  // The expected answers are real ones: the variant's own function, formatArea's references in every copy.
  for (const [n, { slug }] of repos.entries()) {
    const references = expected.get(`${slug} findReferences`).references;
    assert.ok(references.length >= 2);
    assert.ok(references.every((r: any) => r.repo === slug), `${slug}'s own symbols`);
    assert.ok(expected.get(`${slug} workspaceSymbols`).symbols.some((s: any) => s.name === `onlyIn${n}`));
  }
  let whole = 0;
  for (const a of answers) {
    if (a.isError) {
      assert.match(a.result.error, /unknown repository|no repository named|has no published index/, `${a.slug} ${a.tool}: ${a.result.error}`);
      continue;
    }
    assert.deepEqual(withoutMeta(a.result), expected.get(`${a.slug} ${a.tool}`), `${a.slug} ${a.tool} answered by client ${a.client}`);
    whole++;
  }
  t.diagnostic(`${answers.length} answers: ${whole} from published indexes, the rest before their publish`);
  assert.ok(whole >= CLIENTS * PUBLISHERS * 3, `${whole} answers from published indexes`);
  for (let c = 0; c < CLIENTS; c++) assert.ok(answers.some((a) => a.client === c && a.isError), `client ${c} asked before publishes landed`);
});

test('after the SIGKILL and the publishes, the registry is consistent and the killed repository indexes again', (t) => {
  const db = registry(home);
  try {
    const zero = (what: string, query: string) => assert.equal(Number(scalar<number>(db, query)), 0, what);
    zero('index files whose document is missing', 'select count(*) from index_files f left join documents d on d.id = f.document_id where f.document_id is not null and d.id is null');
    zero('index files whose blob is missing', 'select count(*) from index_files f left join blobs b on b.sha = f.blob_sha where b.sha is null');
    zero('references to missing documents', 'select count(*) from symbol_refs r left join documents d on d.id = r.document_id where d.id is null');
    zero('references to missing symbols', 'select count(*) from symbol_refs r left join symbols s on s.id = r.symbol_id where s.id is null');
    zero('definitions of missing documents', 'select count(*) from definitions x left join documents d on d.id = x.document_id where d.id is null');
    zero('indexes not published', "select count(*) from indexes where state != 'published'");
    zero('current indexes missing', 'select count(*) from repos r left join indexes i on i.id = r.current_index_id where r.current_index_id is not null and i.id is null');
    const killedIndexes = Number(scalar<number>(db, "select count(*) from indexes i join repos r on r.id = i.repo_id where r.slug = 'pub-killed'"));
    // Killed before it published (almost always), or after: then its index is whole, like the others'.
    t.diagnostic(killedIndexes > 0 ? 'the killed run had published before the kill' : 'the killed run was killed before it published');
    const checked = killedIndexes > 0 ? [...repos, { slug: killed.slug, commit: killed.commit }] : repos;
    for (const { slug, commit } of checked) {
      const row = db
        .prepare(
          `select i.commit_sha, i.total_files, i.document_count, i.occurrence_count,
             (select count(*) from index_files f where f.index_id = i.id) as files,
             (select count(*) from index_files f where f.index_id = i.id and f.document_id is not null) as documents,
             (select coalesce(sum(d.occurrence_count), 0) from index_files f join documents d on d.id = f.document_id where f.index_id = i.id) as occurrences
           from repos r join indexes i on i.id = r.current_index_id where r.slug = ?`,
        )
        .get(slug) as Record<string, unknown>;
      assert.equal(row.commit_sha, commit, slug);
      assert.equal(Number(row.files), Number(row.total_files), `${slug}: files`);
      assert.equal(Number(row.documents), Number(row.document_count), `${slug}: documents`);
      assert.equal(Number(row.occurrences), Number(row.occurrence_count), `${slug}: occurrences`);
    }
  } finally {
    db.close();
  }
  const report = indexOrThrow(killed.root, env, '--repo', killed.slug);
  assert.equal(report.outcome, 'indexed');
  const after = registry(home);
  try {
    assert.equal(Number(scalar<number>(after, 'select count(*) from locks')), 0, 'no lock left');
    assert.equal(Number(scalar<number>(after, "select count(*) from index_runs where state = 'running'")), 0, 'the killed run is recorded finished');
  } finally {
    after.close();
  }
});
