// Many MCP clients querying one registry while `sextant index` publishes a
// new commit into it: the shared part of test/load.test.ts (CI scale) and
// scripts/bench-load.ts (`npm run bench -- --only load`).
//
// The deployment it stands for: several agents, each with its own
// `sextant mcp` process (stdio: one client per server), over one registry
// file. Commit A is indexed first; commit B inserts lines at the top of some
// files (every position in them moves) and adds a symbol. Probes are asked at
// positions in the files B leaves alone, about things defined in the files it
// moves, so the same request is valid at both commits and answers
// differently. Expected answers are asked of the registry itself: at A before
// the load, with the worktree at A and again at B (A's index then answers for
// B's text), at B after it (and B's are checked against the text: each
// definition in a moved file is exactly `inserted` lines further down).
// During the load every answer must equal the expected answer of the commit
// it names; a client that has seen B never sees A again; and no request sent
// after any client received B is answered from A.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SEXTANT_BIN } from './paths.js';
import { trackedFiles } from './positions.js';
import { commitAll } from './repos.js';
import { indexOrThrow } from './sextant.js';
import { prng, shuffle } from './stats.js';

export const TOOLS = [
  'goToDefinition',
  'findReferences',
  'workspaceSymbols',
  'documentSymbols',
  'callHierarchy',
  'searchCode',
  'getIndexStatus',
  'get_index_status',
] as const;
export type Tool = (typeof TOOLS)[number];

/** The symbol commit B adds, and the text of the lines it inserts. */
export const ADDED_SYMBOL = 'sextantLoadProbeAdded';
const INSERTED_TEXT = 'sextant load probe: a line inserted at commit B';

export interface Probe {
  tool: Tool;
  args: Record<string, unknown>;
}

export interface LoadSetup {
  root: string;
  slug: string;
  env: NodeJS.ProcessEnv;
  commitA: string;
  commitB: string;
  /** Files B moves down by `inserted` lines. */
  shifted: string[];
  inserted: number;
  probes: Probe[];
  /** Normalized answer of each probe at A with the worktree at A: the index as published. */
  indexedA: string[];
  /** Normalized answer of each probe at A with the worktree at B: what clients see of A during the load. */
  expectedA: string[];
  /** How many prep calls were made to find the probes. */
  prepCalls: number;
}

// ---------------------------------------------------------------------------
// Sessions

export interface Session {
  client: Client;
  pid: number;
  stderr: () => string;
  close(): Promise<void>;
}

/** One `sextant mcp` server process and its official SDK client (which checks results against the output schemas). */
export async function openSession(env: NodeJS.ProcessEnv, name = 'sextant-load'): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SEXTANT_BIN, 'mcp'],
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4096)));
  const client = new Client({ name, version: '0' });
  await client.connect(transport);
  await client.listTools();
  const pid = transport.pid;
  if (pid === null) throw new Error('sextant mcp started without a process id');
  return { client, pid, stderr: () => stderr, close: () => client.close() };
}

export interface Answer {
  isError: boolean;
  result: any;
}

/** Calls a tool; a protocol error or a result failing its output schema throws. */
export async function ask(session: Session, probe: Probe): Promise<Answer> {
  const r = await session.client.callTool({ name: probe.tool, arguments: probe.args });
  return { isError: r.isError === true, result: r.structuredContent };
}

// ---------------------------------------------------------------------------
// Normalized answers

/** The commit an answer was computed at, as it says. */
export function commitOf(result: any): string | null {
  if (typeof result?.commit === 'string') return result.commit;
  const searched = result?.searched;
  if (Array.isArray(searched) && searched.length === 1 && typeof searched[0]?.commit === 'string') return searched[0].commit;
  // SRC's get_index_status names its commit in its envelope only.
  return typeof result?.meta?.source_revision === 'string' ? result.meta.source_revision : null;
}

/**
 * The parts of an answer that must not change between two asks at one
 * commit: everything but the envelope and timings. A status answer keeps what
 * describes the published index and the last run (its write lock, registry
 * size and check time move with the indexer).
 */
