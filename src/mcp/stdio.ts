// The MCP stdio transport: one JSON-RPC message per line. The SDK's own
// transport drops what it cannot parse without a word (a request whose params
// is not an object gets no reply) and gives up on a line longer than its
// buffer (the server then exits). Here every line that carries a request gets
// an answer, bad ones a one-line JSON-RPC error, and the server keeps serving.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { quote } from '../errors.js';

/** The longest line read; a longer one is skipped to its end and answered with an error. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** The longest request id answered with itself: a reply echoes its id, and no reply grows with its input. */
export const MAX_ID_LENGTH = 256;
/** Bytes kept from each end of a skipped line, where a request's id is found. */
const ENDS_KEPT = 512;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

export class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private parts: Buffer[] = [];
  private size = 0;
  /** Bytes of the current line past MAX_LINE_BYTES, which are not kept. */
  private skipped = 0;
  /** The first and last bytes of a skipped line, to answer it with its id. */
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(JSON.stringify(message) + '\n')) resolve();
      else this.output.once('drain', resolve);
    });
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, start)) {
      this.keep(bytes.subarray(start, end));
      this.endLine();
      start = end + 1;
    }
    this.keep(bytes.subarray(start));
  };

  private keep(part: Buffer): void {
    if (this.skipped || this.size + part.length > MAX_LINE_BYTES) {
      if (!this.skipped) this.head = Buffer.concat([...this.parts, part]).subarray(0, ENDS_KEPT);
      this.tail = Buffer.concat([this.tail, part.subarray(-ENDS_KEPT)]).subarray(-ENDS_KEPT);
      this.skipped += part.length + this.size;
      this.parts = [];
      this.size = 0;
      return;
    }
    this.parts.push(part);
    this.size += part.length;
  }

  private endLine(): void {
    const line = Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    const skipped = this.skipped;
    this.parts = [];
    this.size = 0;
    this.skipped = 0;
    if (skipped) {
      const id = idAtEnds(this.head.toString('utf8'), this.tail.toString('utf8'));
      this.head = this.tail = Buffer.alloc(0);
      this.fail(id, INVALID_REQUEST, `a message of ${skipped} bytes was dropped: messages are at most ${MAX_LINE_BYTES} bytes`);
      return;
    }
    if (line.trim()) this.receive(line);
  }

  private receive(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.fail(null, PARSE_ERROR, 'parse error: each line must be one JSON-RPC message in JSON');
      return;
    }
    const message = value as { id?: unknown; method?: unknown; params?: unknown };
    const id = typeof message?.id === 'string' || typeof message?.id === 'number' ? message.id : null;
    const method = typeof message?.method === 'string' ? message.method : undefined;
    if (typeof id === 'string' && id.length > MAX_ID_LENGTH) {
      this.fail(null, INVALID_REQUEST, `a request id is at most ${MAX_ID_LENGTH} characters, not ${id.length}`);
      return;
    }
    if (method && 'params' in message && !isObject(message.params)) {
      if (id !== null) this.fail(id, INVALID_PARAMS, `the params of ${quote(method)} must be an object`);
      return;
    }
    const args = method === 'tools/call' ? (message.params as { arguments?: unknown }).arguments : undefined;
    if (args !== undefined && !isObject(args)) {
      if (id !== null) this.fail(id, INVALID_PARAMS, "a tool's arguments must be an object of named arguments (see tools/list)");
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) this.onmessage?.(parsed.data);
    else if (id !== null || !method) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      this.fail(id, INVALID_REQUEST, `not a JSON-RPC 2.0 message${where}: ${issue?.message ?? 'invalid'}`);
    }
  }

  private fail(id: string | number | null, code: number, message: string): void {
    // The SDK's message types require an id; JSON-RPC answers an unreadable request with id null.
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage).catch((error: Error) =>
      this.onerror?.(error),
    );
  }
}

/**
 * The id of a message too long to read, when one end of its line shows it:
 * `{"jsonrpc":"2.0","id":…` at its start, or `,"id":…}` closing it (the SDK
 * writes the id last). Both are anchored to the outer object, so an "id"
 * inside the params is never taken for it.
 */
function idAtEnds(head: string, tail: string): string | number | null {
  const value = String.raw`(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.){0,${MAX_ID_LENGTH}}")`;
  const m =
    new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${value}\s*[,}]`).exec(head) ??
    new RegExp(String.raw`,\s*"id"\s*:\s*${value}\s*\}\s*$`).exec(tail);
  if (!m) return null;
  try {
    return JSON.parse(m[1]!) as string | number;
  } catch {
    return null;
  }
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
