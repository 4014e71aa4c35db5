// `npm run bench`: sextant's speed and memory, each measured side by side
// with what it is compared against, in one run, alternating the two sides
// over several repetitions and reporting medians (the machine is noisy, so
// only ratios measured together mean anything).
//
// Sections (a), (b), (c) and issue 3 run on each corpus: zod's sources (one
// tsconfig), and two shapes the tests do not tune for: kysely's ES module
// build (object-literal factories in .js beside .d.ts, no config) and a
// monorepo of packages with tsconfigs of their own (test/support/corpus.ts).
//
//   (a) `sextant index` wall time / the raw indexer's wall time, same repo
//   (b) cold start: spawn `sextant mcp` -> first findReferences answer, against
//       typescript-language-server spawn -> initialize -> didOpen -> first references;
//       then 30 more asked back to back on each side (a client's first burst);
//       with --only cold alone, broken down step by step (scripts/bench-cold.ts)
//   (c) warm latency p50/p99 of goToDefinition and findReferences at a seeded
//       sample of identifier positions, against typescript-language-server:
//       first asks (both servers warmed up on other files, each position asked
//       once, the file opened just before as a client would), then repeated asks
//   (d) sextant's own peak RSS while ingesting indexes of growing size whose
//       largest document stays the same: the zod sources copied 1, 2 and 4
//       times into one repository (ingest streams one document at a time, so
//       its memory should follow the largest document, not the index); and
//       effect@4.1.0 apart, a different corpus with larger files
//   issue 3: callHierarchy (depth 1 and 3) and workspaceSymbols p50/p99, when served
//
//   (s) code search against ripgrep on the same files (scripts/bench-search.ts)
//
//   (lsp) the lsp tier against clangd on a C corpus, with --only lsp alone (scripts/bench-lsp.ts)
//   (scale) registries of ~1M and ~5M occurrences on SQLite and Postgres, with --only scale alone (scripts/bench-scale.ts)
//
// Usage: npm run bench -- [--corpus LIST] [--repo PATH] [--runs N] [--only index|memory|speed|cold|search|lifecycle|edits|load|publish|fuzz|envelope|lsp|scale] [--scale 1m|5m] [--json]
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import ts from 'typescript';
import { factoryRepo, monorepoRepo, npmPackage } from '../test/support/corpus.js';
import { PROJECT_ROOT, SEXTANT_BIN } from '../test/support/paths.js';
import { git, gitRepoFrom, removeDir, tempDir } from '../test/support/repos.js';
import { prng } from '../test/support/stats.js';
import { benchSearch, printSearch, searchTargets, type SearchSection } from './bench-search.js';
import { benchLifecycle, printLifecycle } from './bench-lifecycle.js';
import { benchLoad } from './bench-load.js';
import { benchPublish } from './bench-publish.js';
import { benchScale, SCALE_RUNS, SCALES, type Scale } from './bench-scale.js';
import { benchEdits, EDITS_TARGET, printEdits } from './bench-edits.js';
import { benchLsp } from './bench-lsp.js';
import { benchFuzzOnly } from './bench-fuzz.js';
import { breakdownRows, coldBreakdownRun, type ColdBreakdownRun } from './bench-cold.js';

// ---------------------------------------------------------------------------
// Options

/** (d): how many copies of the main corpus each scaled repository holds, and how many times each is indexed (at most). */
const MEMORY_SCALES = [1, 2, 4] as const;
const MEMORY_RUNS = 3;

/** The corpora of (a), (b), (c) and issue 3, by the name --corpus takes. */
const CORPORA = {
  zod: { name: 'zod@4.6.7', make: () => npmSourceRepo('zod', '4.6.7') },
  factory: { name: 'kysely@0.28.19 (factories)', make: factoryRepo },
  monorepo: { name: 'monorepo (tRPC, TanStack, rxjs)', make: monorepoRepo },
} as const;
type CorpusKey = keyof typeof CORPORA;
const CORPUS_KEYS = Object.keys(CORPORA) as CorpusKey[];

const USAGE = `usage: npm run bench -- [--corpus LIST] [--repo PATH] [--runs N] [--only index|memory|speed|cold|search|lifecycle|edits|load|publish|fuzz|envelope|lsp|scale] [--scale 1m|5m] [--json]

  --corpus LIST  comma-separated corpora for (a), (b), (c) and issue 3: ${CORPUS_KEYS.join(', ')}
                 (default all: zod@4.6.7's sources, kysely's object-literal factories,
                 a monorepo of packages with their own tsconfigs)
  --repo PATH    benchmark this git repository (TypeScript) instead of the corpora;
                 (d) still measures copies of the zod sources, and effect@4.1.0 (the
                 large index of (c') and (d)) is left out
  --runs N       repetitions of each side-by-side comparison (default 5); (d) and (c')
                 repeat at most ${MEMORY_RUNS} times
  --only index   run section (a) alone on the corpora (or --repo): index wall time vs the raw
                 indexer, with where sextant's time went (its report's phases_ms)
  --only memory  run section (d) alone (ingest memory), not with --repo
  --only speed   leave out (d), (c') and (s): speed on the corpora only
  --only cold    section (b) alone on the corpora (one index each), the cold start broken
                 down step by step, and \`sextant --help\` timed beside \`node -e 0\`
  --only search  run section (s) alone (code search against ripgrep), not with --repo
  --only lifecycle  run section (l) alone (reindex after a one-file edit vs a full index; at most 3 rounds)
  --only edits   run section (e) alone (warm answers with 20 files edited since the index vs a clean worktree, rxjs)
  --only load    run the load section alone (8 MCP clients x 1000 queries during a publish; scripts/bench-load.ts)
  --only publish run section (p) alone: sextant publish of rxjs's raw index vs decoding it (scripts/bench-publish.ts)
  --only scale   registries of ~1M and ~5M occurrences (rxjs's index replicated) on SQLite and Postgres:
                 warm p99, publish peak RSS (median of --runs publishes, default ${SCALE_RUNS}), bytes per
                 occurrence (scripts/bench-scale.ts)
  --scale 1m|5m  with --only scale: the largest registry built (default 5m)
  --only fuzz|envelope  issue 11 alone: 10,000+ fuzzed calls; the instruction-signal scan's cost (scripts/bench-fuzz.ts)
  --json         print one JSON object on stdout instead of the tables`;

/** Sections that can run alone. */
const SECTIONS = ['index', 'memory', 'speed', 'cold', 'search', 'lifecycle', 'edits', 'load', 'publish', 'fuzz', 'envelope', 'lsp', 'scale'] as const;
type Section = (typeof SECTIONS)[number];

interface Options {
  repo: string | undefined;
  corpora: CorpusKey[];
  runs: number;
  /** Whether --runs was passed: sections with a default of their own keep it otherwise. */
  runsGiven: boolean;
  only: Section | undefined;
  scale: Scale;
  json: boolean;
}

function parseOptions(argv: string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        repo: { type: 'string' },
        corpus: { type: 'string' },
        runs: { type: 'string' },
        only: { type: 'string' },
        scale: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  const v = parsed.values;
  if (v.help) {
    process.stdout.write(USAGE + '\n');
    process.exit(0);
  }
  let runs = 5;
  if (v.runs !== undefined) {
    runs = Number(v.runs);
    if (!Number.isInteger(runs) || runs < 1 || runs > 50) fail(`--runs must be a whole number between 1 and 50, not "${v.runs}"`);
  }
  let repo: string | undefined;
  if (v.repo !== undefined) {
    repo = resolve(v.repo);
    if (!existsSync(repo)) fail(`--repo ${v.repo} does not exist: pass the path of a git repository`);
    try {
      repo = git(repo, 'rev-parse', '--show-toplevel').trim();
    } catch {
      fail(`--repo ${v.repo} is not inside a git repository: pass the path of one`);
    }
  }
  let only: Section | undefined;
  if (v.only !== undefined) {
    if (!(SECTIONS as readonly string[]).includes(v.only)) fail(`--only takes one of ${SECTIONS.join(', ')}, not "${v.only}"\n${USAGE}`);
    only = v.only as Section;
    if (repo !== undefined && only !== 'speed' && only !== 'cold' && only !== 'index') fail(`--only ${only} measures corpora of its own: it does not take --repo`);
  }
  let scale: Scale = '5m';
  if (v.scale !== undefined) {
    if (only !== 'scale') fail('--scale goes with --only scale');
    if (!(SCALES as readonly string[]).includes(v.scale)) fail(`--scale takes one of ${SCALES.join(', ')}, not "${v.scale}"`);
    scale = v.scale as Scale;
  }
  let corpora = CORPUS_KEYS;
  if (v.corpus !== undefined) {
    if (repo !== undefined) fail('--corpus and --repo exclude each other: --repo benchmarks that repository instead of the corpora');
    const names = v.corpus.split(',').map((n) => n.trim());
    const unknown = names.filter((n) => !(CORPUS_KEYS as string[]).includes(n));
    if (names.length === 0 || unknown.length > 0) fail(`--corpus takes names from ${CORPUS_KEYS.join(', ')}, not "${unknown.join(',') || v.corpus}"`);
    corpora = CORPUS_KEYS.filter((k) => names.includes(k));
  }
  return { repo, corpora, runs, runsGiven: v.runs !== undefined, only, scale, json: v.json === true };
}

function fail(message: string): never {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

// ---------------------------------------------------------------------------
// Small utilities

const progressOn = process.stderr.isTTY === true;
function progress(message: string): void {
  if (progressOn) process.stderr.write(`\r\x1b[K[bench] ${message}`);
}
function progressDone(): void {
  if (progressOn) process.stderr.write('\r\x1b[K');
}

function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Nearest-rank percentile, p in (0, 1]. */
function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
}

/** A small seeded generator (mulberry32), so the sample is the same on every run. */
const round = (x: number, digits = 2) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : null);

// ---------------------------------------------------------------------------
// Processes

const TIME_BIN = '/usr/bin/time';
const HAVE_TIME = existsSync(TIME_BIN);
const PROBE = fileURLToPath(new URL('./rss-probe.js', import.meta.url));

interface ProcessRun {
  wallMs: number;
  code: number | null;
  stdout: string;
  stderr: string;
  /** From GNU time: the process tree's peak RSS (the largest of the process and the children it waited for) and CPU. */
  tree: { maxRssKb: number; cpuMs: number } | undefined;
}

/** Runs a command to completion, timing it from spawn to exit; under GNU time when available. */
function runProcess(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<ProcessRun> {
  const timeFile = HAVE_TIME ? join(tempDir('sextant-bench-time-'), 'time.txt') : undefined;
  const [cmd, argv] = timeFile ? [TIME_BIN, ['-o', timeFile, '-f', '%M %U %S', command, ...args]] : [command, args];
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(cmd, argv, { env: options.env ?? process.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-16384)));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      let tree: ProcessRun['tree'];
      if (timeFile) {
        try {
          const last = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!;
          const [rss, user, sys] = last.split(' ').map(Number);
          if (Number.isFinite(rss)) tree = { maxRssKb: rss!, cpuMs: (user! + sys!) * 1000 };
        } catch {
          // GNU time wrote nothing: the figure is reported as missing.
        }
        removeDir(dirname(timeFile));
      }
      resolvePromise({ wallMs, code, stdout, stderr, tree });
    });
  });
}

function sextantEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SEXTANT_HOME: home, ...extra };
  delete env.SEXTANT_REGISTRY;
  delete env.NODE_OPTIONS;
  return env;
}

interface SextantIndexRun {
  home: string;
  wallMs: number;
  report: IndexReport;
  /** sextant's own process (from the preloaded probe): peak RSS and CPU, children excluded. */
  own: { maxRssKb: number; cpuMs: number } | undefined;
  tree: ProcessRun['tree'];
}

