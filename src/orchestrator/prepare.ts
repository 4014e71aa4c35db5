// Turns one SCIP document and the text of its file into the rows the
// registry stores: packed occurrences, per-symbol ranges, definitions with
// kinds, and relationships.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { FUNCTION_KINDS, signatureOf, symbolKind, unresolvedImportSignature, type SymbolKind } from '../scip/kind.js';
import { columnConverter, normalizeRange, rangeContains, rangeTouches, type Range } from '../scip/range.js';
import { SymbolRole, type ScipDocument, type ScipSymbolInformation } from '../scip/schema.js';
import {
  descriptorName,
  displayName,
  isLocalSymbol,
  isModuleSymbol,
  isObjectTypeName,
  ownerSymbol,
  parseSymbol,
  type ParsedSymbol,
} from '../scip/symbol.js';
import {
  DERIVED_ROLE,
  derivedOccurrence,
  encodeOccurrences,
  encodeRanges,
  MODULE_SPECIFIER,
  NAMING_ONLY,
  RefKindCode,
  RENAMED_CALL,
  RENAMED_USE,
  type Occurrence,
  type SymbolRange,
} from '../registry/payload.js';
import type { PreparedDefinition, PreparedDocument, PreparedRelationship } from '../registry/writer.js';
import type { Alias, Declaration, SyntaxFacts } from '../syntax/facts.js';
import {
  defineAnonymousDefaults,
  defineCommonJsExports,
  defineUnresolvedImports,
  linkModuleNames,
  relateExportNames,
} from './prepare-exports.js';
import { assignedClassOf, NO_ASSIGNED_CLASS, relateSubclassMethods } from './prepare-assigned-class.js';
import { derivePython } from './prepare-python.js';
import {
  fileNamespace,
  internSymbol,
  moduleExportsWrittenAt,
  nameInSource,
  nameWrittenAt,
  renameSymbol,
  resolvedRanges,
  unusedLocal,
  writtenAsExportsMember,
} from './symbol-names.js';

/**
 * Bumped whenever what is derived from a document changes (kinds, payload
 * layout), so stored documents are re-derived rather than reused.
 */
export const DERIVATION_VERSION = 90;

/** `roots`: the directories of nameless packages the document's symbols were given (see nameless-packages.ts). */
export function documentContentHash(documentBytes: Uint8Array, blobSha: string, roots: ReadonlyMap<string, string> = new Map()): string {
  const hash = createHash('sha256').update(`sextant-document-v${DERIVATION_VERSION}\0${blobSha}\0`).update(documentBytes);
  for (const [path, directory] of roots) hash.update(`\0${path}\0${directory}`);
  return hash.digest('hex');
}

export interface PrepareInput {
  document: ScipDocument;
  contentHash: string;
  language: string;
  lines: string[];
  facts: SyntaxFacts | undefined;
}

/**
 * scip-typescript names `new Draft()` of a class it gives a local (declared in
 * a function: immer's `DraftMap`) that has a constructor of its own by a
 * symbol nothing defines (the class's local with a constructor's descriptor
 * after it; the constructor is another local): it is the class's local, as at
 * `new` of such a class without one, and TypeScript counts the call as the
 * class's.
 */
