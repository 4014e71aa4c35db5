// What prepare.ts derives for a class a JavaScript module assigns whole
// (`module.exports = class Cursor extends Base {...}`, the shape of many
// CommonJS libraries). scip-typescript gives the class, its methods and a
// subclass's `super.m()` locals, relates them to nothing, and defines the
// class nowhere: goToDefinition at the class found nothing, and a subclass's
// override shared none of the calls made through its base class. TypeScript
// binds such a class as the module's export, and its methods as members.
import { SymbolRole } from '../scip/schema.js';
import { rangeContains, type Range } from '../scip/range.js';
import { descriptorName, isLocalSymbol, isModuleSymbol } from '../scip/symbol.js';
import { DERIVED_ROLE, derivedOccurrence, RefKindCode, type Occurrence } from '../registry/payload.js';
import type { PreparedRelationship } from '../registry/writer.js';
import type { Declaration, SyntaxFacts } from '../syntax/facts.js';
import { internSymbol, nameInSource, renameOrMerge, renameSymbol } from './symbol-names.js';

/** What the module's class derives: relationships, and the container each member names (its class's name). */
export interface AssignedClass {
  relationships: PreparedRelationship[];
  containers: ReadonlyMap<string, string>;
}

export const NO_ASSIGNED_CLASS: AssignedClass = { relationships: [], containers: new Map() };

/**
 * The class of `module.exports = class Cursor {...}` whose assignment is
 * `assigned` (an occurrence of the module's export, `<module>default.`).
 * TypeScript declares the export at the class's name. The class becomes the
 * module's `<module>default#`, a name that depends on the module alone, so
 * that a subclass in another file, which knows its base only as a module
 * (`const Cursor = require('./cursor')`), names it; it is
 * defined at its name (its extent is the class's, as the parse declares it),
 * and the export is defined as it, for definitions only (TypeScript's
 * findReferences at `exports` does not list the class). Its methods become
 * `<module>default#name().`, named by the class's name as their container.
 * A static method is the module's member of its name as well. A class with
 * no name of its own that a chain of assignments gives the module (`exports =
 * module.exports = internals.Auth = class {...}`, hapi's style) is named by
 * the last name the chain assigns, and defined there.
 * Where it extends such a class of another module, or a class the index
 * resolved its base to, each method overrides the base's method of its name,
 * and `super.name` is that method.
 */
export function declareAssignedClass(
  occurrences: Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  facts: SyntaxFacts,
  lines: readonly string[],
  assigned: Occurrence,
  namespace: string,
): AssignedClass {
  const [line, start, , end] = assigned.range;
  const written = ASSIGNED_CLASS.exec(lines[line]?.slice(end) ?? '');
  // The class's own name, else the last name the chain assigns it to (`internals.Auth = class {...}`).
  const at = written?.indices?.[2] ?? written?.indices?.[1];
  if (!written || !at) return NO_ASSIGNED_CLASS;
  const className = (written[2] ?? written[1])!;
  const character = end + at[0];
  const range: Range = [line, character, line, character + className.length];
  const symbol = `${namespace}default#`;
  if (symbolIndex.has(symbol)) return NO_ASSIGNED_CLASS;
  const name = occurrences.find((o) => o.range[0] === line && o.range[1] === character && o.range[3] === range[3]);
  const defined = new Set<number>();
  for (const o of occurrences) if (o.roles & SymbolRole.Definition) defined.add(o.symbol);
  if (name) {
    if (!isLocalSymbol(symbols[name.symbol]!) || defined.has(name.symbol)) return NO_ASSIGNED_CLASS;
    renameSymbol(symbols, symbolIndex, name.symbol, symbol);
    name.roles |= SymbolRole.Definition | DERIVED_ROLE;
  } else if (written[2]) {
    return NO_ASSIGNED_CLASS;
  } else {
    // The index may record no occurrence of the name a chain assigns (`internals.Auth`, with `internals` a literal).
    occurrences.push(derivedOccurrence(range, internSymbol(symbols, symbolIndex, symbol), SymbolRole.Definition));
  }
  assigned.roles &= ~SymbolRole.Definition;
  const relationships: PreparedRelationship[] = [
    {
      symbol: symbols[assigned.symbol]!,
      target: symbol,
      isImplementation: false,
      isReference: false,
      isTypeDefinition: false,
      isDefinition: true,
    },
  ];
  const containers = new Map<string, string>();
  // An anonymous class's extent is the assignment's (`module.exports = ... = class {...}`, declared at `module`).
  const declaration = facts.declarationAt(line, character) ?? (written[2] ? undefined : facts.declarationAt(line, start));
  if (!declaration) return { relationships, containers };
  const base = baseClass(declaration, occurrences, symbols, true);
  for (const member of methods(occurrences, symbols, facts, declaration.extent)) {
    const memberName = nameInSource(lines, member.range);
    if (!memberName || memberName === 'constructor') continue;
    const memberSymbol = `${symbol}${descriptorName(memberName)}().`;
    renameOrMerge(occurrences, symbols, symbolIndex, member.symbol, memberSymbol);
    containers.set(memberSymbol, className);
    // A static member is the module's too: an importer's `Named.create(...)` names `<module>create.`. But not one
    // named `default` (koa's `static get default()`): `<module>default.` is what the module assigns, the class
    // itself, as every `import App from` and `require` of it names it.
    if (memberName !== 'default' && facts.declarationAt(member.range[0], member.range[1])?.isStatic)
      relationships.push(standsFor(`${namespace}${descriptorName(memberName)}.`, memberSymbol));
    if (base) relationships.push(overriding(memberSymbol, base, memberName));
  }
  if (base) inheritedMembers(occurrences, symbols, symbolIndex, lines, declaration.extent, defined, base);
  return { relationships, containers };
}

