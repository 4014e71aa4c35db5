// A SCIP index decoded directly, without sextant, and read by the rules of a
// precise answer: the ground truth of what the indexer said, for differential
// tests that hold sextant's answers against it. Nothing here comes from
// src/scip: the whole Index message is decoded in one piece with protobufjs
// from proto/scip.proto (sextant streams it field by field with its own
// reader), and ranges and roles are read by the SCIP spec's rules.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { PROJECT_ROOT } from './paths.js';

/** [startLine, startChar, endLine, endChar], 0-based, half-open. */
export type Range = [number, number, number, number];

/** SymbolRole.Definition in the SCIP spec (a bit of Occurrence.symbol_roles). */
export const DEFINITION_ROLE = 0x1;

interface DecodedIndex {
  documents: {
    relativePath: string;
    positionEncoding: number;
    occurrences: { range: number[]; symbol: string; symbolRoles: number; enclosingRange: number[] }[];
    symbols: { symbol: string; relationships: { symbol: string; isReference: boolean }[] }[];
  }[];
}

let proto: protobuf.Root | undefined;
function scipProto(): protobuf.Root {
  return (proto ??= protobuf.loadSync(join(PROJECT_ROOT, 'proto', 'scip.proto')));
}

function decodeIndex(bytes: Uint8Array): DecodedIndex {
  const Index = scipProto().lookupType('scip.Index');
  return Index.toObject(Index.decode(bytes), { defaults: true, arrays: true, enums: Number, longs: Number }) as DecodedIndex;
}

/** A SCIP range ([line, start, end] on one line, or four numbers) as four numbers; undefined when malformed. */
function toRange(r: readonly number[]): Range | undefined {
  const range: Range | undefined =
    r.length === 3 ? [r[0]!, r[1]!, r[0]!, r[2]!] : r.length === 4 ? [r[0]!, r[1]!, r[2]!, r[3]!] : undefined;
  if (!range || range.some((n) => n < 0) || range[2] < range[0] || (range[2] === range[0] && range[3] < range[1])) return undefined;
  return range;
}

export interface RawOccurrence {
  path: string;
  range: Range;
  symbol: string;
  roles: number;
  /** The extent of the definition (SCIP enclosing_range), when the indexer gave one. */
  enclosing?: Range;
}

export interface RawIndex {
  /** Occurrences of each document, by path. */
  documents: Map<string, RawOccurrence[]>;
  /** Occurrences of each global symbol across the index. */
  bySymbol: Map<string, RawOccurrence[]>;
  /** Symbols linked by an is_reference relationship, both directions. */
  referenceRelated: Map<string, Set<string>>;
}

export async function readRawIndex(file: string): Promise<RawIndex> {
  const raw: RawIndex = { documents: new Map(), bySymbol: new Map(), referenceRelated: new Map() };
  const relate = (a: string, b: string) => {
    if (!raw.referenceRelated.has(a)) raw.referenceRelated.set(a, new Set());
    raw.referenceRelated.get(a)!.add(b);
  };
  const index = decodeIndex(await readFile(file));
  const positionEncodings = scipProto().lookupEnum('scip.PositionEncoding').values;
  for (const doc of index.documents) {
    // Ranges are compared as they are: that holds only while the indexer counts UTF-16 units as sextant does.
    assert.ok(
      doc.positionEncoding === positionEncodings.UnspecifiedPositionEncoding ||
        doc.positionEncoding === positionEncodings.UTF16CodeUnitOffsetFromLineStart,
      `${doc.relativePath}: position encoding ${doc.positionEncoding}`,
    );
    const occurrences: RawOccurrence[] = [];
    for (const o of doc.occurrences) {
      const range = toRange(o.range);
      assert.ok(range && o.symbol, `${doc.relativePath}: occurrence without a symbol or a valid range: ${JSON.stringify(o)}`);
      const enclosing = o.enclosingRange.length ? toRange(o.enclosingRange) : undefined;
      const occurrence: RawOccurrence = { path: doc.relativePath, range, symbol: o.symbol, roles: o.symbolRoles };
      if (enclosing) occurrence.enclosing = enclosing;
      occurrences.push(occurrence);
      if (isLocal(o.symbol)) continue;
      if (!raw.bySymbol.has(o.symbol)) raw.bySymbol.set(o.symbol, []);
      raw.bySymbol.get(o.symbol)!.push(occurrence);
    }
    raw.documents.set(doc.relativePath, occurrences);
    for (const info of doc.symbols) {
      for (const r of info.relationships) {
        if (!r.isReference) continue;
        relate(info.symbol, r.symbol);
        relate(r.symbol, info.symbol);
      }
    }
  }
  return raw;
}

export function isLocal(symbol: string): boolean {
  return symbol.startsWith('local ');
}

export function isEmpty(r: Range): boolean {
  return r[0] === r[2] && r[1] === r[3];
}

/** The symbols of the narrowest non-empty occurrences containing a 0-based position. */
export function rawSymbolsAt(raw: RawIndex, path: string, line: number, character: number): string[] {
  const containing = (raw.documents.get(path) ?? []).filter(
    (o) =>
      !isEmpty(o.range) &&
      (line > o.range[0] || (line === o.range[0] && character >= o.range[1])) &&
      (line < o.range[2] || (line === o.range[2] && character < o.range[3])),
  );
  const size = (r: Range) => (r[2] - r[0]) * 1e6 + (r[3] - r[1]);
  const smallest = Math.min(...containing.map((o) => size(o.range)));
  return [...new Set(containing.filter((o) => size(o.range) === smallest).map((o) => o.symbol))];
}

/** Occurrences of `symbols`: a local symbol's within its document, a global symbol's across the index. */
export function rawOccurrences(raw: RawIndex, path: string, symbols: readonly string[]): RawOccurrence[] {
  return symbols.flatMap((s) => (isLocal(s) ? raw.documents.get(path)!.filter((o) => o.symbol === s) : (raw.bySymbol.get(s) ?? [])));
}

/** The definition occurrences of `symbols`, as rangeKeys. */
export function rawDefinitions(raw: RawIndex, path: string, symbols: readonly string[]): string[] {
  return rawOccurrences(raw, path, symbols)
    .filter((o) => o.roles & DEFINITION_ROLE)
    .map((o) => rangeKey(o.path, o.range));
}

/** The occurrences of `symbols` and of the symbols one is_reference hop from them, as rangeKeys. */
export function rawReferences(raw: RawIndex, path: string, symbols: readonly string[]): Set<string> {
  const globals = symbols.filter((s) => !isLocal(s));
  const related = globals.flatMap((s) => [...(raw.referenceRelated.get(s) ?? [])]);
  const all = [...new Set([...symbols, ...related])];
  return new Set(rawOccurrences(raw, path, all).map((o) => rangeKey(o.path, o.range)));
}

export function rangeKey(path: string, r: Range): string {
  return `${path}:${r[0]}:${r[1]}-${r[2]}:${r[3]}`;
}

/** A 1-based contract location as the 0-based key of rangeKey. */
export function locationKey(l: { path: string; line: number; column: number; end_line: number; end_column: number }): string {
  return rangeKey(l.path, [l.line - 1, l.column - 1, l.end_line - 1, l.end_column - 1]);
}
