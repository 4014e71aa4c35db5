// A lean MCP server for tools only, speaking newline-delimited JSON-RPC on
// stdio. The SDK's McpServer loads its own protocol schemas, a JSON Schema
// validator (ajv) and converters before it can answer: about half of a cold
// `sextant mcp`'s time to its first answer. This loop implements what a tools
// server answers (initialize, ping, tools/list, tools/call) as the SDK's
// server does, and serves tools/list from JSON Schemas prebuilt at build time
// (scripts/bundle.ts), rendered exactly as the SDK renders them. It loads
// nothing else: it can answer the handshake and tools/list while the tools
// themselves (zod, the registry, the query layer) are still loading.
import { readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { z } from 'zod';
import { boundedMessage, quote } from '../errors.js';
import { leanSchema } from './lean-schema.js';
import { asciiJson, serialized } from '../trust/serialized.js';
import { LineReader, MAX_ID_LENGTH, MAX_LINE_BYTES } from './stdio.js';

/** The protocol versions the SDK's server accepts (its SUPPORTED_PROTOCOL_VERSIONS), newest first. */
const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

export interface ToolConfig {
  description: string;
  inputSchema: z.ZodType;
  /** Built on demand: only tools/list needs it, and it is usually prebuilt. */
  outputSchema: () => z.ZodType;
  annotations: Record<string, boolean>;
}

/**
 * A tool's answer: the result object (sent as structuredContent and as its
 * JSON text; `isError` when it is a failure in a contract of its own), or a
 * failure, sent as `{"error": "...", ...details}`.
 */
export type ToolOutcome = { result: unknown; isError?: boolean } | { error: string; details?: Record<string, unknown> };

type Handler = (args: unknown) => Promise<ToolOutcome>;

/** A tool as tools/list advertises it. */
export interface AdvertisedTool {
  name: string;
  description: string;
  inputSchema: unknown;
  annotations: Record<string, boolean>;
  execution: { taskSupport: 'forbidden' };
  outputSchema: unknown;
}

interface Request {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown; protocolVersion?: unknown };
}

/** Where the build writes the advertised tools, beside the bundle's chunks. */
export const PREBUILT_TOOLS = 'tools.json';

export class ToolServer {
  private readonly tools = new Map<string, { config: ToolConfig; handler: Handler }>();
  /** The tools/list answer's JSON text (its `tools` array). */
  private advertised: string | undefined;
  /** Settles once the tools are registered (see `loading`). */
  private ready: Promise<void> = Promise.resolve();
  /** Why the tools could not be loaded, if they could not. */
  private failure: string | undefined;
  /** Whether a tools/call has come in (see `whenIdle`). */
  private called = false;
  /** tools/call requests being answered, and who waits for there to be none (see `idle`). */
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly answeredListeners: ((args: Record<string, unknown>) => void)[] = [];
  private readonly quietListeners: (() => void)[] = [];

  constructor(private readonly info: { name: string; version: string }) {}

  /**
   * Serves while `load` registers the tools: tools/call waits for it,
   * initialize, ping and a prebuilt tools/list do not. Its outcome is returned.
   */
  async loading<T>(load: () => Promise<T>): Promise<T> {
    const loaded = load();
    this.ready = loaded.then(
      () => undefined,
      (error: unknown) => {
        this.failure = error instanceof Error ? error.message : String(error);
      },
    );
    return loaded;
  }

  /**
   * Runs `task` once the requests already read are served, unless a tool has
   * been called by then: for work that only prepares the first call, which
   * it must not delay.
   */
  whenIdle(task: () => void): void {
    setImmediate(() => {
      if (!this.called) task();
    });
  }

  /**
   * Resolves once no tools/call is being answered, after requests already
   * read have had their turn: background work waits here between slices.
   */
  idle(): Promise<void> {
    return new Promise((resolve) => setImmediate(() => (this.inFlight === 0 ? resolve() : this.idleWaiters.push(resolve))));
  }

