// Reading MCP's stdio framing: one JSON-RPC message per line. A line longer
// than MAX_LINE_BYTES is not kept (a client cannot make the server hold an
// unbounded buffer) but skipped to its end and reported, so the server can
// answer it with an error and keep serving.

/** The longest line read; a longer one is skipped to its end and reported. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** The longest request id answered with itself: a reply echoes its id, and no reply grows with its input. */
export const MAX_ID_LENGTH = 256;
/** Bytes kept from each end of a skipped line, where a request's id is found. */
const ENDS_KEPT = 512;

export interface LineHandlers {
  line(text: string): void;
  /** A line of `bytes` bytes was dropped for its length; `id` is the request's, when one end of the line shows it. */
  overlong(bytes: number, id: string | number | null): void;
}

export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  /** Bytes of the current line past MAX_LINE_BYTES, which are not kept. */
  private skipped = 0;
  /** The first and last bytes of a skipped line, to answer it with its id. */
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);

  constructor(private readonly handlers: LineHandlers) {}

  readonly push = (chunk: Buffer | string): void => {
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
      this.handlers.overlong(skipped, id);
    } else if (line.trim()) this.handlers.line(line);
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