interface IndexReport {
  repo: string;
  files: number;
  documents: number;
  occurrences: number;
  definitions: number;
  duration_ms: number;
  indexers: { name: string; status: string; documents: number; duration_ms: number }[];
  /** Where the run's wall time went (src/orchestrator/index-repository.ts, PhaseTimes). */
  phases_ms?: Record<string, number>;
}

/** `sextant index REPO --json` into a fresh SEXTANT_HOME, as its users run it (the CLI). */
async function sextantIndex(repo: string): Promise<SextantIndexRun> {
  const home = tempDir('sextant-bench-home-');
  const probeDir = tempDir('sextant-bench-probe-');
  const probeFile = join(probeDir, 'probe.json');
  const run = await runProcess(process.execPath, ['--import', pathToFileURL(PROBE).href, SEXTANT_BIN, 'index', repo, '--json'], {
    env: sextantEnv(home, { SEXTANT_BENCH_PROBE_FILE: probeFile }),
  });
  if (run.code !== 0) throw new Error(`sextant index ${repo} failed (exit ${run.code}): ${run.stderr.trim().split('\n').pop()}`);
  let own: SextantIndexRun['own'];
  try {
    const p = JSON.parse(readFileSync(probeFile, 'utf8')) as { maxRssKb: number; userMs: number; systemMs: number };
    own = { maxRssKb: p.maxRssKb, cpuMs: p.userMs + p.systemMs };
  } catch {
    own = undefined;
  }
  removeDir(probeDir);
  return { home, wallMs: run.wallMs, report: JSON.parse(run.stdout) as IndexReport, own, tree: run.tree };
}

/** The indexer sextant runs, on its own: its package's declared bin, run with this node. */
function scipTypescriptMain(): string {
  const dir = join(PROJECT_ROOT, 'node_modules', '@sourcegraph', 'scip-typescript');
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.['scip-typescript'];
  if (!bin) throw new Error('@sourcegraph/scip-typescript declares no bin');
  return join(dir, bin);
}

const SOURCE = /\.[cm]?[jt]sx?$/;

/**
 * The projects a language server would load, as scip-typescript arguments:
 * every tracked tsconfig.json/jsconfig.json, and for the sources none of them
 * includes (by TypeScript's own reading of its files, include and exclude; a
 * jsconfig.json allows JavaScript) a config listing them, with the options
 * sextant's manifest gives an inferred project and the default type roots of
 * the repository (written to `dir`). So the raw indexer covers the same
 * projects as `sextant index`; no configs and no sources: none (the indexer's
 * default). (Sources were once left to the inferred project only when under
 * no config's folder: the monorepo's root tsconfig.json, which includes only
 * the TypeScript of scripts/, then kept its JavaScript out of the raw run, which
 * sextant indexes.)
 */
function rawProjects(repo: string, dir: string): string[] {
  const tracked = git(repo, 'ls-files', '-z').split('\0').filter(Boolean);
  const configs = tracked.filter((p) => /(^|\/)(tsconfig|jsconfig)\.json$/.test(p) && !p.split('/').includes('node_modules'));
  const included = new Set<string>();
  // scip-typescript indexes the projects a config references as well (a solution's tsconfig.app.json).
  const seen = new Set<string>();
  const include = (path: string): void => {
    if (seen.has(path) || !existsSync(path)) return;
    seen.add(path);
    const read = ts.readConfigFile(path, ts.sys.readFile);
    if (read.error) return;
    const options = basename(path) === 'jsconfig.json' ? { allowJs: true } : {};
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(path), options, path);
    for (const f of parsed.fileNames) included.add(f);
    for (const r of parsed.projectReferences ?? []) include(ts.resolveProjectReferencePath(r));
  };
  for (const c of configs) include(join(repo, c));
  const rest = tracked.filter((p) => SOURCE.test(p) && !included.has(join(repo, p)));
  const projects = configs.map((c) => join(repo, c));
  if (rest.length > 0) {
    const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'indexers', 'scip-typescript.json'), 'utf8')) as {
      projects?: { inferred?: { compilerOptions: Record<string, unknown> } };
    };
    const compilerOptions = manifest.projects?.inferred?.compilerOptions ?? { allowJs: true, noEmit: true };
    const typeRoots: string[] = [];
    for (let d = repo; ; d = dirname(d)) {
      typeRoots.push(join(d, 'node_modules', '@types'));
      if (dirname(d) === d) break;
    }
    const config = join(dir, 'tsconfig.json');
    writeFileSync(config, JSON.stringify({ compilerOptions: { ...compilerOptions, typeRoots }, files: rest.map((p) => join(repo, p)) }));
    projects.push(config);
  }
  return projects;
}

async function rawIndex(repo: string): Promise<ProcessRun> {
  const out = tempDir('sextant-bench-scip-');
  try {
    const run = await runProcess(
      process.execPath,
      // As indexers/scip-typescript.json runs it.
      [
        scipTypescriptMain(),
        'index',
        '--cwd',
        repo,
        '--output',
        join(out, 'x.scip'),
        '--no-progress-bar',
        '--max-file-byte-size',
        '10mb',
        ...rawProjects(repo, out),
      ],
      { cwd: repo },
    );
    if (run.code !== 0) throw new Error(`scip-typescript on ${repo} failed (exit ${run.code}): ${run.stderr.trim().split('\n').pop()}`);
    return run;
  } finally {
    removeDir(out);
  }
}

// ---------------------------------------------------------------------------
// Corpora

interface Corpus {
  name: string;
  root: string;
  slug: string;
  tsFiles: number;
  /** Removed at the end when the benchmark built it. */
  owned: boolean;
}

const COMPILER_OPTIONS = {
  strict: true,
  target: 'esnext',
  module: 'esnext',
  moduleResolution: 'bundler',
  skipLibCheck: true,
  noEmit: true,
};

/** Where copy k (1-based) of a package's src/ goes: the first at src/, the others each in a directory of their own. */
const copyDir = (k: number) => (k === 1 ? 'src' : `copy${k}/src`);

/**
 * An npm package's src/ and package.json with a plain tsconfig.json, as a
 * fresh git repository. With `copies` > 1 the sources are there that many
 * times, at src/, copy2/src/, copy3/src/, …, all of them in the tsconfig's
 * include: each copy's relative imports stay inside it and its paths differ,
 * so the index grows with the copies while its largest document does not.
 * Each further copy's files end with a comment naming the copy: sextant
 * stores file texts by content, and identical copies would be stored once.
 */
function npmSourceRepo(name: string, version: string, copies = 1): string {
  const pkg = npmPackage(name, version);
  const repoName = copies === 1 ? name : `${name}-x${copies}`;
  const staging = tempDir(`sextant-bench-${repoName}-`);
  const include: string[] = [];
  for (let k = 1; k <= copies; k++) {
    const dir = join(staging, copyDir(k));
    cpSync(join(pkg, 'src'), dir, { recursive: true });
    include.push(copyDir(k));
    if (k === 1) continue;
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = join(entry.parentPath ?? entry.path, entry.name);
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, `${text}${text.endsWith('\n') ? '' : '\n'}// copy ${k}\n`);
    }
  }
  cpSync(join(pkg, 'package.json'), join(staging, 'package.json'));
  writeFileSync(join(staging, 'tsconfig.json'), JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include }, null, 2) + '\n');
  try {
    return gitRepoFrom(staging, repoName);
  } finally {
    removeDir(staging);
  }
}

/** The TypeScript and JavaScript sources (declaration files left out): where positions are sampled. */
function sourceFiles(root: string): string[] {
  return git(root, 'ls-files', '-z')
    .split('\0')
    .filter((p) => /\.[cm]?[jt]sx?$/.test(p) && !/\.d\.[cm]?ts$/.test(p))
    .sort();
}

function corpus(name: string, root: string, owned: boolean): Corpus {
  return { name, root, slug: basename(root), tsFiles: sourceFiles(root).length, owned };
}

/** The size of a repository's largest TypeScript source file, in bytes. */
function largestSourceBytes(root: string): number {
  return Math.max(0, ...sourceFiles(root).map((p) => statSync(join(root, p)).size));
}

// ---------------------------------------------------------------------------
// MCP (the official client) and the language server (test/support helper)

interface McpCall {
  isError: boolean;
  result: any;
}

class Mcp {
  private constructor(
    readonly client: Client,
    readonly pid: number | null,
  ) {}

  /**
   * Spawns `sextant mcp` on a registry, completes the MCP handshake and lists
   * the tools, as MCP clients do: from then on the client checks every result
   * against its tool's output schema, and that check is part of each figure.
   */
  static async start(home: string, times?: { handshake_ms: number; list_ms: number }): Promise<Mcp> {
    const t0 = performance.now();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SEXTANT_BIN, 'mcp'],
      env: sextantEnv(home) as Record<string, string>,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'sextant-bench', version: '0' });
    await client.connect(transport);
    const t1 = performance.now();
    await client.listTools();
    if (times) {
      times.handshake_ms = t1 - t0;
      times.list_ms = performance.now() - t1;
    }
    return new Mcp(client, transport.pid);
  }

  async call(name: string, args: Record<string, unknown>): Promise<McpCall> {
    const r = await this.client.callTool({ name, arguments: args });
    const text = (r.content as { type: string; text: string }[] | undefined)?.[0]?.text;
    return { isError: r.isError === true, result: r.structuredContent ?? (text ? JSON.parse(text) : {}) };
  }

  /** Tool names, through a plain request. */
  async toolNames(): Promise<string[]> {
    const r = await this.client.request({ method: 'tools/list' }, ListToolsResultSchema);
    return r.tools.map((t) => t.name);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

interface LspLocation {
  path: string;
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
}
interface LanguageServer {
  readonly pid: number;
  open(path: string): Promise<void>;
  settle(): Promise<void>;
  definition(path: string, line: number, character: number): Promise<LspLocation[]>;
  references(path: string, line: number, character: number, includeDeclaration: boolean): Promise<LspLocation[]>;
  stop(): Promise<void>;
}
interface LanguageServerClass {
  start(root: string): Promise<LanguageServer>;
}

const LSP_HELPER = join(PROJECT_ROOT, 'dist', 'test', 'support', 'typescript-language-server.js');

/** The test-support client of typescript-language-server, or the reason it cannot be used. */
async function languageServerClass(): Promise<LanguageServerClass | string> {
  if (!existsSync(LSP_HELPER)) return 'dist/test/support/typescript-language-server.js is not built yet';
  try {
    const mod = (await import(pathToFileURL(LSP_HELPER).href)) as { TypeScriptLanguageServer?: LanguageServerClass };
    return mod.TypeScriptLanguageServer ?? 'test/support/typescript-language-server.ts exports no TypeScriptLanguageServer';
  } catch (error) {
    return `test/support/typescript-language-server.js failed to load: ${(error as Error).message}`;
  }
}

// ---------------------------------------------------------------------------
// Positions

interface Position {
  path: string;
  /** 1-based, as sextant's MCP tools take them; LSP gets line-1, column-1. */
  line: number;
  column: number;
  name: string;
}

const SEED = 0x5e7a47;

/** Whether an identifier names what is called: `f(…)`, `o.f(…)`, `new C(…)`, or the name of a function or method declaration. */
function isCallee(node: ts.Identifier): boolean {
  const parent = node.parent;
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression === node) return true;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) {
    const grand = parent.parent;
    return (ts.isCallExpression(grand) || ts.isNewExpression(grand)) && grand.expression === parent;
  }
  return (ts.isFunctionDeclaration(parent) || ts.isMethodDeclaration(parent)) && parent.name === node;
}

/**
 * Seeded identifier positions from the source: a random file, then a random
 * identifier in it (only callees with `callable`). The same seed gives the
 * same positions on every run.
 */
