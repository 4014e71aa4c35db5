// What the syntax of a file says that a SCIP index may not: how each name is
// used (for reference kinds) and how far each declaration extends (for the
// definitions an indexer gave no enclosing range).
import type { Range } from '../scip/range.js';
import { RefKindCode } from '../registry/payload.js';

export class SyntaxFacts {
  private readonly kinds = new Map<number, number>();
  private readonly extents = new Map<number, Range>();

  setKind(line: number, character: number, kind: number): void {
    this.kinds.set(key(line, character), kind);
  }

  setExtent(line: number, character: number, extent: Range): void {
    this.extents.set(key(line, character), extent);
  }

  /** The reference kind of the name starting at (line, character); identifier when syntax says nothing more. */
  kindAt(line: number, character: number): number {
    return this.kinds.get(key(line, character)) ?? RefKindCode.identifier;
  }

  /** The extent of the declaration whose name starts at (line, character). */
  extentAt(line: number, character: number): Range | undefined {
    return this.extents.get(key(line, character));
  }
}

function key(line: number, character: number): number {
  return line * 0x100000 + character;
}
