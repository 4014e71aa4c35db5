// The scale section of `npm run bench` (issue 9, "bench on both engines"):
// registries of about 1M and 5M occurrences on SQLite (a file) and on
// Postgres (a fresh database each), side by side in one run.
//
// scip-typescript indexes rxjs once; the index is then replicated into one
// SCIP file of N copies, each copy's documents under copyK/ and its symbols
// in package rxjs-copyK, so symbols stay distinct and every copy answers on
// its own (the largest document is the same at every size). Each file goes
// through the real ingest: `sextant publish` (no --root: navigation only),
// one process per publish, its peak RSS read by scripts/rss-probe.ts (the
// median of several publishes: a peak moves with when V8 collects). Warm
// latency is measured in process through Navigation (the query layer every
// adapter calls), not through MCP: the figures are the registry's, not the
// transport's.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import protobuf from 'protobufjs';
import { rxjsRepo } from '../test/support/corpus.js';
import { PROJECT_ROOT, SEXTANT_BIN } from '../test/support/paths.js';
import { removeDir, tempDir } from '../test/support/repos.js';
import { prng, shuffle } from '../test/support/stats.js';
import { readIndexFields } from '../src/scip/stream.js';
import { openRegistry } from '../src/registry/open.js';
import { Navigation } from '../src/navigation/index.js';
import type { ScipDocument } from '../src/scip/schema.js';
import { decodeMs } from './bench-publish.js';

type Table = (rows: (string | number)[][], header: string[]) => string;

export const SCALES = ['1m', '5m'] as const;
export type Scale = (typeof SCALES)[number];

const TARGETS = { def_p99_ms: 5, refs_p99_ms: 10, rss_ratio: 1.25, rss_at_5m_mb: 400 } as const;
/** Positions sampled per registry, and the cap on references per answer. */
const SAMPLE = 300;
const REFS_LIMIT = 200;
const ENGINES = ['sqlite', 'postgres'] as const;
type EngineName = (typeof ENGINES)[number];

const PROBE = fileURLToPath(new URL('./rss-probe.js', import.meta.url));
const POSTGRES_BASE = process.env.SEXTANT_TEST_POSTGRES_URL ?? 'postgres://sextant_test:sextant_test@127.0.0.1:5432/postgres';

function psql(url: string, command: string): string {
  const r = spawnSync('psql', [url, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', command], { encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(`psql failed (${r.status}): ${r.stderr || r.error?.message}; is Postgres running (bash .ci/postgres)?`);
  return r.stdout.trim();
}

function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_BASE);
  url.pathname = `/${name}`;
  return url.toString();
}

// ---------------------------------------------------------------------------
// Replication

