// Names as a document derives them: from its source text, and as SCIP
// descriptors write them; and the document's table of symbols (`symbols`, and
// `symbolIndex` from symbol to position) that the derivations add to and
// rename in. Shared by prepare.ts and the derivations it runs.
import type { Range } from '../scip/range.js';
import { fileNamespaceOf, isLocalSymbol } from '../scip/symbol.js';

/**
 * The name as written at the definition: the only name a local symbol has,
 * and truer than descriptors that indexers suffix to disambiguate (`error0:`).
 */
export function nameInSource(lines: readonly string[], r: Range): string | undefined {
  if (r[0] !== r[2]) return undefined;
  const text = lines[r[0]]?.slice(r[1], r[3]);
  return text && /^#?[\p{L}\p{N}_$]+$/u.test(text) ? text : undefined;
}

/**
 * The ranges (`range.join(':')`) where the index names a global symbol. A
 * local at one of them is a facet of what the index resolved there, not a
 * name it could not resolve: scip-typescript adds one for each property
 * assigned to a function (`fn.prototype = ...`, moment's `createDuration.fn =
 * ...`) at the function's uses and imports.
 */
export function resolvedRanges(occurrences: readonly { range: Range; symbol: number }[], symbols: readonly string[]): Set<string> {
  const resolved = new Set<string>();
  for (const o of occurrences) if (!isLocalSymbol(symbols[o.symbol]!)) resolved.add(o.range.join(':'));
  return resolved;
}

/** The name written from (line, character) on, where a declaration's name starts. */
export function nameWrittenAt(lines: readonly string[], line: number, character: number): string | undefined {
  return /^[\p{L}\p{N}_$]+/u.exec(lines[line]?.slice(character) ?? '')?.[0];
}

/** `module.exports` as written from (line, character), spaces around its dot included; undefined when it is not there. */
export function moduleExportsWrittenAt(lines: readonly string[], line: number, character: number): string | undefined {
  return MODULE_EXPORTS.exec(lines[line]?.slice(character) ?? '')?.[0];
}

const MODULE_EXPORTS = /^module\s*\.\s*exports\b/;

/** Whether the name starting at (line, character) is written as `exports.name` or `module.exports.name`. */
export function writtenAsExportsMember(lines: readonly string[], line: number, character: number): boolean {
  return EXPORTS_MEMBER.test((lines[line] ?? '').slice(0, character));
}

/** The text before the name in `exports.name` or `module.exports.name`. */
const EXPORTS_MEMBER = /(?<![\w$.])(?:module\s*\.\s*)?exports\s*\.\s*$/;

/** The descriptor prefix of a document's own file (`npm pkg 1.0 src/\`x.ts\`/`), from a symbol it holds. */
export function fileNamespace(symbols: readonly string[], path: string): string | undefined {
  for (const s of symbols) {
    const namespace = fileNamespaceOf(s, path);
    if (namespace) return namespace;
  }
  return undefined;
}

/** A local symbol the document does not hold yet (`local computed-method-0`), for something sextant declares. */
export function unusedLocal(symbolIndex: ReadonlyMap<string, number>, label: string): string {
  let n = 0;
  while (symbolIndex.has(`local ${label}-${n}`)) n++;
  return `local ${label}-${n}`;
}

/** The position of `symbol` in a document's table, added at the end when the table lacks it. */
export function internSymbol(symbols: string[], symbolIndex: Map<string, number>, symbol: string): number {
  let index = symbolIndex.get(symbol);
  if (index === undefined) {
    index = symbols.length;
    symbols.push(symbol);
    symbolIndex.set(symbol, index);
  }
  return index;
}

/** Gives the symbol at `index` the name `symbol`: every occurrence of it, throughout the document, now names that. */
export function renameSymbol(symbols: string[], symbolIndex: Map<string, number>, index: number, symbol: string): void {
  symbolIndex.delete(symbols[index]!);
  symbolIndex.set(symbol, index);
  symbols[index] = symbol;
}

/** Every occurrence of the symbol at `index` becomes `symbol` (merged into it where the document holds it already). */
export function renameOrMerge(
  occurrences: readonly { symbol: number }[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  index: number,
  symbol: string,
): void {
  const held = symbolIndex.get(symbol);
  if (held === undefined) renameSymbol(symbols, symbolIndex, index, symbol);
  else for (const o of occurrences) if (o.symbol === index) o.symbol = held;
}