function identifierCandidates(root: string, count: number, options: { seed: number; callable?: boolean }): Position[] {
  const files = sourceFiles(root);
  if (files.length === 0) throw new Error(`${root} has no TypeScript source files to sample positions from`);
  const rng = prng(options.seed);
  const parsed = new Map<string, Position[]>();
  const identifiersOf = (path: string): Position[] => {
    let list = parsed.get(path);
    if (list) return list;
    list = [];
    const text = readFileSync(join(root, path), 'utf8');
    const js = /\.[cm]?jsx?$/.test(path);
    const kind = path.endsWith('x') ? (js ? ts.ScriptKind.JSX : ts.ScriptKind.TSX) : js ? ts.ScriptKind.JS : ts.ScriptKind.TS;
    const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && (!options.callable || isCallee(node))) {
        const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
        list!.push({ path, line: line + 1, column: character + 1, name: node.text });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    parsed.set(path, list);
    return list;
  };
  const out: Position[] = [];
  const seen = new Set<string>();
  for (let attempt = 0; out.length < count && attempt < count * 20; attempt++) {
    const ids = identifiersOf(files[Math.floor(rng() * files.length)]!);
    if (ids.length === 0) continue;
    const p = ids[Math.floor(rng() * ids.length)]!;
    const key = `${p.path}:${p.line}:${p.column}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  return out;
}

/** A fixed, meaningful position for the cold query: a widely used declaration of the default corpus. */
function coldPosition(c: Corpus, sample: readonly Position[]): Position {
  if (c.name.startsWith('zod')) {
    const path = 'src/v4/core/schemas.ts';
    const lines = readFileSync(join(c.root, path), 'utf8').split(/\r\n|\r|\n/);
    const i = lines.findIndex((l) => /^export interface \$ZodType</.test(l));
    if (i >= 0) return { path, line: i + 1, column: lines[i]!.indexOf('$ZodType') + 1, name: '$ZodType' };
  }
  return sample[0]!;
}

// ---------------------------------------------------------------------------
// (a) indexing

interface IndexSection {
  corpus: string;
  runs: { sextant: SextantIndexRun; raw: ProcessRun; order: 'sextant-first' | 'raw-first' }[];
}

async function benchIndex(c: Corpus, runs: number): Promise<IndexSection> {
  const out: IndexSection = { corpus: c.name, runs: [] };
  for (let i = 0; i < runs; i++) {
    const sextantFirst = i % 2 === 0;
    let sextant: SextantIndexRun | undefined;
    let raw: ProcessRun | undefined;
    for (const side of sextantFirst ? ['sextant', 'raw'] : ['raw', 'sextant']) {
      progress(`(a) index ${c.name}: run ${i + 1}/${runs}, ${side === 'sextant' ? 'sextant index' : 'scip-typescript alone'}…`);
      if (side === 'sextant') sextant = await sextantIndex(c.root);
      else raw = await rawIndex(c.root);
    }
    out.runs.push({ sextant: sextant!, raw: raw!, order: sextantFirst ? 'sextant-first' : 'raw-first' });
    // Keep only the last registry: (b), (c) and issue 3 query it.
    if (i > 0) removeDir(out.runs[i - 1]!.sextant.home);
  }
  return out;
}

// ---------------------------------------------------------------------------
// (d) ingest memory

interface MemoryRun {
  occurrences: number;
  documents: number;
  /** sextant's own process (the preloaded probe), its children excluded. */
  own_max_rss_mb: number | null;
  /**
   * GNU time's figure for the process tree: the larger of sextant's own peak
   * and its indexer child's, so the child's whenever it is above sextant's own.
   */
  tree_max_rss_mb: number | null;
  wall_s: number;
}

interface MemoryPoint {
  corpus: string;
  /** Copies of the main corpus in the repository; null for the other corpus. */
  copies: number | null;
  ts_files: number;
  largest_file_kb: number;
  runs: MemoryRun[];
  /** Medians over the runs. */
  occurrences: number;
  own_max_rss_mb: number | null;
  tree_max_rss_mb: number | null;
  wall_s: number;
}

interface MemorySection {
  /** The main corpus copied MEMORY_SCALES times into one repository each, smallest first. */
  scaled: MemoryPoint[];
  runs: number;
  /** Median of sextant's own peak RSS at the largest scale over the smallest's. */
  rss_largest_over_smallest: number | null;
  /** The largest spread of sextant's own peak RSS between runs of one scale (max / min): the noise the ratio sits in. */
  rss_spread_within_scale: number | null;
  occurrences_largest_over_smallest: number | null;
  /** effect@4.1.0: a different corpus, with larger files; not part of the ratio. */
  other: MemoryPoint | null;
  other_note: string;
  notes: string[];
  seconds: number;
}

const mbOf = (kb: number | undefined) => (kb === undefined ? null : round(kb / 1024, 1));

function memoryRun(run: SextantIndexRun): MemoryRun {
  return {
    occurrences: run.report.occurrences,
    documents: run.report.documents,
    own_max_rss_mb: mbOf(run.own?.maxRssKb),
    tree_max_rss_mb: mbOf(run.tree?.maxRssKb),
    wall_s: round(run.wallMs / 1000, 1)!,
  };
}

function memoryPoint(name: string, copies: number | null, c: Corpus, largestBytes: number, runs: MemoryRun[]): MemoryPoint {
  const med = (pick: (r: MemoryRun) => number | null) => {
    const xs = runs.flatMap((r) => (pick(r) === null ? [] : [pick(r)!]));
    return xs.length ? round(median(xs), 1) : null;
  };
  return {
    corpus: name,
    copies,
    ts_files: c.tsFiles,
    largest_file_kb: round(largestBytes / 1024, 0)!,
    runs,
    occurrences: median(runs.map((r) => r.occurrences)),
    own_max_rss_mb: med((r) => r.own_max_rss_mb),
    tree_max_rss_mb: med((r) => r.tree_max_rss_mb),
    wall_s: med((r) => r.wall_s)!,
  };
}

/**
 * (d): `sextant index` (the CLI, a fresh SEXTANT_HOME each time) on the zod
 * sources copied 1, 2 and 4 times into one repository, `runs` times each,
 * the scales in alternating order from one round to the next; then, with
 * `other`, once on effect@4.1.0, whose registry is returned when `keepOther`
 * (for (c')). Registries and repositories are removed as it goes, or listed
 * in `owned` and `homes` for the caller to remove.
 */
async function benchMemory(
  runs: number,
  other: { include: false; note: string } | { include: true; keep: boolean },
  owned: string[],
  homes: string[],
): Promise<{ section: MemorySection; large: { corpus: Corpus; home: string } | undefined }> {
  const started = performance.now();
  const notes: string[] = [];
  const scales = MEMORY_SCALES.map((copies) => {
    progress(`(d) preparing zod@4.6.7 x${copies}…`);
    const root = npmSourceRepo('zod', '4.6.7', copies);
    owned.push(dirname(root));
    return { copies, corpus: corpus(`zod@4.6.7 x${copies}`, root, true), largest: largestSourceBytes(root), runs: [] as MemoryRun[] };
  });
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? scales : [...scales].reverse();
    for (const s of order) {
      progress(`(d) ingest memory: run ${round + 1}/${runs}, sextant index ${s.corpus.name}…`);
      const run = await sextantIndex(s.corpus.root);
      removeDir(run.home);
      s.runs.push(memoryRun(run));
    }
  }
  const scaled = scales.map((s) => memoryPoint(s.corpus.name, s.copies, s.corpus, s.largest, s.runs));

  const smallest = scaled[0]!;
  const largest = scaled.at(-1)!;
  const rssGrowth =
    smallest.own_max_rss_mb !== null && largest.own_max_rss_mb !== null ? largest.own_max_rss_mb / smallest.own_max_rss_mb : null;
  const occGrowth = largest.occurrences / smallest.occurrences;
  // The copies are identical, so the index should grow with them; if not, the repositories are not what the section claims.
  for (const p of scaled.slice(1)) {
    const grew = p.occurrences / smallest.occurrences;
    const expected = p.copies! / smallest.copies!;
    if (Math.abs(grew / expected - 1) > 0.05)
      notes.push(`${p.corpus}: occurrences grew x${grew.toFixed(2)} for x${expected} copies: the copies were not indexed alike`);
  }
  const spreads = scaled.flatMap((p) => {
    const xs = p.runs.flatMap((r) => (r.own_max_rss_mb === null ? [] : [r.own_max_rss_mb]));
    return xs.length > 1 ? [Math.max(...xs) / Math.min(...xs)] : [];
  });
  const spread = spreads.length ? Math.max(...spreads) : null;
  if (scaled.some((p) => p.own_max_rss_mb === null)) notes.push("sextant's own peak RSS is missing for some runs: the probe wrote nothing");

  let otherPoint: MemoryPoint | null = null;
  let otherNote: string;
  let large: { corpus: Corpus; home: string } | undefined;
  if (other.include) {
    progress('(d) preparing effect@4.1.0…');
    const root = npmSourceRepo('effect', '4.1.0');
    owned.push(dirname(root));
    const eff = corpus('effect@4.1.0', root, true);
    progress('(d) sextant index effect@4.1.0 (a different corpus, with larger files)…');
    const run = await sextantIndex(eff.root);
    if (other.keep) {
      // Kept for a sextant-only warm latency pass on the largest index (c').
      homes.push(run.home);
      large = { corpus: eff, home: run.home };
    } else removeDir(run.home);
    otherPoint = memoryPoint(eff.name, null, eff, largestSourceBytes(root), [memoryRun(run)]);
    otherNote =
      `${eff.name}, a different corpus with larger files (largest ${otherPoint.largest_file_kb.toLocaleString('en-US')} KB ` +
      `against ${smallest.largest_file_kb.toLocaleString('en-US')} KB): 1 run, for scale, not part of the ratio`;
  } else otherNote = other.note;

  return {
    section: {
      scaled,
      runs,
      rss_largest_over_smallest: rssGrowth === null ? null : round(rssGrowth, 3),
      rss_spread_within_scale: spread === null ? null : round(spread, 3),
      occurrences_largest_over_smallest: round(occGrowth, 2),
      other: otherPoint,
      other_note: otherNote,
      notes,
      seconds: round((performance.now() - started) / 1000, 1)!,
    },
    large,
  };
}

function memoryTarget(m: MemorySection) {
  const value = m.rss_largest_over_smallest;
  return { value, target: `<= ${TARGETS.rss_growth} (flat within noise)`, met: value === null ? null : value <= TARGETS.rss_growth };
}

/** The (d) table; `rawRssKb` is scip-typescript's own peak on the main corpus, from (a), when it ran. */
function printMemory(m: MemorySection, print: (s?: string) => void, rawRssKb?: number): void {
  const first = m.scaled[0]!;
  const last = m.scaled.at(-1)!;
  print(
    `(d) ingest memory: sextant's own peak RSS (its indexer child excluded) as the index grows and its largest document does not — ` +
      `the zod@4.6.7 sources copied ${m.scaled.map((p) => p.copies).join(', ')} times into one repository ` +
      `(src/, then copy2/src/ … copy${m.scaled.at(-1)!.copies}/src/, each copy in its own directory); ` +
      `\`sextant index --json\`, fresh SEXTANT_HOME; ` +
      (m.runs === 1 ? '1 run per scale' : `${m.runs} runs per scale, alternating order; medians`),
  );
  const mbCell = (x: number | null) => (x === null ? '–' : `${x.toFixed(0)} MB`);
  const row = (p: MemoryPoint, label: string) => [
    label,
    String(p.ts_files),
    `${p.largest_file_kb.toLocaleString('en-US')} KB`,
    p.occurrences.toLocaleString('en-US'),
    p.copies === null ? '' : `x${(p.occurrences / first.occurrences).toFixed(2)}`,
    mbCell(p.own_max_rss_mb),
    p.runs.map((r) => (r.own_max_rss_mb === null ? '–' : r.own_max_rss_mb.toFixed(0))).join(' / '),
    mbCell(p.tree_max_rss_mb),
    `${p.wall_s.toFixed(1)} s`,
  ];
  const rows = m.scaled.map((p) => row(p, p.corpus));
  if (m.other) rows.push(row(m.other, `${m.other.corpus} (other corpus)`));
  print(
    table(rows, [
      'corpus',
      'files',
      'largest file',
      'occurrences',
      'growth',
      'sextant peak RSS',
      'per run (MB)',
      'indexer child peak',
      'index wall',
    ]),
  );
  print(
    `  sextant peak RSS x${last.copies} / x${first.copies}: ${ratio(m.rss_largest_over_smallest)} for x${m.occurrences_largest_over_smallest?.toFixed(2) ?? '–'} occurrences; ` +
      `target <= ${TARGETS.rss_growth} (flat within noise): ${verdict(memoryTarget(m).met)}`,
  );
  const steps = m.scaled.slice(1).map((p, i) => {
    const prev = m.scaled[i]!;
    const r = p.own_max_rss_mb !== null && prev.own_max_rss_mb !== null ? p.own_max_rss_mb / prev.own_max_rss_mb : null;
    return `x${prev.copies} -> x${p.copies} ${ratio(r)}`;
  });
  print(`  step by step: ${steps.join(', ')}`);
  if (m.rss_spread_within_scale !== null)
    print(
      `  noise: between runs of one scale sextant's own peak RSS varies up to x${m.rss_spread_within_scale.toFixed(2)} (max / min)` +
        (m.rss_spread_within_scale > TARGETS.rss_growth ? `, more than the target's margin: read the ratio with that in mind` : ''),
    );
  const points = [...m.scaled, ...(m.other ? [m.other] : [])];
  const childAbove = points.every((p) =>
    p.runs.every((r) => r.tree_max_rss_mb !== null && r.own_max_rss_mb !== null && r.tree_max_rss_mb > r.own_max_rss_mb),
  );
  print(
    `  indexer child peak: GNU time's peak RSS of the process tree, the larger of sextant's own and its child's` +
      (childAbove ? ', so here the scip-typescript child' : '') +
      (rawRssKb === undefined ? '' : `; scip-typescript alone on the main corpus in (a): ${mb(rawRssKb)}`),
  );
  print(`  ${m.other ? 'separate data point' : 'left out'}: ${m.other_note}`);
  for (const note of m.notes) print(`  note: ${note}`);
  print(`  section (d) took ${m.seconds.toFixed(0)} s`);
}