/**
 * A class declared by name that extends the class another module assigns
 * whole (`class DumpHandler extends DecoratorHandler`, with
 * `const DecoratorHandler = require('./decorator-handler')`, undici's
 * handlers). scip-typescript names its methods but relates them to nothing
 * (the base's are locals of their file), and gives its `super.name` a local
 * nothing defines. As TypeScript relates them, each method overrides the
 * base's method of its name, and `super.name` is that method.
 */
export function relateSubclassMethods(
  occurrences: readonly Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  facts: SyntaxFacts,
  lines: readonly string[],
): PreparedRelationship[] {
  const relationships: PreparedRelationship[] = [];
  const defined = new Set<number>();
  for (const o of occurrences) if (o.roles & SymbolRole.Definition) defined.add(o.symbol);
  for (const o of occurrences) {
    const classSymbol = symbols[o.symbol]!;
    if (!(o.roles & SymbolRole.Definition) || !classSymbol.endsWith('#') || isLocalSymbol(classSymbol)) continue;
    const declaration = facts.declarationAt(o.range[0], o.range[1]);
    // A base the index resolved to a class is related by the index already.
    const base = declaration && baseClass(declaration, occurrences, symbols, false);
    if (!base || base === classSymbol) continue;
    for (const m of occurrences) {
      const memberSymbol = symbols[m.symbol]!;
      if (!(m.roles & SymbolRole.Definition) || !rangeContains(declaration.extent, m.range)) continue;
      if (!memberSymbol.startsWith(classSymbol) || !METHOD_DESCRIPTOR.test(memberSymbol.slice(classSymbol.length))) continue;
      const memberName = nameInSource(lines, m.range);
      // A constructor overrides nothing; a private method (`#fail`) is its class's alone.
      if (!memberName || memberName === 'constructor' || memberName.startsWith('#')) continue;
      relationships.push(overriding(memberSymbol, base, memberName));
    }
    inheritedMembers(occurrences, symbols, symbolIndex, lines, declaration.extent, defined, base);
  }
  return relationships;
}

