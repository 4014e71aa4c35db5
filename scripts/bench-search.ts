// The search section of `npm run bench` (issue 7): searchCode against ripgrep
// on the same files, side by side, warm, repeated, alternating the two sides:
//   - on a ~500-file repository (rxjs's sources and its operators' declarations);
//   - on a corpus of more than 200 MB of text: the text files of this
//     project's node_modules (packages installed from npm) copied into several
//     repositories, each copy's files ending with a line naming the copy (the
//     registry stores a text once, and identical copies would be stored once);
// plus index build time and registry growth per MB of text, and what the
// search index adds to `sextant index` (on rxjs, with its real indexer).
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync, cpSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Database from 'better-sqlite3';
import { rgPath } from '@vscode/ripgrep';
import { npmPackage } from '../test/support/corpus.js';
import { PROJECT_ROOT, SEXTANT_BIN } from '../test/support/paths.js';
import { searchOnlyEnv } from '../test/support/ripgrep.js';
import { gitRepoFrom, removeDir, tempDir } from '../test/support/repos.js';

export const SEARCH_TARGETS = { small_median_ratio: 0.5, large_median_ratio: 0.2, index_added: 0.15 };
const LARGE_BYTES = 200 * 2 ** 20;
const MAX_TEXT_BYTES = 2 ** 20;
const TEXT_FILE = /\.(c?js|mjs|d\.ts|ts|mts|cts|json|md|py|txt)$/;

interface Query {
  query: string;
  regex?: boolean;
  case_sensitive?: boolean;
}

/** Queries an agent types: identifiers, phrases, regexes with and without literals. */
const SMALL_QUERIES: Query[] = [
  { query: 'subscribe' },
  { query: 'mergeMap' },
  { query: 'Observable', case_sensitive: true },
  { query: 'export function' },
  { query: 'this._' },
  { query: 'isFunction' },
  { query: '@deprecated' },
  { query: 'SchedulerLike' },
  { query: 'function\\s+\\w+\\(', regex: true },
  { query: 'export (class|interface) \\w+', regex: true },
  { query: 'switchMap|concatMap', regex: true },
  { query: 'catch\\s*\\(', regex: true },
  { query: '[A-Z]{5,}', regex: true, case_sensitive: true },
];

const LARGE_QUERIES: Query[] = [
  { query: 'createRequire' },
  { query: 'readFileSync' },
  { query: 'EventEmitter', case_sensitive: true },
  { query: 'hasOwnProperty' },
  { query: 'sourceMappingURL' },
  { query: 'Symbol.asyncIterator' },
  { query: 'TODO' },
  { query: 'class \\w+Error extends', regex: true },
  { query: 'function \\w+Async\\(', regex: true },
  { query: 'import\\(["\']node:', regex: true },
];

export interface LatencySummary {
  p50_ms: number;
  p99_ms: number;
  mean_results: number;
}

export interface SearchComparison {
  corpus: string;
  repos: number;
  files: number;
  text_mb: number;
  queries: number;
  rounds: number;
  sextant: LatencySummary;
  ripgrep: LatencySummary;
  /** Median of per-query ratios of medians (sextant / ripgrep). */
  median_ratio: number;
  per_query: { query: string; sextant_ms: number; ripgrep_ms: number; sextant_total: number; ripgrep_lines: number; truncated: boolean }[];
  index: {
    wall_s: number;
    search_index_s: number;
    registry_mb: number;
    registry_mb_per_text_mb: number;
    text_index_mb_per_text_mb: number | null;
  };
}

export interface SearchSection {
  small: SearchComparison;
  large: SearchComparison;
  index_added: { repo: string; index_wall_s: number; search_index_s: number; fraction: number };
  seconds: number;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

const r2 = (x: number) => Number(x.toFixed(2));

function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms: performance.now() - started,
      }),
    );
  });
}

function env(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, SEXTANT_HOME: home, ...extra };
  delete e.SEXTANT_REGISTRY;
  delete e.NODE_OPTIONS;
  return e;
}

/** rxjs's sources and its operators' type declarations (495 files) as one repository. */
function smallRepo(): string {
  const pkg = npmPackage('rxjs', '7.8.2');
  const staging = tempDir('sextant-bench-search-');
  for (const entry of ['src', 'dist/types/internal/operators', 'package.json'])
    cpSync(join(pkg, entry), join(staging, entry), { recursive: true });
  try {
    return gitRepoFrom(staging, 'rxjs-500');
  } finally {
    removeDir(staging);
  }
}

