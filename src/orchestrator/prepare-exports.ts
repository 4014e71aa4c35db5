// What prepare.ts derives for TypeScript and JavaScript modules' exports
// where scip-typescript resolves a name to nothing global across files: an
// anonymous default export, a CommonJS module's `exports.name = ...` (and the
// properties of `module.exports = {...}`), and the
// names other modules reach it or an export list's names by (`import x from`,
// `ns.a`, `import { en }` through a barrel, `const { a } = require('./m')`),
// and names imported from a module the indexer could not resolve.
// Each becomes a global symbol `<module>name.` that the module defines or
// relates to what it exports.
import { rangeContains, type Range } from '../scip/range.js';
import { SymbolRole } from '../scip/schema.js';
import { descriptorName, isLocalSymbol } from '../scip/symbol.js';
import { DERIVED_ROLE, derivedOccurrence, RefKindCode, type Occurrence } from '../registry/payload.js';
import type { PreparedRelationship } from '../registry/writer.js';
import type { SyntaxFacts } from '../syntax/facts.js';
import { declareAssignedClass, NO_ASSIGNED_CLASS, standsFor, type AssignedClass } from './prepare-assigned-class.js';
import {
  fileNamespace,
  internSymbol,
  moduleExportsWrittenAt,
  nameInSource,
  nameWrittenAt,
  renameOrMerge,
  renameSymbol,
  resolvedRanges,
  unusedLocal,
  writtenAsExportsMember,
} from './symbol-names.js';

/** The symbol sextant gives what a module exports as `name` where the index has none, from the module's own (`src/\`a.ts\`/`). */
function exportSymbol(moduleSymbol: string, name: string): string {
  return `${moduleSymbol}${descriptorName(name)}.`;
}

/**
 * An anonymous default export (`export default function () {...}`, `export
 * default () => ...`, `export default class {...}`, a JavaScript module's
 * `module.exports = ...`) has no name, and
 * scip-typescript defines nothing for it: the calls in it were the file's,
 * and each importer's name for it is a local of its own. TypeScript names it
 * `default`, at its `default` keyword (at `module.exports`, from `module`);
 * so does sextant, with a global symbol of the file (`src/\`a.ts\`/default.`),
 * which linkModuleNames gives the importers' names too. Returns what a class
 * assigned whole derives (`module.exports = class Cursor {...}`: see
 * prepare-assigned-class.ts).
 */
export function defineAnonymousDefaults(
  occurrences: Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  facts: SyntaxFacts,
  lines: readonly string[],
  path: string,
): AssignedClass {
  // A file has one default export: of two `export default`, the first is declared (two `module.exports =` each
  // declare it: see declareModuleExportsAgain).
  const [declared, ...others] = facts.anonymousDefaults();
  if (!declared) return NO_ASSIGNED_CLASS;
  const namespace = fileNamespace(symbols, path);
  if (!namespace) return NO_ASSIGNED_CLASS;
  const synthesized = exportSymbol(namespace, 'default');
  const [line, character] = declared;
  // `default`, or `module.exports` (the whole of it, from `module`, where TypeScript puts the declaration).
  const written = moduleExportsWrittenAt(lines, line, character) ?? /^[\w$]+/.exec(lines[line]?.slice(character) ?? '')?.[0] ?? 'default';
  const range: Occurrence['range'] = [line, character, line, character + written.length];
  // Where the index has a local for the module's export (`module` and `exports` of `module.exports = ...` share
  // one): that local is the export, throughout the file.
  const there = occurrences.find((o) => o.range[0] === line && o.range[1] === character && isLocalSymbol(symbols[o.symbol]!));
  if (declaresDefaultExport(facts, lines)) {
    // Babel's CommonJS output: `exports.default = isArrayLike; module.exports = exports.default;`. The module's
    // `default` is its `exports.default`, which defineCommonJsExports declares; the assignment to module.exports is a
    // declaration of its own (TypeScript's goToDefinition at `module` goes to it), not another one of `default`.
    if (there) {
      there.roles |= SymbolRole.Definition | DERIVED_ROLE;
      there.range = range;
    }
    return NO_ASSIGNED_CLASS;
  }
  // A CommonJS module's importers name it by the module's symbol (their `require` bindings): that is its export there.
  const declaration = facts.declarationAt(line, character);
  const exportOf = exportOfRelationships(
    occurrences,
    symbols,
    declaration?.moduleExports ? namespace : synthesized,
    declaration?.exportedNames ?? [],
  );
  if (there && !symbolIndex.has(synthesized)) {
    renameSymbol(symbols, symbolIndex, there.symbol, synthesized);
    there.roles |= SymbolRole.Definition | DERIVED_ROLE;
    there.range = range;
    if (declaration?.moduleExports)
      declareModuleExportsAgain(occurrences, symbols, symbolIndex, facts, lines, [declared, ...others], there);
    const assigned = declareAssignedClass(occurrences, symbols, symbolIndex, facts, lines, there, namespace);
    return exportOf.length ? { ...assigned, relationships: [...assigned.relationships, ...exportOf] } : assigned;
  }
  const index = internSymbol(symbols, symbolIndex, synthesized);
  // Its extent is the parse's, and is said to be (enclosing_source: syntax).
  occurrences.push(derivedOccurrence(range, index, SymbolRole.Definition));
  return exportOf.length ? { ...NO_ASSIGNED_CLASS, relationships: exportOf } : NO_ASSIGNED_CLASS;
}

