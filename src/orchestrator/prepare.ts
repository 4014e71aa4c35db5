// Turns one SCIP document and the text of its file into the rows the
// registry stores: packed occurrences, per-symbol ranges, definitions with
// kinds, and relationships.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { signatureOf, symbolKind, type SymbolKind } from '../scip/kind.js';
import { columnConverter, normalizeRange, type Range } from '../scip/range.js';
import { SymbolRole, type ScipDocument, type ScipSymbolInformation } from '../scip/schema.js';
import { displayName, isLocalSymbol, ownerSymbol, parseSymbol, type ParsedSymbol } from '../scip/symbol.js';
import { DERIVED_ROLE, encodeOccurrences, encodeRanges, RefKindCode, type Occurrence, type SymbolRange } from '../registry/payload.js';
import type { PreparedDefinition, PreparedDocument, PreparedRelationship } from '../registry/writer.js';
import type { Alias, Declaration, SyntaxFacts } from '../syntax/facts.js';

/**
 * Bumped whenever what is derived from a document changes (kinds, payload
 * layout), so stored documents are re-derived rather than reused.
 */
export const DERIVATION_VERSION = 23;

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
      memberAccess: facts?.memberAccessAt(range[0], range[1]) ?? false,
      argumentCount: o.symbolRoles & SymbolRole.Definition ? -1 : (facts?.argumentCountAt(range[0], range[1]) ?? -1),
      enclosing: enclosingRaw ? convert(enclosingRaw) : undefined,
    });
  }
  if (facts?.moduleNames.length) linkModuleNames(occurrences, symbols, symbolIndex, facts, lines);
  const memberRelationships = facts ? defineLiteralMembers(occurrences, symbols, symbolIndex, facts, lines, document.relativePath) : [];
  if (facts) defineNamedExpressions(occurrences, symbols, facts);
  if (facts && language === 'python') defineRedefinitions(occurrences, facts);
  if (language === 'python') splitImportAliases(occurrences, lines);
  if (language === 'python') nameSlotAttributes(occurrences, symbols, symbolIndex, lines);
  if (language === 'python') nameRelativeModules(occurrences, symbols, symbolIndex, lines, document.relativePath);
  if (language === 'python') referExportedNames(occurrences, symbols, lines);
  if (facts) defineAnonymousDefaults(occurrences, symbols, symbolIndex, facts, lines, document.relativePath);
  const thisProperties = JAVASCRIPT.test(document.relativePath) ? defineThisProperties(occurrences, symbols, lines) : new Set<Occurrence>();
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
      list.push({ range: o.range, roles: o.roles, refKind: o.refKind, memberAccess: o.memberAccess });
      if (isDefinition) definedHere.add(o.symbol);
    }
    if (!isDefinition) continue;
    const parsed = parse(symbol);
    if (!parsed) continue;
    const info = infos.get(symbol);
    const declaration = facts?.declarationAt(o.range[0], o.range[1]);
    const indexed = signatureOf(info) ?? null;
    // A static member says so: a static accessor overrides no instance member of a supertype (see related.ts).
    const signature = declaration?.isStatic && indexed && !/^static\b/.test(indexed) ? `static ${indexed}` : indexed;
    const syntacticExtent = o.enclosing ? undefined : declaration?.extent;
    const kind = thisProperties.has(o) ? 'property' : (declaredKind(declaration) ?? symbolKind(parsed, info, indexed ?? undefined));
    definitions.push({
      symbol,
      name: info?.displayName || nameInSource(lines, o.range) || quotedNameInSource(lines, o.range) || displayName(parsed),
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
  const derived = facts
    ? [
        ...memberRelationships,
        ...relateDeclarationFileMembers(document.relativePath, occurrences, symbols, facts),
        ...relateExportNames(occurrences, symbols, facts, lines, document.relativePath),
      ]
    : [];
  for (const r of derived) {
    if (related.has(`${r.symbol}\0${r.target}`)) continue;
    related.add(`${r.symbol}\0${r.target}`);
    relationships.push(r);
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
 * A member named by a string literal (`'content-type': …`, `'\u2028': …`), as
 * written, quotes and escapes included: scip-typescript's descriptor is that
 * text with a counter after it (`'content-type'0`), which no one wrote.
 */
function quotedNameInSource(lines: readonly string[], r: Range): string | undefined {
  if (r[0] !== r[2]) return undefined;
  const text = lines[r[0]]?.slice(r[1], r[3]);
  return text && /^(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")$/.test(text) ? text : undefined;
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
    const there = at.get(`${alias.target[0]}:${alias.target[1]}`) ?? [];
    // A declaration's name may also be a use of something else: `const { precision } = opts` defines a
    // variable and names a property of opts' type there. The alias means the variable, what is defined.
    const defined = there.filter((t) => t.roles & SymbolRole.Definition);
    const targets = defined.length > 0 ? defined : there;
    const present = at.get(`${alias.range[0]}:${alias.range[1]}`) ?? [];
    for (const symbol of new Set(targets.map((t) => t.symbol))) {
      if (present.some((p) => p.symbol === symbol)) continue;
      occurrences.push({
        range: alias.range,
        symbol,
        roles: DERIVED_ROLE,
        refKind: alias.call ? RefKindCode.call : alias.type ? RefKindCode.type : RefKindCode.identifier,
        memberAccess: false,
        argumentCount: -1,
        enclosing: undefined,
      });
    }
  }
}

/**
 * A named function expression no variable holds (`Object.assign(function
 * flow() {...}, ...)`) is a caller of its own, as TypeScript's call hierarchy
 * has it, but scip-typescript records its name only as a use of a local
 * symbol: that use becomes the local's definition, so that the calls in the
 * function are its own and not the enclosing function's or the file's.
 */
function defineNamedExpressions(occurrences: Occurrence[], symbols: readonly string[], facts: SyntaxFacts): void {
  for (const o of occurrences) {
    if (o.roles & SymbolRole.Definition || !isLocalSymbol(symbols[o.symbol]!)) continue;
    if (facts.declarationAt(o.range[0], o.range[1])?.namedExpression) o.roles |= SymbolRole.Definition;
  }
}

/**
 * Python's overloads (`@overload` stubs, then the implementation) share one
 * symbol, which scip-python defines once, at its first `def`: the others are
 * recorded as uses, so the calls in the implementation were the class's or
 * the file's. Each `def` of an overload group (python_refs.py finds them)
 * becomes a definition of its own, its extent the parse's, as TypeScript's
 * overloads are, and the call hierarchy takes the implementation, the
 * largest and last, for its item.
 */
function defineRedefinitions(occurrences: Occurrence[], facts: SyntaxFacts): void {
  const defined = new Set<number>();
  for (const o of occurrences) if (o.roles & SymbolRole.Definition) defined.add(o.symbol);
  for (const o of occurrences) {
    if (o.roles & SymbolRole.Definition || !defined.has(o.symbol)) continue;
    if (facts.declarationAt(o.range[0], o.range[1])?.callable) o.roles |= SymbolRole.Definition;
  }
}

/**
 * scip-python records `from m import A as B` as one occurrence over all of
 * `A as B`: goToDefinition of the keyword `as` answered A, and A's references
 * listed the line once where pyright lists both names. It becomes two
 * occurrences of the symbol, at A and at B.
 */
function splitImportAliases(occurrences: Occurrence[], lines: readonly string[]): void {
  const aliases: Occurrence[] = [];
  for (const o of occurrences) {
    if (o.range[0] !== o.range[2]) continue;
    const text = lines[o.range[0]]!.slice(o.range[1], o.range[3]);
    const m = /^([\p{L}_][\p{L}\p{N}_]*)(\s+as\s+)([\p{L}_][\p{L}\p{N}_]*)$/u.exec(text);
    if (!m) continue;
    const alias = o.range[1] + m[1]!.length + m[2]!.length;
    aliases.push({ ...o, range: [o.range[0], alias, o.range[0], alias + m[3]!.length] });
    o.range = [o.range[0], o.range[1], o.range[0], o.range[1] + m[1]!.length];
  }
  occurrences.push(...aliases);
}

/**
 * scip-python names each use of an attribute of a class with `__slots__`
 * (`self.x`, `p.x`) with the class's own symbol, and defines none of them:
 * goToDefinition of `self.x` went to the class, and the class's references
 * listed every attribute use. Such a use (a member access whose name is not
 * the class's) gets the symbol scip-python gives an attribute of a class
 * without slots, `A#x.`, and each name in the class's `__slots__` defines it,
 * where pyright declares it. A module before the dot (`mod.Alias` for `from
 * m import A as Alias`) names the class itself and is left alone.
 */
function nameSlotAttributes(
  occurrences: Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  lines: readonly string[],
): void {
  const endingAt = new Map<string, number>();
  const importedLocals = new Set<number>();
  for (const o of occurrences) {
    endingAt.set(`${o.range[2]}:${o.range[3]}`, o.symbol);
    if (o.refKind === RefKindCode.import && isLocalSymbol(symbols[o.symbol]!)) importedLocals.add(o.symbol);
  }
  const attributeOf = (type: string, name: string): number => {
    const symbol = `${type}${descriptorName(name)}.`;
    let index = symbolIndex.get(symbol);
    if (index === undefined) {
      index = symbols.length;
      symbols.push(symbol);
      symbolIndex.set(symbol, index);
    }
    return index;
  };
  const classNames = new Map<number, string | null>();
  const classNameOf = (index: number): string | null => {
    if (!classNames.has(index)) {
      const symbol = symbols[index]!;
      let name: string | null = null;
      if (symbol.endsWith('#') && !isLocalSymbol(symbol)) {
        try {
          name = displayName(parseSymbol(symbol));
        } catch {
          name = null;
        }
      }
      classNames.set(index, name);
    }
    return classNames.get(index)!;
  };
  for (const o of occurrences) {
    if (o.roles & SymbolRole.Definition) continue;
    const className = classNameOf(o.symbol);
    const name = className === null ? undefined : nameInSource(lines, o.range);
    if (!name || name === className) continue;
    const before = lines[o.range[0]]!.slice(0, o.range[1]);
    const dot = /\.\s*$/.exec(before);
    if (!dot) continue;
    const receiver = endingAt.get(`${o.range[0]}:${before.slice(0, dot.index).trimEnd().length}`);
    if (receiver !== undefined && (symbols[receiver]!.endsWith(':') || importedLocals.has(receiver))) continue;
    o.symbol = attributeOf(symbols[o.symbol]!, name);
  }
  const defined = new Set<number>();
  for (const o of occurrences) if (o.roles & SymbolRole.Definition) defined.add(o.symbol);
  for (const o of [...occurrences]) {
    const symbol = symbols[o.symbol]!;
    if (!(o.roles & SymbolRole.Definition) || !symbol.endsWith('#__slots__.') || isLocalSymbol(symbol)) continue;
    const type = symbol.slice(0, -'__slots__.'.length);
    for (const { name, range } of listedNames(lines, o.range)) {
      const index = attributeOf(type, name);
      if (defined.has(index)) continue;
      defined.add(index);
      occurrences.push({
        range,
        symbol: index,
        roles: SymbolRole.Definition | DERIVED_ROLE,
        refKind: RefKindCode.identifier,
        memberAccess: false,
        argumentCount: -1,
        enclosing: undefined,
      });
    }
  }
}

/**
 * scip-python names a module imported relatively by its last name alone:
 * `from . import nodes` and `from .visitor import X` in jinja2/optimizer.py
 * give `nodes/__init__:` and `visitor/__init__:`, where the modules define
 * `` `jinja2.nodes`/__init__: ``. goToDefinition of `nodes` (there, and at
 * every `nodes.Node` after it) said it was defined outside the indexed code.
 * Such a module symbol is renamed throughout the document to the module the
 * dots resolve to, from the document's own module (its definition at the
 * top of the file, `jinja2.optimizer`).
 */
function nameRelativeModules(
  occurrences: Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  lines: readonly string[],
  path: string,
): void {
  const own = occurrences.find(
    (o) => o.roles & SymbolRole.Definition && o.range[0] === 0 && o.range[1] === 0 && isModuleSymbol(symbols[o.symbol]!),
  );
  if (!own) return;
  const ownName = moduleName(symbols[own.symbol]!);
  if (!ownName) return;
  // The package `.` stands for: the module's own for a package's __init__.py, else the one holding the module.
  const packageParts = ownName.split('.');
  if (posix.basename(path) !== '__init__.py') packageParts.pop();
  const renamed = new Set<number>();
  for (const o of occurrences) {
    if (o.roles & SymbolRole.Definition || renamed.has(o.symbol) || o.range[0] !== o.range[2]) continue;
    const symbol = symbols[o.symbol]!;
    const name = isModuleSymbol(symbol) && !isLocalSymbol(symbol) ? moduleName(symbol) : undefined;
    if (!name) continue;
    const text = lines[o.range[0]]!.slice(o.range[1], o.range[3]);
    let dots: number;
    if (text.startsWith('.')) {
      // `from .visitor import X`, `from ..a.b import X`: the occurrence is the relative name itself.
      dots = /^\.+/.exec(text)![0].length;
      if (text.slice(dots) !== name) continue;
    } else {
      // `from . import nodes`, `from .. import (a,\n b)`: the name follows `from <dots> import`.
      if (text !== name) continue;
      const before = lines.slice(Math.max(0, o.range[0] - 20), o.range[0]).join('\n') + '\n' + lines[o.range[0]]!.slice(0, o.range[1]);
      const from = /\bfrom\s+(\.+)\s+import\s*\(?[\w\s,\\]*$/.exec(before);
      if (!from) continue;
      dots = from[1]!.length;
    }
    if (dots - 1 >= packageParts.length) continue;
    const resolved = [...packageParts.slice(0, packageParts.length - (dots - 1)), name].join('.');
    const target = symbol.slice(0, symbol.length - `${descriptorName(name)}/__init__:`.length) + `${descriptorName(resolved)}/__init__:`;
    if (target === symbol || !symbol.endsWith(`${descriptorName(name)}/__init__:`)) continue;
    renamed.add(o.symbol);
    const held = symbolIndex.get(target);
    if (held !== undefined) {
      // The document names the module absolutely too: one symbol for both.
      for (const other of occurrences) if (other.symbol === o.symbol) other.symbol = held;
      continue;
    }
    symbolIndex.delete(symbol);
    symbolIndex.set(target, o.symbol);
    symbols[o.symbol] = target;
  }
}

/** A Python module's symbol, `` `pkg.mod`/__init__: ``. */
function isModuleSymbol(symbol: string): boolean {
  return symbol.endsWith('/__init__:');
}

/** The dotted name of a Python module's symbol, or undefined. */
function moduleName(symbol: string): string | undefined {
  try {
    const parsed = parseSymbol(symbol);
    const [namespace, meta] = parsed.descriptors.slice(-2);
    return parsed.descriptors.length === 2 && namespace?.suffix === 'namespace' && meta?.suffix === 'meta' ? namespace.name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A name in a module's `__all__` (`__all__ = ["frozen", ...]`) is a reference
 * to what the module binds to that name, as pyright has it, but scip-python
 * records nothing in strings: each gets a reference to the symbol the module
 * defines or imports under that name.
 */
function referExportedNames(occurrences: Occurrence[], symbols: readonly string[], lines: readonly string[]): void {
  const all = occurrences.find(
    (o) => o.roles & SymbolRole.Definition && /^[^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+\/__all__\.$/.test(symbols[o.symbol]!),
  );
  if (!all) return;
  const moduleSymbol = symbols[all.symbol]!.slice(0, -'__all__.'.length);
  // What the module binds to each name: its first definition of the name at the top level, else its first import of it.
  const bound = new Map<string, number>();
  const imported = new Map<string, number>();
  for (const o of occurrences) {
    const symbol = symbols[o.symbol]!;
    const name = isLocalSymbol(symbol) ? undefined : nameInSource(lines, o.range);
    if (!name) continue;
    if (o.roles & SymbolRole.Definition) {
      const member = symbol.startsWith(moduleSymbol) ? symbol.slice(moduleSymbol.length) : '';
      if (!bound.has(name) && (member === `${name}.` || member === `${name}().` || member === `${name}#`)) bound.set(name, o.symbol);
    } else if (o.refKind === RefKindCode.import && !imported.has(name)) imported.set(name, o.symbol);
  }
  for (const { name, range } of listedNames(lines, all.range)) {
    const symbol = bound.get(name) ?? imported.get(name);
    if (symbol === undefined) continue;
    occurrences.push({
      range,
      symbol,
      roles: DERIVED_ROLE,
      refKind: RefKindCode.identifier,
      memberAccess: false,
      argumentCount: -1,
      enclosing: undefined,
    });
  }
}

/**
 * The names a `__slots__` or `__all__` assignment lists, each with the range
 * of its text inside the quotes: the string, or the strings of the tuple,
 * list or set, after the `=` that follows the name at `at`.
 */
function listedNames(lines: readonly string[], at: Range): { name: string; range: Range }[] {
  const names: { name: string; range: Range }[] = [];
  let depth = 0;
  let assigned = false;
  // A slot list is a few lines long: the scan ends at its closing bracket, or at the end of the statement.
  for (let line = at[2]; line < lines.length && line < at[2] + 200; line++) {
    const text = lines[line]!;
    for (let column = line === at[2] ? at[3] : 0; column < text.length; column++) {
      const c = text[column]!;
      if (!assigned) {
        // After the name: an annotation (`: tuple[str, ...]`), then `=`.
        assigned = c === '=';
        continue;
      }
      if (c === '"' || c === "'") {
        const end = text.indexOf(c, column + 1);
        if (end < 0) return names;
        const name = text.slice(column + 1, end);
        if (/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) names.push({ name, range: [line, column + 1, line, end] });
        if (depth === 0) return names;
        column = end;
      } else if (c === '#') break;
      else if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') {
        if (--depth <= 0) return names;
      } else if (depth === 0 && !/[\s\\]/.test(c)) return names;
    }
    if (!assigned || (depth === 0 && !text.trimEnd().endsWith('\\'))) return names;
  }
  return names;
}

/**
 * What the syntax says a declaration is, where the index says nothing true:
 * a named function expression's local reads as a variable in the indexer's
 * signature (`var flow: ...`), and an anonymous default export has no symbol
 * information at all.
 */
function declaredKind(declaration: Declaration | undefined): SymbolKind | undefined {
  if (declaration?.namedExpression) return 'function';
  if (!declaration?.anonymousDefault) return undefined;
  return declaration.callable ? 'function' : declaration.isClass ? 'class' : 'variable';
}

const JAVASCRIPT = /\.[cm]?jsx?$/;

/**
 * In JavaScript, `this.name = value` declares the property (TypeScript binds
 * each such assignment, in a constructor, a method or a constructor function,
 * as a declaration of it), but scip-typescript records the name as a use of a
 * local symbol of the file that nothing defines, so goToDefinition at
 * `this.name` found nothing. Each such assignment of a local no occurrence
 * defines becomes a definition of it. Where the index gives one name two
 * locals (a constructor function's `this`), the later are merged into the
 * first. Returns the occurrences defined.
 */
function defineThisProperties(occurrences: Occurrence[], symbols: readonly string[], lines: readonly string[]): Set<Occurrence> {
  const defined = new Set<number>();
  for (const o of occurrences) if (o.roles & SymbolRole.Definition) defined.add(o.symbol);
  const assigned = new Map<string, Occurrence[]>();
  for (const o of occurrences) {
    if (o.refKind !== RefKindCode.write || !o.memberAccess || defined.has(o.symbol) || !isLocalSymbol(symbols[o.symbol]!)) continue;
    const line = lines[o.range[0]] ?? '';
    if (o.range[0] !== o.range[2] || !/\bthis\s*\.\s*$/.test(line.slice(0, o.range[1])) || !/^\s*=(?![=>])/.test(line.slice(o.range[3]))) continue;
    const k = `${o.range[0]}:${o.range[1]}`;
    const list = assigned.get(k);
    if (list) list.push(o);
    else assigned.set(k, [o]);
  }
  const merged = new Map<number, number>();
  for (const list of assigned.values()) {
    const [first, ...others] = list;
    for (const o of others) if (o.symbol !== first!.symbol) merged.set(o.symbol, merged.get(first!.symbol) ?? first!.symbol);
  }
  if (merged.size > 0) {
    // A merged local's occurrence where the one it joins occurs already is dropped.
    const key = (o: Occurrence, symbol: number) => `${o.range.join(':')}:${symbol}`;
    const kept = new Set<string>();
    for (const o of occurrences) if (!merged.has(o.symbol)) kept.add(key(o, o.symbol));
    let n = 0;
    for (const o of occurrences) {
      const into = merged.get(o.symbol);
      if (into !== undefined) {
        if (kept.has(key(o, into))) continue;
        o.symbol = into;
        kept.add(key(o, into));
      }
      occurrences[n++] = o;
    }
    occurrences.length = n;
  }
  const out = new Set<Occurrence>();
  for (const list of assigned.values()) {
    const o = list[0]!;
    o.roles |= SymbolRole.Definition | DERIVED_ROLE;
    out.add(o);
  }
  return out;
}

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
 * `default`, at its `default` keyword; so does sextant, with a global symbol
 * of the file (`src/\`a.ts\`/default.`), which linkModuleNames gives the
 * importers' names too.
 */
function defineAnonymousDefaults(
  occurrences: Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  facts: SyntaxFacts,
  lines: readonly string[],
  path: string,
): void {
  const namespace = fileNamespace(symbols, path);
  if (!namespace) return;
  const synthesized = exportSymbol(namespace, 'default');
  // A file has one default export: of two `module.exports =`, the first is declared.
  const [declared] = facts.anonymousDefaults();
  if (!declared) return;
  const [line, character] = declared;
  // `default`, or `exports` in `module.exports = ...`, where the index has a
  // local for the module's export: that local is the export, throughout the file.
  const there = occurrences.find((o) => o.range[0] === line && o.range[1] === character && isLocalSymbol(symbols[o.symbol]!));
  if (there && !symbolIndex.has(synthesized)) {
    symbolIndex.delete(symbols[there.symbol]!);
    symbolIndex.set(synthesized, there.symbol);
    symbols[there.symbol] = synthesized;
    there.roles |= SymbolRole.Definition | DERIVED_ROLE;
    return;
  }
  let index = symbolIndex.get(synthesized);
  if (index === undefined) {
    index = symbols.length;
    symbols.push(synthesized);
    symbolIndex.set(synthesized, index);
  }
  const name = /^[\w$]+/.exec(lines[line]?.slice(character) ?? '')?.[0] ?? 'default';
  occurrences.push({
    range: [line, character, line, character + name.length],
    symbol: index,
    roles: SymbolRole.Definition | DERIVED_ROLE,
    refKind: RefKindCode.identifier,
    memberAccess: false,
    argumentCount: -1,
    // Its extent is the parse's, and is said to be (enclosing_source: syntax).
    enclosing: undefined,
  });
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
function linkModuleNames(
  occurrences: Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  facts: SyntaxFacts,
  lines: readonly string[],
): void {
  const at = occurrencesByStart(occurrences);
  // Locals merged into a symbol the document holds already (two names of one export, reached by two modules).
  const merged = new Map<number, number>();
  for (const { name, module, isDefault } of facts.moduleNames) {
    const named = at.get(name[0] * 0x100000 + name[1]);
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
    symbolIndex.delete(symbols[local]!);
    symbolIndex.set(synthesized, local);
    symbols[local] = synthesized;
  }
  if (merged.size > 0) for (const o of occurrences) o.symbol = merged.get(o.symbol) ?? o.symbol;
}

/**
 * What this document exports by an export list (`export { a as b }`,
 * `export { default as en } from './en'`) under a name that is not its
 * symbol's own: `<this module>b.`, the symbol importers that reach it by name
 * get from linkModuleNames, is related to what it exports, as a definition
 * and a reference, so that their uses and the declaration answer together.
 */
function relateExportNames(
  occurrences: readonly Occurrence[],
  symbols: readonly string[],
  facts: SyntaxFacts,
  lines: readonly string[],
  path: string,
): PreparedRelationship[] {
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
    if (symbol !== target) out.push({ symbol, target, isImplementation: false, isReference: true, isTypeDefinition: false, isDefinition: true });
  }
  return out;
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

/**
 * Methods and accessors of object literals are functions, but scip-typescript
 * defines none of them: it records the name as
 * a use of a local symbol without definition (no contextual type, as in
 * `export const X = freeze({ create() {...} })` in JavaScript) or of the
 * property of the contextual type it implements (`{ get(target, key) {...} }`
 * for a ProxyHandler). Each gets a definition of a global symbol of its own:
 * the const's symbol and the member (`X.create().`), else the file and the
 * member's position. A local symbol is renamed to it throughout the document;
 * an implemented property is related to it as an override to what it
 * overrides, so that calls through the property are its callers.
 */
function defineLiteralMembers(
  occurrences: Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  facts: SyntaxFacts,
  lines: readonly string[],
  path: string,
): PreparedRelationship[] {
  const defined = new Set<string>();
  const globalDefinitionAt = new Map<string, number>();
  for (const o of occurrences) {
    if ((o.roles & SymbolRole.Definition) === 0) continue;
    defined.add(`${o.range[0]}:${o.range[1]}`);
    if (!isLocalSymbol(symbols[o.symbol]!)) globalDefinitionAt.set(`${o.range[0]}:${o.range[1]}`, o.symbol);
  }
  const namespace = fileNamespace(symbols, path);
  const renamed = new Set<number>();
  const relationships: PreparedRelationship[] = [];
  for (const o of occurrences) {
    const at = `${o.range[0]}:${o.range[1]}`;
    if (o.roles & SymbolRole.Definition || defined.has(at)) continue;
    const member = facts.declarationAt(o.range[0], o.range[1])?.member;
    if (!member) continue;
    if (renamed.has(o.symbol)) {
      // The other accessor of a get/set pair.
      o.roles |= SymbolRole.Definition;
      continue;
    }
    const name = nameInSource(lines, o.range);
    if (!name) continue;
    const owner = member.owner && globalDefinitionAt.get(`${member.owner[0]}:${member.owner[1]}`);
    const ownerSymbol = owner === undefined ? undefined : symbols[owner]!;
    const synthesized = ownerSymbol?.endsWith('.')
      ? `${ownerSymbol}${descriptorName(name)}().`
      : namespace && `${namespace}${descriptorName(`${name}@${o.range[0] + 1}:${o.range[1] + 1}`)}().`;
    if (!synthesized || symbolIndex.has(synthesized)) continue;
    const original = symbols[o.symbol]!;
    if (isLocalSymbol(original)) {
      symbols[o.symbol] = synthesized;
      symbolIndex.delete(original);
      symbolIndex.set(synthesized, o.symbol);
      renamed.add(o.symbol);
    } else {
      symbolIndex.set(synthesized, symbols.length);
      o.symbol = symbols.length;
      symbols.push(synthesized);
      relationships.push({ symbol: synthesized, target: original, isImplementation: true, isReference: true, isTypeDefinition: false, isDefinition: false });
    }
    o.roles |= SymbolRole.Definition;
    defined.add(at);
  }
  return relationships;
}

/** The descriptor prefix of a document's own file (`npm pkg 1.0 src/\`x.ts\`/`), from a symbol it holds. */
function fileNamespace(symbols: readonly string[], path: string): string | undefined {
  const needle = `\`${posix.basename(path)}\`/`;
  for (const s of symbols) {
    const i = s.indexOf(needle);
    if (i > 0 && !isLocalSymbol(s)) return s.slice(0, i + needle.length);
  }
  return undefined;
}

function descriptorName(name: string): string {
  return /^[\w$+-]+$/.test(name) ? name : `\`${name.replaceAll('`', '``')}\``;
}

/** A member of a type, after the type's symbol: `create().`, `Readonly:typeLiteral0:create().`. */
const TYPE_MEMBER = /^(?:(?:[\w$+-]+|`(?:[^`]|``)*`):)*([\w$+-]+|`(?:[^`]|``)*`)(?:\((?:\+\d+)?\))?\.$/;

/**
 * A declaration file beside its JavaScript (`x.d.ts` for `x.js`) declares
 * `const X: XFactory` where the JavaScript builds X from an object literal:
 * each member of XFactory is related to the literal's member (see
 * defineLiteralMembers for its symbol), so that a call `X.create(...)`, which
 * the indexer gives the declared member, reaches the implementation too.
 */
function relateDeclarationFileMembers(
  path: string,
  occurrences: readonly Occurrence[],
  symbols: readonly string[],
  facts: SyntaxFacts,
): PreparedRelationship[] {
  const extension = /\.d\.([mc]?)ts$/.exec(path);
  if (!extension) return [];
  const declarationFile = `\`${posix.basename(path)}\`/`;
  const javascriptFile = `\`${posix.basename(path).slice(0, -extension[0].length)}.${extension[1]}js\`/`;
  const at = new Map<string, number[]>();
  for (const o of occurrences) {
    const k = `${o.range[0]}:${o.range[1]}`;
    const list = at.get(k);
    if (list) list.push(o.symbol);
    else at.set(k, [o.symbol]);
  }
  const relationships: PreparedRelationship[] = [];
  for (const o of occurrences) {
    if ((o.roles & SymbolRole.Definition) === 0) continue;
    const constant = symbols[o.symbol]!;
    const typeName = facts.declarationAt(o.range[0], o.range[1])?.typeName;
    const file = constant.lastIndexOf(declarationFile);
    if (!typeName || !constant.endsWith('.') || file < 0 || isLocalSymbol(constant)) continue;
    const type = (at.get(`${typeName[0]}:${typeName[1]}`) ?? []).map((i) => symbols[i]!).find((s) => s.endsWith('#') && !isLocalSymbol(s));
    if (!type) continue;
    const implementation = constant.slice(0, file) + javascriptFile + constant.slice(file + declarationFile.length);
    for (const member of symbols) {
      const name = member.startsWith(type) ? TYPE_MEMBER.exec(member.slice(type.length))?.[1] : undefined;
      if (!name) continue;
      relationships.push({
        symbol: member,
        target: `${implementation}${name}().`,
        isImplementation: false,
        isReference: true,
        isTypeDefinition: false,
        isDefinition: true,
      });
    }
  }
  return relationships;
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
