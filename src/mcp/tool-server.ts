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

/** The protocol versions the SDK's server accepts (its SUPPORTED_PROTOCOL_VERSIONS), newest first. */
const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

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

/** A tool's answer: the result object (sent as structuredContent and as its JSON text), or a failure. */
export type ToolOutcome = { result: unknown } | { error: string };

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
  jsonrpc: '2.0';
  id?: string | number;
  method?: string;
  params?: { name?: unknown; arguments?: unknown; protocolVersion?: unknown };
}

/** Where the build writes the advertised tools, beside the bundle's chunks. */
export const PREBUILT_TOOLS = 'tools.json';

export class ToolServer {
  private readonly tools = new Map<string, { config: ToolConfig; handler: Handler }>();
  private advertised: AdvertisedTool[] | undefined;
  /** Settles once the tools are registered (see `loading`). */
  private ready: Promise<void> = Promise.resolve();
  /** Why the tools could not be loaded, if they could not. */
  private failure: string | undefined;

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

  registerTool(name: string, config: ToolConfig, handler: Handler): void {
    if (this.tools.has(name)) throw new Error(`tool ${name} is registered twice`);
    this.tools.set(name, { config, handler });
    this.advertised = undefined;
  }

  /** The registered tools, in order. */
  definitions(): [name: string, config: ToolConfig][] {
    return [...this.tools].map(([name, { config }]) => [name, config]);
  }

  /** The tools/list answer, rendered as the SDK renders zod schemas (draft-7, input/output). */
  async renderTools(): Promise<AdvertisedTool[]> {
    const { z } = await import('zod');
    return this.definitions().map(([name, config]) => ({
      name,
      description: config.description,
      inputSchema: z.toJSONSchema(config.inputSchema, { target: 'draft-7', io: 'input' }),
      annotations: config.annotations,
      // As the SDK's server says of every tool not registered as a task.
      execution: { taskSupport: 'forbidden' },
      outputSchema: z.toJSONSchema(config.outputSchema(), { target: 'draft-7', io: 'output' }),
    }));
  }

  /**
   * The tools/list answer: the prebuilt one (written by the same build as
   * the code that registers the tools), else, once the tools are registered,
   * rendered from them.
   */
  private async listTools(): Promise<AdvertisedTool[]> {
    if (this.advertised) return this.advertised;
    try {
      this.advertised = JSON.parse(readFileSync(new URL(`./${PREBUILT_TOOLS}`, import.meta.url), 'utf8')) as AdvertisedTool[];
    } catch {
      await this.ready;
      this.advertised = await this.renderTools();
    }
    return this.advertised;
  }

  /** Serves requests from `input` until it closes (when the returned promise settles); answers go to `output`, one JSON line each. */
  listen(input: Readable, output: Writable): Promise<void> {
    const closed = new Promise<void>((resolve) => input.once('close', resolve));
    let buffer = '';
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, end).replace(/\r$/, '');
        buffer = buffer.slice(end + 1);
        if (line.trim() === '') continue;
        let message: Request;
        try {
          message = JSON.parse(line) as Request;
        } catch {
          continue; // as the SDK's transport: a line that is not JSON gets no answer
        }
        void this.answer(message).then((reply) => {
          if (reply !== undefined) output.write(reply + '\n');
        });
      }
    });
    return closed;
  }

  /** The JSON text of the answer to one message; undefined for notifications and responses. */
  async answer(message: Request): Promise<string | undefined> {
    if (typeof message !== 'object' || message === null || message.id === undefined || typeof message.method !== 'string')
      return undefined;
    const id = JSON.stringify(message.id);
    const ok = (result: string) => `{"jsonrpc":"2.0","id":${id},"result":${result}}`;
    const fail = (code: number, text: string) => JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code, message: text } });
    try {
      switch (message.method) {
        case 'initialize': {
          const requested = message.params?.protocolVersion;
          const protocolVersion = PROTOCOL_VERSIONS.includes(requested as string) ? requested : PROTOCOL_VERSIONS[0];
          return ok(JSON.stringify({ protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: this.info }));
        }
        case 'ping':
          return ok('{}');
        case 'tools/list':
          return ok(JSON.stringify({ tools: await this.listTools() }));
        case 'tools/call': {
          const name = message.params?.name;
          const args = message.params?.arguments;
          if (typeof name !== 'string') return fail(INVALID_PARAMS, 'Invalid params: tools/call needs a tool name (params.name)');
          if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
            return fail(INVALID_PARAMS, 'Invalid params: tools/call arguments must be an object');
          await this.ready;
          const tool = this.tools.get(name);
          const outcome: ToolOutcome = this.failure
            ? { error: this.failure }
            : tool
              ? await tool.handler(args ?? {})
              : { error: `unknown tool "${name}": call tools/list for the tools this server has` };
          return ok(callResult(outcome));
        }
        default:
          return fail(METHOD_NOT_FOUND, 'Method not found');
      }
    } catch (error) {
      return fail(INTERNAL_ERROR, error instanceof Error ? error.message : 'Internal error');
    }
  }
}

/**
 * A tools/call result: structuredContent and the same object as JSON text.
 * The object is serialised once; its text is that serialisation quoted.
 */
function callResult(outcome: ToolOutcome): string {
  const body = JSON.stringify('result' in outcome ? outcome.result : { error: outcome.error });
  const text = `{"content":[{"type":"text","text":${JSON.stringify(body)}}],"structuredContent":${body}`;
  return 'error' in outcome ? `${text},"isError":true}` : `${text}}`;
}
