// Running sextant as its users do: the CLI as a subprocess, the MCP server
// through the official client, each against its own registry file.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SEXTANT_BIN } from './paths.js';
import { newRegistry, registryOf, type TestEngine } from './registry.js';
import { tempDir } from './repos.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A language server's answer is a test's subject, never how soon it comes: a
 * cold tsserver on a suite's loaded machine has taken more than the default
 * 20 seconds (SEXTANT_LSP_REQUEST_SECONDS) for a small project. Waiting for a
 * project to load keeps its default (half of 20), so that what a test sees
 * while a server still loads does not change; tests of the budgets set their own.
 */
const LSP_BUDGETS = { SEXTANT_LSP_REQUEST_SECONDS: '120', SEXTANT_LSP_WAIT_SECONDS: '10' };
/** How long a test's MCP client waits for a tool's answer: past the language servers' budget. */
const CALL_TIMEOUT_MS = 180_000;
/** How much of a server's stderr a session keeps, to print if the server exits under it. */
const STDERR_TAIL_CHARS = 4000;

/**
 * A registry of its own for a test: a SEXTANT_HOME under a temporary
 * directory, and on the engine the suite runs against (support/registry.ts),
 * or the one given, a registry of its own.
 */
export function testHome(engine?: TestEngine): { home: string; env: NodeJS.ProcessEnv } {
  const home = tempDir('sextant-home-');
  const env: NodeJS.ProcessEnv = { ...LSP_BUDGETS, ...process.env, SEXTANT_HOME: home };
  delete env.SEXTANT_REGISTRY;
  return { home, env: { ...env, ...newRegistry(home, engine) } };
}

/** What opens the test home's registry (`--registry`, openRegistry): its file, or its postgres:// URL. */
export function registryFile(home: string): string {
  return registryOf(home);
}

export function sextant(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): CliResult {
  const r = spawnSync(process.execPath, [SEXTANT_BIN, ...args], { env: options.env, cwd: options.cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function sextantAsync(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SEXTANT_BIN, ...args], { env: options.env, cwd: options.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `sextant index --json` that must succeed; returns the report. */
export function indexOrThrow(path: string, env: NodeJS.ProcessEnv, ...extra: string[]): Record<string, any> {
  const r = sextant(['index', path, '--json', ...extra], { env });
  if (r.code !== 0) throw new Error(`sextant index ${path} failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

export interface McpSession {
  client: Client;
  /**
   * Calls a tool as MCP clients do (client.callTool checks structuredContent
   * against the tool's output schema once tools/list was called) and returns
   * its structured result (an `{error}` object on failure) with isError; the
   * text content must be that same object.
   */
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; result: any }>;
  /** A call that must succeed; its structured result. */
  ok(name: string, args: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

export async function mcpSession(env: NodeJS.ProcessEnv, cwd?: string): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SEXTANT_BIN, 'mcp'],
    env: env as Record<string, string>,
    ...(cwd ? { cwd } : {}),
    stderr: 'pipe',
  });
  // The server's stderr is read as it comes (a full pipe would block it) and its end kept: if the server exits while
  // the session is open, that is the only account of why, and it is printed.
  let stderrTail = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString()).slice(-STDERR_TAIL_CHARS)));
  let closing = false;
  const client = new Client({ name: 'sextant-tests', version: '0' });
  await client.connect(transport);
  client.onclose = () => {
    if (!closing)
      process.stderr.write(`sextant mcp exited while its session was open; the end of its stderr:\n${stderrTail || '(nothing)'}\n`);
  };
  // As MCP clients do: the client then checks every result against the tool's output schema.
  await client.listTools();
  const call = async (name: string, args: Record<string, unknown>) => {
    // The SDK gives up after 60 s by default, less than a language server's budget in tests (LSP_BUDGETS).
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
    const content = r.content as { type: string; text: string }[];
    assert.equal(content.length, 1, `${name} returns one content item`);
    assert.equal(content[0]!.type, 'text');
    assert.ok(r.structuredContent, `${name} returned structuredContent`);
    assert.deepEqual(JSON.parse(content[0]!.text), r.structuredContent);
    return { isError: r.isError === true, result: r.structuredContent as any };
  };
  return {
    client,
    call,
    async ok(name, args) {
      const r = await call(name, args);
      assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} failed: ${JSON.stringify(r.result)}`);
      return r.result;
    },
    close: () => {
      closing = true;
      return client.close();
    },
  };
}

/**
 * Calls a tool that must fail as the MCP contract says a failure does: isError,
 * a structured result that is only `{error}`, a one-line message (returned).
 */
export async function toolError(session: McpSession, tool: string, args: Record<string, unknown>): Promise<string> {
  const r = await session.call(tool, args);
  assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)} answered ${JSON.stringify(r.result)}`);
  assert.deepEqual(Object.keys(r.result), ['error']);
  assert.doesNotMatch(r.result.error, /\n/, 'one line');
  return r.result.error;
}

/** An answer without its `meta` envelope, whose `generated_at` differs from one call to the next. */
export function withoutMeta(answer: any): any {
  assert.equal(typeof answer.meta, 'object', 'the answer carries its meta envelope');
  const { meta: _meta, ...rest } = answer;
  return rest;
}