// ---------------------------------------------------------------------------
// (b) cold start

/**
 * After the first answer, the same question asked this many times more, each
 * as soon as the last is answered: a client's first burst, which meets
 * whatever a server still does in the background of its start.
 */
const COLD_BURST = 30;

/** A burst's answers: their sum and the slowest, in ms. */
interface Burst {
  burst_ms: number;
  burst_max_ms: number;
}

interface ColdSection {
  position: Position;
  node_ms: number[];
  sextant: ({ total_ms: number; handshake_ms: number; list_ms: number; references: number } & Burst)[];
  lsp: ({ total_ms: number; start_ms: number; references: number } & Burst)[] | null;
  lsp_note?: string;
}

async function benchCold(
  c: Corpus,
  home: string,
  position: Position,
  runs: number,
  Lsp: LanguageServerClass | string,
): Promise<ColdSection> {
  const section: ColdSection = { position, node_ms: [], sextant: [], lsp: typeof Lsp === 'string' ? null : [] };
  if (typeof Lsp === 'string') section.lsp_note = Lsp;
  for (let i = 0; i < Math.max(5, runs); i++) section.node_ms.push((await runProcess(process.execPath, ['-e', '0'])).wallMs);
  const burst = async (ask: () => Promise<unknown>): Promise<Burst> => {
    const times: number[] = [];
    for (let i = 0; i < COLD_BURST; i++) {
      const t0 = performance.now();
      await ask();
      times.push(performance.now() - t0);
    }
    return { burst_ms: times.reduce((a, b) => a + b, 0), burst_max_ms: Math.max(...times) };
  };
  const sextantCold = async () => {
    const t0 = performance.now();
    const times = { handshake_ms: 0, list_ms: 0 };
    const mcp = await Mcp.start(home, times);
    const args = { repo: c.slug, path: position.path, line: position.line, column: position.column };
    const r = await mcp.call('findReferences', args);
    const t2 = performance.now();
    const then = await burst(() => mcp.call('findReferences', args));
    await mcp.close();
    if (r.isError) throw new Error(`sextant findReferences at ${position.path}:${position.line}:${position.column}: ${r.result.error}`);
    section.sextant.push({ total_ms: t2 - t0, ...times, references: r.result.total, ...then });
  };
  const lspCold = async (L: LanguageServerClass) => {
    const t0 = performance.now();
    const server = await L.start(c.root);
    const t1 = performance.now();
    await server.open(position.path);
    const refs = await server.references(position.path, position.line - 1, position.column - 1, true);
    const t2 = performance.now();
    const then = await burst(() => server.references(position.path, position.line - 1, position.column - 1, true));
    await server.stop();
    section.lsp!.push({ total_ms: t2 - t0, start_ms: t1 - t0, references: refs.length, ...then });
  };
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? ['sextant', 'lsp'] : ['lsp', 'sextant'];
    for (const side of order) {
      progress(`(b) cold start: run ${i + 1}/${runs}, ${side}…`);
      if (side === 'sextant') await sextantCold();
      else if (typeof Lsp !== 'string') await lspCold(Lsp);
    }
  }
  return section;
}

/** Medians of each side's first burst (see COLD_BURST). */
function burstSummary(cold: ColdSection) {
  const side = (runs: Burst[]) => ({ total_ms: round(median(runs.map((r) => r.burst_ms)), 1), slowest_ms: round(median(runs.map((r) => r.burst_max_ms)), 1) });
  return { asks: COLD_BURST, sextant: side(cold.sextant), lsp: cold.lsp ? side(cold.lsp) : null };
}

function burstLine(b: ReturnType<typeof burstSummary>): string {
  return (
    `  then ${b.asks} more at once, each asked when the last was answered (medians): sextant ${ms(b.sextant.total_ms)} in all, slowest ${ms(b.sextant.slowest_ms)}` +
    (b.lsp ? `; language server ${ms(b.lsp.total_ms)} in all, slowest ${ms(b.lsp.slowest_ms)}` : '')
  );
}

/** Section (b) alone on each corpus: one index, the cold start side by side with the language server, and its breakdown. */
async function benchColdOnly(
  corpora: readonly Corpus[],
  runs: number,
  Lsp: LanguageServerClass | string,
  homes: string[],
): Promise<{ corpus: string; cold: ColdSection; breakdown: ColdBreakdownRun[]; help_ms: number[]; ratio: number | null }[]> {
  const out = [];
  for (const c of corpora) {
    progress(`(b) ${c.name}: sextant index…`);
    const indexed = await sextantIndex(c.root);
    homes.push(indexed.home);
    progress(`(b) ${c.name}: choosing the position…`);
    const mcp = await Mcp.start(indexed.home);
    let position: Position;
    try {
      position = coldPosition(c, (await chooseSample(c, mcp)).positions);
    } finally {
      await mcp.close();
    }
    const cold = await benchCold(c, indexed.home, position, runs, Lsp);
    const breakdown: ColdBreakdownRun[] = [];
    const help_ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      progress(`(b) ${c.name}: breakdown run ${i + 1}/${runs}…`);
      const call = { repo: c.slug, path: position.path, line: position.line, column: position.column };
      breakdown.push(await coldBreakdownRun(sextantEnv(indexed.home), call));
      help_ms.push((await runProcess(process.execPath, [SEXTANT_BIN, '--help'])).wallMs);
    }
    const pairs = cold.lsp ? cold.sextant.map((r, i) => r.total_ms / cold.lsp![i]!.total_ms) : null;
    out.push({ corpus: c.name, cold, breakdown, help_ms, ratio: pairs ? median(pairs) : null });
    removeDir(homes.pop()!);
  }
  return out;
}

// ---------------------------------------------------------------------------
// (c) warm latency, and the issue-3 tools

interface LatencySet {
  /** Round-trip milliseconds, every measured call. */
  ms: number[];
  /** Result sizes (definitions or references returned). */
  results: number[];
  errors: number;
  /** findReferences: whether each answer was truncated (more references than it returned). */
  truncated?: boolean[];
}
const latencySet = (): LatencySet => ({ ms: [], results: [], errors: 0 });

/** p99 over the answers that were not truncated: those holding every reference, at most the default 200. */
function wholeP99(s: LatencySet): number | null {
  const ms = s.ms.filter((_, i) => s.truncated?.[i] !== true);
  return ms.length ? percentile(ms, 99) : null;
}

interface WarmSection {
  sample: { candidates: number; without_symbol: number; positions: number; files: number; seed: number };
  rounds: number;
  ping: LatencySet;
  sextant: { definition: LatencySet; references: LatencySet; references_truncated: number };
  lsp: { definition: LatencySet; references: LatencySet } | null;
  /**
   * Each side's first answer at positions neither was asked before, in files
   * the language server is sent didOpen for just before (as a client opens a
   * file to ask about it), both servers warmed up on the other half of the
   * sample: what an agent waits for a new question to a warm server. The
   * rounds above ask the same positions again, which a language server
   * answers from what its checker computed the first time.
   */
  first: {
    positions: number;
    files: number;
    sextant: PairSet;
    lsp: PairSet | null;
    /** An MCP ping after the same pause as each first ask: the round trip's floor there (waking after idleness). */
    ping: LatencySet;
  };
  lsp_note?: string;
}
interface PairSet {
  definition: LatencySet;
  references: LatencySet;
}
const pairSet = (): PairSet => ({ definition: latencySet(), references: latencySet() });

/** Splits the sample by file, alternately, into positions to warm up on and positions asked for the first time. */
function splitByFile(positions: readonly Position[]): { warmup: Position[]; fresh: Position[] } {
  const files = [...new Set(positions.map((p) => p.path))];
  const fresh = new Set(files.filter((_, i) => i % 2 === 1));
  return { warmup: positions.filter((p) => !fresh.has(p.path)), fresh: positions.filter((p) => fresh.has(p.path)) };
}

const SAMPLE_SIZE = 250;
const CALL_SAMPLE_SIZE = 100;

/** Keeps the candidates at which sextant finds a symbol (an indexed identifier); this pass also warms sextant up. */
async function chooseSample(c: Corpus, mcp: Mcp): Promise<{ positions: Position[]; candidates: number }> {
  const candidates = identifierCandidates(c.root, SAMPLE_SIZE * 2, { seed: SEED });
  const positions: Position[] = [];
  let tried = 0;
  for (const p of candidates) {
    if (positions.length >= SAMPLE_SIZE) break;
    tried++;
    progress(`(c) choosing positions: ${positions.length}/${SAMPLE_SIZE}…`);
    const r = await mcp.call('goToDefinition', { repo: c.slug, path: p.path, line: p.line, column: p.column });
    // An error (a file the indexer left out, say) counts as no symbol: the sample is of positions the index answers at
    // (not names it resolved to nothing, which are answered by their spelling, source "search").
    if (!r.isError && (r.result.symbols as string[]).length > 0 && r.result.source !== 'search') positions.push(p);
  }
  return { positions, candidates: tried };
}