interface Shape {
  occurrences: number;
  documents: number;
  largestDocumentBytes: number;
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** One length-delimited field of the Index message. */
function field(fd: number, number: number, bytes: Uint8Array): void {
  writeSync(fd, Buffer.from([...varint((number << 3) | 2), ...varint(bytes.length)]));
  writeSync(fd, bytes);
}

/**
 * Writes `copies` copies of the raw index into `out`: the metadata once, copy 0
 * as indexed, copy K's paths under copyK/ and its package renamed rxjs-copyK.
 */
async function replicate(raw: string, copies: number, out: string): Promise<void> {
  const documentType = protobuf.loadSync(join(PROJECT_ROOT, 'proto', 'scip.proto')).lookupType('scip.Document');
  const fd = openSync(out, 'w');
  try {
    const documents: Uint8Array[] = [];
    for await (const f of readIndexFields(raw)) {
      if (f.field === 2) documents.push(f.bytes);
      else field(fd, f.field, f.bytes);
    }
    for (let k = 0; k < copies; k++) {
      for (const bytes of documents) {
        if (k === 0) {
          field(fd, 2, bytes);
          continue;
        }
        const d = documentType.decode(bytes) as unknown as ScipDocument;
        const rename = (s: string) => s.replace(' npm rxjs 7.8.2 ', ` npm rxjs-copy${k} 7.8.2 `);
        d.relativePath = `copy${k}/${d.relativePath}`;
        for (const o of d.occurrences) o.symbol = rename(o.symbol);
        for (const s of d.symbols) {
          s.symbol = rename(s.symbol);
          s.enclosingSymbol = rename(s.enclosingSymbol ?? '');
          for (const r of s.relationships) r.symbol = rename(r.symbol);
        }
        field(fd, 2, documentType.encode(d as never).finish());
      }
    }
  } finally {
    closeSync(fd);
  }
}

interface Position {
  path: string;
  line: number;
  column: number;
}

/** The raw index's shape, and every occurrence position of a named symbol in it. */
async function readShape(raw: string): Promise<{ shape: Shape; positions: Position[] }> {
  const { decodeDocument } = await import('../src/scip/decode.js');
  const shape: Shape = { occurrences: 0, documents: 0, largestDocumentBytes: 0 };
  const positions: Position[] = [];
  for await (const f of readIndexFields(raw)) {
    if (f.field !== 2) continue;
    const d = decodeDocument(f.bytes);
    shape.documents++;
    shape.occurrences += d.occurrences.length;
    shape.largestDocumentBytes = Math.max(shape.largestDocumentBytes, f.bytes.length);
    for (const o of d.occurrences) {
      if (o.symbol && o.range.length >= 3) positions.push({ path: d.relativePath, line: o.range[0]! + 1, column: o.range[1]! + 1 });
    }
  }
  return { shape, positions };
}

// ---------------------------------------------------------------------------
// Publish, decode, measure

interface Published {
  ms: number;
  peakRssMb: number;
}

function publish(file: string, registry: string, commit: string, probeDir: string): Published {
  const probeFile = join(probeDir, `probe-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const args = ['--import', pathToFileURL(PROBE).href, SEXTANT_BIN, 'publish', file, '--repo', 'rxjs', '--commit', commit, '--json'];
  const started = performance.now();
  const r = spawnSync(process.execPath, args, {
    env: { ...process.env, SEXTANT_HOME: probeDir, SEXTANT_REGISTRY: registry, SEXTANT_BENCH_PROBE_FILE: probeFile },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`sextant publish failed: ${r.stderr}`);
  const probe = JSON.parse(readFileSync(probeFile, 'utf8')) as { maxRssKb: number };
  return { ms, peakRssMb: probe.maxRssKb / 1024 };
}

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

interface Latency {
  def_p50_ms: number;
  def_p99_ms: number;
  /** Over the positions whose symbol has at most REFS_LIMIT references (the target's). */
  refs_p50_ms: number;
  refs_p99_ms: number;
  refs_positions: number;
  /** Over every position, the answer capped at REFS_LIMIT: symbols of the standard library are shared by every copy. */
  refs_all_p99_ms: number;
  found: number;
  positions: number;
  /**
   * p99 of a fixed piece of work (hashing 64 KB, about a warm lookup's time)
   * timed between the requests: what the machine's load alone adds to a tail.
   */
  floor_p99_ms: number;
  /**
   * Time V8 spent collecting garbage during the timed pass, per 1000
   * requests (definitions and references together): what answers of
   * thousands of rows leave for the small ones after them to pay.
   */
  gc_ms_per_1000: number;
}

const FLOOR_WORK = Buffer.alloc(64 << 10, 1);

/**
 * Warm latency: a pass over one set of positions to warm up, then a timed
 * pass over others, each asked once: lookups keep what they read, and timing
 * positions already asked would time those caches, not a new question.
 */
async function latency(registry: string, warmup: readonly Position[], positions: readonly Position[]): Promise<Latency> {
  const engine = await openRegistry({ registry });
  try {
    const nav = new Navigation(engine);
    const def = (p: Position) => nav.goToDefinition({ repo: 'rxjs', ...p } as never);
    const refs = (p: Position) => nav.findReferences({ repo: 'rxjs', ...p, include_declaration: true, limit: REFS_LIMIT } as never);
    for (const p of warmup) {
      await def(p);
      await refs(p);
    }
    const defMs: number[] = [];
    const refsMs: number[] = [];
    const smallRefsMs: number[] = [];
    const floorMs: number[] = [];
    let found = 0;
    let gcMs = 0;
    const gc = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) gcMs += e.duration;
    });
    gc.observe({ entryTypes: ['gc'] });
    for (const p of positions) {
      let t = performance.now();
      createHash('sha256').update(FLOOR_WORK).digest();
      floorMs.push(performance.now() - t);
      t = performance.now();
      const d = await def(p);
      defMs.push(performance.now() - t);
      if (d.found) found++;
      t = performance.now();
      const answer = await refs(p);
      const ms = performance.now() - t;
      refsMs.push(ms);
      if (answer.total <= REFS_LIMIT) smallRefsMs.push(ms);
    }
    // Entries are delivered after the pass: let the observer see the last ones.
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc.disconnect();
    const r = (x: number) => Math.round(x * 100) / 100;
    return {
      def_p50_ms: r(percentile(defMs, 50)),
      def_p99_ms: r(percentile(defMs, 99)),
      refs_p50_ms: r(percentile(smallRefsMs, 50)),
      refs_p99_ms: r(percentile(smallRefsMs, 99)),
      refs_positions: smallRefsMs.length,
      refs_all_p99_ms: r(percentile(refsMs, 99)),
      found,
      positions: positions.length,
      floor_p99_ms: r(percentile(floorMs, 99)),
      gc_ms_per_1000: r((gcMs / (2 * positions.length)) * 1000),
    };
  } finally {
    await engine.close();
  }
}

/** The registry's size on disk: the SQLite file with its WAL, or the Postgres database. */
function registryBytes(engine: EngineName, registry: string): number {
  if (engine === 'postgres') return Number(psql(registry, 'select pg_database_size(current_database())'));
  return [registry, `${registry}-wal`].filter((f) => existsSync(f)).reduce((n, f) => n + statSync(f).size, 0);
}

// ---------------------------------------------------------------------------

interface Point {
  engine: EngineName;
  label: string;
  copies: number;
  occurrences: number;
  scip_mb: number;
  publish_ms: number;
  decode_ms: number;
  publish_over_decode: number;
  peak_rss_mb: number;
  bytes_per_occurrence: number;
  latency: Latency | null;
}

/** Publishes per registry size and engine unless --runs says otherwise: a peak RSS moves with when V8 collects. */
export const SCALE_RUNS = 3;

export async function benchScale(
  scale: Scale,
  runs: number,
  json: boolean,
  progress: (message: string) => void,
  table: Table,
): Promise<void> {
  const started = performance.now();
  // Not named sextant-*: the run takes a quarter of an hour, and cleanups of other runs sweep /tmp/sextant-*.
  const work = tempDir('bench-scale-');
  const databases: string[] = [];
  const root = rxjsRepo();
  try {
    progress('(scale) scip-typescript on rxjs…');
    const raw = join(work, 'rxjs.scip');
    execFileSync(
      join(PROJECT_ROOT, 'node_modules', '.bin', 'scip-typescript'),
      ['index', '--cwd', root, '--output', raw, '--no-progress-bar'],
      {
        cwd: root,
        stdio: 'ignore',
      },
    );
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const { shape, positions: rawPositions } = await readShape(raw);
    // One unit of the shape is about 5M / 16 occurrences: x4 is the ~1M registry, x16 the ~5M one.
    const unit = Math.max(1, Math.round(5_000_000 / 16 / shape.occurrences));
    const multiples = scale === '1m' ? [1, 4] : [1, 4, 16];
    const baseline: Record<EngineName, number> = { sqlite: 0, postgres: 0 };
    const registryFor = async (engine: EngineName, label: string): Promise<string> => {
      if (engine === 'sqlite') return join(work, `registry-${label}.db`);
      const name = `sextant_bench_scale_${process.pid}_${label}`;
      psql(POSTGRES_BASE, `drop database if exists ${name} with (force)`);
      psql(POSTGRES_BASE, `create database ${name} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`);
      databases.push(name);
      return databaseUrl(name);
    };
    // An empty, migrated registry's size, taken off each figure of bytes per occurrence.
    for (const engine of ENGINES) {
      const registry = await registryFor(engine, 'empty');
      await (await openRegistry({ registry })).close();
      baseline[engine] = registryBytes(engine, registry);
    }
    const points: Point[] = [];
    for (const m of multiples) {
      const copies = m * unit;
      const occurrences = copies * shape.occurrences;
      const label = `x${m}`;
      progress(`(scale) replicating rxjs x${copies} (${(occurrences / 1e6).toFixed(2)}M occurrences)…`);
      const file = join(work, `rxjs-${label}.scip`);
      await replicate(raw, copies, file);
      // Positions in copies spread over the whole registry: the first half warms up, the second is timed.
      const pick = prng(m);
      const positions = shuffle(rawPositions, prng(1000 + m))
        .slice(0, 2 * SAMPLE)
        .map((p) => {
          const k = Math.floor(pick() * copies);
          return k === 0 ? p : { ...p, path: `copy${k}/${p.path}` };
        });
      progress(`(scale) ${label}: decoding…`);
      const decode = decodeMs(file);
      for (const engine of ENGINES) {
        // Each run publishes into a fresh registry; the last one is kept for latency and size.
        const runsOf: { ms: number; peakRssMb: number }[] = [];
        let registry = '';
        for (let run = 1; run <= runs; run++) {
          if (engine === 'sqlite' && registry) removeDir(registry);
          registry = await registryFor(engine, label);
          progress(
            `(scale) ${label}: sextant publish into ${engine} (${(occurrences / 1e6).toFixed(2)}M occurrences), run ${run}/${runs}…`,
          );
          runsOf.push(publish(file, registry, commit, work));
        }
        const published = { ms: percentile(runsOf.map((r) => r.ms), 50), peakRssMb: percentile(runsOf.map((r) => r.peakRssMb), 50) };
        // x1 is a point of the memory ratio only; latency is measured on the ~1M and ~5M registries.
        let lat: Latency | null = null;
        if (m > 1) {
          progress(`(scale) ${label}: warm latency on ${engine}…`);
          lat = await latency(registry, positions.slice(0, SAMPLE), positions.slice(SAMPLE));
        }
        points.push({
          engine,
          label,
          copies,
          occurrences,
          scip_mb: Math.round(statSync(file).size / 1e5) / 10,
          publish_ms: Math.round(published.ms),
          decode_ms: Math.round(decode),
          publish_over_decode: Math.round((published.ms / decode) * 10) / 10,
          peak_rss_mb: Math.round(published.peakRssMb),
          bytes_per_occurrence: Math.round((registryBytes(engine, registry) - baseline[engine]) / occurrences),
          latency: lat,
        });
        if (engine === 'sqlite') removeDir(registry);
      }
      removeDir(file);
    }
    const section = summarize(points, shape, unit, scale, runs);
    const load = loadavg();
    if (json) {
      process.stdout.write(
        JSON.stringify({
          only: 'scale',
          scale: section,
          machine: { cpus: cpus().length, load_average: load.map((x) => Math.round(x * 100) / 100) },
          total_seconds: Math.round((performance.now() - started) / 100) / 10,
        }) + '\n',
      );
      return;
    }
    printScale(section, load, table);
  } finally {
    for (const name of databases) {
      try {
        psql(POSTGRES_BASE, `drop database if exists ${name} with (force)`);
      } catch {
        // The server is gone: nothing to drop.
      }
    }
    removeDir(work);
    removeDir(join(root, '..'));
  }
}

interface Verdict {
  value: number | null;
  target: string;
  met: boolean | null;
}

function summarize(points: Point[], shape: Shape, unit: number, scale: Scale, runs: number) {
  const targets: Record<string, Verdict> = {};
  const atMost = (value: number | null | undefined, limit: number, unitName: string): Verdict => ({
    value: value ?? null,
    target: `<= ${limit}${unitName}`,
    met: value === null || value === undefined ? null : value <= limit,
  });
  for (const p of points) {
    if (!p.latency) continue;
    targets[`${p.engine} ${p.label} def p99 (ms)`] = atMost(p.latency.def_p99_ms, TARGETS.def_p99_ms, ' ms');
    targets[`${p.engine} ${p.label} refs p99 (ms)`] = atMost(p.latency.refs_p99_ms, TARGETS.refs_p99_ms, ' ms');
  }
  for (const engine of ENGINES) {
    const mine = points.filter((p) => p.engine === engine);
    const first = mine[0]!;
    const last = mine.at(-1)!;
    targets[`${engine} peak RSS ${last.label} / x1`] = atMost(
      Math.round((last.peak_rss_mb / first.peak_rss_mb) * 100) / 100,
      TARGETS.rss_ratio,
      '',
    );
    if (scale === '5m') targets[`${engine} peak RSS at ${last.label} (MB)`] = atMost(last.peak_rss_mb, TARGETS.rss_at_5m_mb, ' MB');
  }
  return {
    corpus: 'rxjs@7.8.2 (scip-typescript), replicated',
    shape: { ...shape, copies_per_unit: unit },
    latency_via: 'Navigation in process (warm: a pass over other positions, then a timed pass, each position asked once)',
    sample: SAMPLE,
    refs_limit: REFS_LIMIT,
    publish_runs: runs,
    points,
    targets,
  };
}

function printScale(s: ReturnType<typeof summarize>, load: number[], table: Table): void {
  const f = (x: number | undefined) => (x === undefined ? '–' : String(x));
  const lines = [
    `sextant bench — section scale alone (--only scale); ${cpus().length} CPUs, load ${load.map((x) => x.toFixed(1)).join(' ')}`,
    `${s.corpus}: ${s.shape.occurrences} occurrences, ${s.shape.documents} documents, largest document ${s.shape.largestDocumentBytes} bytes; ` +
      `x1 = ${s.shape.copies_per_unit} copies; latency ${s.latency_via}, ${s.sample} positions, references limit ${s.refs_limit}`,
    `refs p50/p99: the positions whose answer has at most ${s.refs_limit} references (the target's; refs n counts them); refs p99 all: every position, ` +
      `answers capped at ${s.refs_limit} (symbols of TypeScript's lib are shared by every copy: their count grows with the registry); ` +
      "floor p99: hashing 64 KB (a warm lookup's time) timed between the requests, what the load alone adds to a tail; " +
      'GC ms/1000: time spent collecting garbage in the timed pass, per 1000 requests; ' +
      `publish RSS MB and publish ms: medians of ${s.publish_runs} publishes into fresh registries`,
    table(
      s.points.map((p) => [
        p.engine,
        p.label,
        `${(p.occurrences / 1e6).toFixed(2)}M`,
        f(p.latency?.def_p50_ms),
        f(p.latency?.def_p99_ms),
        p.latency ? `${p.latency.refs_positions}/${p.latency.positions}` : '–',
        f(p.latency?.refs_p50_ms),
        f(p.latency?.refs_p99_ms),
        f(p.latency?.refs_all_p99_ms),
        f(p.latency?.floor_p99_ms),
        f(p.latency?.gc_ms_per_1000),
        p.peak_rss_mb,
        p.bytes_per_occurrence,
        p.publish_ms,
        p.publish_over_decode,
      ]),
      [
        'engine',
        'scale',
        'occurrences',
        'def p50',
        'def p99',
        'refs n',
        'refs p50',
        'refs p99',
        'refs p99 all',
        'floor p99',
        'GC ms/1000',
        'publish RSS MB',
        'bytes/occ',
        'publish ms',
        '÷ decode',
      ],
    ),
    table(
      Object.entries(s.targets).map(([k, t]) => [
        k,
        t.value === null ? '–' : String(t.value),
        t.target,
        t.met === null ? '–' : t.met ? 'met' : 'MISSED',
      ]),
      ['', 'value', 'target', ''],
    ),
  ];
  process.stdout.write(lines.join('\n') + '\n');
}
