// Packed binary forms of a document's occurrences and of one symbol's ranges
// in a document. Int32 records, little-endian (the byte order of every
// platform Node.js runs on), so decoding is a view, not a parse.
import type { Range } from '../scip/range.js';

/** How a reference uses its symbol, read from the syntax around it. */
export const REF_KINDS = ['identifier', 'call', 'type', 'import', 'write'] as const;
export type RefKind = (typeof REF_KINDS)[number];
export const RefKindCode: Record<RefKind, number> = { identifier: 0, call: 1, type: 2, import: 3, write: 4 };

/**
 * A reference kind of sextant's own, outside REF_KINDS: the name resolves to
 * the symbol (goToDefinition from it answers), but it is no reference of it:
 * findReferences does not list it, and a call hierarchy does not count it.
 */
export const NAMING_ONLY = 0xff;

/**
 * A reference kind of sextant's own: a module's specifier (`'./m'` of an
 * import or a require), answered as an import. At a name that stands for the
 * module (`m` of `import * as m`), TypeScript lists the names that do in
 * every file, not the specifiers.
 */
export const MODULE_SPECIFIER = 0xfe;

/**
 * A reference kind of sextant's own: a name a doc comment links to (`{@link
 * DateTime#locale}`, `@see X`), answered as an identifier. It runs nothing:
 * a call hierarchy does not count it as a getter's read, as TypeScript's does
 * not.
 */
export const DOC_LINK = 0xfd;

/**
 * A reference kind of sextant's own: a property a binding pattern takes
 * (`const { ANY } = Comparator`), answered as an identifier. A read, and a
 * mention to a call hierarchy, but no call of the getter it runs: TypeScript's
 * call hierarchy does not count it.
 */
export const DESTRUCTURED = 0xfc;

/**
 * Reference kinds of sextant's own: a use, a call or not, of a name a file
 * binds renamed from a CommonJS module (`re` of `const { safeRe: re } =
 * require('./re')`), which the index gives the export's symbol. TypeScript
 * lists it among that name's references (see importer-bindings.ts) and not
 * among the export's, and its call hierarchy lists the export among the
 * caller's callees but not the caller among the export's callers.
 */
export const RENAMED_CALL = 0xfb;
export const RENAMED_USE = 0xfa;

/** The kind a stored reference kind answers as: a specifier as an import, a renamed use as what it is, a doc link or a destructured property as an identifier; none for NAMING_ONLY. */
export function refKindName(code: number): RefKind | undefined {
  if (code === MODULE_SPECIFIER) return 'import';
  if (code === RENAMED_CALL) return 'call';
  return code === DOC_LINK || code === DESTRUCTURED || code === RENAMED_USE ? 'identifier' : REF_KINDS[code];
}

/** The kind a renamed use (RENAMED_CALL, RENAMED_USE) has in the file that binds the name; any other kind as it is. */
export function kindInBindingFile(code: number): number {
  return code === RENAMED_CALL ? RefKindCode.call : code === RENAMED_USE ? RefKindCode.identifier : code;
}

/**
 * sextant's own bit in the roles byte, beside SCIP's (which stop at 0x40):
 * the occurrence was derived from the source by sextant, not read from the index.
 */
export const DERIVED_ROLE = 0x80;

export interface Occurrence {
  range: Range;
  /** Index into the document's symbol list. */
  symbol: number;
  roles: number;
  refKind: number;
  /**
   * The name of a member access (`a.name`, read or written): TypeScript's
   * call hierarchy counts every such use of a function as a call of it.
   */
  memberAccess: boolean;
  /** Arguments passed, when this is a call the parse could count (no spread); -1 otherwise. */
  argumentCount: number;
  enclosing: Range | undefined;
}

/**
 * An occurrence sextant derives from the source (DERIVED_ROLE) at a name the
 * indexer recorded nothing or something else for: a plain use unless said
 * otherwise, with no argument count or extent of its own.
 */
export function derivedOccurrence(range: Range, symbol: number, roles = 0, refKind: number = RefKindCode.identifier): Occurrence {
  return { range, symbol, roles: roles | DERIVED_ROLE, refKind, memberAccess: false, argumentCount: -1, enclosing: undefined };
}

const MEMBER_ACCESS = 1 << 24;

/**
 * flags: roles in bits 0-7, the reference kind in 8-15, a call's argument
 * count + 1 in 16-23 (0: unknown), whether the name is a member access in 24.
 */
function packFlags(roles: number, refKind: number, memberAccess: boolean, argumentCount: number): number {
  return (roles & 0xff) | ((refKind & 0xff) << 8) | ((Math.min(argumentCount, 254) + 1) << 16) | (memberAccess ? MEMBER_ACCESS : 0);
}

const OCCURRENCE_INTS = 10;