async function benchWarm(
  c: Corpus,
  home: string,
  positions: readonly Position[],
  candidates: number,
  rounds: number,
  Lsp: LanguageServerClass | string,
): Promise<WarmSection> {
  const { warmup, fresh } = splitByFile(positions);
  const section: WarmSection = {
    sample: {
      candidates,
      without_symbol: candidates - positions.length,
      positions: positions.length,
      files: new Set(positions.map((p) => p.path)).size,
      seed: SEED,
    },
    rounds,
    ping: latencySet(),
    sextant: { definition: latencySet(), references: latencySet(), references_truncated: 0 },
    lsp: typeof Lsp === 'string' ? null : { definition: latencySet(), references: latencySet() },
    first: {
      positions: fresh.length,
      files: new Set(fresh.map((p) => p.path)).size,
      sextant: pairSet(),
      lsp: typeof Lsp === 'string' ? null : pairSet(),
      ping: latencySet(),
    },
  };
  if (typeof Lsp === 'string') section.lsp_note = Lsp;

  // A server of its own: the one that chose the sample has asked every position once.
  const mcp = await Mcp.start(home);
  const sextantDef = async (p: Position, into?: LatencySet) => {
    const t0 = performance.now();
    const r = await mcp.call('goToDefinition', { repo: c.slug, path: p.path, line: p.line, column: p.column });
    const ms = performance.now() - t0;
    if (!into) return;
    if (r.isError) into.errors++;
    into.ms.push(ms);
    into.results.push(r.result.definitions?.length ?? 0);
  };
  const sextantRefs = async (p: Position, into?: LatencySet) => {
    const t0 = performance.now();
    const r = await mcp.call('findReferences', { repo: c.slug, path: p.path, line: p.line, column: p.column });
    const ms = performance.now() - t0;
    if (!into) return;
    if (r.isError) into.errors++;
    into.ms.push(ms);
    into.results.push(r.result.references?.length ?? 0);
    (into.truncated ??= []).push(r.result.truncated === true);
    if (r.result.truncated) section.sextant.references_truncated++;
  };
  const lspCall = async (what: () => Promise<LspLocation[]>, into?: LatencySet) => {
    const t0 = performance.now();
    let n = 0;
    let failed = false;
    try {
      n = (await what()).length;
    } catch {
      failed = true;
    }
    const ms = performance.now() - t0;
    if (!into) return;
    if (failed) into.errors++;
    into.ms.push(ms);
    into.results.push(n);
  };

  let server: LanguageServer | undefined;
  try {
    for (const [i, p] of warmup.entries()) {
      if (i % 25 === 0) progress(`(c) warming sextant up: ${i}/${warmup.length}…`);
      await sextantDef(p);
      await sextantRefs(p);
    }
    if (typeof Lsp !== 'string') {
      progress('(c) starting typescript-language-server and opening the warm-up files…');
      server = await Lsp.start(c.root);
      for (const path of new Set(warmup.map((p) => p.path))) await server.open(path);
      // The project loads on the first request; then one pass over the warm-up half, as sextant had.
      for (const [i, p] of warmup.entries()) {
        if (i % 10 === 0) progress(`(c) warming typescript-language-server up: ${i}/${warmup.length}…`);
        await lspCall(() => server!.definition(p.path, p.line - 1, p.column - 1));
        await lspCall(() => server!.references(p.path, p.line - 1, p.column - 1, true));
      }
    }
    // `settle`: every ask waits for the language server's background work first (see first asks below).
    const asks = (p: Position, sextantInto: PairSet, lspInto: PairSet | null | undefined, sextantFirst: boolean, settle = false) => {
      const settled = (ask: () => Promise<void>) => async () => {
        if (settle) await server?.settle();
        await ask();
      };
      const lspDef = settled(async () => {
        if (!server) return;
        // A client opens a file to ask about it: just before the server's first question there, outside its timing.
        await server.open(p.path);
        await lspCall(() => server!.definition(p.path, p.line - 1, p.column - 1), lspInto?.definition);
      });
      const lspRefs = settled(async () => {
        if (server) await lspCall(() => server!.references(p.path, p.line - 1, p.column - 1, true), lspInto?.references);
      });
      const def = settled(() => sextantDef(p, sextantInto.definition));
      const refs = settled(() => sextantRefs(p, sextantInto.references));
      return sextantFirst ? [def, lspDef, refs, lspRefs] : [lspDef, def, lspRefs, refs];
    };
    // After a didOpen the language server checks the file in the background for a while (its diagnostics): each
    // first ask, on either side, waits until that is done, so that neither is timed against the other's work for the
    // 2 cores, and both come after the same pause (a call after a pause costs more than one right after another).
    for (const [i, p] of fresh.entries()) {
      if (i % 10 === 0) progress(`(c) first asks: position ${i}/${fresh.length}…`);
      for (const ask of asks(p, section.first.sextant, section.first.lsp, i % 2 === 0, true)) await ask();
      await server?.settle();
      const t0 = performance.now();
      await mcp.client.ping();
      section.first.ping.ms.push(performance.now() - t0);
    }
    for (let round = 0; round < rounds; round++) {
      for (const [i, p] of positions.entries()) {
        if (i % 10 === 0) progress(`(c) warm latency: round ${round + 1}/${rounds}, position ${i}/${positions.length}…`);
        const t0 = performance.now();
        await mcp.client.ping();
        section.ping.ms.push(performance.now() - t0);
        for (const ask of asks(p, section.sextant, section.lsp, round % 2 === 0)) await ask();
      }
    }
  } finally {
    await server?.stop();
    await mcp.close();
  }
  return section;
}

interface Issue3Section {
  tools: string[];
  callHierarchy: Record<string, LatencySet> | null;
  callHierarchy_positions: number;
  callHierarchy_candidates: number;
  /** Candidates at a library function no index defines, left out (see below). */
  callHierarchy_library: number;
  workspaceSymbols: LatencySet | null;
  workspaceSymbols_queries: number;
  notes: string[];
}

/** Hooks for issue 3: measured only when the server lists the tools. */
async function benchIssue3(c: Corpus, mcp: Mcp, positions: readonly Position[], rounds: number): Promise<Issue3Section> {
  const tools = await mcp.toolNames();
  const section: Issue3Section = {
    tools,
    callHierarchy: null,
    callHierarchy_positions: 0,
    callHierarchy_candidates: 0,
    callHierarchy_library: 0,
    workspaceSymbols: null,
    workspaceSymbols_queries: 0,
    notes: [],
  };
  if (tools.includes('callHierarchy')) {
    // Callees and function or method names from the source (seeded), kept where sextant builds a hierarchy.
    const variants = [
      ['incoming', 1],
      ['incoming', 3],
      ['outgoing', 1],
      ['outgoing', 3],
    ] as const;
    const call = (p: Position, direction: string, depth: number) =>
      mcp.call('callHierarchy', { repo: c.slug, path: p.path, line: p.line, column: p.column, direction, depth });
    const chosen: Position[] = [];
    let tried = 0;
    for (const p of identifierCandidates(c.root, CALL_SAMPLE_SIZE * 6, { seed: SEED + 1, callable: true })) {
      if (chosen.length >= CALL_SAMPLE_SIZE) break;
      tried++;
      progress(`(issue 3) choosing callable positions: ${chosen.length}/${CALL_SAMPLE_SIZE}…`);
      const first = await call(p, 'incoming', 1);
      if (first.isError) continue;
      // A library function (`arr.push`) has a hierarchy too, rooted outside the index; the sample keeps the
      // functions the index defines, as runs before that answered them did, and counts the rest.
      if (first.result.item?.path === null) {
        section.callHierarchy_library++;
        continue;
      }
      chosen.push(p);
      for (const [direction, depth] of variants) await call(p, direction, depth); // warm-up
    }
    section.callHierarchy_positions = chosen.length;
    section.callHierarchy_candidates = tried;
    section.callHierarchy = {};
    for (const [direction, depth] of variants) section.callHierarchy[`${direction} depth ${depth}`] = latencySet();
    for (let round = 0; round < rounds; round++) {
      for (const [i, p] of chosen.entries()) {
        if (i % 10 === 0) progress(`(issue 3) callHierarchy: round ${round + 1}/${rounds}, position ${i}/${chosen.length}…`);
        for (const [direction, depth] of variants) {
          const set = section.callHierarchy[`${direction} depth ${depth}`]!;
          const t0 = performance.now();
          const r = await call(p, direction, depth);
          const elapsed = performance.now() - t0;
          if (r.isError) {
            set.errors++;
            continue;
          }
          set.ms.push(elapsed);
          set.results.push(r.result.calls?.length ?? 0);
        }
      }
    }
  } else section.notes.push('callHierarchy is not in tools/list yet: skipped');

  if (tools.includes('workspaceSymbols')) {
    // Substrings of the sampled names: whole names, and 3- to 5-letter pieces of them (seeded).
    const rng = prng(SEED + 3);
    const queries: string[] = [];
    for (const p of positions) {
      const name = p.name.replace(/^[$_]+/, '');
      if (name.length < 3) continue;
      if (rng() < 0.5) queries.push(name);
      else {
        const len = Math.min(name.length, 3 + Math.floor(rng() * 3));
        const start = Math.floor(rng() * (name.length - len + 1));
        queries.push(name.slice(start, start + len));
      }
    }
    section.workspaceSymbols_queries = queries.length;
    section.workspaceSymbols = latencySet();
    for (const q of queries) await mcp.call('workspaceSymbols', { repo: c.slug, query: q }); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const [i, q] of queries.entries()) {
        if (i % 20 === 0) progress(`(issue 3) workspaceSymbols: round ${round + 1}/${rounds}, query ${i}/${queries.length}…`);
        const t0 = performance.now();
        const r = await mcp.call('workspaceSymbols', { repo: c.slug, query: q });
        const elapsed = performance.now() - t0;
        if (r.isError) {
          section.workspaceSymbols.errors++;
          continue;
        }
        section.workspaceSymbols.ms.push(elapsed);
        section.workspaceSymbols.results.push(r.result.symbols?.length ?? 0);
      }
    }
  } else section.notes.push('workspaceSymbols is not in tools/list yet: skipped');
  return section;
}

// ---------------------------------------------------------------------------
// Report

const TARGETS = {
  index_ratio: 1.1,
  cold_ratio: 0.1,
  warm_p50_ratio: 0.1,
  warm_p99_ms: 5,
  /** callHierarchy p99 at depth 1 and at depth 3, both directions. */
  calls_depth1_p99_ms: 10,
  calls_depth3_p99_ms: 20,
  /** (d) sextant's own peak RSS of ingest, the most copies of the corpus over one copy: "does not grow", with room for noise. */
  rss_growth: 1.25,
};

function summarizeLatency(s: LatencySet) {
  return {
    n: s.ms.length,
    p50_ms: round(percentile(s.ms, 0.5), 3),
    p90_ms: round(percentile(s.ms, 0.9), 3),
    p99_ms: round(percentile(s.ms, 0.99), 3),
    max_ms: round(Math.max(...s.ms), 3),
    mean_results: round(s.results.reduce((a, b) => a + b, 0) / Math.max(1, s.results.length), 1),
    errors: s.errors,
  };
}

/** The p99 of repeated asks or of first asks, whichever is worse. */
function worseP99(repeated: LatencySet, first: LatencySet): number | null {
  const a = summarizeLatency(repeated).p99_ms;
  const b = summarizeLatency(first).p99_ms;
  return a === null || b === null ? (a ?? b) : Math.max(a, b);
}

function p99Target(value: number | null): { value: number | null; target: string; met: boolean | null } {
  return { value, target: `<= ${TARGETS.warm_p99_ms}`, met: value === null ? null : value <= TARGETS.warm_p99_ms };
}

function latencyRow(label: string, side: string, s: ReturnType<typeof summarizeLatency>): string[] {
  return [label, side, ms(s.p50_ms, 2), ms(s.p90_ms, 2), ms(s.p99_ms, 2), ms(s.max_ms, 1), String(s.mean_results), String(s.errors)];
}

function verdict(ok: boolean | null): string {
  return ok === null ? 'n/a' : ok ? 'met' : 'MISSED';
}

function table(rows: (string | number)[][], header: string[]): string {
  const all = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    '  ' +
    r
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(all[0]!), line(widths.map((w) => '-'.repeat(w))), ...all.slice(1).map(line)].join('\n');
}

