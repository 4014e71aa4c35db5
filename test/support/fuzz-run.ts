// Runs the fuzzer against a real `sextant mcp`: generated tool calls through
// the official SDK client (which checks every result against the tool's
// output schema), and malformed frames over raw stdio. Shared by
// test/fuzz.test.ts (1,000 calls in CI) and scripts/bench-fuzz.ts (10,000+).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  describeArgs,
  fixedFrames,
  generateArguments,
  generatedFrame,
  INITIALIZE,
  Rng,
  replyViolations,
  type Frame,
  type FuzzCorpus,
  type Invariants,
  type JsonSchema,
} from './fuzz.js';
import { PROJECT_ROOT, SEXTANT_BIN } from './paths.js';
import { commitAll, fixtureRepo, git, removeDir } from './repos.js';
import { indexOrThrow, mcpSession, testHome, type McpSession } from './sextant.js';

/** Every call answers within this, or it is a violation. */
export const ANSWER_MS = 3000;
export const MAX_REPLY_BYTES = 1024 * 1024;

export type Outcome = 'ok' | 'tool_error' | 'protocol_error' | 'no_reply';

export interface Violation {
  seed: number;
  index: number;
  tool: string;
  shape: string;
  args: string;
  problems: string[];
}

export interface FuzzReport {
  seed: number;
  calls: number;
  seconds: number;
  outcomes: Record<Outcome, number>;
  violations: Violation[];
  /** Milliseconds per call, its reply included (the ping after it not). */
  latency: { p50: number; p99: number; max: number };
  slowest: { ms: number; tool: string; shape: string; args: string }[];
}

class Latencies {
  private ms: number[] = [];
  private top: FuzzReport['slowest'] = [];
  add(ms: number, tool: string, shape: string, args: () => string): void {
    this.ms.push(ms);
    if (this.top.length < 5 || ms > this.top.at(-1)!.ms) {
      this.top.push({ ms: Math.round(ms), tool, shape, args: args() });
      this.top.sort((a, b) => b.ms - a.ms).splice(5);
    }
  }
  summary(): Pick<FuzzReport, 'latency' | 'slowest'> {
    const sorted = [...this.ms].sort((a, b) => a - b);
    const at = (q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 10) / 10;
    return { latency: { p50: at(0.5), p99: at(0.99), max: at(1) }, slowest: this.top };
  }
}

export interface FuzzTarget {
  env: NodeJS.ProcessEnv;
  /** Where servers run: a scratch directory, so a relative directory resolves to neither a repository nor sextant's own tree. */
  cwd: string;
  corpus: FuzzCorpus;
  invariants: Invariants;
  cleanup(): void;
}

/**
 * A small indexed repository (the ts-shapes fixture) with a sentinel file in
 * a sibling directory outside it, and a committed symlink in the repository
 * that points at that file: its text must never come back.
 */
export function fuzzTarget(): FuzzTarget {
  const { home, env } = testHome();
  const root = fixtureRepo('ts-shapes');
  const outsideDir = join(root, '..', 'outside');
  mkdirSync(outsideDir);
  const sentinel = `SENTINEL_${randomBytes(8).toString('hex')}`;
  const outsideFile = join(outsideDir, 'secret.ts');
  writeFileSync(
    outsideFile,
    `// ${sentinel}\nexport const ${sentinel} = '${sentinel}';\nexport function area(): string {\n  return '${sentinel}';\n}\n`,
  );
  symlinkSync('../../outside/secret.ts', join(root, 'src', 'leak.ts'));
  symlinkSync('../outside', join(root, 'outside-dir'));
  commitAll(root, 'symlinks that point outside the repository');
  indexOrThrow(root, env);

  const paths = git(root, 'ls-files').trim().split('\n');
  const positions: FuzzCorpus['positions'] = [];
  for (const path of paths.filter((p) => /\.(ts|py)$/.test(p) && !p.includes('leak'))) {
    readFileSync(join(root, path), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        for (const m of text.matchAll(/[A-Za-z_]\w{2,}/g)) positions.push({ path, line: i + 1, column: m.index + 1, name: m[0] });
      });
  }
  const corpus: FuzzCorpus = {
    repos: ['ts-shapes'],
    paths,
    positions,
    directories: [root, join(root, 'src'), join(root, '..'), outsideDir],
    outsideFile,
  };
  const invariants: Invariants = {
    sentinel,
    ownPaths: ['dist', 'src', 'node_modules', 'bin'].map((d) => join(PROJECT_ROOT, d)),
    maxReplyBytes: MAX_REPLY_BYTES,
  };
  const cwd = join(root, '..', 'cwd');
  mkdirSync(cwd);
  return {
    env,
    cwd,
    corpus,
    invariants,
    cleanup() {
      removeDir(join(root, '..'));
      removeDir(home);
    },
  };
}

