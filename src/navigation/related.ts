// Symbols that answer together. A SCIP index names each entity once, but a
// person asking about one of them means more:
// - an override and what it overrides share references (is_reference
//   relationships), followed transitively so that siblings implementing the
//   same interface method are found too, as a language server does;
// - a class and its constructor are one thing to whoever writes `new X()`
//   (scip-typescript puts such calls on the constructor);
// - TypeScript merges declarations of one name (an interface and a const,
//   a namespace and a function): each is a definition of the other.
import type { Lookups } from '../registry/lookups.js';
import { isLocalSymbol, parseSymbol } from '../scip/symbol.js';

const CONSTRUCTOR = '`<constructor>`().';
/** Rounds of the is_reference closure: inheritance chains are shallow, and this bounds a pathological index. */
const MAX_ROUNDS = 8;

/** `symbols` and every symbol whose references count as theirs. */
export async function referenceFamily(lookups: Lookups, indexIds: readonly number[], symbols: readonly string[]): Promise<string[]> {
  const family = new Set(symbols.filter((s) => !isLocalSymbol(s)));
  for (const s of [...family]) for (const partner of constructorPartners(s)) family.add(partner);
  let frontier = [...family];
  for (let round = 0; round < MAX_ROUNDS && frontier.length > 0; round++) {
    const ids = [...(await lookups.symbolIds(frontier)).values()];
    const next: string[] = [];
    for (const s of await lookups.referenceRelated(indexIds, ids)) {
      if (!family.has(s)) {
        family.add(s);
        next.push(s);
      }
    }
    frontier = next;
  }
  return [...family];
}

/** Other symbols whose definitions a definition request at `symbol` should return. */
export function definitionPartners(symbol: string): string[] {
  if (isLocalSymbol(symbol)) return [];
  const partners: string[] = [];
  // A constructor call is a use of the class too.
  if (symbol.endsWith(CONSTRUCTOR)) partners.push(symbol.slice(0, -CONSTRUCTOR.length));
  partners.push(...mergedDeclarations(symbol));
  return partners;
}

function constructorPartners(symbol: string): string[] {
  if (symbol.endsWith(CONSTRUCTOR)) return [symbol.slice(0, -CONSTRUCTOR.length)];
  if (symbol.endsWith('#')) return [symbol + CONSTRUCTOR];
  return [];
}

/** The same name declared with another meaning in the same scope (TypeScript declaration merging). */
function mergedDeclarations(symbol: string): string[] {
  let parsed;
  try {
    parsed = parseSymbol(symbol);
  } catch {
    return [];
  }
  if (parsed.scheme !== 'scip-typescript') return [];
  const last = parsed.descriptors[parsed.descriptors.length - 1]!;
  if (!['type', 'term', 'namespace', 'method'].includes(last.suffix) || last.name === '<constructor>') return [];
  const suffix = last.suffix === 'method' ? `(${last.disambiguator ?? ''}).` : symbol.slice(-1);
  const base = symbol.slice(0, symbol.length - suffix.length);
  return ['#', '.', '/', '().'].map((s) => base + s).filter((s) => s !== symbol);
}
