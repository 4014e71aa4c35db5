// The load section of `npm run bench` (issue 11): 8 MCP clients, each with
// its own `sextant mcp` process over one registry file (stdio serves one
// client per process, so this is how several agents share an index), ask at
// least 1000 mixed queries each while `sextant index` publishes a new commit
// of rxjs into that registry (test/support/load.ts makes the commit and the
// probes). It reports latency per tool, throughput, answers per commit, the
// servers' peak RSS, and every violation: an error, an answer that is not the
// expected answer of the commit it names, a client going back to the old
// commit, or a request sent after any client saw the new commit answered from
// the old one. Any violation makes the bench exit with code 1.
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { rxjsRepo } from '../test/support/corpus.js';
import {
  checkExpectedB,
  checkLoad,
  expectedAnswers,
  openSession,
  percentile,
  runLoad,
  setupLoad,
  TOOLS,
  violations,
  type LoadRecord,
} from '../test/support/load.js';
import { removeDir } from '../test/support/repos.js';
import { testHome } from '../test/support/sextant.js';

const CLIENTS = 8;
const QUERIES = 1000;
const SEED = 0x10ad;

type Table = (rows: (string | number)[][], header: string[]) => string;

const r1 = (x: number) => (Number.isFinite(x) ? Number(x.toFixed(1)) : null);

function latency(records: readonly LoadRecord[]) {
  const ms = records.filter((r) => !r.isError).map((r) => r.receivedAt - r.sentAt);
  return { n: ms.length, p50_ms: r1(percentile(ms, 0.5)), p99_ms: r1(percentile(ms, 0.99)), max_ms: r1(Math.max(...ms)) };
}