function emptyOutcomes(): Record<Outcome, number> {
  return { ok: 0, tool_error: 0, protocol_error: 0, no_reply: 0 };
}

/** Client-side failures of the SDK's own checks, which mean the server answered wrongly. */
const CLIENT_CHECK = /output schema|structured content/i;

/** The SDK client's session with a hook that keeps the last response line as it came. */
export async function hookedSession(
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ session: McpSession; last: () => string | undefined; reset: () => void; pid: () => number | null }> {
  const session = await mcpSession(env, cwd);
  const transport = session.client.transport as unknown as {
    onmessage?: (m: JSONRPCMessage, extra?: unknown) => void;
    pid: number | null;
  };
  let last: string | undefined;
  const forward = transport.onmessage!;
  transport.onmessage = (m, extra) => {
    if ('id' in m && ('result' in m || 'error' in m)) last = JSON.stringify(m);
    forward(m, extra);
  };
  return { session, last: () => last, reset: () => (last = undefined), pid: () => transport.pid };
}

function alive(pid: number | null): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `calls` generated tool calls through the SDK client, each followed by a
 * ping, spread over `servers` servers at once (each its own process; calls
 * are generated in order from the seed, whichever server takes them).
 */
export async function fuzzTools(target: FuzzTarget, seed: number, calls: number, servers = 1): Promise<FuzzReport> {
  const rng = new Rng(seed);
  const started = performance.now();
  const outcomes = emptyOutcomes();
  const violations: Violation[] = [];
  const latencies = new Latencies();
  const first = await hookedSession(target.env, target.cwd);
  const tools = (await first.session.client.listTools()).tools.map((t) => ({
    name: t.name,
    schema: t.inputSchema as JsonSchema,
    writes: t.annotations?.readOnlyHint === false,
  }));
  let next = 0;
  const take = () => {
    if (next >= calls) return null;
    const tool = rng.pick(tools);
    const generated = generateArguments(tool.schema, rng, target.corpus);
    // A writing tool's blocking mode (reindex) waits for a whole index run, which the answer
    // bound does not cover: it is asked to answer at once, and its job runs beside the fuzzing.
    if (tool.writes && (generated.args.mode === undefined || generated.args.mode === 'blocking')) generated.args.mode = 'async';
    return { index: next++, tool: tool.name, ...generated };
  };
  const worker = async (s: Awaited<ReturnType<typeof hookedSession>>) => {
    try {
      for (let call = take(); call; call = take()) {
        const { index, tool, shape, args } = call;
        const problems: string[] = [];
        s.reset();
        const t0 = performance.now();
        try {
          const r = await s.session.client.callTool({ name: tool, arguments: args }, undefined, { timeout: ANSWER_MS });
          outcomes[r.isError ? 'tool_error' : 'ok']++;
          if (
            r.isError &&
            typeof (r.structuredContent as { error?: unknown } | undefined)?.error !== 'string' &&
            tool !== 'get_index_status'
          ) {
            problems.push(`an error result without {"error": "..."}: ${describeArgs(r.structuredContent)}`);
          }
        } catch (error) {
          const e = error as McpError;
          if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) problems.push(`no answer within ${ANSWER_MS} ms`);
          else if (e instanceof McpError && e.code === ErrorCode.ConnectionClosed) problems.push('the server closed the connection');
          else if (CLIENT_CHECK.test(e.message)) problems.push(`the SDK client refused the result: ${e.message.slice(0, 300)}`);
          else outcomes.protocol_error++;
        }
        latencies.add(performance.now() - t0, tool, shape, () => describeArgs(args));
        const line = s.last();
        if (line === undefined && problems.length === 0) problems.push('no reply line seen');
        if (line !== undefined) problems.push(...replyViolations(line, target.invariants));
        const pid = s.pid();
        try {
          await s.session.client.ping({ timeout: ANSWER_MS });
        } catch (error) {
          problems.push(`the next call (ping) failed: ${(error as Error).message.slice(0, 200)}`);
        }
        if (!alive(pid)) problems.push('the server process exited');
        if (problems.length) {
          violations.push({ seed, index, tool, shape, args: describeArgs(args), problems });
          if (!alive(pid) || problems.some((p) => p.startsWith('the next call'))) {
            await s.session.close().catch(() => undefined);
            s = await hookedSession(target.env, target.cwd);
            await s.session.client.listTools();
          }
        }
      }
    } finally {
      await s.session.close();
    }
  };
  const others = await Promise.all(
    Array.from({ length: servers - 1 }, async () => {
      const s = await hookedSession(target.env, target.cwd);
      await s.session.client.listTools();
      return s;
    }),
  );
  await Promise.all([first, ...others].map(worker));
  violations.sort((a, b) => a.index - b.index);
  return { seed, calls, seconds: (performance.now() - started) / 1000, outcomes, violations, ...latencies.summary() };
}