const LOCAL_CONSTRUCTOR = /^(local [^\s`]+)`<constructor>`\(\)\.$/;

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
    occurrences.push({
      range,
      symbol: internSymbol(symbols, symbolIndex, o.symbol.replace(LOCAL_CONSTRUCTOR, '$1')),
      roles: o.symbolRoles,
      refKind: refKindOf(o.symbolRoles, range, facts),
      memberAccess: facts?.memberAccessAt(range[0], range[1]) ?? false,
      argumentCount: o.symbolRoles & SymbolRole.Definition ? -1 : (facts?.argumentCountAt(range[0], range[1]) ?? -1),
      enclosing: enclosingRaw ? convert(enclosingRaw) : undefined,
    });
  }
  // Before linkModuleNames: `m.name` names an export of the module only where `m` is the module's symbol.
  if (JAVASCRIPT.test(document.relativePath)) requireBindingsAsModules(occurrences, symbols, lines);
  if (facts?.moduleNames.length) linkModuleNames(occurrences, symbols, symbolIndex, facts, lines);
  const memberRelationships = facts ? defineLiteralMembers(occurrences, symbols, symbolIndex, facts, lines, document.relativePath) : [];
  if (facts) defineNamedExpressions(occurrences, symbols, facts);
  const computedMethods = facts ? defineComputedMethods(occurrences, symbols, symbolIndex, facts, lines) : new Set<Occurrence>();
  if (language === 'python') derivePython(occurrences, symbols, symbolIndex, lines, document.relativePath, facts);
  const assignedClass = facts
    ? defineAnonymousDefaults(occurrences, symbols, symbolIndex, facts, lines, document.relativePath)
    : NO_ASSIGNED_CLASS;
  const subclassRelationships =
    facts && JAVASCRIPT.test(document.relativePath) ? relateSubclassMethods(occurrences, symbols, symbolIndex, facts, lines) : [];
  const commonJsRelationships = facts ? defineCommonJsExports(occurrences, symbols, symbolIndex, facts, lines, document.relativePath) : [];
  const thisProperties = JAVASCRIPT.test(document.relativePath)
    ? defineThisProperties(occurrences, symbols, lines, facts)
    : new Set<Occurrence>();
  const definedProperties = JAVASCRIPT.test(document.relativePath)
    ? defineDefinedProperties(occurrences, symbols, lines)
    : new Map<Occurrence, DefinedProperty>();
  if (JAVASCRIPT.test(document.relativePath)) {
    unmarkExportAssignments(occurrences, lines);
    unlistExportsObjects(occurrences, symbols, lines);
    markRenamedRequireUses(occurrences, symbols, lines);
  }
  if (facts?.aliases.length) addAliasOccurrences(occurrences, facts.aliases);
  markModuleSpecifiers(occurrences, symbols, lines);
  if (language !== 'python') defineModulesAtFirstToken(occurrences, symbols, lines);
  occurrences.sort(byPosition);
  dropRepeatedUses(occurrences);
  const unresolvedImports = facts
    ? defineUnresolvedImports(occurrences, symbols, symbolIndex, facts, lines, document.relativePath)
    : new Map<Occurrence, string | null>();

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
    // A file's module is defined at its start, an empty range, where a first line's `module.exports = () => ...` is
    // declared too: what that declares is not the module (which had become a callable function).
    const fileModule = isModuleSymbol(symbol) && o.range[0] === o.range[2] && o.range[1] === o.range[3];
    const declaration = fileModule ? undefined : facts?.declarationAt(o.range[0], o.range[1]);
    const indexed = signatureOf(info) ?? null;
    // A static member says so: a static accessor overrides no instance member of a supertype (see related.ts).
    const signature = declaration?.isStatic && indexed && !/^static\b/.test(indexed) ? `static ${indexed}` : indexed;
    // A CommonJS export by assignment gets no extent: TypeScript's call hierarchy counts the calls in the function
    // assigned as the module's (a named function expression's as its own), so it contains no calls of its own. A
    // method of `module.exports = {...}` is a function of its own. So for a member declared by assignment
    // (`A.prototype.m = function`): its calls are those of the function or module around it.
    const assigned =
      (declaration?.commonJsExport && !declaration.callable) ||
      declaration?.assignedMember ||
      (declaration?.moduleExports && declaration.callable);
    const syntacticExtent = o.enclosing || assigned ? undefined : declaration?.extent;
    const unresolvedModule = unresolvedImports.get(o);
    const definedProperty = definedProperties.get(o);
    const kind =
      thisProperties.has(o) || definedProperty
        ? 'property'
        : computedMethods.has(o)
          ? 'method'
          : unresolvedModule !== undefined
            ? 'unknown'
            : (declaredKind(declaration) ?? symbolKind(parsed, info, indexed ?? undefined));
    definitions.push({
      symbol,
      name:
        definedProperty?.name ||
        info?.displayName ||
        nameInSource(lines, o.range) ||
        quotedNameInSource(lines, o.range) ||
        computedNameInSource(lines, o.range) ||
        (parsed.local ? moduleExportsInSource(lines, o.range) : undefined) ||
        displayName(parsed),
      kind,
      // Functions by nature, and other definitions where syntax says they hold a function; TypeScript's call hierarchy
      // lists no member declared by assignment, as a callee or otherwise.
      callable: !declaration?.assignedMember && (FUNCTION_KINDS.has(kind) || declaration?.callable === true),
      // A member declared by assignment has a local symbol, which names no container: its owner's name (`A` of `A.m = ...`).
      container:
        definedProperty?.owner ??
        assignedClass.containers.get(symbol) ??
        (declaration?.assignedMember ? ownerOf(lines, declaration) : containerName(symbol, parsed, parse)),
      range: o.range,
      enclosing: o.enclosing ?? syntacticExtent,
      enclosingSource: o.enclosing ? 'index' : syntacticExtent ? 'syntax' : null,
      parameters: declaration?.parameters ?? null,
      // What the import names, since what it imports is unknown: `from 'redux'`.
      signature: unresolvedModule ? unresolvedImportSignature(unresolvedModule) : signature,
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
        ...commonJsRelationships,
        ...assignedClass.relationships,
        ...subclassRelationships,
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
          // A base named by a module (`const Base = require('./base')`) is the class that module assigns whole.
          const target = isModuleSymbol(symbols[index]!) ? assignedClassOf(symbols[index]!) : symbols[index]!;
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
 * A member named by a string literal (`'content-type': …`, `'\u2028': …`), as
 * written, quotes and escapes included: scip-typescript's descriptor is that
 * text with a counter after it (`'content-type'0`), which no one wrote.
 */
function quotedNameInSource(lines: readonly string[], r: Range): string | undefined {
  if (r[0] !== r[2]) return undefined;
  const text = lines[r[0]]?.slice(r[1], r[3]);
  return text && /^(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")$/.test(text) ? text : undefined;
}

/** A computed member's name as written, brackets included (`[Symbol.iterator]`), as TypeScript names it. */
function computedNameInSource(lines: readonly string[], r: Range): string | undefined {
  if (r[0] !== r[2]) return undefined;
  const text = lines[r[0]]?.slice(r[1], r[3]);
  return text && /^\[[^\]]+\]$/.test(text) ? text : undefined;
}

/** `module.exports` where a module's own assignment to it is declared, not its `default` (defineAnonymousDefaults). */
function moduleExportsInSource(lines: readonly string[], r: Range): string | undefined {
  if (r[0] !== r[2]) return undefined;
  return moduleExportsWrittenAt(lines, r[0], r[1])?.length === r[3] - r[1] ? 'module.exports' : undefined;
}

/** A module's specifier (`'./m'` of an import or a require) is an import of it (MODULE_SPECIFIER). */
function markModuleSpecifiers(occurrences: Occurrence[], symbols: readonly string[], lines: readonly string[]): void {
  for (const o of occurrences) {
    if (o.roles & SymbolRole.Definition || o.range[0] !== o.range[2] || !isModuleSymbol(symbols[o.symbol]!)) continue;
    const quote = lines[o.range[0]]?.[o.range[1]];
    if (quote === "'" || quote === '"' || quote === '`') o.refKind = MODULE_SPECIFIER;
  }
}

