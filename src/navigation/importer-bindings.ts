// Names an importing file binds of its own: TypeScript's references of them stay in that file.
import { languageOf } from '../languages.js';
import { displayName, isLocalSymbol, parseSymbol } from '../scip/symbol.js';
import { SymbolRole } from '../scip/schema.js';
import { RefKindCode } from '../registry/payload.js';
import type { Range } from '../scip/range.js';
import { occurrenceSpells, type FileContext } from './context.js';
import { lastKeyword } from './export-statement.js';

/**
 * A name a file binds to what it imports under a name of its own:
 * - `hello` of `import { greet as hello } from './a'`;
 * - `columnize_` of `const { columnize: columnize_ } = require('./formatter')`;
 * - `yell` of `import yell from './shout'`, whose default export is `shout`.
 * TypeScript's references of such a name, asked at it or at one of its uses,
 * are that name's own: the binding and its uses in the file. (Asked at what
 * it imports, they include them: one way.) The index gives the uses the
 * imported symbol (`greet`, the function `columnize`) and the binding that
 * symbol or a local.
 *
 * Returns the occurrences of the name in the file when the position is one
 * of them: spelled as the binding, carrying its symbol, the symbol asked
 * about, or (renamed) a symbol of the original's name.
 */
export function importerBindingAt(file: FileContext, asked: readonly string[], range: Range | undefined): number[] | undefined {
  const lines = file.lines;
  const language = languageOf(file.file.path);
  if (language !== 'typescript' && language !== 'javascript') return undefined;
  if (!range || range[0] !== range[2] || !lines || asked.length === 0) return undefined;
  const name = lines[range[0]]!.slice(range[1], range[3]);
  if (!IDENTIFIER.test(name)) return undefined;
  // Most names are spelled as their symbols, and a local is an own binding's only there: no scan of the file then.
  const spelledAsSymbol = (s: string) => !isLocalSymbol(s) && displayName(parseSymbol(s)) === name;
  if (asked.every(spelledAsSymbol)) return undefined;
  if (asked.every(isLocalSymbol) && !RENAMING.test(lines[range[0]]!.slice(0, range[1]))) return undefined;
  const occ = file.document.occurrences;
  const symbols = file.document.symbols;
  const spelled = (i: number) => occurrenceSpells(file, i, name);
  for (let site = 0; site < occ.length; site++) {
    const isImport = occ.refKind(site) === RefKindCode.import;
    if (!isImport && !(occ.roles(site) & SymbolRole.Definition)) continue;
    if (!spelled(site)) continue;
    const binding = bindingForm(file, site, name, isImport);
    if (!binding) continue;
    const siteSymbol = symbols[occ.symbol(site)]!;
    const named = new Map<number, boolean>();
    const ofBinding = (i: number): boolean => {
      const s = occ.symbol(i);
      const symbol = symbols[s]!;
      if (symbol === siteSymbol || asked.includes(symbol)) return true;
      if (binding.original === undefined) return false;
      let is = named.get(s);
      if (is === undefined) {
        is = !isLocalSymbol(symbol) && displayName(parseSymbol(symbol)) === binding.original;
        named.set(s, is);
      }
      return is;
    };
    const found: number[] = [];
    // A place once, though the index gives it two symbols (the function, and a local beside it).
    const places = new Set<string>();
    for (let i = 0; i < occ.length; i++) {
      if (!spelled(i) || !ofBinding(i)) continue;
      const place = occ.range(i).join();
      if (!places.has(place)) found.push(i);
      places.add(place);
    }
    const isAsked = (i: number) => {
      const r = occ.range(i);
      return r[0] === range[0] && r[1] === range[1] && r[3] === range[3];
    };
    if (found.some(isAsked)) return found;
  }
  return undefined;
}

/** Whether the occurrence `site`, spelled `name`, binds it in one of the forms above; `original`: the name it renames. */
function bindingForm(file: FileContext, site: number, name: string, isImport: boolean): { original?: string } | undefined {
  const occ = file.document.occurrences;
  const lines = file.lines!;
  const [line, start] = occ.range(site);
  const before = lines[line]!.slice(0, start);
  const symbol = file.document.symbols[occ.symbol(site)]!;
  const renaming = RENAMING.exec(before);
  if (renaming && renaming[1] !== name) {
    const original = renaming[1]!;
    const originalStart = before.length - renaming[0].length;
    if (renaming[2] !== undefined) {
      // An export list's `as` names an export, which its importers share.
      if (!isImport || lastKeyword(lines, line, originalStart) !== 'import') return undefined;
    } else if (isImport || !isLocalSymbol(symbol)) {
      // `{ key: value }` of an expression, an annotation (`x: Type`), or a binding the module exports.
      return undefined;
    }
    // The original is a name the index knows, right before.
    for (let j = 0; j < occ.length; j++) {
      const r = occ.range(j);
      if (r[0] === line && r[1] === originalStart && r[3] === originalStart + original.length) return { original };
    }
    return undefined;
  }
  if (!isImport || isLocalSymbol(symbol) || !DEFAULT_IMPORT.test(before)) return undefined;
  // Bound under the default export's own name, it is that name: TypeScript lists its references everywhere. An
  // anonymous one (`export default f(x)`) has none: TypeScript lists its declaration too, as references do already.
  const exported = displayName(parseSymbol(symbol));
  return exported === name || exported === 'default' ? undefined : {};
}

/** `original as ` (group 2) or `original: ` right before the binding's name. */
const RENAMING = /([\p{L}\p{N}_$]+)(?:\s+(as)\s+|\s*:\s*)$/u;
/** `import ` or `import type ` right before a default import's name. */
const DEFAULT_IMPORT = /(?:^|[^\p{L}\p{N}_$.])import\s+(?:type\s+)?$/u;
const IDENTIFIER = /^[\p{L}\p{N}_$]+$/u;