/**
 * Each `module.exports = ...` of a module declares its export, as TypeScript
 * binds them (debug's and React's entry points assign it in both branches of
 * an `if`): goToDefinition at `module` or `exports` of any of them lists them
 * all, and findReferences their `module`. The index gives each assignment
 * locals of its own (one at `module`, one at `exports`, two at each): all
 * become the export's symbol, declared at each `module.exports` once.
 */
function declareModuleExportsAgain(
  occurrences: Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  facts: SyntaxFacts,
  lines: readonly string[],
  assignments: readonly [number, number][],
  first: Occurrence,
): void {
  const exported = first.symbol;
  const spans: Range[] = [];
  for (const [line, character] of assignments) {
    if (!facts.declarationAt(line, character)?.moduleExports) continue;
    const written = moduleExportsWrittenAt(lines, line, character);
    if (written) spans.push([line, character, line, character + written.length]);
  }
  const within = (o: Occurrence) => spans.find((span) => rangeContains(span, o.range));
  for (const o of occurrences)
    if (o.symbol !== exported && isLocalSymbol(symbols[o.symbol]!) && within(o))
      renameOrMerge(occurrences, symbols, symbolIndex, o.symbol, symbols[exported]!);
  // One definition per assignment, spanning `module.exports` (the first's already does); the export's other
  // occurrences inside it go.
  const declared = new Set<Range>();
  const firstSpan = within(first);
  if (firstSpan) declared.add(firstSpan);
  let n = 0;
  for (const o of occurrences) {
    const span = o.symbol === exported && o !== first ? within(o) : undefined;
    if (span) {
      if (declared.has(span)) continue;
      declared.add(span);
      o.range = span;
      o.roles |= SymbolRole.Definition | DERIVED_ROLE;
    }
    occurrences[n++] = o;
  }
  occurrences.length = n;
}

/** Whether the file declares a CommonJS export named `default` (`exports.default = ...`). */
function declaresDefaultExport(facts: SyntaxFacts, lines: readonly string[]): boolean {
  return facts.commonJsExports().some(([line, character]) => nameWrittenAt(lines, line, character) === 'default');
}

/**
 * An anonymous default export is an export of each name written directly in
 * it that the index names globally (`make` and `getLength` of `export default
 * make(getLength)`, underscore's `_isArrayLike.js`; `module.exports =
 * make('length')`), as TypeScript's findReferences takes it: its references
 * and call hierarchy at `make` count the export's uses in its importers
 * (`isArrayLike(obj)`) as `make`'s.
 */
function exportOfRelationships(
  occurrences: readonly Occurrence[],
  symbols: readonly string[],
  exported: string,
  names: readonly [number, number][],
): PreparedRelationship[] {
  const out: PreparedRelationship[] = [];
  for (const [line, character] of names) {
    const use = occurrences.find(
      (o) => o.range[0] === line && o.range[1] === character && !(o.roles & SymbolRole.Definition) && !isLocalSymbol(symbols[o.symbol]!),
    );
    if (!use || symbols[use.symbol] === exported) continue;
    out.push({
      symbol: exported,
      target: symbols[use.symbol]!,
      isImplementation: false,
      isReference: false,
      isTypeDefinition: false,
      isDefinition: false,
      isExportOf: true,
    });
  }
  return out;
}