  /** Calls `listener` with the arguments of each tools/call answered without an error, once its answer is on its way. */
  onAnswered(listener: (args: Record<string, unknown>) => void): void {
    this.answeredListeners.push(listener);
  }

  /** Calls `listener` each time the last tools/call being answered is answered. */
  onQuiet(listener: () => void): void {
    this.quietListeners.push(listener);
  }

  /** Whether a tools/call is being answered. */
  get busy(): boolean {
    return this.inFlight > 0;
  }

  registerTool(name: string, config: ToolConfig, handler: Handler): void {
    if (this.tools.has(name)) throw new Error(`tool ${name} is registered twice`);
    this.tools.set(name, { config, handler });
    this.advertised = undefined;
  }

  /** The registered tools, in order. */
  definitions(): [name: string, config: ToolConfig][] {
    return [...this.tools].map(([name, { config }]) => [name, config]);
  }

  /**
   * The tools/list answer, rendered as the SDK renders zod schemas (draft-7,
   * input/output), the output schemas rewritten to compile cheaply in clients
   * (./lean-schema.ts).
   */
  async renderTools(): Promise<AdvertisedTool[]> {
    const { z } = await import('zod');
    return this.definitions().map(([name, config]) => ({
      name,
      description: config.description,
      inputSchema: z.toJSONSchema(config.inputSchema, { target: 'draft-7', io: 'input' }),
      annotations: config.annotations,
      // As the SDK's server says of every tool not registered as a task.
      execution: { taskSupport: 'forbidden' },
      outputSchema: leanSchema(z.toJSONSchema(config.outputSchema(), { target: 'draft-7', io: 'output' })),
    }));
  }

  /**
   * The JSON text of the tools/list answer's tools: the prebuilt one (written
   * by the same build as the code that registers the tools, with
   * JSON.stringify, so sent as it is read rather than parsed and
   * serialised again), else, once the tools are registered, rendered from them.
   */
  private async listTools(): Promise<string> {
    if (this.advertised) return this.advertised;
    try {
      this.advertised = readFileSync(new URL(`./${PREBUILT_TOOLS}`, import.meta.url), 'utf8');
    } catch {
      await this.ready;
      this.advertised = JSON.stringify(await this.renderTools());
    }
    return this.advertised;
  }

  /** Serves requests from `input` until it closes (when the returned promise settles); answers go to `output`, one JSON line each. */
  listen(input: Readable, output: Writable): Promise<void> {
    const closed = new Promise<void>((resolve) => input.once('close', resolve));
    const send = (reply: string | undefined) => {
      if (reply !== undefined) output.write(reply + '\n');
    };
    const reader = new LineReader({
      line: (text) => void this.receive(text).then(send),
      overlong: (bytes, id) =>
        send(failure(id, INVALID_REQUEST, `a message of ${bytes} bytes was dropped: messages are at most ${MAX_LINE_BYTES} bytes`)),
    });
    input.on('data', reader.push);
    return closed;
  }