export function encodeOccurrences(occurrences: readonly Occurrence[]): Buffer {
  const out = new Int32Array(occurrences.length * OCCURRENCE_INTS);
  let i = 0;
  for (const o of occurrences) {
    out[i++] = o.range[0];
    out[i++] = o.range[1];
    out[i++] = o.range[2];
    out[i++] = o.range[3];
    out[i++] = o.symbol;
    out[i++] = packFlags(o.roles, o.refKind, o.memberAccess, o.argumentCount);
    const e = o.enclosing;
    out[i++] = e ? e[0] : -1;
    out[i++] = e ? e[1] : -1;
    out[i++] = e ? e[2] : -1;
    out[i++] = e ? e[3] : -1;
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/**
 * A document's occurrences, read in place from its payload: an occurrence
 * becomes an object only when asked for (`at`). A large file's document has
 * thousands; an answer reads a few of them, or scans them for one symbol or
 * one line, and decoding all of them as objects cost a first answer in such
 * a file up to a millisecond and its garbage.
 */
export class Occurrences {
  readonly length: number;
  private readonly ints: Int32Array;

  constructor(payload: Uint8Array) {
    this.ints = int32View(payload);
    if (this.ints.length % OCCURRENCE_INTS !== 0) throw new Error('corrupt payload: not a whole number of occurrences');
    this.length = this.ints.length / OCCURRENCE_INTS;
  }

  startLine(i: number): number {
    return this.ints[i * OCCURRENCE_INTS]!;
  }

  endLine(i: number): number {
    return this.ints[i * OCCURRENCE_INTS + 2]!;
  }

  /** Index into the document's symbol list. */
  symbol(i: number): number {
    return this.ints[i * OCCURRENCE_INTS + 4]!;
  }

  roles(i: number): number {
    return this.ints[i * OCCURRENCE_INTS + 5]! & 0xff;
  }

  refKind(i: number): number {
    return (this.ints[i * OCCURRENCE_INTS + 5]! >>> 8) & 0xff;
  }

  memberAccess(i: number): boolean {
    return (this.ints[i * OCCURRENCE_INTS + 5]! & MEMBER_ACCESS) !== 0;
  }

  range(i: number): Range {
    const at = i * OCCURRENCE_INTS;
    return [this.ints[at]!, this.ints[at + 1]!, this.ints[at + 2]!, this.ints[at + 3]!];
  }

  /** Whether the i-th range contains the 0-based position, or ends exactly there. */
  where(i: number, line: number, column: number): 'inside' | 'at-end' | undefined {
    const at = i * OCCURRENCE_INTS;
    const startLine = this.ints[at]!;
    const startColumn = this.ints[at + 1]!;
    const endLine = this.ints[at + 2]!;
    const endColumn = this.ints[at + 3]!;
    const afterStart = line > startLine || (line === startLine && column >= startColumn);
    if (!afterStart) return undefined;
    if (line < endLine || (line === endLine && column < endColumn)) return 'inside';
    return line === endLine && column === endColumn ? 'at-end' : undefined;
  }

  at(i: number): Occurrence {
    const at = i * OCCURRENCE_INTS;
    const ints = this.ints;
    const flags = ints[at + 5]!;
    return {
      range: [ints[at]!, ints[at + 1]!, ints[at + 2]!, ints[at + 3]!],
      symbol: ints[at + 4]!,
      roles: flags & 0xff,
      refKind: (flags >>> 8) & 0xff,
      memberAccess: (flags & MEMBER_ACCESS) !== 0,
      argumentCount: ((flags >>> 16) & 0xff) - 1,
      enclosing: ints[at + 6]! < 0 ? undefined : [ints[at + 6]!, ints[at + 7]!, ints[at + 8]!, ints[at + 9]!],
    };
  }

  /** Every occurrence as an object, in order (where allocation does not matter). */
  *[Symbol.iterator](): IterableIterator<Occurrence> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }
}

export interface SymbolRange {
  range: Range;
  roles: number;
  refKind: number;
  memberAccess: boolean;
}

const RANGE_INTS = 5;

export function encodeRanges(ranges: readonly SymbolRange[]): Buffer {
  const out = new Int32Array(ranges.length * RANGE_INTS);
  let i = 0;
  for (const r of ranges) {
    out[i++] = r.range[0];
    out[i++] = r.range[1];
    out[i++] = r.range[2];
    out[i++] = r.range[3];
    out[i++] = packFlags(r.roles, r.refKind, r.memberAccess, -1);
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/** A symbol's packed ranges in one document, read in place: RANGE_INTS ints per range, flags last. */
export function rangeRecords(payload: Uint8Array): Int32Array {
  return int32View(payload);
}

export const RANGE_INTS_PER_RECORD = RANGE_INTS;

export function rolesOf(flags: number): number {
  return flags & 0xff;
}

export function refKindOf(flags: number): number {
  return (flags >>> 8) & 0xff;
}

export function decodeRanges(payload: Uint8Array): SymbolRange[] {
  const ints = int32View(payload);
  const out: SymbolRange[] = [];
  for (let i = 0; i < ints.length; i += RANGE_INTS) {
    const flags = ints[i + 4]!;
    out.push({
      range: [ints[i]!, ints[i + 1]!, ints[i + 2]!, ints[i + 3]!],
      roles: flags & 0xff,
      refKind: (flags >>> 8) & 0xff,
      memberAccess: (flags & MEMBER_ACCESS) !== 0,
    });
  }
  return out;
}

function int32View(bytes: Uint8Array): Int32Array {
  if (bytes.byteLength % 4 !== 0) throw new Error('corrupt payload: length is not a multiple of 4');
  // A view needs 4-byte alignment; drivers may hand out unaligned slices.
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : Uint8Array.prototype.slice.call(bytes);
  return new Int32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
}
