// Streams the top-level fields of a serialized SCIP Index one at a time, so
// that memory stays bounded by the largest document rather than the index.
// With `follow`, the file may still be growing (an indexer writing it): end of
// file then means "wait for more" until the producer has finished.
import { open, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export interface IndexField {
  /** Field number in the Index message (1 metadata, 2 documents, 3 external_symbols). */
  field: number;
  /** The field's payload; owned by the caller. */
  bytes: Buffer;
}

export interface Follow {
  /** Settles when the producer has stopped writing. */
  finished: Promise<unknown>;
  /** The first wait at end of file; each wait that finds nothing new doubles it, up to 16 times as long. */
  pollMs?: number;
}

export class TruncatedIndexError extends Error {
  constructor(path: string, offset: number) {
    super(`${path} ends in the middle of a field at byte ${offset}: the SCIP index is truncated`);
  }
}

const WireType = { varint: 0, i64: 1, len: 2, i32: 5 } as const;
const CHUNK = 1 << 20;
const POLL_MS = 20;
const MAX_BACKOFF = 16;

export async function* readIndexFields(path: string, follow?: Follow): AsyncGenerator<IndexField> {
  const reader = await FileReader.open(path, follow);
  try {
    for (;;) {
      const tag = await reader.varint();
      if (tag === undefined) return;
      const field = tag >>> 3;
      const wire = tag & 7;
      switch (wire) {
        case WireType.len: {
          const length = await reader.varint();
          if (length === undefined) throw reader.truncated();
          yield { field, bytes: await reader.take(length) };
          break;
        }
        case WireType.varint:
          if ((await reader.varint()) === undefined) throw reader.truncated();
          break;
        case WireType.i64:
          await reader.take(8);
          break;
        case WireType.i32:
          await reader.take(4);
          break;
        default:
          throw new Error(`${path}: unsupported wire type ${wire} at top level: not a SCIP index`);
      }
    }
  } finally {
    await reader.close();
  }
}

class FileReader {
  private buf = Buffer.allocUnsafe(CHUNK);
  private start = 0;
  private end = 0;
  /** File offset of buf[end]. */
  private fileOffset = 0;
  private producerDone = false;
  /**
   * How long the next wait at end of file lasts. An indexer writes nothing
   * for seconds while it loads its program, and each poll is a read on the
   * thread pool: backing off keeps the waiting from costing CPU the indexer
   * could use. The producer finishing ends a wait at once.
   */
  private waitMs: number;

  private constructor(
    private readonly path: string,
    private readonly handle: FileHandle,
    private readonly follow: Follow | undefined,
  ) {
    this.waitMs = follow?.pollMs ?? POLL_MS;
    follow?.finished.then(
      () => (this.producerDone = true),
      () => (this.producerDone = true),
    );
  }

  static async open(path: string, follow?: Follow): Promise<FileReader> {
    for (;;) {
      try {
        return new FileReader(path, await open(path, 'r'), follow);
      } catch (error) {
        // A followed file may not have been created yet.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !follow) throw error;
        let done = false;
        await Promise.race([
          follow.finished.then(
            () => (done = true),
            () => (done = true),
          ),
          sleep(follow.pollMs ?? POLL_MS),
        ]);
        if (done) return new FileReader(path, await open(path, 'r'), follow);
      }
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  truncated(): TruncatedIndexError {
    return new TruncatedIndexError(this.path, this.fileOffset - (this.end - this.start));
  }

  /** Reads a varint; undefined at a clean end of file. */
  async varint(): Promise<number | undefined> {
    for (;;) {
      let value = 0;
      let shift = 0;
      for (let i = this.start; i < this.end; i++) {
        const byte = this.buf[i]!;
        value += (byte & 0x7f) * 2 ** shift;
        shift += 7;
        if ((byte & 0x80) === 0) {
          this.start = i + 1;
          return value;
        }
        if (shift > 49) throw new Error(`${this.path}: malformed varint: not a SCIP index`);
      }
      const available = this.end - this.start;
      if (!(await this.fill(available + 1))) {
        if (available === 0) return undefined;
        throw this.truncated();
      }
    }
  }

  /** Returns a copy of the next `length` bytes. */
  async take(length: number): Promise<Buffer> {
    if (this.end - this.start < length && !(await this.fill(length))) throw this.truncated();
    const out = Buffer.from(this.buf.subarray(this.start, this.start + length));
    this.start += length;
    return out;
  }

  /** Makes at least `wanted` unread bytes available; false at end of input. */
  private async fill(wanted: number): Promise<boolean> {
    if (this.buf.length < wanted) {
      const bigger = Buffer.allocUnsafe(Math.max(wanted, this.buf.length * 2));
      this.buf.copy(bigger, 0, this.start, this.end);
      this.buf = bigger;
    } else {
      this.buf.copy(this.buf, 0, this.start, this.end);
    }
    this.end -= this.start;
    this.start = 0;
    while (this.end < wanted) {
      const { bytesRead } = await this.handle.read(this.buf, this.end, this.buf.length - this.end, this.fileOffset);
      if (bytesRead > 0) {
        this.end += bytesRead;
        this.fileOffset += bytesRead;
        this.waitMs = this.follow?.pollMs ?? POLL_MS;
        continue;
      }
      if (!this.follow) return false;
      if (this.producerDone) {
        // The producer may have written its last bytes just before finishing.
        const { bytesRead: last } = await this.handle.read(this.buf, this.end, this.buf.length - this.end, this.fileOffset);
        if (last === 0) return false;
        this.end += last;
        this.fileOffset += last;
        continue;
      }
      // Unreferenced: a wait cut short by the producer finishing must not keep the process alive.
      await Promise.race([this.follow.finished.catch(() => undefined), sleep(this.waitMs, undefined, { ref: false })]);
      this.waitMs = Math.min(this.waitMs * 2, (this.follow.pollMs ?? POLL_MS) * MAX_BACKOFF);
    }
    return true;
  }
}
