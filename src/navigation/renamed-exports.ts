// Exports under a name of their own: TypeScript's references of the name are the places spelled so.
import { languageOf } from '../languages.js';
import { displayName, isLocalSymbol, isModuleSymbol, parseSymbol } from '../scip/symbol.js';
import { DESTRUCTURED, RefKindCode } from '../registry/payload.js';
import type { Range } from '../scip/range.js';
import { occurrenceSpells, type FileContext } from './context.js';
import { isExportedName } from './definitions.js';
import { lastKeyword } from './export-statement.js';

/**
 * The name at a position when it exports something under a name of its own,
 * or is an importer's place of that name:
 * - `response` of express's `exports.response = res` (`res` required from
 *   './response'), and its importers' `app.response` and `{ response }`;
 * - `salute` of `export { greet as salute }`, and its importers' `{ salute }`
 *   and their uses.
 * The index gives these places the symbol of what is exported (`res`, the
 * module's object; the function `greet`), so its references would be all of
 * that symbol's. TypeScript's references of such a name, asked at any of its
 * places, are the export and its importers' places of that name: the places
 * of the symbol that are spelled so (`keepSpelled`), in every file.
 *
 * Returns the name, or undefined where the position is no such place. Names
 * an importer binds of its own (`greet as hello`) and names for a module are
 * answered before (importerBindingAt, moduleAliasAt).
 */
export function renamedExportAt(file: FileContext, asked: readonly string[], range: Range | undefined): string | undefined {
  const lines = file.lines;
  const language = languageOf(file.file.path);
  if (language !== 'typescript' && language !== 'javascript') return undefined;
  if (!range || range[0] !== range[2] || !lines) return undefined;
  const line = lines[range[0]]!;
  const name = line.slice(range[1], range[3]);
  if (!IDENTIFIER.test(name)) return undefined;
  const globals = asked.filter((s) => !isLocalSymbol(s));
  if (globals.length === 0 || !globals.every((s) => namedOtherwise(s, name))) return undefined;
  const before = line.slice(0, range[1]);
  const after = line.slice(range[3]);
  // `exports.response = res`, `module.exports.response = res`.
  if (CJS_EXPORT_TARGET.test(before) && ASSIGNED.test(after)) return name;
  // A module's default export, named in a list or an import, is what it exports (DEFAULT).
  if (name === DEFAULT) return undefined;
  // `export { greet as salute }`.
  const renaming = EXPORT_AS.exec(before);
  if (renaming && lastKeyword(lines, range[0], before.length - renaming[0].length) === 'export') return name;
  // An importer's place of a name the file imports (`{ salute }`, `{ response } = require('./app')`).
  const occ = file.document.occurrences;
  const symbols = file.document.symbols;
  const spelled = (i: number) => occurrenceSpells(file, i, name);
  const namedSo = (s: string) => !isLocalSymbol(s) && !isModuleSymbol(s) && displayName(parseSymbol(s)) === name;
  for (let i = 0; i < occ.length; i++) {
    if (!spelled(i)) continue;
    const kind = occ.refKind(i);
    if (kind !== RefKindCode.import && kind !== DESTRUCTURED) continue;
    const symbol = symbols[occ.symbol(i)]!;
    if (!asked.includes(symbol) && !namedSo(symbol)) continue;
    // Named in braces (`{ salute }`, `{ response } = require(...)`), not a default or whole binding (`const m = require`).
    const [siteLine, siteStart] = occ.range(i);
    if (NAMED_BINDING.test(lines[siteLine]!.slice(0, siteStart))) return name;
  }
  return undefined;
}

/**
 * The name at a position whose symbol is a name a module exports under
 * (`app.js/response.` of `app.response`) with no definition of its own: the
 * index defines it as what it exports (`definitions`), which is named
 * otherwise (`res`). TypeScript's references there are those of the name, as
 * for `renamedExportAt`.
 */
export async function exportedUnderAt(
  file: FileContext,
  asked: readonly string[],
  range: Range | undefined,
  definitionsOf: () => Promise<readonly { symbol: string }[]>,
): Promise<string | undefined> {
  const language = languageOf(file.file.path);
  if (language !== 'typescript' && language !== 'javascript') return undefined;
  if (!range || range[0] !== range[2]) return undefined;
  const name = file.lines?.[range[0]]?.slice(range[1], range[3]) ?? '';
  const exportedSo = (s: string) => isExportedName(s) && !isLocalSymbol(s) && displayName(parseSymbol(s)) === name;
  if (!IDENTIFIER.test(name) || !asked.some(exportedSo)) return undefined;
  // A binding of it in the file (`{ response } = require('./app')`) is a local beside it.
  const exported = (await definitionsOf()).filter((d) => !isLocalSymbol(d.symbol));
  if (exported.length === 0 || exported.some((d) => asked.includes(d.symbol) || !namedOtherwise(d.symbol, name))) return undefined;
  return name;
}

/** Whether a global symbol has a name of its own other than `name`: a module, a default export or a constructor has none to compare. */
function namedOtherwise(symbol: string, name: string): boolean {
  if (isModuleSymbol(symbol)) return false;
  const exported = displayName(parseSymbol(symbol));
  return exported !== name && exported !== 'default' && exported !== 'constructor';
}

const IDENTIFIER = /^[\p{L}\p{N}_$]+$/u;
/**
 * A module's default export named in an export list or an import is no name
 * of its own: TypeScript's references at `default` (chalk's `export {default}
 * from './index.js'`, of `export default supportsColor`) follow it to what it
 * exports, as the index does. `exports.default = range` is a name of its own,
 * as any `exports.name =` is.
 */
const DEFAULT = 'default';
/** `exports.` or `module.exports.` right before the name, not as a member of something else. */
const CJS_EXPORT_TARGET = /(?:^|[^\p{L}\p{N}_$.])(?:module\.)?exports\.$/u;
/** An assignment (`=`, not `==` or `=>`) right after the name. */
const ASSIGNED = /^\s*=(?![=>])/;
/** `original as ` right before the name. */
const EXPORT_AS = /[\p{L}\p{N}_$]+\s+as\s+$/u;
/** Right after `{` or `,` (of the same line or, in a list written one per line, of none). */
const NAMED_BINDING = /(?:^|[{,])\s*$/;