export function normalize(tool: Tool, result: any): string {
  if (tool === 'getIndexStatus') {
    const run = result.last_index_run;
    return JSON.stringify({
      commit: result.commit,
      indexed: result.indexed,
      status: result.status,
      totalFiles: result.totalFiles,
      languages: result.languages,
      searchCoverage: result.searchCoverage,
      last_index_run: run ? { outcome: run.outcome, state: run.state, commit: run.commit } : null,
    });
  }
  if (tool === 'get_index_status') {
    const { write_lock_present: _lock, ...data } = result.data;
    return JSON.stringify({ success: result.success, commit: result.meta.source_revision, data });
  }
  const { meta: _meta, duration_ms: _duration, ...rest } = result;
  return JSON.stringify(rest);
}

/**
 * At A, while B is being indexed, the status says so: the same published
 * index, the last run still indexing B. Any other status at A (a finished
 * run for B beside A's commit) mixes the two.
 */
export function statusWhileIndexing(expectedA: string, commitB: string): string {
  const a = JSON.parse(expectedA);
  return JSON.stringify({ ...a, status: 'indexing', last_index_run: { outcome: 'indexing', state: 'running', commit: commitB } });
}

// ---------------------------------------------------------------------------
// Setup: commit A indexed, commit B made, probes found

export interface SetupOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  /** Which TypeScript files B moves: a fraction of them, spread by a seeded shuffle. */
  shiftFraction: number;
  inserted: number;
  /** Probes per kind at most (positions, names, files). */
  perKind: number;
  /** Prep calls at most while looking for positions. */
  maxPrepCalls: number;
  seed: number;
}

/**
 * Indexes A (the repository's HEAD), finds the probes and asks them with the
 * worktree at A, then makes commit B on top of it (the worktree is left at B)
 * and asks them again: from then until B is published, A's index answers
 * adjusted to B's text (the worktree moved past it), and that is what a client
 * sees of A during the load.
 */
export async function setupLoad(options: SetupOptions): Promise<LoadSetup> {
  const { root, env } = options;
  const report = indexOrThrow(root, env);
  const slug: string = report.repo;
  const commitA: string = report.commit;
  const random = prng(options.seed);

  const sources = trackedFiles(root).filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'));
  const candidates = shuffle(
    sources.filter((f) => !readFileSync(join(root, f), 'utf8').startsWith('#!')),
    random,
  );
  const shiftCount = Math.max(1, Math.round(candidates.length * options.shiftFraction));
  const shifted = candidates.slice(0, shiftCount).sort();
  const unshifted = sources.filter((f) => !shifted.includes(f));
  if (unshifted.length === 0) throw new Error('every source file would move: lower shiftFraction');

  const session = await openSession(env, 'sextant-load-setup');
  try {
    const found = await findProbes(session, root, slug, shifted, unshifted, random, options);
    const indexedA = await expectedAnswers(session, found.probes, 'A');

    const header = Array.from({ length: options.inserted }, (_, i) => `// ${INSERTED_TEXT} (${i + 1} of ${options.inserted})\n`).join('');
    for (const f of shifted) {
      const text = readFileSync(join(root, f), 'utf8');
      const added = f === shifted[0] ? `${text.endsWith('\n') ? '' : '\n'}export const ${ADDED_SYMBOL} = 1;\n` : '';
      writeFileSync(join(root, f), header + text + added);
    }
    const commitB = commitAll(root, 'load: move definitions down, add a symbol');

    const expectedA = await expectedAnswers(session, found.probes, 'A');
    // Asked twice: the normalization leaves nothing that changes between two asks at one commit.
    const again = await expectedAnswers(session, found.probes, 'A');
    for (let i = 0; i < found.probes.length; i++) {
      if (again[i] !== expectedA[i]) throw new Error(`${describe(found.probes[i]!)} answers differently when asked twice at A`);
    }
    for (const answer of [...indexedA, ...expectedA].filter((_, i) => found.probes[i % found.probes.length]!.tool !== 'getIndexStatus')) {
      if (!answer.includes(commitA)) throw new Error(`a probe's expected answer at A does not name commit A: ${answer.slice(0, 200)}`);
    }
    return {
      root,
      slug,
      env,
      commitA,
      commitB,
      shifted,
      inserted: options.inserted,
      probes: found.probes,
      indexedA,
      expectedA,
      prepCalls: found.calls,
    };
  } finally {
    await session.close();
  }
}

