// Turns one SCIP document and the text of its file into the rows the
// registry stores: packed occurrences, per-symbol ranges, definitions with
// kinds, and relationships.
import { createHash } from 'node:crypto';
import { signatureOf, symbolKind } from '../scip/kind.js';
import { columnConverter, normalizeRange, type Range } from '../scip/range.js';
import { SymbolRole, type ScipDocument, type ScipSymbolInformation } from '../scip/schema.js';
import { displayName, isLocalSymbol, ownerSymbol, parseSymbol, type ParsedSymbol } from '../scip/symbol.js';
import { encodeOccurrences, encodeRanges, RefKindCode, type Occurrence, type SymbolRange } from '../registry/payload.js';
import type { PreparedDefinition, PreparedDocument, PreparedRelationship } from '../registry/writer.js';
import type { SyntaxFacts } from '../syntax/facts.js';

/**
 * Bumped whenever what is derived from a document changes (kinds, payload
 * layout), so stored documents are re-derived rather than reused.
 */
export const DERIVATION_VERSION = 1;

export function documentContentHash(documentBytes: Uint8Array, blobSha: string): string {
  return createHash('sha256').update(`sextant-document-v${DERIVATION_VERSION}\0${blobSha}\0`).update(documentBytes).digest('hex');
}

export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

export interface PrepareInput {
  document: ScipDocument;
  contentHash: string;
  language: string;
  lines: string[];
  facts: SyntaxFacts | undefined;
}

export function prepareDocument({ document, contentHash, language, lines, facts }: PrepareInput): PreparedDocument {
  const toUtf16 = columnConverter(document.positionEncoding, lines);
  const convert = (r: Range): Range => (toUtf16 ? [r[0], toUtf16(r[0], r[1]), r[2], toUtf16(r[2], r[3])] : r);

  const symbolIndex = new Map<string, number>();
  const symbols: string[] = [];
  const occurrences: Occurrence[] = [];
  for (const o of document.occurrences) {
    if (!o.symbol) continue;
    const raw = normalizeRange(o.range);
    if (!raw) continue;
    const range = convert(raw);
    const enclosingRaw = o.enclosingRange.length ? normalizeRange(o.enclosingRange) : undefined;
    let index = symbolIndex.get(o.symbol);
    if (index === undefined) {
      index = symbols.length;
      symbols.push(o.symbol);
      symbolIndex.set(o.symbol, index);
    }
    occurrences.push({
      range,
      symbol: index,
      roles: o.symbolRoles,
      refKind: refKindOf(o.symbolRoles, range, facts),
      enclosing: enclosingRaw ? convert(enclosingRaw) : undefined,
    });
  }
  occurrences.sort(byPosition);

  const infos = new Map<string, ScipSymbolInformation>();
  for (const info of document.symbols) if (info.symbol) infos.set(info.symbol, info);

  const rangesBySymbol = new Map<number, SymbolRange[]>();
  const definedHere = new Set<number>();
  const definitions: PreparedDefinition[] = [];
  const parsedCache = new Map<string, ParsedSymbol | null>();
  const parse = (symbol: string): ParsedSymbol | null => {
    let parsed = parsedCache.get(symbol);
    if (parsed === undefined) {
      try {
        parsed = parseSymbol(symbol);
      } catch {
        parsed = null;
      }
      parsedCache.set(symbol, parsed);
    }
    return parsed;
  };

  for (const o of occurrences) {
    const symbol = symbols[o.symbol]!;
    const isDefinition = (o.roles & SymbolRole.Definition) !== 0;
    if (!isLocalSymbol(symbol)) {
      let list = rangesBySymbol.get(o.symbol);
      if (!list) rangesBySymbol.set(o.symbol, (list = []));
      list.push({ range: o.range, roles: o.roles, refKind: o.refKind });
      if (isDefinition) definedHere.add(o.symbol);
    }
    if (!isDefinition) continue;
    const parsed = parse(symbol);
    if (!parsed) continue;
    const info = infos.get(symbol);
    const signature = signatureOf(info) ?? null;
    const owner = ownerSymbol(symbol, parsed);
    const ownerParsed = owner ? parse(owner) : null;
    const syntacticExtent = o.enclosing ? undefined : facts?.extentAt(o.range[0], o.range[1]);
    definitions.push({
      symbol,
      name: info?.displayName || displayName(parsed),
      kind: symbolKind(parsed, info, signature ?? undefined),
      container: ownerParsed && ownerParsed.descriptors.length > 0 && !isFileDescriptor(ownerParsed) ? displayName(ownerParsed) : null,
      range: o.range,
      enclosing: o.enclosing ?? syntacticExtent,
      enclosingSource: o.enclosing ? 'index' : syntacticExtent ? 'syntax' : null,
      signature,
      documentation: info && info.documentation.length > 1 ? info.documentation.slice(1).join('\n\n') : null,
    });
  }

  const relationships: PreparedRelationship[] = [];
  for (const info of document.symbols) {
    for (const r of info.relationships) {
      if (!r.symbol || !info.symbol) continue;
      relationships.push({
        symbol: info.symbol,
        target: r.symbol,
        isImplementation: r.isImplementation,
        isReference: r.isReference,
        isTypeDefinition: r.isTypeDefinition,
        isDefinition: r.isDefinition,
      });
    }
  }

  return {
    contentHash,
    language,
    symbols,
    occurrenceCount: occurrences.length,
    payload: encodeOccurrences(occurrences),
    refs: [...rangesBySymbol].map(([index, ranges]) => ({
      symbol: symbols[index]!,
      hasDefinition: definedHere.has(index),
      ranges: encodeRanges(ranges),
    })),
    definitions,
    relationships,
  };
}

function refKindOf(roles: number, range: Range, facts: SyntaxFacts | undefined): number {
  if (roles & SymbolRole.Import) return RefKindCode.import;
  if (roles & SymbolRole.WriteAccess) return RefKindCode.write;
  return facts ? facts.kindAt(range[0], range[1]) : RefKindCode.identifier;
}

/** A file's own namespace descriptor (`src/`x.ts`/`) is not a container worth naming. */
function isFileDescriptor(parsed: ParsedSymbol): boolean {
  const last = parsed.descriptors[parsed.descriptors.length - 1]!;
  return last.suffix === 'namespace' || (last.suffix === 'meta' && last.name === '__init__');
}

function byPosition(a: Occurrence, b: Occurrence): number {
  return a.range[0] - b.range[0] || a.range[1] - b.range[1] || b.range[2] - a.range[2] || b.range[3] - a.range[3];
}
