// Two sections of `npm run bench` for issue 11, each run alone:
//   --only fuzz      10,000+ generated tool calls (the generator of
//                    test/fuzz.test.ts) and malformed frames against a small
//                    indexed repository: violations (0 expected), calls/s and
//                    the outcomes (ok / tool error / protocol error);
//   --only envelope  what the envelope's instruction-signal scan costs a warm
//                    query: real answers from rxjs (goToDefinition,
//                    findReferences, workspaceSymbols, searchCode with previews
//                    and context), then buildMeta timed on each many times.
// SEXTANT_FUZZ_SEED sets the seed of the fuzz run (default: the current time, printed).
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { buildMeta } from '../src/trust/envelope.js';
import { rxjsRepo } from '../test/support/corpus.js';
import { formatViolation, fuzzFrames, fuzzTarget, fuzzTools, type FuzzReport } from '../test/support/fuzz-run.js';
import { removeDir } from '../test/support/repos.js';
import { indexOrThrow, mcpSession, testHome } from '../test/support/sextant.js';

const FUZZ_CALLS = 10_000;
const FUZZ_FRAMES = 2_000;
const FUZZ_SERVERS = 2;
/** The bound on what the scan may add to a warm query's p50. */
const SCAN_P50_TARGET_MS = 0.1;

export async function benchFuzzOnly(section: 'fuzz' | 'envelope', json: boolean): Promise<void> {
  const started = performance.now();
  const result = section === 'fuzz' ? await benchFuzz() : await benchEnvelope();
  const machine = { cpus: cpus().length, node: process.version, load_average_1m: Math.round(loadavg()[0]! * 100) / 100 };
  const total_seconds = Math.round((performance.now() - started) / 100) / 10;
  if (json) {
    process.stdout.write(JSON.stringify({ only: section, machine, [section]: result, total_seconds }) + '\n');
    return;
  }
  const lines = [
    `sextant bench — ${section} alone (--only ${section}); ${machine.cpus} CPUs, node ${machine.node}, load ${machine.load_average_1m}`,
    '',
  ];
  if (section === 'fuzz') printFuzz(result as FuzzSection, lines);
  else printEnvelope(result as EnvelopeSection, lines);
  lines.push('', `total ${total_seconds.toFixed(0)} s`);
  process.stdout.write(lines.join('\n') + '\n');
  if (section === 'fuzz' && (result as FuzzSection).violations > 0) process.exitCode = 1;
}

interface FuzzSection {
  seed: number;
  tools: Omit<FuzzReport, 'violations'> & { calls_per_s: number };
  frames: Omit<FuzzReport, 'violations'> & { calls_per_s: number };
  violations: number;
  examples: string[];
}

async function benchFuzz(): Promise<FuzzSection> {
  const seed = process.env.SEXTANT_FUZZ_SEED ? Number(process.env.SEXTANT_FUZZ_SEED) : Date.now() % 2 ** 31;
  if (!Number.isInteger(seed)) throw new Error('SEXTANT_FUZZ_SEED must be an integer');
  const target = fuzzTarget();
  try {
    const tools = await fuzzTools(target, seed, FUZZ_CALLS, FUZZ_SERVERS);
    const frames = await fuzzFrames(target, seed, FUZZ_FRAMES);
    const strip = ({ violations: _v, ...r }: FuzzReport) => ({ ...r, calls_per_s: Math.round((r.calls / r.seconds) * 10) / 10 });
    const all = [...tools.violations, ...frames.violations];
    return { seed, tools: strip(tools), frames: strip(frames), violations: all.length, examples: all.slice(0, 20).map(formatViolation) };
  } finally {
    target.cleanup();
  }
}

function printFuzz(f: FuzzSection, lines: string[]): void {
  lines.push(`fuzzing (seed ${f.seed}; replay with SEXTANT_FUZZ_SEED=${f.seed})`);
  for (const [what, r] of [
    [`tool calls (SDK client, output schemas checked, ${FUZZ_SERVERS} servers)`, f.tools],
    ['raw stdio frames', f.frames],
  ] as const) {
    const o = r.outcomes;
    lines.push(
      `  ${what}: ${r.calls} calls in ${r.seconds.toFixed(1)} s = ${r.calls_per_s} calls/s; ` +
        `ok ${o.ok}, tool error ${o.tool_error}, protocol error ${o.protocol_error}, no reply (notification) ${o.no_reply}; ` +
        `ms p50 ${r.latency.p50}, p99 ${r.latency.p99}, max ${r.latency.max}`,
    );
    for (const s of r.slowest.slice(0, 3)) lines.push(`    slow: ${s.ms} ms ${s.tool} (${s.shape}) ${s.args.slice(0, 120)}`);
  }
  lines.push(`  violations: ${f.violations} (0 expected)`);
  for (const e of f.examples) lines.push(`    ${e}`);
}