/** A `sextant mcp` spoken to line by line, without a client library in the way. */
export class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  private buffered: Buffer[] = [];
  private lines: string[] = [];
  private waiters: (() => void)[] = [];
  /** The end of what the server wrote to stderr, for a report when it exits. */
  stderr = '';

  constructor(env: NodeJS.ProcessEnv, cwd: string) {
    this.child = spawn(process.execPath, [SEXTANT_BIN, 'mcp'], { env, cwd });
    this.child.stderr.on('data', (c: Buffer) => (this.stderr = (this.stderr + c.toString()).slice(-4000)));
    // A write to a server that has exited is reported by `alive`, not thrown.
    this.child.stdin.on('error', () => undefined);
    this.child.stdout.on('data', (chunk: Buffer) => {
      let start = 0;
      for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
        this.buffered.push(chunk.subarray(start, end));
        this.lines.push(Buffer.concat(this.buffered).toString('utf8'));
        this.buffered = [];
        start = end + 1;
      }
      this.buffered.push(chunk.subarray(start));
      for (const w of this.waiters.splice(0)) w();
    });
    this.child.on('exit', () => {
      for (const w of this.waiters.splice(0)) w();
    });
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  send(line: string | Buffer): void {
    this.child.stdin.write(Buffer.concat([typeof line === 'string' ? Buffer.from(line) : line, Buffer.from('\n')]));
  }

  /** Lines received until `done` holds of them, or the deadline; all lines taken from the queue. */
  async until(done: (lines: string[]) => boolean, deadline: number): Promise<{ lines: string[]; met: boolean }> {
    const seen: string[] = [];
    for (;;) {
      seen.push(...this.lines.splice(0));
      if (done(seen)) return { lines: seen, met: true };
      const left = deadline - performance.now();
      if (left <= 0 || !this.alive) return { lines: seen, met: false };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async initialize(): Promise<void> {
    this.send(JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: INITIALIZE }));
    const r = await this.until((ls) => ls.some((l) => idOf(l) === 'init'), performance.now() + 10_000);
    if (!r.met) throw new Error('sextant mcp did not answer initialize');
    this.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }

  close(): void {
    this.child.stdin.end();
    if (this.alive) this.child.kill();
  }
}

export function idOf(line: string): unknown {
  try {
    return (JSON.parse(line) as { id?: unknown }).id;
  } catch {
    return undefined;
  }
}

function outcomeOf(line: string): Outcome {
  try {
    const m = JSON.parse(line) as { error?: unknown; result?: { isError?: boolean } };
    if (m.error) return 'protocol_error';
    return m.result?.isError ? 'tool_error' : 'ok';
  } catch {
    return 'protocol_error';
  }
}