function isText(file: string, size: number): boolean {
  if (size === 0 || size > MAX_TEXT_BYTES) return false;
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(Math.min(size, 8000));
    readSync(fd, head, 0, head.length, 0);
    return !head.includes(0);
  } finally {
    closeSync(fd);
  }
}

/** The text files of node_modules, copied into repositories until they hold more than 200 MB. */
function largeRepos(): { roots: string[]; files: number; bytes: number } {
  const source = join(PROJECT_ROOT, 'node_modules');
  const files: string[] = [];
  let unit = 0;
  for (const entry of readdirSync(source, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !TEXT_FILE.test(entry.name)) continue;
    const file = join(entry.parentPath ?? entry.path, entry.name);
    const rel = relative(source, file);
    if (rel.startsWith('.cache') || rel.includes('/.')) continue;
    const size = statSync(file).size;
    if (!isText(file, size)) continue;
    files.push(rel);
    unit += size;
  }
  const copies = Math.ceil(LARGE_BYTES / unit);
  const roots: string[] = [];
  let bytes = 0;
  for (let k = 1; k <= copies; k++) {
    const staging = tempDir('sextant-bench-large-');
    for (const rel of files) {
      const text = readFileSync(join(source, rel));
      const target = join(staging, 'packages', rel);
      mkdirSync(join(target, '..'), { recursive: true });
      const trailer = Buffer.from(`${text.at(-1) === 0x0a ? '' : '\n'}// copy ${k}\n`);
      writeFileSync(target, Buffer.concat([text, trailer]));
      bytes += text.length + trailer.length;
    }
    roots.push(gitRepoFrom(staging, `corpus-${k}`));
    removeDir(staging);
  }
  return { roots, files: files.length * copies, bytes };
}

async function indexAll(roots: string[], home: string, extra: Record<string, string>): Promise<{ wallMs: number; searchIndexMs: number }> {
  let wallMs = 0;
  let searchIndexMs = 0;
  for (const root of roots) {
    const r = await run(process.execPath, [SEXTANT_BIN, 'index', root, '--json'], { env: env(home, extra) });
    if (r.code !== 0) throw new Error(`sextant index ${root} failed: ${r.stderr.trim().split('\n').pop()}`);
    wallMs += r.ms;
    searchIndexMs += (JSON.parse(r.stdout) as { search_index_ms: number }).search_index_ms;
  }
  return { wallMs, searchIndexMs };
}

function registryFacts(home: string): { bytes: number; textIndexBytes: number | null } {
  const file = join(home, 'registry.db');
  const db = new Database(file, { readonly: true });
  try {
    let textIndexBytes: number | null = null;
    try {
      const row = db.prepare("select sum(pgsize) as b from dbstat where name like 'search_%'").get() as { b: number | null };
      textIndexBytes = row.b ?? 0;
    } catch {
      textIndexBytes = null;
    }
    const bytes = statSync(file).size;
    return { bytes, textIndexBytes };
  } finally {
    db.close();
  }
}