export async function benchLoad(json: boolean, progress: (message: string) => void, table: Table): Promise<void> {
  const started = performance.now();
  const loadBefore = loadavg()[0]!;
  progress('(l) indexing rxjs at commit A…');
  const root = rxjsRepo();
  const { home, env } = testHome();
  try {
    const setup = await setupLoad({ root, env, shiftFraction: 1 / 3, inserted: 5, perKind: 40, maxPrepCalls: 1500, seed: SEED });
    progress(`(l) ${setup.probes.length} probes; ${CLIENTS} clients x ${QUERIES} queries…`);
    const run = await runLoad(setup, {
      clients: CLIENTS,
      queries: QUERIES,
      publishAfter: (CLIENTS * QUERIES) / 4,
      // After the switch, enough B answers per client to check it holds.
      minB: 100,
      maxQueries: 50 * QUERIES,
      seed: SEED,
      progress: (m) => progress(`(l) ${m}`),
    });
    const session = await openSession(env);
    let expectedB: string[];
    try {
      expectedB = await expectedAnswers(session, setup.probes, 'B');
    } finally {
      await session.close();
    }
    const check = checkLoad(setup, expectedB, run);
    const problems = [
      ...(run.publish.code === 0 && run.publish.report?.commit === setup.commitB
        ? []
        : [`the publish failed (exit ${run.publish.code}): ${run.publish.stderr.trim().split('\n').pop()}`]),
      ...checkExpectedB(setup, expectedB),
      ...(check.perCommit.A > 0 && check.perCommit.B > 0 ? [] : [`answers per commit: A ${check.perCommit.A}, B ${check.perCommit.B}`]),
      ...violations(check),
    ];
    const loadAfter = loadavg()[0]!;

    const during = run.records.filter((r) => r.sentAt >= run.publish.startedAt && r.receivedAt <= run.publish.finishedAt);
    const perTool = Object.fromEntries(TOOLS.map((t) => [t, latency(run.records.filter((r) => r.tool === t))]));
    const rss = run.servers.map((s) => s.peakRssKb ?? NaN);
    const section = {
      corpus: 'rxjs@7.8.2',
      commits: { A: setup.commitA, B: setup.commitB },
      moved_files: setup.shifted.length,
      inserted_lines: setup.inserted,
      probes: setup.probes.length,
      observable_probes: check.observableProbes,
      clients: CLIENTS,
      queries_per_client_at_least: QUERIES,
      answers: check.answers,
      answers_per_commit: check.perCommit,
      observable_answers: check.observable,
      wall_s: r1(run.wallMs / 1000),
      queries_per_s: r1(check.answers / (run.wallMs / 1000)),
      publish: {
        started_s: r1(run.publish.startedAt / 1000 - run.records[0]!.sentAt / 1000),
        duration_s: r1((run.publish.finishedAt - run.publish.startedAt) / 1000),
        answers_during: during.length,
      },
      latency: {
        all: latency(run.records),
        // get_index_status checks freshness against the worktree (git subprocesses): the other seven apart.
        all_but_get_index_status: latency(run.records.filter((r) => r.tool !== 'get_index_status')),
        during_publish: latency(during),
        ...perTool,
      },
      server_peak_rss_mb: {
        max: r1(Math.max(...rss) / 1024),
        sum: r1(rss.reduce((a, b) => a + b, 0) / 1024),
        each: rss.map((k) => r1(k / 1024)),
      },
      violations: problems.length,
      first_violations: problems.slice(0, 20),
      machine: { cpus: cpus().length, node: process.version, load_average_1m: { before: r1(loadBefore), after: r1(loadAfter) } },
      total_seconds: r1((performance.now() - started) / 1000),
    };
    if (problems.length) process.exitCode = 1;
    if (json) {
      process.stdout.write(JSON.stringify({ only: 'load', load: section }) + '\n');
      return;
    }
    const out: string[] = [];
    const print = (s = '') => out.push(s);
    print(`sextant bench — section (l) alone (--only load); ${cpus().length} CPUs, node ${process.version}`);
    print(
      `load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after` +
        (Math.max(loadBefore, loadAfter) > cpus().length ? ': the machine was busy with other work, so latencies are inflated' : ''),
    );
    print();
    print(
      `(l) load during a publish: ${CLIENTS} MCP clients, each with its own \`sextant mcp\` over one registry, at least ${QUERIES} queries each, ` +
        `while \`sextant index\` publishes commit B of ${section.corpus} (${setup.shifted.length} files moved down ${setup.inserted} lines, a symbol added)`,
    );
    print(
      `  ${section.answers} answers in ${section.wall_s} s (${section.queries_per_s} queries/s): ${check.perCommit.A} from A, ${check.perCommit.B} from B; ` +
        `${check.observable} of them at probes whose answers differ between A and B (${setup.probes.length} probes)`,
    );
    print(
      `  the publish started ${section.publish.started_s} s into the load and took ${section.publish.duration_s} s; ${during.length} answers were asked and received while it ran`,
    );
    print(
      table(
        [
          ...TOOLS.map((t) => [t, ...latencyCells(perTool[t]!)]),
          ['all', ...latencyCells(section.latency.all)],
          ['all but get_index_status', ...latencyCells(section.latency.all_but_get_index_status)],
          ['all, during the publish', ...latencyCells(section.latency.during_publish)],
        ],
        ['', 'answers', 'p50', 'p99', 'max'],
      ),
    );
    print(
      `  servers' peak RSS (VmHWM): max ${section.server_peak_rss_mb.max} MB, sum ${section.server_peak_rss_mb.sum} MB over ${CLIENTS} processes`,
    );
    print(`  violations (errors, mixed answers, a switch back or a stale answer after the switch): ${problems.length}`);
    for (const p of section.first_violations) print(`    ${p}`);
    print(`\ntotal ${section.total_seconds} s`);
    process.stdout.write(out.join('\n') + '\n');
  } finally {
    removeDir(home);
    removeDir(join(root, '..'));
  }
}

function latencyCells(l: ReturnType<typeof latency>): string[] {
  const ms = (x: number | null) => (x === null ? '–' : `${x} ms`);
  return [String(l.n), ms(l.p50_ms), ms(l.p99_ms), ms(l.max_ms)];
}