/**
 * scip-typescript defines a module at the start of its file; TypeScript's
 * goToDefinition answers its first token, past the comments and blank lines
 * before it (a licence header, a JSDoc block of `@import` tags): the module
 * is defined there.
 */
function defineModulesAtFirstToken(occurrences: Occurrence[], symbols: readonly string[], lines: readonly string[]): void {
  let first: [number, number] | undefined;
  for (const o of occurrences) {
    if (!(o.roles & SymbolRole.Definition) || !isModuleSymbol(symbols[o.symbol]!)) continue;
    if (o.range[0] !== 0 || o.range[1] !== 0 || o.range[2] !== 0 || o.range[3] !== 0) continue;
    first ??= firstToken(lines);
    o.range = [first[0], first[1], first[0], first[1]];
  }
}

/** Where a script's first token is: past a leading `#!` line, white space and comments (the end of the text if none). */
function firstToken(lines: readonly string[]): [number, number] {
  let inComment = false;
  for (let line = 0; line < lines.length; line++) {
    const text = lines[line]!;
    let column = line === 0 && text.startsWith('#!') ? text.length : 0;
    while (column < text.length) {
      if (inComment) {
        const end = text.indexOf('*/', column);
        if (end < 0) break;
        inComment = false;
        column = end + 2;
      } else if (/\s/.test(text[column]!)) column++;
      else if (text.startsWith('//', column)) break;
      else if (text.startsWith('/*', column)) {
        inComment = true;
        column += 2;
      } else return [line, column];
    }
  }
  const last = Math.max(0, lines.length - 1);
  return [last, lines[last]?.length ?? 0];
}