async function compare(
  name: string,
  roots: string[],
  bytes: number,
  files: number,
  queries: Query[],
  rounds: number,
  home: string,
  progress: (m: string) => void,
): Promise<SearchComparison> {
  progress(`${name}: indexing ${roots.length} repositories…`);
  const indexed = await indexAll(roots, home, searchOnlyEnv());
  const facts = registryFacts(home);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SEXTANT_BIN, 'mcp'],
    env: env(home) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'sextant-bench', version: '0' });
  await client.connect(transport);
  await client.listTools();
  const sextantMs = queries.map(() => [] as number[]);
  const rgMs = queries.map(() => [] as number[]);
  const totals: number[] = [];
  const truncated: boolean[] = [];
  const rgLines: number[] = [];
  const sextantQuery = async (q: Query) => {
    const started = performance.now();
    const r = await client.callTool({ name: 'searchCode', arguments: { ...q } });
    const ms = performance.now() - started;
    if (r.isError) throw new Error(`searchCode ${JSON.stringify(q)} failed: ${JSON.stringify(r.structuredContent)}`);
    return { ms, result: r.structuredContent as { total: number; truncated: boolean } };
  };
  // ripgrep over the same tracked files: every file of these repositories is tracked, and hidden ones (.git) are skipped.
  const rgQuery = async (q: Query) => {
    const args = [
      '--no-config',
      '--no-ignore',
      '--line-number',
      '--no-heading',
      '--color=never',
      q.case_sensitive ? '--case-sensitive' : '--ignore-case',
    ];
    if (!q.regex) args.push('--fixed-strings');
    const r = await run(rgPath, [...args, '-e', q.query, '--', ...roots]);
    if (r.code !== 0 && r.code !== 1) throw new Error(`rg failed: ${r.stderr}`);
    return { ms: r.ms, lines: r.stdout ? r.stdout.split('\n').length - 1 : 0 };
  };
  try {
    // Warm-up: page cache, prepared statements, JIT.
    for (const q of queries) {
      const s = await sextantQuery(q);
      totals.push(s.result.total);
      truncated.push(s.result.truncated);
      rgLines.push((await rgQuery(q)).lines);
    }
    for (let round = 0; round < rounds; round++) {
      progress(`${name}: round ${round + 1} of ${rounds}…`);
      for (const [i, q] of queries.entries()) {
        // Alternate which side goes first.
        if ((round + i) % 2 === 0) {
          sextantMs[i]!.push((await sextantQuery(q)).ms);
          rgMs[i]!.push((await rgQuery(q)).ms);
        } else {
          rgMs[i]!.push((await rgQuery(q)).ms);
          sextantMs[i]!.push((await sextantQuery(q)).ms);
        }
      }
    }
  } finally {
    await client.close();
  }
  const all = (xs: number[][]) => xs.flat();
  const textMb = bytes / 2 ** 20;
  return {
    corpus: name,
    repos: roots.length,
    files,
    text_mb: r2(textMb),
    queries: queries.length,
    rounds,
    sextant: {
      p50_ms: r2(median(all(sextantMs))),
      p99_ms: r2(percentile(all(sextantMs), 99)),
      mean_results: r2(totals.reduce((a, b) => a + b, 0) / totals.length),
    },
    ripgrep: {
      p50_ms: r2(median(all(rgMs))),
      p99_ms: r2(percentile(all(rgMs), 99)),
      mean_results: r2(rgLines.reduce((a, b) => a + b, 0) / rgLines.length),
    },
    median_ratio: Number(median(queries.map((_, i) => median(sextantMs[i]!) / median(rgMs[i]!))).toFixed(4)),
    per_query: queries.map((q, i) => ({
      query: `${q.regex ? 're:' : ''}${q.query}${q.case_sensitive ? ' (case)' : ''}`,
      sextant_ms: r2(median(sextantMs[i]!)),
      ripgrep_ms: r2(median(rgMs[i]!)),
      sextant_total: totals[i]!,
      ripgrep_lines: rgLines[i]!,
      truncated: truncated[i]!,
    })),
    index: {
      wall_s: r2(indexed.wallMs / 1000),
      search_index_s: r2(indexed.searchIndexMs / 1000),
      registry_mb: r2(facts.bytes / 2 ** 20),
      registry_mb_per_text_mb: r2(facts.bytes / bytes),
      text_index_mb_per_text_mb: facts.textIndexBytes === null ? null : r2(facts.textIndexBytes / bytes),
    },
  };
}

/** `sextant index` on rxjs with its real indexer: the share of the run spent adding texts to the search index. */
async function indexAdded(home: string): Promise<SearchSection['index_added']> {
  const pkg = npmPackage('rxjs', '7.8.2');
  const staging = tempDir('sextant-bench-rxjs-');
  for (const entry of ['src', 'tsconfig.json', 'package.json']) cpSync(join(pkg, entry), join(staging, entry), { recursive: true });
  const root = gitRepoFrom(staging, 'rxjs');
  removeDir(staging);
  try {
    const r = await indexAll([root], home, {});
    return {
      repo: 'rxjs@7.8.2 src (scip-typescript)',
      index_wall_s: r2(r.wallMs / 1000),
      search_index_s: r2(r.searchIndexMs / 1000),
      fraction: r2((r.searchIndexMs / r.wallMs) * 1000) / 1000,
    };
  } finally {
    removeDir(join(root, '..'));
  }
}