/**
 * The fixed malformed frames, then `count` generated ones, over raw stdio.
 * After each frame a ping must be answered (the server is still up and still
 * reading), and a frame with an id must get its reply, within ANSWER_MS.
 */
export async function fuzzFrames(target: FuzzTarget, seed: number, count: number): Promise<FuzzReport> {
  const rng = new Rng(seed);
  const started = performance.now();
  const outcomes = emptyOutcomes();
  const violations: Violation[] = [];
  const latencies = new Latencies();
  let server = new RawServer(target.env, target.cwd);
  await server.initialize();
  const toolNames = await listToolNames(server);
  const frames: Frame[] = [...fixedFrames(target.corpus)];
  for (let i = 0; i < count; i++) frames.push(generatedFrame(rng, target.corpus, i, toolNames));
  try {
    for (let index = 0; index < frames.length; index++) {
      const frame = frames[index]!;
      const probe = `probe-${index}`;
      const deadline = performance.now() + ANSWER_MS;
      server.send(frame.line);
      server.send(JSON.stringify({ jsonrpc: '2.0', id: probe, method: 'ping' }));
      const { lines, met } = await server.until(
        (ls) => ls.some((l) => idOf(l) === probe) && (frame.expectId === null || ls.some((l) => idOf(l) === frame.expectId)),
        deadline,
      );
      latencies.add(performance.now() - deadline + ANSWER_MS, 'raw frame', frame.label, () =>
        describeArgs(frame.line.slice(0, 300).toString()),
      );
      const problems: string[] = [];
      if (!met) {
        const gotProbe = lines.some((l) => idOf(l) === probe);
        problems.push(
          gotProbe
            ? `no reply to id ${JSON.stringify(frame.expectId)} within ${ANSWER_MS} ms`
            : `the next call (ping) got no answer within ${ANSWER_MS} ms`,
        );
      }
      const replies = lines.filter((l) => idOf(l) !== probe);
      if (replies.length === 0) outcomes.no_reply++;
      for (const line of replies) {
        outcomes[outcomeOf(line)]++;
        problems.push(...replyViolations(line, target.invariants));
      }
      if (!server.alive) {
        problems.push(
          `the server process exited (code ${server.child.exitCode}, signal ${server.child.signalCode}): ${server.stderr.slice(-500)}`,
        );
      }
      if (problems.length) {
        violations.push({
          seed,
          index,
          tool: 'raw frame',
          shape: frame.label,
          args: describeArgs(frame.line.slice(0, 300).toString()),
          problems,
        });
        if (!server.alive || !met) {
          server.close();
          server = new RawServer(target.env, target.cwd);
          await server.initialize();
        }
      }
    }
  } finally {
    server.close();
  }
  return { seed, calls: frames.length, seconds: (performance.now() - started) / 1000, outcomes, violations, ...latencies.summary() };
}

async function listToolNames(server: RawServer): Promise<string[]> {
  server.send(JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/list' }));
  const r = await server.until((ls) => ls.some((l) => idOf(l) === 'list'), performance.now() + 10_000);
  const line = r.lines.find((l) => idOf(l) === 'list');
  if (!line) throw new Error('sextant mcp did not answer tools/list');
  return (JSON.parse(line) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
}

/** The seeds of a run: a fixed one, so CI repeats itself, and SEXTANT_FUZZ_SEED's when set. */
export function fuzzSeeds(fixed: number): number[] {
  const extra = process.env.SEXTANT_FUZZ_SEED;
  if (extra === undefined || extra === '') return [fixed];
  const n = Number(extra);
  if (!Number.isInteger(n)) throw new Error(`SEXTANT_FUZZ_SEED must be an integer, not ${JSON.stringify(extra)}`);
  return n === fixed ? [fixed] : [fixed, n];
}

/** A violation on a few lines, with the seed that replays it. */
export function formatViolation(v: Violation): string {
  return `seed ${v.seed} #${v.index} ${v.tool} (${v.shape}) ${v.args}\n    ${v.problems.join('\n    ')}`;
}