/** The reference kind of the occurrence an alias adds. */
function aliasKind(alias: Alias): number {
  if (alias.call) return RefKindCode.call;
  if (alias.type) return RefKindCode.type;
  return alias.write ? RefKindCode.write : RefKindCode.identifier;
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
      occurrences.push(derivedOccurrence(alias.range, symbol, 0, aliasKind(alias)));
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
 * A class's or an object literal's method named by a computed name
 * (`[contA](response) {...}`, `[Symbol.iterator]() {...}`) is a function
 * TypeScript's call hierarchy names `[contA]` at its `[`, the caller of the
 * calls in it; scip-typescript records only the names inside the brackets
 * (`contA` as a use of the const), so those calls were the class's or the
 * module's. Each gets a definition at its brackets, of
 * the symbol scip-typescript gives its parameters' owner (`Frame#\`[contA]\`().`),
 * or, in a class the index gives a local (one declared in a function: immer's
 * `DraftMap`) and in an object literal (`{ [key]() {...} }`), a local of its
 * own. Returns the definitions added: methods.
 */
function defineComputedMethods(
  occurrences: Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  facts: SyntaxFacts,
  lines: readonly string[],
): Set<Occurrence> {
  const classes = classesOf(occurrences, symbols, facts, true);
  const done = new Set<string>();
  const added: Occurrence[] = [];
  for (const o of occurrences) {
    const [line, character] = o.range;
    const text = lines[line] ?? '';
    if (o.roles & SymbolRole.Definition || character === 0 || text[character - 1] !== '[' || done.has(`${line}:${character}`)) continue;
    done.add(`${line}:${character}`);
    const declaration = facts.declarationAt(line, character - 1);
    if (!declaration?.callable) continue;
    const close = text.indexOf(']', o.range[3]);
    if (o.range[2] !== line || close < 0) continue;
    // An object literal's computed member (`{ [key]() {...} }`) is no method of the class around the literal.
    const owner = declaration.member ? undefined : innermostClass(classes, line, character);
    if (!owner && !declaration.member) continue;
    const symbol =
      owner && !isLocalSymbol(owner.symbol)
        ? `${owner.symbol}${descriptorName(text.slice(character - 1, close + 1))}().`
        : unusedLocal(symbolIndex, 'computed-method');
    added.push(
      derivedOccurrence([line, character - 1, line, close + 1], internSymbol(symbols, symbolIndex, symbol), SymbolRole.Definition),
    );
  }
  occurrences.push(...added);
  return new Set(added);
}

/** A class of the file: its symbol and extent. */
interface ClassExtent {
  symbol: string;
  extent: Range;
}

/**
 * The file's classes the index names (a class's symbol ends with `#`), from
 * their definitions; with `local`, those it gives locals too.
 */
function classesOf(occurrences: readonly Occurrence[], symbols: readonly string[], facts: SyntaxFacts, local = false): ClassExtent[] {
  const classes: ClassExtent[] = [];
  for (const o of occurrences) {
    if ((o.roles & SymbolRole.Definition) === 0) continue;
    const declaration = facts.declarationAt(o.range[0], o.range[1]);
    const symbol = symbols[o.symbol]!;
    if (declaration?.isClass && (symbol.endsWith('#') || (local && isLocalSymbol(symbol))))
      classes.push({ symbol, extent: declaration.extent });
  }
  return classes;
}

/** The innermost class around a position: the one with the smallest extent that contains it. */
function innermostClass(classes: readonly ClassExtent[], line: number, character: number): ClassExtent | undefined {
  let owner: ClassExtent | undefined;
  for (const c of classes) {
    if (!rangeTouches(c.extent, line, character)) continue;
    if (!owner || rangeTouches(owner.extent, c.extent[0], c.extent[1])) owner = c;
  }
  return owner;
}

/**
 * What the syntax says a declaration is, where the index says nothing true:
 * a named function expression's local reads as a variable in the indexer's
 * signature (`var flow: ...`), and an anonymous default export has no symbol
 * information at all.
 */
function declaredKind(declaration: Declaration | undefined): SymbolKind | undefined {
  if (declaration?.namedExpression) return 'function';
  // A CommonJS export holds what it is assigned (a function has parameters), or is a method of `module.exports = {...}`.
  if (declaration?.commonJsExport) {
    if (declaration.member) return 'method';
    return declaration.parameters ? 'function' : declaration.isClass ? 'class' : undefined;
  }
  if (declaration?.assignedMember) return declaration.callable ? 'method' : 'property';
  // A class expression is a class (`module.exports = class Cursor {...}`, whose name prepare defines), whatever its symbol.
  if (!declaration?.anonymousDefault) return declaration?.isClass ? 'class' : undefined;
  return declaration.callable ? 'function' : declaration.isClass ? 'class' : 'variable';
}

const JAVASCRIPT = /\.[cm]?jsx?$/;

/**
 * In a CommonJS module, `exports.run = run` (or `module.exports.run = run`)
 * declares the export: TypeScript binds the name as a declaration of its own,
 * so its call hierarchy counts no call of `run` there. scip-typescript names
 * it with the function's symbol, as a written member access, which the call
 * hierarchy counts as a call (`x.handler = ...` names a method): such a name
 * is no member access, only a write.
 */
function unmarkExportAssignments(occurrences: Occurrence[], lines: readonly string[]): void {
  for (const o of occurrences) {
    if (o.refKind !== RefKindCode.write || !o.memberAccess || o.range[0] !== o.range[2]) continue;
    if (writtenAsExportsMember(lines, o.range[0], o.range[1])) o.memberAccess = false;
  }
}

/**
 * scip-typescript records `exports` of `exports.name = value` as a use of
 * what is assigned (the function `name` of `exports.name = name`). TypeScript
 * resolves it so too (goToDefinition at `exports` goes to the function), but
 * its findReferences does not list it: it names the function only
 * (NAMING_ONLY). The module's own symbol at `exports`, as in
 * `Object.defineProperty(exports, ...)`, stays a reference.
 */
function unlistExportsObjects(occurrences: Occurrence[], symbols: readonly string[], lines: readonly string[]): void {
  for (const o of occurrences) {
    const [line, start, endLine, end] = o.range;
    const text = lines[line] ?? '';
    if (
      line === endLine &&
      end - start === 'exports'.length &&
      (o.roles & SymbolRole.Definition) === 0 &&
      text.slice(start, end) === 'exports' &&
      !isModuleSymbol(symbols[o.symbol]!) &&
      /^\s*\.\s*[\w$]/.test(text.slice(end)) &&
      !/[\w$.]\s*$/.test(text.slice(0, start))
    )
      o.refKind = NAMING_ONLY;
  }
}

/**
 * `const m = require('./m')` binds the module, as `import * as m from './m'`
 * does. scip-typescript gives the namespace import's name the module's symbol,
 * and every use of `m` too, but defines a variable at the require's binding,
 * which nothing uses: goToDefinition there answered the name itself, where
 * TypeScript goes to the module. The binding becomes a use of the module, as
 * the namespace import's name is. (An unresolved module has no symbol: its
 * binding stays.) Where the module assigns its exports whole (`module.exports
 * = {...}`), the index gives each use of `m` a local that nothing defines (the
 * object's), and a use `m.name` one more: those uses of `m` become the
 * module's too, so that `m.name` reaches the module's export (linkModuleNames).
 */
function requireBindingsAsModules(occurrences: Occurrence[], symbols: readonly string[], lines: readonly string[]): void {
  const uses = new Map<number, number>();
  const defined = new Set<number>();
  for (const o of occurrences) {
    uses.set(o.symbol, (uses.get(o.symbol) ?? 0) + 1);
    if (o.roles & SymbolRole.Definition) defined.add(o.symbol);
  }
  const at = new Map<string, Occurrence>();
  for (const o of occurrences) if (isModuleSymbol(symbols[o.symbol]!)) at.set(`${o.range[0]}:${o.range[1]}`, o);
  const modules = new Map<string, number>();
  for (const o of occurrences) {
    const [line, start, endLine, end] = o.range;
    if (line !== endLine || !(o.roles & SymbolRole.Definition) || uses.get(o.symbol) !== 1) continue;
    const text = lines[line] ?? '';
    const required = REQUIRE_CALL.exec(text.slice(end));
    if (!required || !bindsName(lines, line, start)) continue;
    const module = at.get(`${line}:${end + required[1]!.length}`);
    if (!module) continue;
    o.symbol = module.symbol;
    o.roles = (o.roles & ~SymbolRole.Definition) | DERIVED_ROLE;
    o.refKind = RefKindCode.import;
    const name = text.slice(start, end);
    // Two bindings of one name to different modules: which one a use reads is the scopes' to say, not the text's.
    modules.set(name, modules.has(name) && modules.get(name) !== module.symbol ? -1 : module.symbol);
  }
  if (modules.size === 0) return;
  // A use the index also resolved (to the function of `module.exports = fn`) keeps that: its local is not the module.
  const resolved = resolvedRanges(occurrences, symbols);
  for (const o of occurrences) {
    const [line, start, endLine, end] = o.range;
    if (line !== endLine || o.memberAccess || defined.has(o.symbol) || !isLocalSymbol(symbols[o.symbol]!)) continue;
    if (resolved.has(o.range.join(':'))) continue;
    const module = modules.get((lines[line] ?? '').slice(start, end));
    if (module !== undefined && module >= 0) o.symbol = module;
  }
}

/**
 * The uses of a name a file binds renamed from a CommonJS module (`re` of
 * `const { safeRe: re } = require('./re')`, knex's `columnize: columnize_`):
 * the index gives them the export's symbol; they become RENAMED_CALL or
 * RENAMED_USE, the export's references only to the file that binds them.
 */
function markRenamedRequireUses(occurrences: Occurrence[], symbols: readonly string[], lines: readonly string[]): void {
  const renamed = new Set<string>();
  for (const o of occurrences) {
    const [line, start, endLine, end] = o.range;
    if (line !== endLine || !(o.roles & SymbolRole.Definition) || !isLocalSymbol(symbols[o.symbol]!)) continue;
    const text = lines[line] ?? '';
    const original = RENAMING_KEY.exec(text.slice(0, start))?.[1];
    const name = text.slice(start, end);
    if (original && original !== name && destructuresRequire(lines, line, end)) renamed.add(name);
  }
  if (renamed.size === 0) return;
  for (const o of occurrences) {
    const [line, start, endLine, end] = o.range;
    // Plain uses only: not a specifier, a doc link, a name that only names.
    if (line !== endLine || o.roles & SymbolRole.Definition || o.memberAccess || o.refKind > RefKindCode.write) continue;
    const symbol = symbols[o.symbol]!;
    const name = (lines[line] ?? '').slice(start, end);
    if (!renamed.has(name) || isLocalSymbol(symbol) || isModuleSymbol(symbol)) continue;
    o.refKind = o.refKind === RefKindCode.call ? RENAMED_CALL : RENAMED_USE;
  }
}

/** `original: ` right before a binding pattern's renamed name. */
const RENAMING_KEY = /([\p{L}\p{N}_$]+)\s*:\s*$/u;

/** Whether the binding pattern around (line, column) closes, a few lines on at most, with `} = require(`. */
function destructuresRequire(lines: readonly string[], line: number, column: number): boolean {
  for (let l = line, text = (lines[line] ?? '').slice(column); l < line + 30 && l < lines.length; text = lines[++l] ?? '') {
    const close = text.indexOf('}');
    if (close < 0) continue;
    const after = [text.slice(close + 1), lines[l + 1] ?? ''].join(' ');
    return /^\s*=\s*(?:\/\*(?:[^*]|\*(?!\/))*\*\/\s*)*require\s*\(/.test(after);
  }
  return false;
}

/**
 * What follows a name bound to a module by `= require('./m')`, the whole
 * initializer (not `= require('./m').name`), with block comments before
 * `require` (where bundlers write their `#__PURE__` annotation); group 1 runs
 * to the specifier.
 */
const REQUIRE_CALL = /^(\s*=\s*(?:\/\*(?:[^*]|\*(?!\/))*\*\/\s*)*require\s*\(\s*)(['"])[^'"]*\2\s*\)\s*(?:[;,]|\/[/*]|$)/;
/** What comes before a name a declaration binds: `const`, `let`, `var`, or the comma of a list. */
const BINDING_START = /(?:\b(?:const|let|var)|,)\s*$/;

/**
 * Whether the name at `start` of `line` is bound by a declaration, after what
 * BINDING_START matches, on its line or at the end of the line before it
 * (blank lines between): `var a = require('./a'),\n    b = require('./b')`.
 */
function bindsName(lines: readonly string[], line: number, start: number): boolean {
  const before = (lines[line] ?? '').slice(0, start);
  if (BINDING_START.test(before)) return true;
  if (before.trim() !== '') return false;
  for (let l = line - 1; l >= 0; l--) {
    const text = lines[l] ?? '';
    if (text.trim() !== '') return /,\s*$/.test(text);
  }
  return false;
}

/**
 * In JavaScript, `this.name = value` declares the property (TypeScript binds
 * each such assignment, in a constructor, a method or a constructor function,
 * as a declaration of it), but scip-typescript records the name as a use of a
 * local symbol of the file that nothing defines, so goToDefinition at
 * `this.name` found nothing. Each such assignment of a local no occurrence
 * defines becomes a definition of it. Where the index gives one name two
 * locals (a constructor function's `this`), the later are merged into the
 * first. But a class that assigns a property it inherits (`this.ready =
 * true`, where a base class declares `ready`) declares nothing: TypeScript
 * reads `this.ready` in that class as the base's property, and its
 * findReferences lists the assignment with the reads. Where the class's other
 * `this.name` all name one other symbol, the assignment is a write of that
 * one. Where the property is named as its class's member
 * (this-properties-patch.ts, `Item#parent.`), each plain assignment inside the
 * class declares it, unless the class declares it otherwise (a field): a
 * subclass's assignment is a write of the base's. Returns the occurrences
 * defined.
 */
function defineThisProperties(
  occurrences: Occurrence[],
  symbols: readonly string[],
  lines: readonly string[],
  facts: SyntaxFacts | undefined,
): Set<Occurrence> {
  const defined = new Set<number>();
  for (const o of occurrences) if (o.roles & SymbolRole.Definition) defined.add(o.symbol);
  const assigned = new Map<string, Occurrence[]>();
  for (const o of occurrences) {
    if (o.refKind !== RefKindCode.write || !o.memberAccess || defined.has(o.symbol) || !isLocalSymbol(symbols[o.symbol]!)) continue;
    if (!isThisAssignment(lines, o)) continue;
    const k = `${o.range[0]}:${o.range[1]}`;
    const list = assigned.get(k);
    if (list) list.push(o);
    else assigned.set(k, [o]);
  }
  const merged =
    facts && assigned.size > 0 ? inheritedThisProperties(occurrences, symbols, lines, facts, assigned) : new Map<number, number>();
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
  const classes = new Map<string, Range[]>();
  for (const o of occurrences) {
    if (!(o.roles & SymbolRole.Definition) || !o.enclosing || !symbols[o.symbol]!.endsWith('#')) continue;
    const extents = classes.get(symbols[o.symbol]!);
    if (extents) extents.push(o.enclosing);
    else classes.set(symbols[o.symbol]!, [o.enclosing]);
  }
  for (const o of occurrences) {
    if (o.refKind !== RefKindCode.write || !o.memberAccess || o.roles & SymbolRole.Definition || defined.has(o.symbol)) continue;
    const symbol = symbols[o.symbol]!;
    if (isLocalSymbol(symbol) || !CLASS_MEMBER.test(symbol) || !isThisAssignment(lines, o)) continue;
    const owner = symbol.slice(0, symbol.lastIndexOf('#') + 1);
    if (!classes.get(owner)?.some((extent) => rangeContains(extent, o.range))) continue;
    o.roles |= SymbolRole.Definition | DERIVED_ROLE;
    out.add(o);
  }
  return out;
}

/** A property `Object.defineProperty` declares: its name, and the name of the object it declares it on. */
interface DefinedProperty {
  name: string;
  owner: string;
}

/**
 * In a JavaScript file, `Object.defineProperty(WebSocket, 'OPEN', {...})`
 * declares a property of the object named first, to TypeScript:
 * goToDefinition at `WebSocket.OPEN` goes to `'OPEN'` (ws's ready states,
 * mongoose's schema types' options). scip-typescript gives the string and the
 * property's uses one local symbol, and defines it nowhere, so goToDefinition
 * found nothing. Each such string becomes a definition of its local, a
 * property of that object (of its class, through `X.prototype`). Returns them.
 */
function defineDefinedProperties(
  occurrences: Occurrence[],
  symbols: readonly string[],
  lines: readonly string[],
): Map<Occurrence, DefinedProperty> {
  const out = new Map<Occurrence, DefinedProperty>();
  for (const o of occurrences) {
    if (o.roles & SymbolRole.Definition || o.range[0] !== o.range[2] || !isLocalSymbol(symbols[o.symbol]!)) continue;
    const text = lines[o.range[0]] ?? '';
    const name = QUOTED_NAME.exec(text.slice(o.range[1], o.range[3]));
    const call = name && DEFINE_PROPERTY.exec(text.slice(0, o.range[1]));
    if (!call) continue;
    o.roles |= SymbolRole.Definition | DERIVED_ROLE;
    out.set(o, { name: name[2]!, owner: call[1]! });
  }
  return out;
}

/** A name in quotes, as a string literal spells it. */
const QUOTED_NAME = /^(['"])([\p{L}\p{N}_$]+)\1$/u;
/** `Object.defineProperty(X, ` or `Object.defineProperty(X.prototype, ` right before; group 1: `X`. */
const DEFINE_PROPERTY = /\bObject\s*\.\s*defineProperty\s*\(\s*([\p{L}\p{N}_$]+)(?:\s*\.\s*prototype)?\s*,\s*$/u;

/** A class member's symbol that is no method (`Item#parent.`). */
const CLASS_MEMBER = /#(?:[\w$]+|`(?:[^`]|``)+`)\.$/;

/** `name` of `this.name`, on one line. */
function isThisMember(lines: readonly string[], o: Occurrence): boolean {
  return o.range[0] === o.range[2] && /\bthis\s*\.\s*$/.test((lines[o.range[0]] ?? '').slice(0, o.range[1]));
}

/** `name` of `this.name = value`, a plain assignment (not `==`, `=>` or a compound one). */
function isThisAssignment(lines: readonly string[], o: Occurrence): boolean {
  return isThisMember(lines, o) && /^\s*=(?![=>])/.test((lines[o.range[0]] ?? '').slice(o.range[3]));
}

/**
 * Of the `this.name = ...` assignments (by position, see
 * defineThisProperties), those of a property the class around them reads as
 * another symbol (inherited): each assigned local mapped to that symbol; the
 * assignments are taken out of `assigned`, as they declare nothing.
 */
function inheritedThisProperties(
  occurrences: readonly Occurrence[],
  symbols: readonly string[],
  lines: readonly string[],
  facts: SyntaxFacts,
  assigned: Map<string, Occurrence[]>,
): Map<number, number> {
  const merged = new Map<number, number>();
  const classes = classesOf(occurrences, symbols, facts);
  if (classes.length === 0) return merged;
  const nameOf = (o: Occurrence) => (lines[o.range[0]] ?? '').slice(o.range[1], o.range[3]);
  // Every `this.name` of the file, read or written, by name.
  const thisNames = new Map<string, Occurrence[]>();
  for (const o of occurrences) {
    if (!o.memberAccess || !isThisMember(lines, o)) continue;
    const name = nameOf(o);
    const list = thisNames.get(name);
    if (list) list.push(o);
    else thisNames.set(name, [o]);
  }
  for (const [k, list] of assigned) {
    const first = list[0]!;
    const owner = innermostClass(classes, first.range[0], first.range[1]);
    if (!owner) continue;
    const own = new Set(list.map((o) => o.symbol));
    const named = new Set<number>();
    for (const o of thisNames.get(nameOf(first)) ?? []) {
      if (!own.has(o.symbol) && innermostClass(classes, o.range[0], o.range[1]) === owner) named.add(o.symbol);
    }
    if (named.size !== 1) continue;
    const [into] = named;
    for (const o of list) merged.set(o.symbol, into!);
    assigned.delete(k);
  }
  // The same local assigned elsewhere in the class is that property too.
  for (const [k, list] of assigned) if (merged.has(list[0]!.symbol)) assigned.delete(k);
  return merged;
}

/** The name written where a member's owner is (`A` of `A.m = ...`). */
function ownerOf(lines: readonly string[], declaration: Declaration): string | null {
  const owner = declaration.member?.owner;
  return (owner && nameWrittenAt(lines, owner[0], owner[1])) ?? null;
}

/** The text before an accessor's name: its `get` or `set` keyword (after `static` or nothing else that matters here). */
const ACCESSOR_KEYWORD = /\b[gs]et\s+$/;

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
    const declaration = facts.declarationAt(o.range[0], o.range[1]);
    const member = declaration?.member;
    if (!member) continue;
    // A local already renamed is the other accessor of a get/set pair, or a member of another literal that the index
    // gave the same local: in JavaScript, members of two literals passed where one parameter's inferred type is
    // expected (mocha's two `createWatcher(mocha, { beforeRun({ mocha }) {...} })`), which are two functions.
    const again = renamed.has(o.symbol);
    if (again && ACCESSOR_KEYWORD.test((lines[o.range[0]] ?? '').slice(0, o.range[1]))) {
      o.roles |= SymbolRole.Definition;
      continue;
    }
    // A member declared by assignment keeps the index's local: the uses in other files, each with a local of its own,
    // find it as the member of that name declared elsewhere (unnamed-members.ts), as they would not a global symbol.
    if (declaration.assignedMember) {
      if (isLocalSymbol(symbols[o.symbol]!)) {
        o.roles |= SymbolRole.Definition;
        defined.add(at);
      }
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
    // Renamed already (`again`), the local is now the first member's symbol: this one shares its references (both
    // implement the one property, as TypeScript's findReferences has it) without overriding it.
    if (isLocalSymbol(original)) {
      renameSymbol(symbols, symbolIndex, o.symbol, synthesized);
      renamed.add(o.symbol);
    } else {
      o.symbol = internSymbol(symbols, symbolIndex, synthesized);
      relationships.push({
        symbol: synthesized,
        target: original,
        isImplementation: !again,
        isReference: true,
        isTypeDefinition: false,
        isDefinition: false,
      });
    }
    o.roles |= SymbolRole.Definition;
    defined.add(at);
  }
  return relationships;
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
    if (!isObjectTypeName(name)) return name;
    owner = ownerSymbol(owner, ownerParsed);
  }
  return null;
}

/** A file's own namespace descriptor (`src/`x.ts`/`) is not a container worth naming. */
function isFileDescriptor(parsed: ParsedSymbol): boolean {
  const last = parsed.descriptors[parsed.descriptors.length - 1]!;
  return last.suffix === 'namespace' || (last.suffix === 'meta' && last.name === '__init__');
}

/**
 * Drops a use recorded twice, the same symbol at the same range in the same
 * role: scip-typescript records a JavaScript property's use once per
 * declaration of it, and an object literal's getter and setter are two (koa's
 * `this.url = ...`), so findReferences listed the use twice and a call
 * hierarchy counted it as two calls. Occurrences are sorted by position.
 */
function dropRepeatedUses(occurrences: Occurrence[]): void {
  let kept = 0;
  for (const o of occurrences) {
    let repeated = false;
    if (!(o.roles & SymbolRole.Definition)) {
      for (let j = kept - 1; j >= 0 && byPosition(occurrences[j]!, o) === 0; j--) {
        const p = occurrences[j]!;
        if (p.symbol === o.symbol && p.roles === o.roles) {
          repeated = true;
          break;
        }
      }
    }
    if (!repeated) occurrences[kept++] = o;
  }
  occurrences.length = kept;
}

function byPosition(a: Occurrence, b: Occurrence): number {
  return a.range[0] - b.range[0] || a.range[1] - b.range[1] || b.range[2] - a.range[2] || b.range[3] - a.range[3];
}