export function describe(probe: Probe): string {
  return `${probe.tool} ${JSON.stringify(probe.args)}`;
}

/** Each probe's normalized answer; a probe that fails is a broken setup. */
export async function expectedAnswers(session: Session, probes: readonly Probe[], label: string): Promise<string[]> {
  const out: string[] = [];
  for (const probe of probes) {
    const a = await ask(session, probe);
    if (a.isError) throw new Error(`${describe(probe)} fails at ${label}: ${JSON.stringify(a.result)}`);
    out.push(normalize(probe.tool, a.result));
  }
  return out;
}

const KEYWORDS = new Set(
  (
    'abstract as async await break case catch class const continue debugger declare default delete do else enum export extends false ' +
    'finally for from function get if implements import in instanceof interface is keyof let new null of private protected public readonly ' +
    'return set static super switch this throw true try type typeof undefined var void while yield any boolean number string unknown never object symbol'
  ).split(' '),
);

/**
 * Positions in files B leaves alone whose definitions lie in files it moves;
 * from them, references and callers; the names defined there; the moved
 * files' outlines; searches whose matches move; the status.
 */
async function findProbes(
  session: Session,
  root: string,
  slug: string,
  shifted: readonly string[],
  unshifted: readonly string[],
  random: () => number,
  options: SetupOptions,
): Promise<{ probes: Probe[]; calls: number }> {
  const moved = new Set(shifted);
  const positions: { path: string; line: number; column: number }[] = [];
  const names = new Set<string>();
  const seenSymbols = new Set<string>();
  let calls = 0;
  const candidates: { path: string; line: number; column: number; name: string }[] = [];
  for (const path of unshifted) {
    const lines = readFileSync(join(root, path), 'utf8').split(/\r\n|\r|\n/);
    lines.forEach((text, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(text)) return;
      for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) {
        if (m[0].length < 3 || KEYWORDS.has(m[0])) continue;
        candidates.push({ path, line: i + 1, column: m.index! + 1, name: m[0] });
      }
    });
  }
  shuffle(candidates, random);
  const tried = new Set<string>();
  for (const c of candidates) {
    if (positions.length >= options.perKind || calls >= options.maxPrepCalls) break;
    if (tried.has(c.name)) continue;
    tried.add(c.name);
    calls++;
    const a = await ask(session, { tool: 'goToDefinition', args: { repo: slug, path: c.path, line: c.line, column: c.column } });
    if (a.isError || !a.result.found || a.result.source === 'search') continue;
    const defs = a.result.definitions as { path: string; name: string; kind: string; symbol?: string }[];
    // A module is its file, which starts on line 1 at both commits: only definitions inside files move.
    if (defs.some((d) => d.kind === 'module') || !defs.some((d) => moved.has(d.path))) continue;
    const key = defs.map((d) => d.symbol ?? d.name).join(' ');
    if (seenSymbols.has(key)) continue;
    seenSymbols.add(key);
    positions.push({ path: c.path, line: c.line, column: c.column });
    for (const d of defs) if (moved.has(d.path) && d.name.length >= 3) names.add(d.name);
  }
  if (positions.length === 0) throw new Error('no position in an unmoved file refers to a definition in a moved file');

  const probes: Probe[] = [];
  for (const p of positions) {
    probes.push({ tool: 'goToDefinition', args: { repo: slug, ...p } });
    probes.push({ tool: 'findReferences', args: { repo: slug, ...p, limit: 50 } });
  }
  for (const p of positions) {
    calls++;
    const args = { repo: slug, ...p, direction: 'incoming', depth: 1, limit: 50 };
    const a = await ask(session, { tool: 'callHierarchy', args });
    if (!a.isError) probes.push({ tool: 'callHierarchy', args });
  }
  const nameList = [...names].slice(0, options.perKind);
  for (const name of nameList) {
    probes.push({ tool: 'goToDefinition', args: { repo: slug, symbol: name } });
    probes.push({ tool: 'workspaceSymbols', args: { repo: slug, query: name, limit: 20 } });
    probes.push({ tool: 'searchCode', args: { repo: slug, query: name, case_sensitive: true, limit: 20 } });
  }
  probes.push({ tool: 'workspaceSymbols', args: { repo: slug, query: ADDED_SYMBOL, limit: 20 } });
  probes.push({ tool: 'searchCode', args: { repo: slug, query: INSERTED_TEXT, limit: 20 } });
  for (const path of shifted.slice(0, options.perKind)) probes.push({ tool: 'documentSymbols', args: { repo: slug, path } });
  probes.push({ tool: 'getIndexStatus', args: { repo: slug } });
  probes.push({ tool: 'get_index_status', args: { directory: root } });
  return { probes, calls };
}

