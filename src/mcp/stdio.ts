// Reading MCP's stdio framing: one JSON-RPC message per line. A line longer
// than MAX_LINE_BYTES is not kept (a client cannot make the server hold an
// unbounded buffer) but skipped to its end and reported, so the server can
// answer it with an error and keep serving.

/** The longest line read; a longer one is skipped to its end and reported. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

export interface LineHandlers {
  line(text: string): void;
  /** A line of `bytes` bytes was dropped for its length. */
  overlong(bytes: number): void;
}

export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  /** Bytes of the current line past MAX_LINE_BYTES, which are not kept. */
  private skipped = 0;

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
    if (skipped) this.handlers.overlong(skipped);
    else if (line.trim()) this.handlers.line(line);
  }
}
