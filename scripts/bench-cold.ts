// The cold start of `sextant mcp`, broken down (section (b) of the bench,
// `npm run bench -- --only cold`): from spawning the server to the first
// findReferences answer through the official MCP client, as the bench's cold
// figure measures it, split into the steps on the way. Two tracks run at
// once: the client's (handshake, tools/list, its compile of a validator per
// output schema, the call) and the server's (node's boot, the bundle's main
// chunk, the MCP loop listening, the tools' modules, the registry opened, the
// tools ready). The server's steps come from the `sextant:` performance marks,
// written out by the probe preloaded into it (scripts/rss-probe.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListToolsResultSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { SEXTANT_BIN } from '../test/support/paths.js';

const PROBE = fileURLToPath(new URL('./rss-probe.js', import.meta.url));

/** The server's marks, in the order they happen, and what each one ends. */
export const SERVER_STEPS = [
  ['boot', 'node booted (spawn to bootstrap complete)'],
  ['sextant:main', "bundle's main chunk loaded"],
  ['sextant:listening', 'MCP loop listening (mcp command and tool server loaded)'],
  ['sextant:modules', "tools' modules loaded (zod, registry, query layer)"],
  ['sextant:registry', 'registry opened'],
  ['sextant:ready', 'tools registered (ready for tools/call)'],
] as const;

/** The client's steps, each from the end of the one before. */
export const CLIENT_STEPS = [
  ['initialized', 'initialize answered (spawn to handshake done)'],
  ['listed', 'tools/list answered'],
  ['compiled', "client compiled the output schemas' validators"],
  ['answered', 'first findReferences answered and validated'],
] as const;

export interface ColdBreakdownRun {
  /** Milliseconds from spawn, each step's end. */
  client: Record<(typeof CLIENT_STEPS)[number][0], number>;
  /** Milliseconds from spawn, each mark; missing when the probe wrote nothing. */
  server: Partial<Record<(typeof SERVER_STEPS)[number][0], number>>;
  /** How long the call waited for the tools to be ready, after the client had compiled its validators. */
  waited_ms: number;
  references: number;
}

/**
 * One cold start, timed step by step: spawn `sextant mcp` (with the probe),
 * handshake, tools/list as the SDK's `listTools` does it (the request, then
 * `cacheToolMetadata`, which compiles the validators), then the call.
 */
export async function coldBreakdownRun(
  env: NodeJS.ProcessEnv,
  call: { repo: string; path: string; line: number; column: number },
): Promise<ColdBreakdownRun> {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-bench-cold-'));
  const probeFile = join(dir, 'probe.json');
  try {
    const startedAt = performance.timeOrigin + performance.now();
    const t0 = performance.now();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', pathToFileURL(PROBE).href, SEXTANT_BIN, 'mcp'],
      env: { ...env, SEXTANT_BENCH_PROBE_FILE: probeFile } as Record<string, string>,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'sextant-bench', version: '0' });
    await client.connect(transport);
    const initialized = performance.now() - t0;
    const list = await client.request({ method: 'tools/list' }, ListToolsResultSchema);
    const listed = performance.now() - t0;
    // What Client.listTools does with the answer: a validator per output schema.
    (client as unknown as { cacheToolMetadata(tools: Tool[]): void }).cacheToolMetadata(list.tools);
    const compiled = performance.now() - t0;
    const r = await client.callTool({ name: 'findReferences', arguments: call });
    const answered = performance.now() - t0;
    await client.close();
    if (r.isError)
      throw new Error(`findReferences at ${call.path}:${call.line}:${call.column} failed: ${JSON.stringify(r.structuredContent)}`);
    const server: ColdBreakdownRun['server'] = {};
    try {
      const probe = JSON.parse(readFileSync(probeFile, 'utf8')) as {
        timeOrigin: number;
        bootstrapMs: number;
        marks: Record<string, number>;
      };
      // The server's clock starts at its own process start: placed on the spawn's.
      const offset = probe.timeOrigin - startedAt;
      server.boot = offset + probe.bootstrapMs;
      for (const [name] of SERVER_STEPS.slice(1)) if (probe.marks[name] !== undefined) server[name] = offset + probe.marks[name]!;
    } catch {
      // The probe wrote nothing (the process was killed): the server's track is reported as missing.
    }
    const ready = server['sextant:ready'];
    return {
      client: { initialized, listed, compiled, answered },
      server,
      waited_ms: ready === undefined ? NaN : Math.max(0, ready - compiled),
      references: (r.structuredContent as { total: number }).total,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface BreakdownRow {
  track: 'server' | 'client' | 'call';
  step: string;
  /** Median milliseconds from spawn to the step's end (null for the call's parts). */
  ends_ms: number | null;
  /** Median milliseconds the step took: from the end of the track's previous step. */
  takes_ms: number;
}

/** The medians of each step over the runs: the server's track, the client's, and the call split into waiting and answering. */
export function breakdownRows(runs: readonly ColdBreakdownRun[], median: (xs: number[]) => number): BreakdownRow[] {
  const finite = (xs: number[]) => xs.filter(Number.isFinite);
  const med = (xs: number[]) => (finite(xs).length ? median(finite(xs)) : NaN);
  const rows: BreakdownRow[] = [];
  const track = <K extends string>(
    name: 'server' | 'client',
    steps: readonly (readonly [K, string])[],
    end: (r: ColdBreakdownRun, key: K) => number,
  ) =>
    steps.forEach(([key, label], i) =>
      rows.push({
        track: name,
        step: label,
        ends_ms: med(runs.map((r) => end(r, key))),
        takes_ms: med(runs.map((r) => end(r, key) - (i === 0 ? 0 : end(r, steps[i - 1]![0])))),
      }),
    );
  track('server', SERVER_STEPS, (r, key) => r.server[key] ?? NaN);
  track('client', CLIENT_STEPS, (r, key) => r.client[key]);
  rows.push({
    track: 'call',
    step: 'the call waited for the tools to be ready',
    ends_ms: null,
    takes_ms: med(runs.map((r) => r.waited_ms)),
  });
  rows.push({
    track: 'call',
    step: 'the call answered, from when both sides were ready',
    ends_ms: null,
    takes_ms: med(runs.map((r) => r.client.answered - Math.max(r.client.compiled, r.server['sextant:ready'] ?? NaN))),
  });
  return rows;
}