/**
 * Checks B's expected answers against the text: a definition reached from
 * an unmoved position is where it was at A, `inserted` lines further down in
 * a moved file; the added symbol is found at B only.
 */
export function checkExpectedB(setup: LoadSetup, expectedB: readonly string[]): string[] {
  const problems: string[] = [];
  const moved = new Set(setup.shifted);
  setup.probes.forEach((probe, i) => {
    const a = JSON.parse(setup.indexedA[i]!);
    const b = JSON.parse(expectedB[i]!);
    if (probe.tool === 'goToDefinition' && probe.args.path !== undefined) {
      const down = (d: any, r: any) =>
        r && moved.has(d.path) ? { ...r, line: r.line + setup.inserted, end_line: r.end_line + setup.inserted } : r;
      const shiftedA = JSON.stringify(a.definitions.map((d: any) => ({ ...down(d, d), enclosing_range: down(d, d.enclosing_range) })));
      if (JSON.stringify(b.definitions) !== shiftedA) problems.push(`${describe(probe)}: B's definitions are not A's moved down`);
      // Before B is published, A's index answers for the worktree at B: the same lines, each flagged as adjusted.
      const served = JSON.parse(setup.expectedA[i]!).definitions as any[];
      const unflagged = served.map(({ adjusted: _adjusted, ...d }) => d);
      if (JSON.stringify(unflagged) !== shiftedA) problems.push(`${describe(probe)}: A's definitions served for the worktree at B are not moved down`);
      if (served.some((d) => moved.has(d.path) && d.adjusted !== true)) problems.push(`${describe(probe)}: a moved definition served from A is not flagged adjusted`);
    }
    if (probe.tool === 'workspaceSymbols' && probe.args.query === ADDED_SYMBOL) {
      if (a.total !== 0 || b.total < 1) problems.push(`${ADDED_SYMBOL}: found ${a.total} times at A and ${b.total} at B`);
    }
  });
  return problems;
}

// ---------------------------------------------------------------------------
// The load

export interface LoadOptions {
  clients: number;
  /** Queries each client makes at least. */
  queries: number;
  /** The publish starts once this many answers (over all clients) were received. */
  publishAfter: number;
  /** B answers each client must see before stopping (past its quota). */
  minB: number;
  /** Queries a client makes at most, so a publish that never lands ends the run. */
  maxQueries: number;
  seed: number;
  /** Called with (done, total) now and then. */
  progress?: (message: string) => void;
}

export interface LoadRecord {
  client: number;
  seq: number;
  probe: number;
  tool: Tool;
  sentAt: number;
  receivedAt: number;
  /** 'A', 'B', or what the answer named instead. */
  commit: string;
  isError: boolean;
  /** A protocol error, or the failed result. */
  error?: string;
  /** meta.source_revision disagrees with the answer's commit. */
  revisionMismatch?: boolean;
  key?: string;
}

export interface LoadRun {
  records: LoadRecord[];
  publish: { startedAt: number; finishedAt: number; code: number | null; report: any; stderr: string };
  servers: { pid: number; peakRssKb: number | null; exitedEarly: boolean }[];
  wallMs: number;
}