/**
 * A CommonJS module's `exports.name = value` (or `module.exports.name =
 * value`, or a property or method `name` of `module.exports = {...}`)
 * declares its export `name`, as TypeScript binds it; scip-typescript
 * gives the name a local of the file (and gives an importer's `m.name` a
 * local of its own), so goToDefinition found nothing and the export had no
 * references outside its file. The export becomes the global symbol
 * `<module>name.`, the symbol importers' names get from linkModuleNames: the
 * first assignment defines it, and the local's other occurrences of that name
 * in the file (`exports.name(...)`) refer to it. The index may give `exports`
 * in that statement the same local: only the occurrences reading `name` are
 * renamed. Where the index names the export by a global symbol already
 * (`exports.run = run`, where it names the function), the export is related to
 * that symbol instead, as an export list's name is (relateExportNames).
 */
export function defineCommonJsExports(
  occurrences: Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  facts: SyntaxFacts,
  lines: readonly string[],
  path: string,
): PreparedRelationship[] {
  const declared = facts.commonJsExports();
  if (declared.length === 0) return [];
  const namespace = fileNamespace(symbols, path);
  if (!namespace) return [];
  const at = occurrencesByStart(occurrences);
  const out: PreparedRelationship[] = [];
  const exportAt = new Set(declared.map(([line, character]) => line * 0x100000 + character));
  for (const [line, character] of declared) {
    const name = nameWrittenAt(lines, line, character);
    if (!name) continue;
    const synthesized = exportSymbol(namespace, name);
    const there = at.get(line * 0x100000 + character);
    if (there && isLocalSymbol(symbols[there.symbol]!)) aliasExportedName(occurrences, symbols, lines, there, name);
    const symbol = there && symbols[there.symbol]!;
    if (symbol && isLocalSymbol(symbol)) privatizeNamesake(occurrences, symbols, symbolIndex, synthesized, exportAt);
    if (symbol && !isLocalSymbol(symbol)) {
      // A shorthand property (`module.exports = { shout }`) is a property symbol of its own there, and a use of what
      // it holds: the two are related, so that a use through the module (`strings.shout()`) is the function's too.
      // As references only: goToDefinition at a use of the function goes to the function alone, and at a use
      // through the module to the property, and to the function only where it is called (navigation/definitions.ts).
      const held = occurrences.find(
        (o) => o !== there && o.range[0] === line && o.range[1] === character && (o.roles & SymbolRole.Definition) === 0,
      );
      const heldSymbol = held && symbols[held.symbol]!;
      // Where what it holds is a variable of the module's (`const webidl = {...}; module.exports = { webidl }`), the
      // export's name is that variable's symbol already: the property is no declaration of it, only a use.
      if (symbol !== synthesized)
        out.push(heldSymbol === synthesized ? { ...standsFor(synthesized, symbol), isDefinition: false } : standsFor(synthesized, symbol));
      if (heldSymbol && heldSymbol !== symbol && !isLocalSymbol(heldSymbol))
        out.push({ ...standsFor(symbol, heldSymbol), isDefinition: false });
      continue;
    }
    // A later assignment of an export already declared (`exports.x = a; ... exports.x = b;`) writes it.
    const first = !symbolIndex.has(synthesized);
    const index = internSymbol(symbols, symbolIndex, synthesized);
    if (!there) {
      if (first) occurrences.push(derivedOccurrence([line, character, line, character + name.length], index, SymbolRole.Definition));
      continue;
    }
    const local = there.symbol;
    for (const o of occurrences) if (o.symbol === local && nameInSource(lines, o.range) === name) o.symbol = index;
    if (first) there.roles |= SymbolRole.Definition | DERIVED_ROLE;
  }
  return out;
}

/**
 * `exports.isGenerator = isGenerator`, a name assigned a function's name, is
 * an alias of it to TypeScript: goToDefinition there goes to the function. The
 * index names such an export by the function's symbol (as the alias), except
 * in Babel's output after its preamble (`exports.isGenerator = undefined`, then
 * `exports.default = ...`), where it gives the name a local of its own, which
 * would become an export declared at the assignment. The local's places of that
 * name take the named value's symbol, as the index gives them elsewhere.
 */