  /** The JSON text of the answer to one line; undefined for notifications and responses. */
  async receive(line: string): Promise<string | undefined> {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return failure(null, PARSE_ERROR, 'parse error: each line must be one JSON-RPC message in JSON');
    }
    return this.answer(value);
  }

  /**
   * The JSON text of the answer to one message. Every request gets one, a
   * malformed one a JSON-RPC error (id null when its id cannot be read), and
   * the server keeps serving; notifications and responses get none.
   */
  async answer(value: unknown): Promise<string | undefined> {
    if (Array.isArray(value)) return failure(null, INVALID_REQUEST, 'batches are not supported: send one JSON-RPC message a line');
    if (!isObject(value)) return failure(null, INVALID_REQUEST, 'not a JSON-RPC 2.0 message: expected an object');
    const message = value as Request;
    const readable = typeof message.id === 'string' || typeof message.id === 'number';
    const id = readable ? (message.id as string | number) : null;
    const method = typeof message.method === 'string' ? message.method : undefined;
    if (method === undefined) {
      // A response to a request of ours (this server sends none): nothing to answer.
      if (readable && ('result' in message || 'error' in message)) return undefined;
      return failure(id, INVALID_REQUEST, 'not a JSON-RPC 2.0 message: method must be a string');
    }
    // A notification: never answered, even when malformed.
    if (message.id === undefined) return undefined;
    if (!readable) return failure(null, INVALID_REQUEST, 'not a JSON-RPC 2.0 message: id must be a string or a number');
    if (typeof id === 'string' && id.length > MAX_ID_LENGTH)
      return failure(null, INVALID_REQUEST, `a request id is at most ${MAX_ID_LENGTH} characters, not ${id.length}`);
    if (message.jsonrpc !== '2.0') return failure(id, INVALID_REQUEST, 'not a JSON-RPC 2.0 message: jsonrpc must be "2.0"');
    if ('params' in message && !isObject(message.params))
      return failure(id, INVALID_PARAMS, `the params of ${quote(method)} must be an object`);
    const ok = (result: string) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;
    try {
      switch (method) {
        case 'initialize': {
          const requested = message.params?.protocolVersion;
          const protocolVersion = PROTOCOL_VERSIONS.includes(requested as string) ? requested : PROTOCOL_VERSIONS[0];
          return ok(JSON.stringify({ protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: this.info }));
        }
        case 'ping':
          return ok('{}');
        case 'tools/list':
          return ok(`{"tools":${await this.listTools()}}`);
        case 'tools/call': {
          this.called = true;
          const name = message.params?.name;
          const args = message.params?.arguments;
          if (typeof name !== 'string') return failure(id, INVALID_PARAMS, 'tools/call needs the name of a tool (params.name)');
          if (args !== undefined && !isObject(args))
            return failure(id, INVALID_PARAMS, "a tool's arguments must be an object of named arguments (see tools/list)");
          this.inFlight++;
          try {
            await this.ready;
            // What came in with the question or before it is handled first: one turn of the event loop runs the
            // callbacks of everything it read in the same poll. A file event queued before the question was sent
            // is so seen by its answer, which trusts a watched worktree's events (freshness/worktree-files.ts).
            await new Promise<void>((resolve) => setImmediate(resolve));
            const tool = this.tools.get(name);
            const outcome: ToolOutcome = this.failure
              ? { error: this.failure }
              : tool
                ? await tool.handler(args ?? {})
                : { error: `unknown tool ${quote(name)}: call tools/list for the tools this server has` };
            if (!('error' in outcome) && !outcome.isError) this.answered(args ?? {});
            return ok(callResult(outcome));
          } finally {
            if (--this.inFlight === 0) {
              for (const resume of this.idleWaiters.splice(0)) setImmediate(resume);
              for (const listener of this.quietListeners) listener();
            }
          }
        }
        default:
          return failure(id, METHOD_NOT_FOUND, `method not found: ${quote(method)} (this server answers initialize, ping, tools/list and tools/call)`);
      }
    } catch (error) {
      return failure(id, INTERNAL_ERROR, `internal error: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Tells the listeners of a call answered: after the answer is sent, so none of their work delays it. */
  private answered(args: Record<string, unknown>): void {
    if (this.answeredListeners.length === 0) return;
    setImmediate(() => {
      for (const listener of this.answeredListeners) listener(args);
    });
  }
}

/** A JSON-RPC error answer, its message one bounded line. */
function failure(id: string | number | null, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message: boundedMessage(message) } });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A tools/call result: structuredContent and the same object as JSON text.
 * The object is serialised once; its text is that serialisation quoted.
 */
function callResult(outcome: ToolOutcome): string {
  const failed = 'error' in outcome || outcome.isError === true;
  // A reply measured against its byte budget was serialised then, both ways.
  const sent = 'error' in outcome ? undefined : serialized(outcome.result);
  const body = sent?.json ?? asciiJson(JSON.stringify('error' in outcome ? { error: boundedMessage(outcome.error), ...outcome.details } : outcome.result));
  const text = `{"content":[{"type":"text","text":${sent?.quoted ?? JSON.stringify(body)}}],"structuredContent":${body}`;
  return failed ? `${text},"isError":true}` : `${text}}`;
}