const ms = (x: number | null | undefined, digits = 1) =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : `${x.toFixed(digits)} ms`;
const sec = (x: number) => `${(x / 1000).toFixed(2)} s`;
const mb = (kb: number | undefined) => (kb === undefined ? '–' : `${(kb / 1024).toFixed(0)} MB`);
const ratio = (x: number | null) => (x === null || !Number.isFinite(x) ? '–' : x.toFixed(3));
/** A target's value as judged: with more digits where three would read as the limit itself. */
const judged = (t: Target) => (t.value === null ? '–' : String(t.value));

// ---------------------------------------------------------------------------
// Main

type Target = { value: number | null; target: string; met: boolean | null };

function atMost(value: number | null, limit: number, digits = 3): Target {
  if (value === null || !Number.isFinite(value)) return { value: null, target: `<= ${limit}`, met: null };
  // Judged on the value itself, not on its rounding: 0.1004 misses <= 0.1, and is shown with the digits that say so.
  const shown = round(value, digits);
  return { value: shown === limit && value > limit ? round(value, digits + 2) : shown, target: `<= ${limit}`, met: value <= limit };
}

/**
 * (a), (b), (c) and issue 3 on one corpus: its figures, its targets, the
 * lines of its tables, and the registry of its last index (kept in `homes`).
 */
/**
 * Where sextant's wall time went, medians over the runs of the report's
 * phases_ms, with CLI start-up and exit (process wall minus the report's
 * duration) and each phase's share of the wall time. File texts overlap the
 * indexers, so they have no share.
 */
function indexPhases(index: IndexSection): { phase: string; ms: number; share: number | null }[] {
  const runs = index.runs.filter((r) => r.sextant.report.phases_ms);
  if (runs.length === 0) return [];
  const wall = median(runs.map((r) => r.sextant.wallMs));
  const names = Object.keys(runs[0]!.sextant.report.phases_ms!);
  const rows = names.map((phase) => {
    const ms = median(runs.map((r) => r.sextant.report.phases_ms![phase] ?? 0));
    return { phase, ms, share: phase === 'blobs' ? null : ms / wall };
  });
  const cli = median(runs.map((r) => r.sextant.wallMs - r.sextant.report.duration_ms));
  rows.push({ phase: 'cli (start-up, registry open, exit)', ms: cli, share: cli / wall });
  rows.push({ phase: 'raw indexer alone', ms: median(runs.map((r) => r.raw.wallMs)), share: null });
  return rows;
}

function printPhases(index: IndexSection, print: (s?: string) => void): void {
  const rows = indexPhases(index);
  if (rows.length === 0) return;
  print("  where sextant index's wall time went (medians; blobs overlap the indexers):");
  print(
    table(
      rows.filter((r) => r.ms >= 0.5).map((r) => [`  ${r.phase}`, ms(r.ms, 0), r.share === null ? '' : `${(r.share * 100).toFixed(1)}%`]),
      ['', 'time', 'share'],
    ),
  );
}

/** Section (a) alone (`--only index`): index wall time vs the raw indexer, with the phases, per corpus. */
async function benchIndexOnly(corpora: readonly Corpus[], runs: number, print: (s?: string) => void) {
  const section: {
    corpus: string;
    ratio: number | null;
    sextant_wall_ms: number | null;
    raw_wall_ms: number | null;
    /** CPU medians: sextant's own process, sextant with its indexer child, the raw indexer (GNU time; null without it). */
    cpu_ms: { sextant_own: number | null; sextant_tree: number | null; raw: number | null };
    phases: ReturnType<typeof indexPhases>;
  }[] = [];
  const targets: Record<string, Target> = {};
  for (const c of corpora) {
    const index = await benchIndex(c, runs);
    removeDir(index.runs.at(-1)!.sextant.home);
    const indexRatio = median(index.runs.map((r) => r.sextant.wallMs / r.raw.wallMs));
    const sWall = median(index.runs.map((r) => r.sextant.wallMs));
    const rWall = median(index.runs.map((r) => r.raw.wallMs));
    const cpu = {
      sextant_own: round(median(index.runs.flatMap((r) => (r.sextant.own ? [r.sextant.own.cpuMs] : []))), 0),
      sextant_tree: round(median(index.runs.flatMap((r) => (r.sextant.tree ? [r.sextant.tree.cpuMs] : []))), 0),
      raw: round(median(index.runs.flatMap((r) => (r.raw.tree ? [r.raw.tree.cpuMs] : []))), 0),
    };
    section.push({
      corpus: c.name,
      ratio: round(indexRatio, 3),
      sextant_wall_ms: round(sWall, 0),
      raw_wall_ms: round(rWall, 0),
      cpu_ms: cpu,
      phases: indexPhases(index),
    });
    targets[`index_ratio ${c.name}`] = atMost(indexRatio, TARGETS.index_ratio);
    print(`== ${c.name}: ${c.tsFiles} source files, ${index.runs.at(-1)!.sextant.report.occurrences.toLocaleString('en-US')} occurrences`);
    print(
      table(
        [
          ...index.runs.map((r, i) => [`run ${i + 1} (${r.order})`, sec(r.sextant.wallMs), sec(r.raw.wallMs), ratio(r.sextant.wallMs / r.raw.wallMs)]),
          ['median', sec(sWall), sec(rWall), ratio(indexRatio)],
        ],
        ['', 'sextant', 'scip-typescript', 'ratio'],
      ),
    );
    printPhases(index, print);
    if (cpu.sextant_tree !== null && cpu.raw !== null)
      print(
        `  CPU (medians): sextant process ${sec(cpu.sextant_own ?? NaN)}, sextant + indexer child ${sec(cpu.sextant_tree)}, ` +
          `scip-typescript alone ${sec(cpu.raw)} (CPU ratio ${ratio(cpu.sextant_tree / cpu.raw)})`,
      );
    print();
  }
  return { section, targets };
}