function aliasExportedName(
  occurrences: readonly Occurrence[],
  symbols: readonly string[],
  lines: readonly string[],
  there: Occurrence,
  name: string,
): void {
  const [line, start, , end] = there.range;
  // `exports.name` or `module.exports.name` as written: an object's property (`_exports.name = name`) is declared there.
  if (!writtenAsExportsMember(lines, line, start)) return;
  const value = ALIASED_VALUE.exec(lines[line]?.slice(end) ?? '');
  if (!value) return;
  const at = end + value[1]!.length;
  const named = occurrences.find((o) => o.range[0] === line && o.range[1] === at && o.range[3] === at + value[2]!.length);
  const target = named && symbols[named.symbol]!;
  // A function or a class. A variable may hold an alias itself (`var Router = require('router')`), which TypeScript
  // follows on, and where that ends nowhere (a package not installed) it stays at the export: left as it was.
  if (!target || isLocalSymbol(target) || !/(?:\(\)\.|#)$/.test(target)) return;
  const local = there.symbol;
  for (const o of occurrences) if (o.symbol === local && nameInSource(lines, o.range) === name) o.symbol = named.symbol;
}

/** `= name;` right after an export's name: what comes before the name assigned (group 1), and that name (group 2). */
const ALIASED_VALUE = /^(\s*=\s*)([\p{L}\p{N}_$]+)\s*;?\s*$/u;

/**
 * A variable of the module named as an export (`var etag = require('etag')`
 * beside `exports.etag = createETagGenerator(...)`) has, from scip-typescript,
 * the symbol the export takes (`lib/\`utils.js\`/etag.`): the two merged, and
 * goToDefinition at `exports.etag` went to the variable. TypeScript binds a
 * CommonJS module's variables in the module alone, so the variable becomes a
 * local of the file; the export is then declared at its assignment.
 */
function privatizeNamesake(
  occurrences: readonly Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  exported: string,
  exportAt: ReadonlySet<number>,
): void {
  const index = symbolIndex.get(exported);
  if (index === undefined) return;
  const declaration = occurrences.find((o) => o.symbol === index && o.roles & SymbolRole.Definition);
  // Declared by an export assignment already (sextant's own, or the index's), or not declared here at all.
  if (!declaration || declaration.roles & DERIVED_ROLE || exportAt.has(declaration.range[0] * 0x100000 + declaration.range[1])) return;
  renameSymbol(symbols, symbolIndex, index, unusedLocal(symbolIndex, 'module-variable'));
}

/**
 * A name for what another module exports is a local of this document where
 * the index resolved it to nothing global: a default export without a name
 * of its own (`import x from './m'`, `m.default`), a name a module exports by
 * an export list reached through a namespace import (`ns.a` where `./m` has
 * `export { a }`: scip-typescript resolves `import { a }`, not `ns.a`), a name
 * re-exported from such a default (`import { en } from './locales'`). It
 * becomes the global symbol `<module>name.` throughout this document (the
 * index gives every name here for one export one local), which the module's
 * own document defines (defineAnonymousDefaults) or relates to what it
 * exports (relateExportNames): so the export's references span its
 * importers. The module is the symbol the index gives the specifier (or `ns`):
 * a file of the index, or of a package. A name the index resolved stays; but
 * the index gives `a` in `{ a as x }` a local even where what it names has a
 * global symbol, which it gives `x` (`export { default as options } from
 * './options'` where options.js declares `const options` and exports it as
 * its default): `a` takes that.
 */
export function linkModuleNames(
  occurrences: Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  facts: SyntaxFacts,
  lines: readonly string[],
): void {
  const at = occurrencesByStart(occurrences);
  // Locals merged into a symbol the document holds already (two names of one export, reached by two modules).
  const merged = new Map<number, number>();
  for (const { name, module, isDefault, required } of facts.moduleNames) {
    const named = required ? referenceAt(occurrences, name) : at.get(name[0] * 0x100000 + name[1]);
    const moduleIndex = at.get(module[0] * 0x100000 + module[1])?.symbol;
    if (named === undefined || moduleIndex === undefined) continue;
    const local = named.symbol;
    const moduleSymbol = symbols[moduleIndex]!;
    if (!isLocalSymbol(symbols[local]!) || isLocalSymbol(moduleSymbol) || !moduleSymbol.endsWith('/')) continue;
    // `a` of a specifier `{ a as b }` (its module is written after it, where `ns` of `ns.a` is before).
    const inSpecifier = module[0] > name[0] || (module[0] === name[0] && module[1] > name[1]);
    const as = inSpecifier ? /^[\p{L}\p{N}_$]+\s+as\s+/u.exec(lines[name[0]]?.slice(name[1]) ?? '') : null;
    const alias = as ? at.get(name[0] * 0x100000 + name[1] + as[0].length)?.symbol : undefined;
    if (alias !== undefined && !isLocalSymbol(symbols[alias]!) && symbols[alias] !== moduleSymbol) {
      merged.set(local, alias);
      continue;
    }
    const exported = isDefault ? 'default' : nameInSource(lines, named.range);
    if (!exported) continue;
    const synthesized = exportSymbol(moduleSymbol, exported);
    const held = symbolIndex.get(synthesized);
    if (held !== undefined) {
      merged.set(local, held);
      continue;
    }
    renameSymbol(symbols, symbolIndex, local, synthesized);
  }
  if (merged.size > 0) for (const o of occurrences) o.symbol = merged.get(o.symbol) ?? o.symbol;
}

/**
 * A name imported from a module the indexer could not resolve (a package not
 * installed: `import type { UnknownAction } from 'redux'`, `export { produce }
 * from 'immer'`, Python's `from absent_pkg import thing`) has a local symbol
 * in the index and no definition, so its uses answered goToDefinition with
 * nothing, and a file that only re-exports such names answered nowhere.
 * TypeScript's language server calls the binding in the import clause the
 * declaration of an alias it cannot resolve; so does sextant: a local's
 * occurrence in an import or export-from clause (one whose module the parse
 * knows, else the first) becomes its definition, when the document defines it
 * nowhere (a local symbol belongs to one document, so none defined here is
 * defined anywhere). A name an export-from clause exports becomes `<this
 * module>name.`, the symbol linkModuleNames gives the files importing it from
 * here (`import { useMemo } from './reactImports'`), so that their uses reach
 * it. Returns each such definition with the module as written (`'redux'`,
 * Python's `absent_pkg`), where the parse saw it: in TypeScript not for `* as
 * ns`, nor for `b` in `a as b`. A local where the index also names a global
 * symbol (resolvedRanges) is no such name.
 */
export function defineUnresolvedImports(
  occurrences: readonly Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  facts: SyntaxFacts,
  lines: readonly string[],
  path: string,
): Map<Occurrence, string | null> {
  const found = new Map<Occurrence, string | null>();
  // Names in import clauses with local symbols (not Python's `.` in `from . import base`, which scip-python gives a
  // local too). Most documents import only what the index resolved, to global symbols: they are done after this pass.
  const imported = occurrences.filter(
    (o) => o.refKind === RefKindCode.import && isLocalSymbol(symbols[o.symbol]!) && nameInSource(lines, o.range) !== undefined,
  );
  if (imported.length === 0) return found;
  const defined = new Set<number>();
  for (const o of occurrences) if (o.roles & SymbolRole.Definition) defined.add(o.symbol);
  const resolved = resolvedRanges(occurrences, symbols);
  const moduleAt = new Map<number, [number, number]>();
  for (const m of facts.moduleNames) moduleAt.set(m.name[0] * 0x100000 + m.name[1], m.module);
  const moduleOf = (o: Occurrence): string | null => {
    const module = moduleAt.get(o.range[0] * 0x100000 + o.range[1]);
    return module ? stringLiteralAt(lines, module) : (facts.importedModuleAt(o.range[0], o.range[1]) ?? null);
  };
  // Of a local's occurrences in import clauses, one whose module the parse knows, so that the definition can name
  // it; else the first.
  const chosen = new Map<number, { o: Occurrence; module: string | null }>();
  for (const o of imported) {
    if (defined.has(o.symbol) || resolved.has(o.range.join(':'))) continue;
    const module = moduleOf(o);
    const sofar = chosen.get(o.symbol);
    if (!sofar || (sofar.module === null && module !== null)) chosen.set(o.symbol, { o, module });
  }
  const exportedAt = new Set(facts.exportNames.map(([line, character]) => line * 0x100000 + character));
  let namespace: string | null | undefined;
  for (const { o, module } of chosen.values()) {
    o.roles |= SymbolRole.Definition;
    found.set(o, module);
    if (!exportedAt.has(o.range[0] * 0x100000 + o.range[1])) continue;
    namespace ??= fileNamespace(symbols, path) ?? null;
    const exported = nameInSource(lines, o.range);
    const symbol = namespace && exported ? exportSymbol(namespace, exported) : undefined;
    if (symbol && !symbolIndex.has(symbol)) renameSymbol(symbols, symbolIndex, o.symbol, symbol);
  }
  exportImportBindings(occurrences, symbols, symbolIndex, [...chosen.keys()], exportedAt, defined, lines, path);
  return found;
}

/**
 * A name an export list exports (`export { createRef }`) that an import of an
 * unresolved module binds (`import { createRef } from 'preact'`, preact's
 * compat/src/index.js): the index gives the export list's name a local of its
 * own, defined nowhere, so it answered nothing and the binding's references
 * left it out. TypeScript binds it to the import: so does sextant, and the
 * binding becomes `<this module>name.`, as a name an export-from clause
 * exports does (defineUnresolvedImports).
 */
function exportImportBindings(
  occurrences: readonly Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  bindings: readonly number[],
  exportedAt: ReadonlySet<number>,
  defined: ReadonlySet<number>,
  lines: readonly string[],
  path: string,
): void {
  if (exportedAt.size === 0 || bindings.length === 0) return;
  const ofBinding = new Set(bindings);
  const bound = new Map<string, number>();
  for (const o of occurrences) {
    const name = ofBinding.has(o.symbol) && o.refKind === RefKindCode.import ? nameInSource(lines, o.range) : undefined;
    if (name !== undefined && !bound.has(name)) bound.set(name, o.symbol);
  }
  const merged = new Map<number, number>();
  for (const o of occurrences) {
    if (!exportedAt.has(o.range[0] * 0x100000 + o.range[1]) || defined.has(o.symbol) || ofBinding.has(o.symbol)) continue;
    if (!isLocalSymbol(symbols[o.symbol]!)) continue;
    const name = nameInSource(lines, o.range);
    const binding = name === undefined ? undefined : bound.get(name);
    if (binding === undefined) continue;
    merged.set(o.symbol, binding);
    const namespace = isLocalSymbol(symbols[binding]!) ? fileNamespace(symbols, path) : undefined;
    const symbol = namespace && exportSymbol(namespace, name!);
    if (symbol && !symbolIndex.has(symbol)) renameSymbol(symbols, symbolIndex, binding, symbol);
  }
  if (merged.size > 0) for (const o of occurrences) o.symbol = merged.get(o.symbol) ?? o.symbol;
}

/** The quoted string literal starting at [line, character], quotes included; null when there is none. */
function stringLiteralAt(lines: readonly string[], [line, character]: [number, number]): string | null {
  const text = lines[line] ?? '';
  const quote = text[character];
  if (quote !== "'" && quote !== '"') return null;
  const end = text.indexOf(quote, character + 1);
  return end < 0 ? null : text.slice(character, end + 1);
}

/**
 * What this document exports by an export list (`export { a as b }`,
 * `export { default as en } from './en'`) under a name that is not its
 * symbol's own: `<this module>b.`, the symbol importers that reach it by name
 * get from linkModuleNames, is related to what it exports, as a definition
 * and a reference, so that their uses and the declaration answer together.
 */
export function relateExportNames(
  occurrences: readonly Occurrence[],
  symbols: readonly string[],
  facts: SyntaxFacts,
  lines: readonly string[],
  path: string,
): PreparedRelationship[] {
  // Most files have no export list: no map of their occurrences is built for it.
  if (facts.exportNames.length === 0) return [];
  const namespace = fileNamespace(symbols, path);
  if (!namespace) return [];
  const at = occurrencesByStart(occurrences);
  const out: PreparedRelationship[] = [];
  for (const [line, character] of facts.exportNames) {
    const o = at.get(line * 0x100000 + character);
    const target = o && symbols[o.symbol]!;
    const exported = o && nameInSource(lines, o.range);
    if (!target || !exported || isLocalSymbol(target)) continue;
    const symbol = exportSymbol(namespace, exported);
    if (symbol !== target) out.push(standsFor(symbol, target));
  }
  return out;
}

/** The occurrence at a position that is not a definition there. */
function referenceAt(occurrences: readonly Occurrence[], [line, character]: [number, number]): Occurrence | undefined {
  return occurrences.find((o) => o.range[0] === line && o.range[1] === character && (o.roles & SymbolRole.Definition) === 0);
}

/** The first occurrence starting at each position (key line * 0x100000 + character). */
function occurrencesByStart(occurrences: readonly Occurrence[]): Map<number, Occurrence> {
  const at = new Map<number, Occurrence>();
  for (const o of occurrences) {
    const k = o.range[0] * 0x100000 + o.range[1];
    if (!at.has(k)) at.set(k, o);
  }
  return at;
}