export async function benchSearch(rounds: number, progress: (m: string) => void): Promise<SearchSection> {
  const started = performance.now();
  const homes: string[] = [];
  const owned: string[] = [];
  const home = () => {
    const h = tempDir('sextant-bench-search-home-');
    homes.push(h);
    return h;
  };
  try {
    progress('search: preparing the ~500-file repository…');
    const small = smallRepo();
    owned.push(join(small, '..'));
    const smallFiles = execFileSync('git', ['ls-files', '-z'], { cwd: small, encoding: 'utf8' }).split('\0').filter(Boolean);
    const smallBytes = smallFiles.reduce((n, f) => n + statSync(join(small, f)).size, 0);
    const smallSection = await compare(
      'rxjs@7.8.2 src + operator declarations',
      [small],
      smallBytes,
      smallFiles.length,
      SMALL_QUERIES,
      rounds,
      home(),
      progress,
    );
    progress('search: building the 200 MB corpus…');
    const large = largeRepos();
    owned.push(...large.roots.map((r) => join(r, '..')));
    const largeSection = await compare(
      'node_modules text files, copied',
      large.roots,
      large.bytes,
      large.files,
      LARGE_QUERIES,
      Math.max(3, Math.min(rounds, 5)),
      home(),
      progress,
    );
    progress('search: sextant index on rxjs with scip-typescript…');
    const added = await indexAdded(home());
    return { small: smallSection, large: largeSection, index_added: added, seconds: r2((performance.now() - started) / 1000) };
  } finally {
    for (const dir of [...owned, ...homes]) removeDir(dir);
  }
}

export function searchTargets(s: SearchSection) {
  return {
    search_small_median_ratio: {
      value: s.small.median_ratio,
      target: `<= ${SEARCH_TARGETS.small_median_ratio}`,
      met: s.small.median_ratio <= SEARCH_TARGETS.small_median_ratio,
    },
    search_large_median_ratio: {
      value: s.large.median_ratio,
      target: `<= ${SEARCH_TARGETS.large_median_ratio}`,
      met: s.large.median_ratio <= SEARCH_TARGETS.large_median_ratio,
    },
    search_index_added: {
      value: s.index_added.fraction,
      target: `<= ${SEARCH_TARGETS.index_added}`,
      met: s.index_added.fraction <= SEARCH_TARGETS.index_added,
    },
  };
}

export function printSearch(
  s: SearchSection,
  print: (line?: string) => void,
  table: (rows: (string | number)[][], header: string[]) => string,
): void {
  print('(s) code search: searchCode (MCP client round trip, warm server) vs ripgrep (spawned) on the same files, alternating, medians');
  for (const c of [s.small, s.large]) {
    print(
      `  ${c.corpus}: ${c.repos} repositories, ${c.files.toLocaleString('en-US')} files, ${c.text_mb} MB of text; ${c.queries} queries x ${c.rounds} rounds after a warm-up`,
    );
    print(
      table(
        [
          ...c.per_query.map((q) => [
            q.query,
            q.sextant_ms,
            q.ripgrep_ms,
            r2(q.sextant_ms / q.ripgrep_ms),
            `${q.sextant_total}${q.truncated ? ' (truncated)' : ''}`,
            q.ripgrep_lines,
          ]),
          ['all queries p50', c.sextant.p50_ms, c.ripgrep.p50_ms, '', '', ''],
          ['all queries p99', c.sextant.p99_ms, c.ripgrep.p99_ms, '', '', ''],
        ],
        ['query', 'sextant ms', 'rg ms', 'ratio', 'sextant matches', 'rg lines'],
      ),
    );
    print(`  median of per-query ratios ${c.median_ratio}`);
    print(
      `  index (search-only): ${c.index.wall_s} s for ${c.text_mb} MB (${r2(c.text_mb / c.index.wall_s)} MB/s), of which adding to the text index ${c.index.search_index_s} s; ` +
        `registry ${c.index.registry_mb} MB = ${c.index.registry_mb_per_text_mb} MB per MB of text (text index alone ${c.index.text_index_mb_per_text_mb ?? '?'} MB per MB)`,
    );
  }
  const a = s.index_added;
  print(
    `  sextant index on ${a.repo}: ${a.index_wall_s} s, of which adding texts to the search index ${a.search_index_s} s (${r2(a.fraction * 100)}%)`,
  );
  print(`  section (s) took ${s.seconds.toFixed(0)} s`);
}