/** A method's own descriptor, directly of its class (`next().`, `` `a-b`(). ``), not a member of something in it. */
const METHOD_DESCRIPTOR = /^(?:[\w$+-]+|`(?:[^`]|``)+`)\(\)\.$/;

/**
 * After `module.exports`: `= class Name`, or `= exports = a.b = class` (a
 * chain of assignments, hapi's `exports = module.exports = internals.Auth =
 * class {` and joi's `module.exports = exports = internals.Template = class
 * {`), with the member the chain's last target assigns (group 1: `Auth`, none
 * for a plain name such as `exports`) and the class's own name (group 2).
 */
const ASSIGNED_CLASS = /^\s*=\s*(?:[\p{L}\p{N}_$]+(?:\s*\.\s*([\p{L}\p{N}_$]+))*\s*=\s*)*class\b(?:\s+(?!extends\b)([\p{L}\p{N}_$]+))?/du;

/** `symbol` stands for `target`, as a merged declaration does: each is a definition and a reference of the other. */
export function standsFor(symbol: string, target: string): PreparedRelationship {
  return { symbol, target, isImplementation: false, isReference: true, isTypeDefinition: false, isDefinition: true };
}

/** The method `memberSymbol` (named `memberName`) overrides the base class's method of that name. */
function overriding(memberSymbol: string, base: string, memberName: string): PreparedRelationship {
  return {
    symbol: memberSymbol,
    target: `${base}${descriptorName(memberName)}().`,
    isImplementation: true,
    isReference: true,
    isTypeDefinition: false,
    isDefinition: false,
  };
}

/** The class a module assigns whole, for the module a class's `extends` names (a `require` binding of it). */
export function assignedClassOf(moduleSymbol: string): string {
  return `${moduleSymbol}default#`;
}

/**
 * The base class, where the class extends a name for a module (`const Base =
 * require('./base')`): the class that module assigns whole. With `named`, also
 * where the index resolved the name to a class (the module assigns a class
 * declared by name, `module.exports = Transaction`, knex's style).
 */
function baseClass(
  declaration: Declaration,
  occurrences: readonly Occurrence[],
  symbols: readonly string[],
  named: boolean,
): string | undefined {
  const [heritage] = declaration.heritage;
  if (!heritage || declaration.heritage.length !== 1) return undefined;
  const at = occurrences.filter((o) => o.range[0] === heritage[0] && o.range[1] === heritage[1]).map((o) => symbols[o.symbol]!);
  // The index's class first: a use it resolved also carries the module's symbol (see requireBindingsAsModules).
  const resolved = at.find((s) => s.endsWith('#') && !isLocalSymbol(s));
  if (resolved) return named ? resolved : undefined;
  const module = at.find(isModuleSymbol);
  return module && assignedClassOf(module);
}

/** The class's own methods: local definitions of functions directly in its body (not in one of its methods). */
function methods(occurrences: readonly Occurrence[], symbols: readonly string[], facts: SyntaxFacts, extent: Range): Occurrence[] {
  const found: { o: Occurrence; extent: Range }[] = [];
  for (const o of occurrences) {
    if (!(o.roles & SymbolRole.Definition) || !isLocalSymbol(symbols[o.symbol]!) || !rangeContains(extent, o.range)) continue;
    const declared = facts.declarationAt(o.range[0], o.range[1]);
    if (declared?.callable) found.push({ o, extent: declared.extent });
  }
  return found.filter((m) => !found.some((other) => other !== m && rangeContains(other.extent, m.extent))).map((m) => m.o);
}

/**
 * `super.name` and a call `this.name(...)` in the class's methods, which
 * scip-typescript gives a local nothing defines where the class does not
 * declare `name` itself (`this.skip()` of a subclass that inherits `skip`):
 * the base's method. (A use of the class's own member is resolved by the
 * index; a read `this.name` may be a property the base assigns: see
 * navigation/inherited-members.ts.)
 */
function inheritedMembers(
  occurrences: readonly Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  lines: readonly string[],
  extent: Range,
  defined: ReadonlySet<number>,
  base: string,
): void {
  for (const o of occurrences) {
    const [line, start] = o.range;
    if (defined.has(o.symbol) || !isLocalSymbol(symbols[o.symbol]!) || !rangeContains(extent, o.range)) continue;
    const before = lines[line]?.slice(0, start) ?? '';
    if (!SUPER_MEMBER.test(before) && !(o.refKind === RefKindCode.call && THIS_MEMBER.test(before))) continue;
    const name = nameInSource(lines, o.range);
    if (name && !name.startsWith('#')) o.symbol = internSymbol(symbols, symbolIndex, `${base}${descriptorName(name)}().`);
  }
}

const SUPER_MEMBER = /\bsuper\s*\.\s*$/;
const THIS_MEMBER = /(?<![\w$.])this\s*\.\s*$/;