async function benchCorpus(
  c: Corpus,
  options: Options,
  Lsp: LanguageServerClass | string,
  homes: string[],
): Promise<{ result: Record<string, unknown>; targets: Record<string, Target>; lines: string[] }> {
  const out: string[] = [];
  const print = (s = '') => out.push(s);

  // (a) sextant index vs the raw indexer over the same projects, alternating.
  const index = await benchIndex(c, options.runs);
  const last = index.runs.at(-1)!.sextant;
  homes.push(last.home);
  const sWall = median(index.runs.map((r) => r.sextant.wallMs));
  const rWall = median(index.runs.map((r) => r.raw.wallMs));
  // Each pair ran back to back, so the median of the pair ratios is the least disturbed by load that comes and goes.
  const pairRatios = index.runs.map((r) => r.sextant.wallMs / r.raw.wallMs);
  const indexRatio = median(pairRatios);
  const phase = {
    wall_ms: sWall,
    report_duration_ms: median(index.runs.map((r) => r.sextant.report.duration_ms)),
    indexer_ms: median(index.runs.map((r) => r.sextant.report.indexers.reduce((a, x) => a + x.duration_ms, 0))),
    cli_overhead_ms: median(index.runs.map((r) => r.sextant.wallMs - r.sextant.report.duration_ms)),
    in_process_other_ms: median(
      index.runs.map((r) => r.sextant.report.duration_ms - r.sextant.report.indexers.reduce((a, x) => a + x.duration_ms, 0)),
    ),
    own_cpu_ms: median(index.runs.flatMap((r) => (r.sextant.own ? [r.sextant.own.cpuMs] : []))),
    tree_cpu_ms: median(index.runs.flatMap((r) => (r.sextant.tree ? [r.sextant.tree.cpuMs] : []))),
    raw_cpu_ms: median(index.runs.flatMap((r) => (r.raw.tree ? [r.raw.tree.cpuMs] : []))),
  };
  const occurrences = last.report.occurrences;
  const sampleNotes: string[] = [];

  // Positions, with a long-lived sextant session that (c) and issue 3 reuse.
  progress(`${c.name}: starting sextant mcp…`);
  const mcp = await Mcp.start(last.home);
  let warm: WarmSection;
  let issue3: Issue3Section;
  let cold: ColdSection;
  try {
    const sample = await chooseSample(c, mcp);
    if (sample.positions.length < 200)
      sampleNotes.push(`only ${sample.positions.length} sampled positions resolved to a symbol (fewer than 200)`);
    if (sample.positions.length === 0) throw new Error(`${c.name}: no sampled position resolved to a symbol`);
    // (b) cold start, before (c) so that no language server is running meanwhile.
    const coldAt = coldPosition(c, sample.positions);
    cold = await benchCold(c, last.home, coldAt, options.runs, Lsp);
    warm = await benchWarm(c, last.home, sample.positions, sample.candidates, options.runs, Lsp);
    issue3 = await benchIssue3(c, mcp, sample.positions, options.runs);
  } finally {
    await mcp.close();
  }

  // ---- figures
  const coldS = median(cold.sextant.map((r) => r.total_ms));
  const coldHandshake = median(cold.sextant.map((r) => r.handshake_ms));
  const coldList = median(cold.sextant.map((r) => r.list_ms));
  const coldL = cold.lsp ? median(cold.lsp.map((r) => r.total_ms)) : NaN;
  const coldLStart = cold.lsp ? median(cold.lsp.map((r) => r.start_ms)) : NaN;
  const coldPairs = cold.lsp ? cold.sextant.map((r, i) => r.total_ms / cold.lsp![i]!.total_ms) : null;
  const coldRatio = coldPairs ? median(coldPairs) : null;
  const nodeMs = median(cold.node_ms);
  const sd = summarizeLatency(warm.sextant.definition);
  const sr = summarizeLatency(warm.sextant.references);
  const ld = warm.lsp ? summarizeLatency(warm.lsp.definition) : null;
  const lr = warm.lsp ? summarizeLatency(warm.lsp.references) : null;
  const ping = summarizeLatency(warm.ping);
  const p50Ratio = (s: { p50_ms: number | null }, l: { p50_ms: number | null } | null) =>
    l && s.p50_ms !== null && l.p50_ms ? s.p50_ms / l.p50_ms : null;
  const defRatio = p50Ratio(sd, ld);
  const refRatio = p50Ratio(sr, lr);
  const fsd = summarizeLatency(warm.first.sextant.definition);
  const fsr = summarizeLatency(warm.first.sextant.references);
  const fld = warm.first.lsp ? summarizeLatency(warm.first.lsp.definition) : null;
  const flr = warm.first.lsp ? summarizeLatency(warm.first.lsp.references) : null;
  const firstDefRatio = p50Ratio(fsd, fld);
  const firstRefRatio = p50Ratio(fsr, flr);
  const calls = issue3.callHierarchy
    ? Object.fromEntries(Object.entries(issue3.callHierarchy).map(([k, v]) => [k, summarizeLatency(v)]))
    : null;
  const worstCalls = (depth: number) =>
    calls
      ? Math.max(...Object.entries(calls).flatMap(([k, v]) => (k.endsWith(`depth ${depth}`) && v.p99_ms !== null ? [v.p99_ms] : [])))
      : null;

  const targets: Record<string, Target> = {
    index_ratio: atMost(indexRatio, TARGETS.index_ratio),
    cold_ratio: atMost(coldRatio, TARGETS.cold_ratio),
    definition_p50_ratio: atMost(firstDefRatio, TARGETS.warm_p50_ratio),
    references_p50_ratio: atMost(firstRefRatio, TARGETS.warm_p50_ratio),
    definition_p50_ratio_repeated: atMost(defRatio, TARGETS.warm_p50_ratio),
    references_p50_ratio_repeated: atMost(refRatio, TARGETS.warm_p50_ratio),
    // Over first and repeated asks alike: the worse of the two.
    definition_p99_ms: atMost(worseP99(warm.sextant.definition, warm.first.sextant.definition), TARGETS.warm_p99_ms, 2),
    references_p99_ms: atMost(worseP99(warm.sextant.references, warm.first.sextant.references), TARGETS.warm_p99_ms, 2),
    callHierarchy_depth1_p99_ms: atMost(worstCalls(1), TARGETS.calls_depth1_p99_ms, 2),
    callHierarchy_depth3_p99_ms: atMost(worstCalls(3), TARGETS.calls_depth3_p99_ms, 2),
  };

  const result = {
    corpus: { name: c.name, root: c.root, source_files: c.tsFiles, occurrences, documents: last.report.documents },
    index: {
      sextant_wall_ms: index.runs.map((r) => round(r.sextant.wallMs, 0)),
      raw_wall_ms: index.runs.map((r) => round(r.raw.wallMs, 0)),
      order: index.runs.map((r) => r.order),
      pair_ratios: pairRatios.map((x) => round(x, 3)),
      median_sextant_ms: round(sWall, 0),
      median_raw_ms: round(rWall, 0),
      ratio: round(indexRatio, 3),
      ratio_of_medians: round(sWall / rWall, 3),
      phases: Object.fromEntries(Object.entries(phase).map(([k, v]) => [k, round(v, 0)])),
      raw_indexer_max_rss_mb: round(median(index.runs.flatMap((r) => (r.raw.tree ? [r.raw.tree.maxRssKb] : []))) / 1024, 1),
    },
    cold_start: {
      position: cold.position,
      node_e0_ms: round(nodeMs, 1),
      sextant_ms: cold.sextant.map((r) => round(r.total_ms, 1)),
      sextant_median_ms: round(coldS, 1),
      sextant_handshake_median_ms: round(coldHandshake, 1),
      sextant_tools_list_median_ms: round(coldList, 1),
      sextant_references: cold.sextant[0]?.references ?? null,
      lsp_ms: cold.lsp?.map((r) => round(r.total_ms, 1)) ?? null,
      lsp_median_ms: round(coldL, 1),
      lsp_start_median_ms: round(coldLStart, 1),
      lsp_references: cold.lsp?.[0]?.references ?? null,
      pair_ratios: coldPairs?.map((x) => round(x, 3)) ?? null,
      ratio: coldRatio === null ? null : round(coldRatio, 3),
      first_burst: burstSummary(cold),
      ...(cold.lsp_note ? { lsp_note: cold.lsp_note } : {}),
    },
    warm: {
      sample: warm.sample,
      rounds: warm.rounds,
      mcp_ping: ping,
      sextant: { definition: sd, references: sr, references_truncated: warm.sextant.references_truncated },
      lsp: ld && lr ? { definition: ld, references: lr } : null,
      definition_p50_ratio: defRatio === null ? null : round(defRatio, 3),
      references_p50_ratio: refRatio === null ? null : round(refRatio, 3),
      first_asks: {
        positions: warm.first.positions,
        files: warm.first.files,
        sextant: { definition: fsd, references: fsr },
        lsp: fld && flr ? { definition: fld, references: flr } : null,
        definition_p50_ratio: firstDefRatio === null ? null : round(firstDefRatio, 3),
        references_p50_ratio: firstRefRatio === null ? null : round(firstRefRatio, 3),
        mcp_ping_after_pause: summarizeLatency(warm.first.ping),
      },
      references_p99_not_truncated_ms: { first: wholeP99(warm.first.sextant.references), repeated: wholeP99(warm.sextant.references) },
      notes: sampleNotes,
      ...(warm.lsp_note ? { lsp_note: warm.lsp_note } : {}),
    },
    issue3: {
      tools: issue3.tools,
      callHierarchy: calls,
      callHierarchy_positions: issue3.callHierarchy_positions,
      callHierarchy_candidates: issue3.callHierarchy_candidates,
      callHierarchy_library: issue3.callHierarchy_library,
      workspaceSymbols: issue3.workspaceSymbols ? summarizeLatency(issue3.workspaceSymbols) : null,
      workspaceSymbols_queries: issue3.workspaceSymbols_queries,
      notes: issue3.notes,
    },
    targets,
  };

  // ---- tables
  print(
    `== ${c.name}: ${c.tsFiles} source files, ${occurrences.toLocaleString('en-US')} occurrences; ` +
      `${options.runs} runs per comparison, alternating sides; medians`,
  );
  print();
  print(`(a) index wall time: \`sextant index --json\` (fresh SEXTANT_HOME) vs scip-typescript alone over the same projects`);
  print(
    table(
      [
        ...index.runs.map((r, i) => [`run ${i + 1} (${r.order})`, sec(r.sextant.wallMs), sec(r.raw.wallMs), ratio(r.sextant.wallMs / r.raw.wallMs)]),
        ['median', sec(sWall), sec(rWall), ratio(indexRatio)],
      ],
      ['', 'sextant', 'scip-typescript', 'ratio'],
    ),
  );
  print(`  ratio: the median of the per-run ratios (each pair ran back to back); the ratio of the medians is ${ratio(sWall / rWall)}`);
  print(`  target ratio <= ${TARGETS.index_ratio}: ${verdict(targets.index_ratio!.met)}`);
  print(
    `  sextant phases (medians): indexer run with streamed ingest ${sec(phase.indexer_ms)}, rest in process (worktree, blobs, publish) ` +
      `${sec(phase.in_process_other_ms)}, CLI start-up and exit ${sec(phase.cli_overhead_ms)}`,
  );
  printPhases(index, print);
  if (Number.isFinite(phase.own_cpu_ms))
    print(
      `  CPU (medians): sextant process ${sec(phase.own_cpu_ms)}, sextant + indexer child ${sec(phase.tree_cpu_ms)}, ` +
        `scip-typescript alone ${sec(phase.raw_cpu_ms)} (CPU ratio ${ratio(phase.tree_cpu_ms / phase.raw_cpu_ms)}, less sensitive to load than wall time)`,
    );
  print();
  print(
    `(b) cold start: spawn -> handshake -> tools/list -> first findReferences answer (official MCP client, validating) at ` +
      `${cold.position.path}:${cold.position.line}:${cold.position.column} (${cold.position.name})`,
  );
  const coldRows: (string | number)[][] = [
    [
      'sextant mcp (MCP client)',
      ms(coldS),
      `handshake ${ms(coldHandshake)}, tools/list ${ms(coldList)}`,
      String(cold.sextant[0]?.references ?? '–'),
    ],
  ];
  if (cold.lsp) coldRows.push(['typescript-language-server', ms(coldL), `initialize ${ms(coldLStart)}`, String(cold.lsp[0]?.references ?? '–')]);
  coldRows.push(['node -e 0 (for scale)', ms(nodeMs), '', '']);
  print(table(coldRows, ['', 'median', 'of which', 'references']));
  print(burstLine(burstSummary(cold)));
  print(
    cold.lsp
      ? `  ratio sextant / language server (median of the per-run ratios) ${judged(targets.cold_ratio!)}; target <= ${TARGETS.cold_ratio}: ${verdict(targets.cold_ratio!.met)}`
      : `  language server side skipped: ${cold.lsp_note}`,
  );
  print();
  print(
    `(c) warm latency, client round trip (results validated by the client): ${warm.sample.positions} identifier positions in ${warm.sample.files} files ` +
      `(seed ${SEED.toString(16)}; ${warm.sample.without_symbol} of ${warm.sample.candidates} candidates had no symbol)`,
  );
  for (const note of sampleNotes) print(`  note: ${note}`);
  print(
    `  first asks: both servers warmed up on the positions of every other file, then asked once at the ${warm.first.positions} positions ` +
      `of the other ${warm.first.files} files (the language server is sent didOpen for each just before its first question there)`,
  );
  const firstRows: string[][] = [latencyRow('goToDefinition', 'sextant', fsd)];
  if (fld) firstRows.push(latencyRow('', 'language server', fld));
  firstRows.push(latencyRow('findReferences', 'sextant', fsr));
  if (flr) firstRows.push(latencyRow('', 'language server', flr));
  firstRows.push(latencyRow('MCP ping after the same pause (floor)', 'sextant', summarizeLatency(warm.first.ping)).slice(0, 6));
  print(table(firstRows, ['', '', 'p50', 'p90', 'p99', 'max', 'mean results', 'errors']));
  if (warm.first.lsp)
    print(
      `  p50 ratio sextant / language server, first asks: goToDefinition ${judged(targets.definition_p50_ratio!)} (${verdict(targets.definition_p50_ratio!.met)}), ` +
        `findReferences ${judged(targets.references_p50_ratio!)} (${verdict(targets.references_p50_ratio!.met)}); target <= ${TARGETS.warm_p50_ratio}`,
    );
  print(`  repeated asks: then ${warm.rounds} rounds over every position, each asked again`);
  const warmRows: string[][] = [latencyRow('goToDefinition', 'sextant', sd)];
  if (ld) warmRows.push(latencyRow('', 'language server', ld));
  warmRows.push(latencyRow('findReferences', 'sextant', sr));
  if (lr) warmRows.push(latencyRow('', 'language server', lr));
  warmRows.push(latencyRow('MCP ping (transport floor)', 'sextant', ping).slice(0, 6));
  print(table(warmRows, ['', '', 'p50', 'p90', 'p99', 'max', 'mean results', 'errors']));
  if (warm.lsp) {
    print(
      `  p50 ratio sextant / language server, repeated asks: goToDefinition ${judged(targets.definition_p50_ratio_repeated!)} (${verdict(targets.definition_p50_ratio_repeated!.met)}), ` +
        `findReferences ${judged(targets.references_p50_ratio_repeated!)} (${verdict(targets.references_p50_ratio_repeated!.met)}); target <= ${TARGETS.warm_p50_ratio}`,
    );
  } else print(`  language server side skipped: ${warm.lsp_note}`);
  print(
    `  sextant p99 (the worse of first and repeated asks) target <= ${TARGETS.warm_p99_ms} ms: goToDefinition ${verdict(targets.definition_p99_ms!.met)}, findReferences ${verdict(targets.references_p99_ms!.met)}` +
      ` (findReferences returns at most 200 by default; ${warm.sextant.references_truncated} answers were truncated)`,
  );
  print(
    `  findReferences p99 over the answers of at most 200 references (not truncated), as the scale section counts them: ` +
      `first asks ${ms(wholeP99(warm.first.sextant.references))}, repeated asks ${ms(wholeP99(warm.sextant.references))}`,
  );
  print();
  print(`issue 3 (callHierarchy, workspaceSymbols)`);
  if (issue3.callHierarchy || issue3.workspaceSymbols) {
    const rows: string[][] = [];
    for (const [k, v] of Object.entries(calls ?? {})) rows.push(latencyRow(`callHierarchy ${k}`, 'sextant', v));
    if (issue3.workspaceSymbols)
      rows.push(latencyRow(`workspaceSymbols (${issue3.workspaceSymbols_queries} queries)`, 'sextant', summarizeLatency(issue3.workspaceSymbols)));
    print(table(rows, ['', '', 'p50', 'p90', 'p99', 'max', 'mean results', 'errors']));
    if (issue3.callHierarchy)
      print(
        `  callHierarchy at ${issue3.callHierarchy_positions} callable positions (seeded callees and function/method names; ` +
          `${issue3.callHierarchy_candidates - issue3.callHierarchy_positions - issue3.callHierarchy_library} of ${issue3.callHierarchy_candidates} candidates were not callable for sextant, ` +
          `${issue3.callHierarchy_library} were library functions no index defines, left out); ` +
          `latencies of successful calls only, no language-server side; targets p99 <= ${TARGETS.calls_depth1_p99_ms} ms at depth 1, <= ${TARGETS.calls_depth3_p99_ms} ms at depth 3`,
      );
  }
  for (const note of issue3.notes) print(`  ${note}`);
  return { result, targets, lines: out };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const loadBefore = loadavg()[0]!;
  const owned: string[] = [];
  const homes: string[] = [];
  const out: string[] = [];
  const print = (s = '') => out.push(s);
  const machine = (loadAfter: number) => ({
    cpus: cpus().length,
    memory_gb: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    load_average_1m: { before: round(loadBefore, 2), after: round(loadAfter, 2) },
  });
  const printLoad = (loadAfter: number) =>
    print(
      `load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after` +
        (Math.max(loadBefore, loadAfter) > cpus().length
          ? ': the machine was busy with other work, so absolute times are inflated; the ratios are side by side'
          : ''),
    );
  const printTargets = (targets: Record<string, Target>) =>
    print(
      table(
        Object.entries(targets).map(([k, t]) => [k, t.value === null ? '–' : String(t.value), t.target, verdict(t.met)]),
        ['', 'value', 'target', ''],
      ),
    );

  try {
    if (options.only === 'fuzz' || options.only === 'envelope') return await benchFuzzOnly(options.only, options.json);
    if (options.only === 'load') return await benchLoad(options.json, progress, table);
    if (options.only === 'publish') return await benchPublish(options.runs, options.json, progress, table);
    if (options.only === 'lsp') return await benchLsp(options.json, progress, table);
    if (options.only === 'scale') return await benchScale(options.scale, options.runsGiven ? options.runs : SCALE_RUNS, options.json, progress, table);
    // A section run alone: measured, then printed with its targets, or as one JSON object.
    const alone = (name: string, label: string, section: unknown, targets: Record<string, Target>, printSection: () => void) => {
      progressDone();
      const totalS = (performance.now() - started) / 1000;
      const loadAfter = loadavg()[0]!;
      if (options.json) {
        process.stdout.write(JSON.stringify({ only: name, machine: machine(loadAfter), [name]: section, targets, total_seconds: round(totalS, 1) }) + '\n');
        return;
      }
      print(`sextant bench — section ${label} alone (--only ${name}); ${cpus().length} CPUs, node ${process.version}`);
      printLoad(loadAfter);
      print();
      printSection();
      print();
      print('targets');
      printTargets(targets);
      print(`\ntotal ${totalS.toFixed(0)} s`);
      process.stdout.write(out.join('\n') + '\n');
    };
    if (options.only === 'lifecycle') {
      const lifecycle = await benchLifecycle(Math.min(options.runs, 3), progress);
      return alone('lifecycle', '(l)', lifecycle, lifecycle.targets, () => printLifecycle(lifecycle, print, table));
    }
    if (options.only === 'edits') {
      const edits = await benchEdits(Math.min(options.runs, 5), progress);
      const worst = Math.max(...edits.tools.map((t) => t.median_paired_ratio));
      return alone('edits', '(e)', edits, { edited_over_clean_warm: atMost(worst, EDITS_TARGET) }, () => printEdits(edits, print, table));
    }
    if (options.only === 'search') {
      const search = await benchSearch(options.runs, progress);
      return alone('search', '(s)', search, searchTargets(search), () => printSearch(search, print, table));
    }
    if (options.only === 'memory') {
      const { section: memory } = await benchMemory(Math.min(options.runs, MEMORY_RUNS), { include: true, keep: false }, owned, homes);
      return alone('memory', '(d)', memory, { ingest_rss_largest_over_smallest: memoryTarget(memory) }, () => printMemory(memory, print));
    }

    const corpora: Corpus[] = [];
    if (options.repo) corpora.push(corpus(basename(options.repo), options.repo, false));
    else
      for (const key of options.corpora) {
        progress(`preparing ${CORPORA[key].name}…`);
        const root = CORPORA[key].make();
        owned.push(dirname(root));
        corpora.push(corpus(CORPORA[key].name, root, true));
      }
    if (options.only === 'index') {
      const body: string[] = [];
      const index = await benchIndexOnly(corpora, options.runs, (s = '') => body.push(s));
      return alone('index', '(a)', index.section, index.targets, () => body.forEach((line) => print(line)));
    }
    const Lsp = await languageServerClass();
    if (options.only === 'cold') {
      const results = await benchColdOnly(corpora, options.runs, Lsp, homes);
      const targets = Object.fromEntries(results.map((r) => [`cold_ratio ${r.corpus}`, atMost(r.ratio, TARGETS.cold_ratio)]));
      const summary = results.map((r) => ({
        corpus: r.corpus,
        position: r.cold.position,
        sextant_median_ms: round(median(r.cold.sextant.map((x) => x.total_ms)), 1),
        lsp_median_ms: r.cold.lsp ? round(median(r.cold.lsp.map((x) => x.total_ms)), 1) : null,
        ratio: r.ratio === null ? null : round(r.ratio, 3),
        node_e0_median_ms: round(median(r.cold.node_ms), 1),
        help_median_ms: round(median(r.help_ms), 1),
        first_burst: burstSummary(r.cold),
        breakdown: breakdownRows(r.breakdown, median).map((row) => ({
          ...row,
          ends_ms: row.ends_ms === null ? null : round(row.ends_ms, 1),
          takes_ms: round(row.takes_ms, 1),
        })),
        ...(r.cold.lsp_note ? { lsp_note: r.cold.lsp_note } : {}),
      }));
      return alone('cold', '(b)', summary, targets, () => {
        print(
          table(
            summary.map((r) => [r.corpus, ms(r.sextant_median_ms), ms(r.lsp_median_ms), ratio(r.ratio), ms(r.node_e0_median_ms), ms(r.help_median_ms)]),
            ['', 'sextant mcp', 'language server', 'ratio', 'node -e 0', 'sextant --help'],
          ),
        );
        print('  medians; the ratio is the median of the per-run ratios, each pair run back to back');
        for (const r of summary) print(`${r.corpus}:\n${burstLine(r.first_burst)}`);
        for (const r of summary) {
          print();
          print(`breakdown on ${r.corpus} (${r.position.path}:${r.position.line}:${r.position.column}, ${r.position.name}): medians over ${options.runs} runs, ms from spawn`);
          print(
            table(
              r.breakdown.map((row) => [`${row.track}: ${row.step}`, row.ends_ms === null ? '' : ms(row.ends_ms), ms(row.takes_ms)]),
              ['', 'ends at', 'takes'],
            ),
          );
        }
      });
    }
    const perCorpus: Awaited<ReturnType<typeof benchCorpus>>[] = [];
    for (const c of corpora) {
      perCorpus.push(await benchCorpus(c, options, Lsp, homes));
      // Each corpus' registry is only queried by its own sections.
      removeDir(homes.pop()!);
    }

    // (d) ingest memory: copies of the zod sources, then effect@4.1.0, whose registry (c') reuses.
    let memory: MemorySection | undefined;
    let largeWarm: WarmSection | undefined;
    let large: { corpus: Corpus; home: string } | undefined;
    let rawRssKb = NaN;
    if (options.only !== 'speed') {
      const m = await benchMemory(
        Math.min(options.runs, MEMORY_RUNS),
        options.repo
          ? {
              include: false,
              note: `with --repo, effect@4.1.0 is left out (and (c') with it); the copies are of zod@4.6.7 whatever the repository`,
            }
          : { include: true, keep: true },
        owned,
        homes,
      );
      memory = m.section;
      large = m.large;
      const rss = perCorpus[0]?.result.index as { raw_indexer_max_rss_mb?: number | null } | undefined;
      rawRssKb = (rss?.raw_indexer_max_rss_mb ?? NaN) * 1024;
      // (c') sextant alone on the largest index: does warm latency hold as the index grows?
      if (large) {
        const largeRounds = Math.min(options.runs, 3);
        const mcpLarge = await Mcp.start(large.home);
        try {
          const sample = await chooseSample(large.corpus, mcpLarge);
          largeWarm = await benchWarm(large.corpus, large.home, sample.positions, sample.candidates, largeRounds, 'not run on this corpus');
        } finally {
          await mcpLarge.close();
        }
        removeDir(large.home);
      }
    }
    // (s) code search, on corpora of its own.
    const search: SearchSection | null = options.repo || options.only === 'speed' ? null : await benchSearch(options.runs, progress);
    progressDone();

    const otherTargets: Record<string, Target> = {
      ...(largeWarm
        ? {
            large_definition_p99_ms: p99Target(worseP99(largeWarm.sextant.definition, largeWarm.first.sextant.definition)),
            large_references_p99_ms: p99Target(worseP99(largeWarm.sextant.references, largeWarm.first.sextant.references)),
          }
        : {}),
      ...(memory ? { ingest_rss_largest_over_smallest: memoryTarget(memory) } : {}),
      ...(search ? searchTargets(search) : {}),
    };
    const totalS = (performance.now() - started) / 1000;
    const loadAfter = loadavg()[0]!;
    if (options.json) {
      const result = {
        machine: machine(loadAfter),
        runs: options.runs,
        corpora: perCorpus.map((p) => p.result),
        warm_large: largeWarm
          ? {
              corpus: large!.corpus.name,
              occurrences: memory?.other?.occurrences ?? null,
              sample: largeWarm.sample,
              rounds: largeWarm.rounds,
              mcp_ping: summarizeLatency(largeWarm.ping),
              sextant: {
                definition: summarizeLatency(largeWarm.sextant.definition),
                references: summarizeLatency(largeWarm.sextant.references),
                references_truncated: largeWarm.sextant.references_truncated,
              },
              first_asks: {
                positions: largeWarm.first.positions,
                definition: summarizeLatency(largeWarm.first.sextant.definition),
                references: summarizeLatency(largeWarm.first.sextant.references),
              },
            }
          : null,
        memory: memory ?? null,
        search,
        targets: otherTargets,
        total_seconds: round(totalS, 1),
      };
      process.stdout.write(JSON.stringify(result) + '\n');
      return;
    }

    print(`sextant bench — ${corpora.map((c) => c.name).join(', ')}; ${cpus().length} CPUs, node ${process.version}`);
    printLoad(loadAfter);
    for (const p of perCorpus) {
      print();
      for (const line of p.lines) print(line);
    }
    if (largeWarm) {
      const occ = memory?.other?.occurrences;
      print();
      print(
        `(c') warm latency, sextant alone, on the largest index: ${large!.corpus.name} (${occ?.toLocaleString('en-US') ?? '?'} occurrences), ` +
          `${largeWarm.sample.positions} positions in ${largeWarm.sample.files} files, ${largeWarm.rounds} rounds after a warm-up pass`,
      );
      print(
        table(
          [
            latencyRow('goToDefinition', 'sextant', summarizeLatency(largeWarm.sextant.definition)),
            latencyRow('findReferences', 'sextant', summarizeLatency(largeWarm.sextant.references)),
            latencyRow(`goToDefinition, first asks (${largeWarm.first.positions})`, 'sextant', summarizeLatency(largeWarm.first.sextant.definition)),
            latencyRow('findReferences, first asks', 'sextant', summarizeLatency(largeWarm.first.sextant.references)),
            latencyRow('MCP ping (transport floor)', 'sextant', summarizeLatency(largeWarm.ping)).slice(0, 6),
          ],
          ['', '', 'p50', 'p90', 'p99', 'max', 'mean results', 'errors'],
        ),
      );
    }
    if (memory) {
      print();
      printMemory(memory, print, Number.isFinite(rawRssKb) ? rawRssKb : undefined);
    }
    if (search) {
      print();
      printSearch(search, print, table);
    }
    print();
    print('targets, side by side (each corpus measured in this run)');
    const names = Object.keys(perCorpus[0]?.targets ?? {});
    print(
      table(
        names.map((k) => [
          k,
          perCorpus[0]!.targets[k]!.target,
          ...perCorpus.map((p) => {
            const t = p.targets[k]!;
            return `${t.value === null ? '–' : String(t.value)} ${t.met === null ? '' : t.met ? 'met' : 'MISSED'}`.trim();
          }),
        ]),
        ['', 'target', ...corpora.map((c) => c.name)],
      ),
    );
    if (Object.keys(otherTargets).length > 0) {
      print();
      printTargets(otherTargets);
    }
    print(`\ntotal ${totalS.toFixed(0)} s`);
    process.stdout.write(out.join('\n') + '\n');
  } finally {
    progressDone();
    for (const dir of [...owned, ...homes]) removeDir(dir);
    // The registries of (a) that were not kept were removed as the runs went.
  }
}

main().catch((error) => {
  progressDone();
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
