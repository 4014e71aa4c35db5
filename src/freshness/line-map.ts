// How the lines of an indexed file moved in its current text: a line diff
// (jsdiff's Myers diff over the two arrays of lines) kept as its changed
// hunks, so a line maps either way by a binary search and an offset. A line
// inside a hunk was changed, inserted or deleted: it has no place on the
// other side, and nothing the index says about it can be trusted.
import { diffArrays } from 'diff';
import type { Range } from '../scip/range.js';

/** Lines [oldStart, oldEnd) of the indexed text became lines [newStart, newEnd) of the current one. */
export interface Hunk {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/**
 * Past this many changed lines, or this many milliseconds, the diff gives up
 * (jsdiff's maxEditLength and timeout; its cost grows with lines times
 * changes): a file rewritten that much is treated as wholly changed rather
 * than holding up the answer.
 */
const MAX_EDIT_LENGTH = 2000;
const MAX_DIFF_MS = 100;

export class LineMap {
  private constructor(
    readonly hunks: readonly Hunk[],
    readonly oldLength: number,
    readonly newLength: number,
  ) {}

  static between(oldLines: readonly string[], newLines: readonly string[]): LineMap {
    const changes = diffArrays(oldLines as string[], newLines as string[], { maxEditLength: MAX_EDIT_LENGTH, timeout: MAX_DIFF_MS });
    if (!changes) return LineMap.rewritten(oldLines.length, newLines.length);
    const hunks: Hunk[] = [];
    let o = 0;
    let n = 0;
    for (const change of changes) {
      const count = change.count ?? change.value.length;
      if (!change.added && !change.removed) {
        o += count;
        n += count;
        continue;
      }
      // A removal and an addition side by side are one replacement hunk.
      let last = hunks[hunks.length - 1];
      if (!last || last.oldEnd !== o || last.newEnd !== n) hunks.push((last = { oldStart: o, oldEnd: o, newStart: n, newEnd: n }));
      if (change.removed) last.oldEnd = o += count;
      else last.newEnd = n += count;
    }
    return new LineMap(hunks, oldLines.length, newLines.length);
  }

  /** Every line changed: nothing maps. */
  static rewritten(oldLength: number, newLength: number): LineMap {
    return new LineMap([{ oldStart: 0, oldEnd: oldLength, newStart: 0, newEnd: newLength }], oldLength, newLength);
  }

  /** The current line of an indexed one; undefined when it was changed or deleted. */
  toNew(line: number): number | undefined {
    return this.map(line, 'oldStart', 'oldEnd', 'newEnd', this.oldLength);
  }

  /** The indexed line of a current one; undefined when it was changed or inserted. */
  toOld(line: number): number | undefined {
    return this.map(line, 'newStart', 'newEnd', 'oldEnd', this.newLength);
  }

  /** A range of the indexed text in the current one, when no line of it changed (the range of a name, a reference). */
  rangeToNew(r: Range): Range | undefined {
    const start = this.toNew(r[0]);
    if (start === undefined) return undefined;
    if (r[2] !== r[0] && (this.toNew(r[2]) !== start + (r[2] - r[0]) || this.touches(r[0], r[2]))) return undefined;
    return [start, r[1], start + (r[2] - r[0]), r[3]];
  }

  /**
   * The extent of a definition in the current text. Its body may have been
   * edited: an end that fell in a changed hunk moves to that hunk's end (a
   * start to its start), so the extent still holds what replaced its lines.
   */
  spanToNew(r: Range): Range {
    const start = this.toNew(r[0]);
    const end = this.toNew(r[2]);
    const s = start ?? this.hunkAt(r[0])?.newStart ?? this.newLength;
    const e = end ?? this.hunkAt(r[2])?.newEnd ?? this.newLength;
    return [s, start === undefined ? 0 : r[1], e, end === undefined ? 0 : r[3]];
  }

  /** Whether some hunk changed old lines within [from, to]. */
  private touches(from: number, to: number): boolean {
    return this.hunks.some((h) => h.oldStart <= to && (h.oldEnd > from || (h.oldEnd === h.oldStart && h.oldStart > from)));
  }

  /** The hunk that changed an indexed line. */
  private hunkAt(line: number): Hunk | undefined {
    return this.hunks.find((h) => line >= h.oldStart && line < h.oldEnd);
  }

  private map(
    line: number,
    fromStart: 'oldStart' | 'newStart',
    fromEnd: 'oldEnd' | 'newEnd',
    toEnd: 'oldEnd' | 'newEnd',
    length: number,
  ): number | undefined {
    if (line < 0 || line >= length) return undefined;
    // The last hunk starting at or before the line.
    let lo = 0;
    let hi = this.hunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.hunks[mid]![fromStart] <= line) lo = mid + 1;
      else hi = mid;
    }
    const h = this.hunks[lo - 1];
    if (!h) return line;
    if (line < h[fromEnd]) return undefined;
    return line - h[fromEnd] + h[toEnd];
  }
}