interface EnvelopeRow {
  answer: string;
  bytes: number;
  scanned_bytes: number;
  /** The whole warm query through the MCP client, for scale (median of 10). */
  query_p50_ms: number;
  /** buildMeta's first run on the answer in this process: its lines not yet in the line cache (one sample). */
  first_ms: number;
  p50_ms: number;
  p99_ms: number;
}

interface EnvelopeSection {
  repo: string;
  rounds: number;
  rows: EnvelopeRow[];
  target_p50_ms: number;
  /** Typical answers (the defaults of each tool) within the target. */
  met: boolean;
}

async function benchEnvelope(): Promise<EnvelopeSection> {
  const { home, env } = testHome();
  const root = rxjsRepo();
  try {
    indexOrThrow(root, env);
    const session = await mcpSession(env);
    const answers: [string, Record<string, unknown>, boolean, number][] = [];
    const ask = async (label: string, tool: string, args: Record<string, unknown>, typical = true) => {
      const { meta: _meta, ...answer } = await session.ok(tool, { repo: 'rxjs', ...args });
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        await session.ok(tool, { repo: 'rxjs', ...args });
        times.push(performance.now() - t0);
      }
      answers.push([label, answer, typical, Math.round(times.sort((a, b) => a - b)[5]! * 100) / 100]);
    };
    try {
      for (const symbol of ['map', 'Observable', 'mergeMap', 'Subscription'])
        await ask(`goToDefinition ${symbol}`, 'goToDefinition', { symbol });
      await ask('findReferences pipe (default limit)', 'findReferences', { symbol: 'pipe' });
      await ask('findReferences Observable (default limit)', 'findReferences', { symbol: 'Observable' });
      await ask('workspaceSymbols map (default limit)', 'workspaceSymbols', { query: 'map' });
      await ask('searchCode subscribe (default limit)', 'searchCode', { query: 'subscribe' });
      await ask('searchCode subscribe, context 3', 'searchCode', { query: 'subscribe', context: 3 }, false);
      await ask('findReferences Observable, limit 2000', 'findReferences', { symbol: 'Observable', limit: 2000 }, false);
      await ask('searchCode return, limit 2000, context 10', 'searchCode', { query: 'return', limit: 2000, context: 10 }, false);
    } finally {
      await session.close();
    }
    const rounds = 2000;
    const rows: EnvelopeRow[] = [];
    for (const [label, answer, , queryMs] of answers) {
      const n = Buffer.byteLength(JSON.stringify(answer)) > 200_000 ? rounds / 20 : rounds;
      const t = performance.now();
      buildMeta(answer);
      const first = performance.now() - t;
      for (let i = 0; i < Math.min(50, n); i++) buildMeta(answer); // warm-up
      const times: number[] = [];
      let scanned = 0;
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        scanned = buildMeta(answer).instruction_signals?.scanned_bytes ?? 0;
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 1000) / 1000;
      rows.push({
        answer: label,
        bytes: Buffer.byteLength(JSON.stringify(answer)),
        scanned_bytes: scanned,
        query_p50_ms: queryMs,
        first_ms: Math.round(first * 1000) / 1000,
        p50_ms: at(0.5),
        p99_ms: at(0.99),
      });
    }
    const typical = rows.filter((_, i) => answers[i]![2]);
    return {
      repo: 'rxjs@7.8.2',
      rounds,
      rows,
      target_p50_ms: SCAN_P50_TARGET_MS,
      met: typical.every((r) => r.p50_ms <= SCAN_P50_TARGET_MS),
    };
  } finally {
    removeDir(join(root, '..'));
    removeDir(home);
  }
}

function printEnvelope(e: EnvelopeSection, lines: string[]): void {
  lines.push(`envelope: buildMeta (instruction-signal scan included) on real answers from ${e.repo}, up to ${e.rounds} rounds each`);
  const header = ['answer', 'bytes', 'scanned', 'warm query p50', 'scan first', 'scan p50', 'scan p99'];
  const f = (x: number, digits = 3) => `${x.toFixed(digits)} ms`;
  const rows = e.rows.map((r) => [
    r.answer,
    String(r.bytes),
    String(r.scanned_bytes),
    f(r.query_p50_ms, 1),
    f(r.first_ms),
    f(r.p50_ms),
    f(r.p99_ms),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => '  ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  lines.push(line(header), ...rows.map(line));
  lines.push(
    '  (scan first: the first buildMeta of the answer in this process, its lines not yet in the line cache unless an answer above shared them)',
  );
  lines.push(`  target: p50 <= ${e.target_p50_ms} ms for the answers of default limits: ${e.met ? 'met' : 'NOT met'}`);
}
