// SCIP ranges come as [line, startChar, endChar] or [startLine, startChar,
// endLine, endChar], 0-based and half-open. sextant stores every position in
// UTF-16 code units, which is what JavaScript, LSP and the MCP contract count.
import { PositionEncoding } from './schema.js';

/** [startLine, startChar, endLine, endChar], 0-based, half-open, UTF-16. */
export type Range = [number, number, number, number];

export function normalizeRange(r: ArrayLike<number>): Range | undefined {
  if (r.length === 3) return valid([r[0]!, r[1]!, r[0]!, r[2]!]);
  if (r.length === 4) return valid([r[0]!, r[1]!, r[2]!, r[3]!]);
  return undefined;
}

function valid(r: Range): Range | undefined {
  if (r.some((n) => n < 0 || !Number.isInteger(n))) return undefined;
  if (r[2] < r[0] || (r[2] === r[0] && r[3] < r[1])) return undefined;
  return r;
}

/** True when (line, character) lies in [start, end]; the end is included so that a cursor just after a name still finds it. */
export function rangeTouches(r: Range, line: number, character: number): boolean {
  if (line < r[0] || line > r[2]) return false;
  if (line === r[0] && character < r[1]) return false;
  if (line === r[2] && character > r[3]) return false;
  return true;
}

export function rangeContains(outer: Range, inner: Range): boolean {
  return comparePositions(outer[0], outer[1], inner[0], inner[1]) <= 0 && comparePositions(inner[2], inner[3], outer[2], outer[3]) <= 0;
}

/** The smallest range containing both. */
export function rangeHull(a: Range, b: Range): Range {
  const start = comparePositions(a[0], a[1], b[0], b[1]) <= 0 ? a : b;
  const end = comparePositions(a[2], a[3], b[2], b[3]) >= 0 ? a : b;
  return [start[0], start[1], end[2], end[3]];
}

export function comparePositions(l1: number, c1: number, l2: number, c2: number): number {
  return l1 !== l2 ? l1 - l2 : c1 - c2;
}

/**
 * Returns a converter of document columns to UTF-16 columns, or undefined when
 * the document already counts UTF-16 units (the default of JavaScript-hosted
 * indexers, which leave the encoding unspecified).
 */
export function columnConverter(encoding: number, lines: readonly string[]): ((line: number, column: number) => number) | undefined {
  if (encoding === PositionEncoding.Utf8) {
    return (line, column) => {
      const text = lines[line];
      if (text === undefined) return column;
      return Buffer.from(text, 'utf8').subarray(0, column).toString('utf8').length;
    };
  }
  if (encoding === PositionEncoding.Utf32) {
    return (line, column) => {
      const text = lines[line];
      if (text === undefined) return column;
      return [...text].slice(0, column).join('').length;
    };
  }
  return undefined;
}
