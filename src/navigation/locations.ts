// Building contract locations: 1-based positions and a one-line preview.
import type { Range as Range0 } from '../scip/range.js';
import type { Location, Range } from '../protocol/common.js';
import type { DefinitionRow } from '../registry/lookups.js';
import { SYMBOL_KINDS, type SymbolKind } from '../scip/kind.js';

const PREVIEW_WIDTH = 240;

export function range1(r: Range0): Range {
  return { line: r[0] + 1, column: r[1] + 1, end_line: r[2] + 1, end_column: r[3] + 1 };
}

/** Characters of a long line shown before the position its preview is about. */
const PREVIEW_LEAD = 40;

/**
 * Where a cut line or signature goes on. ASCII, as the rest of a reply
 * usually is: one character past it (`…`) makes the whole reply a two-byte
 * string, slow to serialise, send and parse. A 350 kB call hierarchy took the
 * server 9-14 ms to serialise and encode with one, 7-8 ms without, and the
 * client 9-11 ms to decode and parse it, 5 ms without.
 */
export const ELLIPSIS = '...';

/**
 * The line (0-based) as a preview: whole up to PREVIEW_WIDTH characters; a
 * longer one (a minified bundle's 40 kB line) is cut around `column` (0-based,
 * where the location starts), so the preview shows what it is about, with
 * ELLIPSIS where the line goes on.
 */
export function preview(lines: readonly string[] | null, line: number, column = 0): string | undefined {
  const text = lines?.[line];
  if (text === undefined) return undefined;
  const trimmed = text.trimEnd();
  if (trimmed.length <= PREVIEW_WIDTH) return trimmed;
  const from = Math.max(0, Math.min(column - PREVIEW_LEAD, trimmed.length - (PREVIEW_WIDTH - ELLIPSIS.length)));
  const lead = from > 0 ? ELLIPSIS : '';
  const room = PREVIEW_WIDTH - lead.length;
  if (trimmed.length - from <= room) return lead + trimmed.slice(from);
  return lead + trimmed.slice(from, from + room - ELLIPSIS.length) + ELLIPSIS;
}

/**
 * A location: repo, path, the range, then `extra`'s fields, then the preview.
 * Built by assignment, not spreads: an answer builds hundreds of them.
 */
export function location(repo: string, path: string, r: Range0, lines: readonly string[] | null, extra?: Partial<Location>): Location {
  const out: Location = { repo, path, line: r[0] + 1, column: r[1] + 1, end_line: r[2] + 1, end_column: r[3] + 1 };
  if (extra) Object.assign(out, extra);
  const p = preview(lines, r[0], r[1]);
  if (p !== undefined) out.preview = p;
  return out;
}

/**
 * A reference that is a string literal (a quoted name, `h['content-type']`,
 * `Container['nodes']`, or a module specifier, `'./b'`) without its quotes:
 * TypeScript's findReferences spans the literal's text, the index the whole
 * literal. Other ranges are returned as they are.
 */
export function quotedNameText(lines: readonly string[] | null, r: Range0): Range0 {
  if (r[0] !== r[2] || r[3] - r[1] < 2) return r;
  const text = lines?.[r[0]];
  const quote = text?.[r[1]];
  return (quote === "'" || quote === '"') && text![r[3] - 1] === quote ? [r[0], r[1] + 1, r[2], r[3] - 1] : r;
}

export function definitionRange(d: DefinitionRow): Range0 {
  return [d.start_line, d.start_char, d.end_line, d.end_char];
}

export function enclosingRange(d: DefinitionRow): Range0 | undefined {
  if (d.enclosing_start_line === null) return undefined;
  return [d.enclosing_start_line, d.enclosing_start_char!, d.enclosing_end_line!, d.enclosing_end_char!];
}

export function asSymbolKind(kind: string): SymbolKind {
  return (SYMBOL_KINDS as readonly string[]).includes(kind) ? (kind as SymbolKind) : 'unknown';
}

/** The line of a signature that names the symbol, past any decorator lines (`@abstractmethod`), shortened for a summary. */
export function signatureLine(signature: string | null): string | null {
  if (!signature) return null;
  const lines = signature.split('\n');
  const line = (lines.find((l) => !l.trimStart().startsWith('@')) ?? lines[0]!).trim();
  return line.length > 160 ? line.slice(0, 160 - ELLIPSIS.length) + ELLIPSIS : line;
}