/** The peak resident set of a live process (Linux), in KiB. */
export function peakRssKb(pid: number): number | null {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export async function runLoad(setup: LoadSetup, options: LoadOptions): Promise<LoadRun> {
  const sessions = await Promise.all(Array.from({ length: options.clients }, (_, i) => openSession(setup.env, `sextant-load-${i}`)));
  const exited = sessions.map(() => false);
  sessions.forEach((s, i) => (s.client.onclose = () => (exited[i] = true)));
  const records: LoadRecord[] = [];
  const started = performance.now();
  let received = 0;
  let publish: LoadRun['publish'] | undefined;
  let published: Promise<void> | undefined;
  let publishDone = false;

  const startPublish = () => {
    const startedAt = performance.now();
    published = new Promise((resolve) => {
      const child = spawn(process.execPath, [SEXTANT_BIN, 'index', setup.root, '--json'], {
        env: setup.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4096)));
      child.on('close', (code) => {
        let report: any = null;
        try {
          report = JSON.parse(stdout);
        } catch {
          // Reported through code and stderr.
        }
        publish = { startedAt, finishedAt: performance.now(), code, report, stderr };
        publishDone = true;
        resolve();
      });
    });
  };

  const client = async (c: number) => {
    const random = prng(options.seed + c * 7919);
    const session = sessions[c]!;
    let seenB = 0;
    for (let seq = 0; seq < options.maxQueries; seq++) {
      if (seq >= options.queries && publishDone && (seenB >= options.minB || publish!.code !== 0)) break;
      // Past its quota a client keeps asking, more slowly, until the publish lands and it has seen B.
      if (seq >= options.queries) await new Promise((r) => setTimeout(r, 5));
      const tool = TOOLS[Math.floor(random() * TOOLS.length)]!;
      const ofTool = setup.probes.map((p, i) => (p.tool === tool ? i : -1)).filter((i) => i >= 0);
      const index = ofTool.length ? ofTool[Math.floor(random() * ofTool.length)]! : Math.floor(random() * setup.probes.length);
      const probe = setup.probes[index]!;
      const sentAt = performance.now();
      const record: LoadRecord = { client: c, seq, probe: index, tool: probe.tool, sentAt, receivedAt: 0, commit: '', isError: false };
      try {
        const a = await ask(session, probe);
        record.receivedAt = performance.now();
        const commit = commitOf(a.result);
        record.commit = commit === setup.commitA ? 'A' : commit === setup.commitB ? 'B' : String(commit);
        if (a.isError) {
          record.isError = true;
          record.error = JSON.stringify(a.result).slice(0, 300);
        } else {
          const revision = a.result.meta?.source_revision;
          if (revision !== undefined && revision !== commit) record.revisionMismatch = true;
          record.key = normalize(probe.tool, a.result);
        }
      } catch (error) {
        record.receivedAt = performance.now();
        record.isError = true;
        record.error = (error as Error).message.slice(0, 300);
      }
      records.push(record);
      if (record.commit === 'B') seenB++;
      received++;
      if (!published && received >= options.publishAfter) startPublish();
      if (received % 500 === 0) options.progress?.(`${received} answers${publishDone ? ', published' : published ? ', publishing' : ''}`);
    }
  };

  try {
    await Promise.all(sessions.map((_, c) => client(c)));
    if (!published) startPublish();
    await published;
    const wallMs = performance.now() - started;
    const servers = sessions.map((s, i) => ({ pid: s.pid, peakRssKb: peakRssKb(s.pid), exitedEarly: exited[i]! }));
    return { records, publish: publish!, servers, wallMs };
  } finally {
    await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
  }
}

// ---------------------------------------------------------------------------
// Checks

export interface LoadCheck {
  answers: number;
  errors: LoadRecord[];
  /** Answers naming a commit that is neither A nor B, or no commit. */
  unknownCommit: LoadRecord[];
  /** Answers whose meta.source_revision is not the commit they name. */
  revisionMismatch: LoadRecord[];
  /** Answers that are not exactly the expected answer of the commit they name. */
  mixed: { record: LoadRecord; expected: string[] }[];
  /** A client answered from A after it had been answered from B. */
  backwards: LoadRecord[];
  /** Answered from A although sent after some client had received B. */
  staleAfterSwitch: LoadRecord[];
  /** Answered from B before the publish started. */
  bBeforePublish: LoadRecord[];
  perCommit: { A: number; B: number };
  /** Answers at which A's and B's expected answers differ (the ones that could show a mix). */
  observable: number;
  /** Probes whose expected answers differ between A and B, by tool. */
  observableProbes: Partial<Record<Tool, number>>;
  firstBReceivedAt: number | null;
  lastASentAt: number | null;
}

