// Turns one SCIP document and the text of its file into the rows the
// registry stores: packed occurrences, per-symbol ranges, definitions with
// kinds, and relationships.
import { createHash } from 'node:crypto';
import { signatureOf, symbolKind } from '../scip/kind.js';
import { columnConverter, normalizeRange, type Range } from '../scip/range.js';
import { SymbolRole, type ScipDocument, type ScipSymbolInformation } from '../scip/schema.js';
import { displayName, isLocalSymbol, ownerSymbol, parseSymbol, type ParsedSymbol } from '../scip/symbol.js';
import { DERIVED_ROLE, encodeOccurrences, encodeRanges, RefKindCode, type Occurrence, type SymbolRange } from '../registry/payload.js';
import type { PreparedDefinition, PreparedDocument, PreparedRelationship } from '../registry/writer.js';
import type { Alias, SyntaxFacts } from '../syntax/facts.js';

/**
 * Bumped whenever what is derived from a document changes (kinds, payload
 * layout), so stored documents are re-derived rather than reused.
 */
export const DERIVATION_VERSION = 6;

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
      argumentCount: o.symbolRoles & SymbolRole.Definition ? -1 : (facts?.argumentCountAt(range[0], range[1]) ?? -1),
      enclosing: enclosingRaw ? convert(enclosingRaw) : undefined,
    });
  }
  if (facts?.aliases.length) addAliasOccurrences(occurrences, facts.aliases);
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
    const declaration = facts?.declarationAt(o.range[0], o.range[1]);
    const syntacticExtent = o.enclosing ? undefined : declaration?.extent;
    const kind = symbolKind(parsed, info, signature ?? undefined);
    definitions.push({
      symbol,
      name: info?.displayName || nameInSource(lines, o.range) || displayName(parsed),
      kind,
      callable: CALLABLE_KINDS.has(kind) || declaration?.callable === true,
      container: containerName(symbol, parsed, parse),
      range: o.range,
      enclosing: o.enclosing ?? syntacticExtent,
      enclosingSource: o.enclosing ? 'index' : syntacticExtent ? 'syntax' : null,
      parameters: declaration?.parameters ?? null,
      signature,
      // Prose is kept for what can be looked up by name; a local's or a parameter's is the enclosing function's to tell.
      documentation:
        info && info.documentation.length > 1 && !parsed.local && kind !== 'parameter' ? info.documentation.slice(1).join('\n\n') : null,
    });
  }

  const relationships: PreparedRelationship[] = [];
  const related = new Set<string>();
  for (const info of document.symbols) {
    for (const r of info.relationships) {
      if (!r.symbol || !info.symbol) continue;
      related.add(`${info.symbol}\0${r.symbol}`);
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
  // Heritage the indexer left out (scip-typescript relates classes to their
  // ancestors but not `interface B extends A`): the syntax names the supertypes.
  if (facts) {
    const atPosition = new Map<string, number[]>();
    for (const o of occurrences) {
      const k = `${o.range[0]}:${o.range[1]}`;
      const list = atPosition.get(k);
      if (list) list.push(o.symbol);
      else atPosition.set(k, [o.symbol]);
    }
    for (const o of occurrences) {
      if ((o.roles & SymbolRole.Definition) === 0) continue;
      const heritage = facts.declarationAt(o.range[0], o.range[1])?.heritage ?? [];
      const symbol = symbols[o.symbol]!;
      for (const [line, character] of heritage) {
        for (const index of atPosition.get(`${line}:${character}`) ?? []) {
          const target = symbols[index]!;
          if (target === symbol || related.has(`${symbol}\0${target}`)) continue;
          related.add(`${symbol}\0${target}`);
          relationships.push({ symbol, target, isImplementation: true, isReference: false, isTypeDefinition: false, isDefinition: false });
        }
      }
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

/**
 * The name as written at the definition: the only name a local symbol has,
 * and truer than descriptors that indexers suffix to disambiguate (`error0:`).
 */
function nameInSource(lines: readonly string[], r: Range): string | undefined {
  if (r[0] !== r[2]) return undefined;
  const text = lines[r[0]]?.slice(r[1], r[3]);
  return text && /^#?[\p{L}\p{N}_$]+$/u.test(text) ? text : undefined;
}

/**
 * Names the indexer did not record (a shorthand property's variable, a name
 * in a doc comment, `super`) refer to what is named at their alias target:
 * they get an occurrence of the symbol found there, marked as derived.
 */
function addAliasOccurrences(occurrences: Occurrence[], aliases: readonly Alias[]): void {
  const at = new Map<string, Occurrence[]>();
  for (const o of occurrences) {
    const key = `${o.range[0]}:${o.range[1]}`;
    const list = at.get(key);
    if (list) list.push(o);
    else at.set(key, [o]);
  }
  for (const alias of aliases) {
    const targets = at.get(`${alias.target[0]}:${alias.target[1]}`) ?? [];
    const present = at.get(`${alias.range[0]}:${alias.range[1]}`) ?? [];
    for (const symbol of new Set(targets.map((t) => t.symbol))) {
      if (present.some((p) => p.symbol === symbol)) continue;
      occurrences.push({
        range: alias.range,
        symbol,
        roles: DERIVED_ROLE,
        refKind: alias.call ? RefKindCode.call : RefKindCode.identifier,
        argumentCount: -1,
        enclosing: undefined,
      });
    }
  }
}

/** Kinds that are called by nature; other definitions are callable when syntax says they hold a function. */
const CALLABLE_KINDS: ReadonlySet<string> = new Set(['function', 'method', 'constructor']);

function refKindOf(roles: number, range: Range, facts: SyntaxFacts | undefined): number {
  if (roles & SymbolRole.Import) return RefKindCode.import;
  if (roles & SymbolRole.WriteAccess) return RefKindCode.write;
  return facts ? facts.kindAt(range[0], range[1]) : RefKindCode.identifier;
}

/**
 * The name of what a symbol belongs to: its owner by descriptors, skipping the
 * file's namespace and the anonymous type literals scip-typescript names
 * `typeLiteralN` (a member of a returned object type belongs to the function).
 */
function containerName(symbol: string, parsed: ParsedSymbol, parse: (s: string) => ParsedSymbol | null): string | null {
  let owner = ownerSymbol(symbol, parsed);
  while (owner) {
    const ownerParsed = parse(owner);
    if (!ownerParsed || ownerParsed.descriptors.length === 0 || isFileDescriptor(ownerParsed)) return null;
    const name = displayName(ownerParsed);
    if (!/^typeLiteral\d+$/.test(name)) return name;
    owner = ownerSymbol(owner, ownerParsed);
  }
  return null;
}

/** A file's own namespace descriptor (`src/`x.ts`/`) is not a container worth naming. */
function isFileDescriptor(parsed: ParsedSymbol): boolean {
  const last = parsed.descriptors[parsed.descriptors.length - 1]!;
  return last.suffix === 'namespace' || (last.suffix === 'meta' && last.name === '__init__');
}

function byPosition(a: Occurrence, b: Occurrence): number {
  return a.range[0] - b.range[0] || a.range[1] - b.range[1] || b.range[2] - a.range[2] || b.range[3] - a.range[3];
}
