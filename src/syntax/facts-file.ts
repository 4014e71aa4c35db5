// Syntax facts an indexer's process writes beside its index (see
// orchestrator/syntax-facts-patch.ts), read back by sextant as the index's
// documents arrive (orchestrator/run-indexer.ts). A frame per file, written
// before the file's document, in one write: a header of 32-bit little-endian
// words (the frame's length after the first word, the length of the text
// parsed, the path's length in bytes, and the length of each of FIELDS'
// arrays), the path in UTF-8 padded to 8 bytes, then the arrays' float64s.
// (V8's serializer took 40 ms for kysely's 560 frames, on the indexer's
// critical path; this, a few.)
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import type { SyntaxFactsData } from './facts.js';

/** Names the file the indexer's process writes its facts to: set in its environment by sextant. */
export const FACTS_FILE_ENV = 'SEXTANT_SYNTAX_FACTS';

/**
 * A file's facts as the indexer's process found them, and the length of the
 * text it parsed: data, made SyntaxFacts only by a document that is derived
 * (not one found stored already, or left out).
 */
export interface IndexerFacts {
  data: SyntaxFactsData;
  textLength: number;
}

interface Frame {
  path: string;
  textLength: number;
  data: SyntaxFactsData;
}

const FIELDS = ['kinds', 'argumentCounts', 'declarations', 'aliases', 'moduleNames', 'exportNames'] as const;
const HEADER_BYTES = 4 * (3 + FIELDS.length);

const padded = (n: number) => (n + 7) & ~7;

/** Appends the facts of the file at `path` (its document's relative path) to the file open at `fd`. */
export function writeFactsFrame(fd: number, { path, textLength, data }: Frame): void {
  const name = Buffer.from(path, 'utf8');
  let size = padded(HEADER_BYTES + name.length);
  for (const field of FIELDS) size += data[field].byteLength;
  const frame = Buffer.alloc(size);
  frame.writeUInt32LE(size - 4, 0);
  frame.writeUInt32LE(textLength, 4);
  frame.writeUInt32LE(name.length, 8);
  FIELDS.forEach((field, i) => frame.writeUInt32LE(data[field].length, 12 + 4 * i));
  name.copy(frame, HEADER_BYTES);
  let at = padded(HEADER_BYTES + name.length);
  for (const field of FIELDS) {
    const array = data[field];
    frame.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += array.byteLength;
  }
  // One write: the reader never sees a frame's length without the bytes it counts.
  writeSync(fd, frame);
}

function readFrame(frame: Buffer): Frame {
  const textLength = frame.readUInt32LE(4);
  const nameLength = frame.readUInt32LE(8);
  const path = frame.toString('utf8', HEADER_BYTES, HEADER_BYTES + nameLength);
  let at = padded(HEADER_BYTES + nameLength);
  const data = {} as SyntaxFactsData;
  FIELDS.forEach((field, i) => {
    const array = new Float64Array(frame.readUInt32LE(12 + 4 * i));
    // Copied: the frame's bytes need not be aligned for a view.
    new Uint8Array(array.buffer).set(frame.subarray(at, at + array.byteLength));
    at += array.byteLength;
    data[field] = array;
  });
  if (at !== frame.length) throw new Error('a syntax facts frame of the wrong length');
  return { path, textLength, data };
}

/** Reads the frames an indexer writes, as far as it has written them, when a document asks for its own. */
export class FactsFileReader {
  private fd: number | undefined;
  private offset = 0;
  private rest: Buffer = Buffer.alloc(0);
  private broken = false;
  private readonly frames = new Map<string, Frame>();

  constructor(private readonly file: string) {}

  /** The facts written for `path` (once: they are not kept after), or undefined when there are none. */
  take(path: string): IndexerFacts | undefined {
    if (!this.frames.has(path)) this.read();
    const frame = this.frames.get(path);
    if (!frame) return undefined;
    this.frames.delete(path);
    return { data: frame.data, textLength: frame.textLength };
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.frames.clear();
    this.rest = Buffer.alloc(0);
  }

  private read(): void {
    if (this.broken) return;
    try {
      // Absent until the indexer opens it, and for good when it does not (its process was not patched).
      this.fd ??= openSync(this.file, 'r');
    } catch {
      return;
    }
    try {
      const size = fstatSync(this.fd).size;
      if (size <= this.offset) return;
      const chunk = Buffer.allocUnsafe(size - this.offset);
      const read = readSync(this.fd, chunk, 0, chunk.length, this.offset);
      this.offset += read;
      const buffer = this.rest.length > 0 ? Buffer.concat([this.rest, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      let at = 0;
      while (buffer.length - at >= 4) {
        const end = at + 4 + buffer.readUInt32LE(at);
        if (end > buffer.length) break;
        const frame = readFrame(buffer.subarray(at, end));
        this.frames.set(frame.path, frame);
        at = end;
      }
      this.rest = Buffer.from(buffer.subarray(at));
    } catch {
      // An unreadable frame: every file from here on is parsed by sextant itself.
      this.broken = true;
    }
  }
}