export function checkLoad(setup: LoadSetup, expectedB: readonly string[], run: LoadRun): LoadCheck {
  const out: LoadCheck = {
    answers: run.records.length,
    errors: [],
    unknownCommit: [],
    revisionMismatch: [],
    mixed: [],
    backwards: [],
    staleAfterSwitch: [],
    bBeforePublish: [],
    perCommit: { A: 0, B: 0 },
    observable: 0,
    observableProbes: {},
    firstBReceivedAt: null,
    lastASentAt: null,
  };
  setup.probes.forEach((p, i) => {
    if (setup.expectedA[i] !== expectedB[i]) out.observableProbes[p.tool] = (out.observableProbes[p.tool] ?? 0) + 1;
  });
  const firstB = Math.min(...run.records.filter((r) => r.commit === 'B' && !r.isError).map((r) => r.receivedAt));
  out.firstBReceivedAt = Number.isFinite(firstB) ? firstB : null;
  const seenB = new Set<number>();
  const ordered = [...run.records].sort((a, b) => a.client - b.client || a.seq - b.seq);
  for (const r of ordered) {
    if (r.isError) {
      out.errors.push(r);
      continue;
    }
    if (r.commit !== 'A' && r.commit !== 'B') {
      out.unknownCommit.push(r);
      continue;
    }
    out.perCommit[r.commit]++;
    if (r.revisionMismatch) out.revisionMismatch.push(r);
    const probe = setup.probes[r.probe]!;
    const a = setup.expectedA[r.probe]!;
    const b = expectedB[r.probe]!;
    if (a !== b) out.observable++;
    const allowed = r.commit === 'B' ? [b] : probe.tool === 'getIndexStatus' ? [a, statusWhileIndexing(a, setup.commitB)] : [a];
    if (!allowed.includes(r.key!)) out.mixed.push({ record: r, expected: allowed });
    if (r.commit === 'B') {
      seenB.add(r.client);
      if (r.receivedAt < run.publish.startedAt) out.bBeforePublish.push(r);
    } else {
      if (seenB.has(r.client)) out.backwards.push(r);
      if (out.firstBReceivedAt !== null && r.sentAt > out.firstBReceivedAt) out.staleAfterSwitch.push(r);
      out.lastASentAt = Math.max(out.lastASentAt ?? -Infinity, r.sentAt);
    }
  }
  return out;
}

/** `text` around where it first differs from `other` (answers share long prefixes), at most 600 characters. */
function around(text: string, other: string): string {
  let at = 0;
  while (at < text.length && text[at] === other[at]) at++;
  const from = Math.max(0, at - 200);
  return `${from > 0 ? `…(${from} equal characters)` : ''}${text.slice(from, at + 400)}${at + 400 < text.length ? '…' : ''}`;
}

/** The violations of a check, one line each (empty when the load passed). */
export function violations(check: LoadCheck): string[] {
  const line = (what: string, r: LoadRecord, extra = '') =>
    `${what}: client ${r.client} query ${r.seq} (${r.tool}, probe ${r.probe}, commit ${r.commit})${extra}`;
  return [
    ...check.errors.map((r) => line('error', r, `: ${r.error}`)),
    ...check.unknownCommit.map((r) => line('unknown commit', r)),
    ...check.revisionMismatch.map((r) => line('meta.source_revision differs from the commit', r)),
    ...check.mixed.map(({ record: r, expected }) =>
      line(
        'answer is not the expected answer of its commit',
        r,
        `: got ${around(r.key ?? '', expected[0]!)}; expected ${expected.map((e) => around(e, r.key ?? '')).join(' or ')}`,
      ),
    ),
    ...check.backwards.map((r) => line('answered from A after this client saw B', r)),
    ...check.staleAfterSwitch.map((r) => line('answered from A although sent after a B answer was received', r)),
    ...check.bBeforePublish.map((r) => line('answered from B before the publish started', r)),
  ];
}

/** Nearest-rank percentile, p in (0, 1]. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
}
