// Symbols that answer together. A SCIP index names each entity once, but a
// person asking about one of them means more:
// - an override and what it overrides share references (is_reference
//   relationships), followed transitively so that siblings implementing the
//   same interface method are found too, as a language server does;
// - a class is used wherever `new X()` calls its constructor (scip-typescript
//   puts such calls on the constructor), and a constructor call site is a use
//   of the class for a definition request; a constructor's own references stay
//   its calls;
// - TypeScript merges declarations of one name (an interface and a const,
//   a namespace and a function): each is a definition of the other.
// - a class's accessor answers with the member of that name of each supertype
//   the class implements or extends (`get size()` of a class implementing
//   Set): scip-typescript relates a class's methods and properties to those
//   members, but not its accessors. A static accessor does not: it is the
//   class's own.
// - a getter and a setter of one name declare one property: each is a
//   definition of the other, and findReferences lists both declarations
//   (scip-typescript names them apart).
// - a class's member answers with the member of that name of each type alias
//   of an object type the class implements (`class C implements T` with
//   `type T = { m(): void }`), and the alias's member with the classes'
//   members: scip-typescript relates a class's members to an interface's, not
//   to a type literal's (`T#typeLiteral1:m.`).
// - a method named as one of Object's (`toString`) of a type that extends or
//   implements another, where no supertype declares it, answers with
//   Object's and with every other such method (see objectMemberRelatives).
// - a name written directly in a module's default export (`make` and
//   `getLength` of `export default make(getLength)`) answers with that export:
//   its uses are references and calls of the name, as TypeScript counts them
//   (it takes the export for one of the name); not the other way round.
import type { DefinitionRow, Lookups } from '../registry/lookups.js';
import { isLocalSymbol, parseSymbol } from '../scip/symbol.js';

const CONSTRUCTOR = '`<constructor>`().';
const PYTHON_CONSTRUCTOR = '__init__().';
/** Rounds of the is_reference closure: inheritance chains are shallow, and this bounds a pathological index. */
const MAX_ROUNDS = 8;

export interface ReferenceFamily {
  symbols: string[];
  /** Members whose declarations are not references of the family (a class's constructor: only its uses count). */
  usesOnly: ReadonlySet<string>;
  /** Members of which only calls count (a constructor's class: `super(...)`, Python's `Circle(...)`). */
  callsOnly: ReadonlySet<string>;
}

/** `symbols` and every symbol whose references count as theirs. */
export async function referenceFamily(lookups: Lookups, indexIds: readonly number[], symbols: readonly string[]): Promise<ReferenceFamily> {
  return (await referenceFamilies(lookups, indexIds, [symbols]))[0]!;
}

/**
 * `referenceFamily` of each list of symbols, with one query per round of the
 * closure for all of them: a call hierarchy asks for the families of every
 * caller of a level at once.
 */
export async function referenceFamilies(
  lookups: Lookups,
  indexIds: readonly number[],
  lists: readonly (readonly string[])[],
): Promise<ReferenceFamily[]> {
  const families = lists.map((symbols) => {
    const family = new Set(symbols.filter((s) => !isLocalSymbol(s)));
    const usesOnly = new Set<string>();
    const callsOnly = new Set<string>();
    for (const s of [...family]) {
      if (s.endsWith('#') && !family.has(s + CONSTRUCTOR)) {
        family.add(s + CONSTRUCTOR);
        usesOnly.add(s + CONSTRUCTOR);
      }
      // A constructor is called wherever its class is: `super(...)` and, in Python, `Circle(...)`.
      const owner = constructorClass(s);
      if (owner && !family.has(owner)) {
        family.add(owner);
        callsOnly.add(owner);
      }
    }
    return { family, usesOnly, callsOnly, frontier: [...family] };
  });
  const accessors = [...new Set(families.flatMap((f) => f.frontier.filter((s) => ACCESSOR.test(s))))];
  const members = [...new Set(families.flatMap((f) => f.frontier.filter((s) => implementingName(s) !== undefined)))];
  const targets = new Map<string, string[]>();
  if (accessors.length > 0) for (const [s, t] of await accessorTargets(lookups, indexIds, accessors)) targets.set(s, t);
  if (members.length > 0) {
    for (const [s, t] of await literalMemberTargets(lookups, indexIds, members)) targets.set(s, [...(targets.get(s) ?? []), ...t]);
  }
  const aliasMembers = [...new Set(families.flatMap((f) => f.frontier.filter((s) => aliasMember(s) !== undefined)))];
  if (aliasMembers.length > 0) {
    for (const [s, t] of await aliasMemberImplementers(lookups, indexIds, aliasMembers)) targets.set(s, [...(targets.get(s) ?? []), ...t]);
  }
  if (targets.size > 0) {
    for (const f of families) {
      for (const s of [...f.frontier]) {
        for (const t of targets.get(s) ?? []) {
          if (f.family.has(t)) continue;
          f.family.add(t);
          f.frontier.push(t);
        }
      }
    }
  }
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const asked = [...new Set(families.flatMap((f) => f.frontier))];
    if (asked.length === 0) break;
    const [relatives, exported] = await Promise.all([lookups.referenceRelated(indexIds, asked), lookups.exportsOf(indexIds, asked)]);
    const related = byFrom(relatives);
    const exports = byFrom(exported);
    for (const f of families) {
      const next: string[] = [];
      for (const s of f.frontier) {
        for (const t of related.get(s) ?? []) {
          // A local is its document's alone, but the index relates a method to the local of a base in another file
          // (`module.exports = class Cursor {...}`'s): followed, `local 3` would bridge to every file's `local 3`.
          if (!f.family.has(t) && !isLocalSymbol(t)) {
            f.family.add(t);
            next.push(t);
          }
        }
        // A default export of the symbol (`export default make('length')` of `make`): its uses are the symbol's, not
        // its declaration (its `default`), and not the other way round.
        for (const t of exports.get(s) ?? []) {
          if (f.family.has(t)) continue;
          f.family.add(t);
          f.usesOnly.add(t);
          next.push(t);
        }
      }
      f.frontier = next;
    }
  }
  const overriding = await overridingAccessors(lookups, indexIds, [...new Set(families.flatMap((f) => [...f.family]))]);
  for (const f of families) for (const s of [...f.family]) for (const t of overriding.get(s) ?? []) f.family.add(t);
  const objectMembers = await objectMemberRelatives(
    lookups,
    indexIds,
    families.map((f) => f.family),
  );
  for (const f of families) {
    for (const relatives of objectMembers) {
      if (relatives.some((s) => f.family.has(s))) for (const s of relatives) f.family.add(s);
    }
  }
  return families.map((f) => ({ symbols: [...f.family], usesOnly: f.usesOnly, callsOnly: f.callsOnly }));
}

/** Pairs grouped by `from`. */
function byFrom(pairs: readonly { from: string; symbol: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { from, symbol } of pairs) {
    const list = out.get(from);
    if (list) list.push(symbol);
    else out.set(from, [symbol]);
  }
  return out;
}

/**
 * For each property or accessor of a type among `symbols`, the accessors of
 * its name in the types that extend or implement it (ajv's `get names()` in
 * each node class, under the base's `abstract readonly names`): TypeScript
 * counts every override of a member as that member, but scip-typescript
 * relates no accessor to what it overrides (see accessorTargets), so the
 * is_reference closure reaches them from no side. Static accessors are the
 * class's own and stay out.
 */
async function overridingAccessors(
  lookups: Lookups,
  indexIds: readonly number[],
  symbols: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const properties = symbols.filter((s) => (ACCESSOR.test(s) || !s.endsWith('().')) && memberName(s) !== undefined);
  const owners = [...new Set(properties.map((s) => memberName(s)!.owner))];
  if (owners.length === 0) return out;
  const subtypes = new Map(await Promise.all(owners.map(async (o) => [o, await lookups.subtypesOf(indexIds, [o])] as const)));
  const candidates = new Map<string, string[]>();
  for (const s of properties) {
    const { owner, name } = memberName(s)!;
    const accessors = (subtypes.get(owner) ?? [])
      .filter((t) => t.endsWith('#'))
      .flatMap((t) => [`${t}\`<get>${name}\`().`, `${t}\`<set>${name}\`().`]);
    if (accessors.length > 0) candidates.set(s, accessors);
  }
  if (candidates.size === 0) return out;
  // Only accessors the index defines as instance members: a candidate of no definition would be listed for nothing.
  const definitions = await lookups.definitionsOf(indexIds, [...new Set([...candidates.values()].flat())]);
  const instance = new Set(definitions.filter((d) => !isStaticMember(d)).map((d) => d.symbol));
  for (const [s, accessors] of candidates) {
    const found = accessors.filter((a) => instance.has(a));
    if (found.length > 0) out.set(s, found);
  }
  return out;
}

/** Object's methods, which every object type has (TypeScript's apparent members of any object type). */
const OBJECT_METHODS = new Set(['toString', 'toLocaleString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable']);
/** One of them as scip-typescript names it in TypeScript's standard library (any TypeScript version). */
const LIBRARY_OBJECT_METHOD = /^scip-typescript npm typescript \S+ lib\/`lib\.es5\.d\.ts`\/Object#(\w+)\(\)\.$/;

/**
 * For each of Object's methods a family holds, or a method of its name: the
 * group TypeScript relates (its findReferences and call hierarchy): Object's
 * method itself, and each method of that name of a class or interface that
 * extends or implements a type, where none of its supertypes declares it.
 * TypeScript looks a member up in each supertype its declaration names, and a
 * lookup there that finds nothing finds Object's (every object type has its
 * members): mongoose's `ValidatorError#toString`, under `MongooseError`
 * under `Error`, is related to `Object#toString`, to the `toString` of its
 * sibling error classes, and to calls of `obj.toString()` where `obj` is an
 * `object`. scip-typescript relates an override only to a member a supertype
 * declares, so a method it relates to none is one that finds Object's. A
 * class that names no supertype is not looked up so, nor is a static member
 * (a member of the class, not of its instances).
 */
async function objectMemberRelatives(lookups: Lookups, indexIds: readonly number[], families: readonly Set<string>[]): Promise<string[][]> {
  const names = new Set<string>();
  for (const family of families) {
    for (const s of family) {
      const object = LIBRARY_OBJECT_METHOD.exec(s);
      const member = object ? undefined : memberName(s);
      const name = object?.[1] ?? (s.endsWith('().') && !ACCESSOR.test(s) ? member?.name : undefined);
      if (name !== undefined && OBJECT_METHODS.has(name)) names.add(name);
    }
  }
  const out: string[][] = [];
  for (const name of names) {
    const methods = (await Promise.all(indexIds.map((id) => lookups.definitionsNamed(id, name))))
      .flat()
      .filter((d) => d.kind === 'method' && !isStaticMember(d) && d.symbol.endsWith(`#${name}().`) && memberName(d.symbol) !== undefined)
      .map((d) => d.symbol);
    const candidates = [...new Set(methods)];
    const owners = [...new Set(candidates.map((m) => memberName(m)!.owner))];
    const withSupertypes = new Set((await lookups.supertypePairs(indexIds, owners)).map((p) => p.from));
    const overriding = new Set((await lookups.referenceRelated(indexIds, candidates)).map((p) => p.from));
    const group = candidates.filter((m) => withSupertypes.has(memberName(m)!.owner) && !overriding.has(m));
    out.push([...(await lookups.libraryObjectMembers(name)), ...group]);
  }
  return out;
}

/** A class's accessor as scip-typescript names it: the class, `get` or `set`, and the (escaped) name. */
const ACCESSOR = /^(.*#)`<([gs]et)>((?:[^`]|``)+)`\(\)\.$/;

/**
 * The other accessor of a getter's or setter's pair (`<get>x` and `<set>x`):
 * to TypeScript both declare one property, and each declaration is a
 * definition and a reference of the other; scip-typescript names them apart,
 * and gives both only to the property's uses.
 */
export function accessorSibling(symbol: string): string | undefined {
  const accessor = ACCESSOR.exec(symbol);
  return accessor ? `${accessor[1]}\`<${accessor[2] === 'get' ? 'set' : 'get'}>${accessor[3]}\`().` : undefined;
}

/**
 * For each accessor, the members it implements or overrides: in each
 * supertype its class's relationships name (scip-typescript lists them all,
 * transitively), the property of its name (`Set#size.`) and the accessor of
 * its kind (a base class's getter), where the supertype declares them.
 */
async function accessorTargets(
  lookups: Lookups,
  indexIds: readonly number[],
  accessors: readonly string[],
): Promise<Map<string, string[]>> {
  const supertypes = new Map<string, Promise<string[]>>();
  // A static accessor is a member of the class itself, not of its instances: it implements or overrides no
  // supertype's member, as TypeScript relates them (a read of an instance's `type` does not run `static get type()`).
  const staticOnly = staticOnlyOf(await lookups.definitionsOf(indexIds, accessors));
  const candidates = new Map<string, { supertype: string; members: string[] }[]>();
  for (const accessor of accessors) {
    if (staticOnly.has(accessor)) continue;
    const [, owner, kind, escaped] = ACCESSOR.exec(accessor)!;
    let ancestors = supertypes.get(owner!);
    if (!ancestors) supertypes.set(owner!, (ancestors = lookups.supertypesOf(indexIds, [owner!])));
    const property = /^[\w$+-]+$/.test(escaped!) ? `${escaped}.` : `\`${escaped}\`.`;
    candidates.set(
      accessor,
      (await ancestors)
        .filter((t) => t.endsWith('#'))
        .map((t) => ({ supertype: t, members: [t + property, `${t}\`<${kind}>${escaped}\`().`] })),
    );
  }
  // A supertype the index defines has the members it declares: one that declares none of the accessor's name is
  // not implemented by it (and through it, overridingAccessors would relate the accessors of that name of every
  // class implementing it, tanstack form's FieldApi and FormGroupApi under FieldLikeAPI). A library's (`Set`) is
  // not defined here, and its member is taken as named.
  const asked = [...new Set([...candidates.values()].flat().flatMap((c) => [c.supertype, ...c.members]))];
  const defined = new Set(asked.length ? (await lookups.definitionsOf(indexIds, asked)).map((d) => d.symbol) : []);
  const out = new Map<string, string[]>();
  for (const [accessor, of] of candidates) {
    out.set(
      accessor,
      of.flatMap((c) => (defined.has(c.supertype) ? c.members.filter((m) => defined.has(m)) : c.members)),
    );
  }
  return out;
}

/** Whether a definition is a static member: scip-typescript's signature of one starts with the keyword. */
export const isStaticMember = (d: DefinitionRow): boolean => d.signature?.startsWith('static ') === true;

/** The members of these definitions that are static only: no definition of theirs is an instance member's. */
function staticOnlyOf(definitions: readonly DefinitionRow[]): Set<string> {
  const instanceMembers = new Set(definitions.filter((d) => !isStaticMember(d)).map((d) => d.symbol));
  return new Set(definitions.map((d) => d.symbol).filter((s) => !instanceMembers.has(s)));
}

/** Whether a constructor parameter's definition is a parameter property's, a member of its class (`(property) node: Node`). */
const isParameterProperty = (d: DefinitionRow): boolean => d.signature?.startsWith('(property) ') === true;

/** A TypeScript class member's owner (`C#`) and name: a method `C#m().`, a property `C#m.` or an accessor; undefined for anything else. */
function memberName(symbol: string): { owner: string; name: string } | undefined {
  if (!symbol.startsWith('scip-typescript ')) return undefined;
  const accessor = ACCESSOR.exec(symbol);
  if (accessor) return /^[\w$]+$/.test(accessor[3]!) ? { owner: accessor[1]!, name: accessor[3]! } : undefined;
  const member = /^(.+#)([\w$]+)(?:\(\))?\.$/.exec(symbol);
  return member && !isLocalSymbol(symbol) ? { owner: member[1]!, name: member[2]! } : undefined;
}

/** A constructor's parameter (`C#`<constructor>`().(node)`): its class and name, a member of the class where it is a parameter property. */
const CONSTRUCTOR_PARAMETER = /^(.+#)`<constructor>`\(\)\.\(([\w$]+)\)$/;

/** The owner and name of what may implement a type alias's member: a class member, or a constructor's parameter. */
function implementingName(symbol: string): { owner: string; name: string } | undefined {
  const parameter = symbol.startsWith('scip-typescript ') ? CONSTRUCTOR_PARAMETER.exec(symbol) : null;
  return parameter ? { owner: parameter[1]!, name: parameter[2]! } : memberName(symbol);
}

/**
 * For each class member, the member of its name in each type alias of an
 * object type its class implements (`T#typeLiteral1:m.`, `T#typeLiteral1:m().`).
 * A constructor's parameter property (`constructor(readonly node: Node)`,
 * which scip-typescript names as the parameter it also is) is such a member;
 * a plain parameter is not. Asked in one query for all the classes first: most
 * implement no type alias, and then that is all it costs.
 */
async function literalMemberTargets(
  lookups: Lookups,
  indexIds: readonly number[],
  members: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const owners = [...new Set(members.map((m) => implementingName(m)!.owner))];
  const supertypes = await lookups.supertypesOf(indexIds, owners);
  if (supertypes.length === 0) return out;
  const aliases = new Set((await lookups.definitionsOf(indexIds, supertypes)).filter((d) => d.kind === 'type').map((d) => d.symbol));
  if (aliases.size === 0) return out;
  const definitions = await lookups.definitionsOf(indexIds, members);
  // A static member is the class's own: it implements nothing of its instances' type (see accessorTargets).
  const staticOnly = staticOnlyOf(definitions);
  const parameterProperties = new Set(definitions.filter(isParameterProperty).map((d) => d.symbol));
  const ancestorsOf = new Map<string, string[]>();
  const named = new Map<string, DefinitionRow[]>();
  for (const member of members) {
    if (staticOnly.has(member)) continue;
    if (memberName(member) === undefined && !parameterProperties.has(member)) continue;
    const { owner, name } = implementingName(member)!;
    let ancestors = ancestorsOf.get(owner);
    if (!ancestors) {
      ancestors = owners.length === 1 ? supertypes : await lookups.supertypesOf(indexIds, [owner]);
      ancestors = ancestors.filter((t) => aliases.has(t));
      ancestorsOf.set(owner, ancestors);
    }
    if (ancestors.length === 0) continue;
    let rows = named.get(name);
    if (!rows) {
      rows = (await Promise.all(indexIds.map((id) => lookups.definitionsNamed(id, name)))).flat();
      named.set(name, rows);
    }
    const targets = rows
      .map((d) => d.symbol)
      .filter((t) => {
        const target = aliasMember(t);
        return target !== undefined && target.name === name && ancestors.includes(target.alias);
      });
    if (targets.length > 0) out.set(member, [...new Set(targets)]);
  }
  return out;
}

/** A member of a type alias's object type (`T#typeLiteral1:m.`, `T#typeLiteral1:m().`): the alias (`T#`) and the name. */
const ALIAS_MEMBER = /^(.+#)typeLiteral\d+:([\w$]+)(?:\(\))?\.$/;

function aliasMember(symbol: string): { alias: string; name: string } | undefined {
  const member = symbol.startsWith('scip-typescript ') ? ALIAS_MEMBER.exec(symbol) : null;
  return member ? { alias: member[1]!, name: member[2]! } : undefined;
}

/**
 * For each member of a type alias's object type, the members of its name of
 * the classes that implement the alias: literalMemberTargets the other way
 * round, as TypeScript's findReferences at the alias's member lists them.
 */
async function aliasMemberImplementers(
  lookups: Lookups,
  indexIds: readonly number[],
  members: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const classesOf = new Map<string, string[]>();
  const candidates = new Map<string, string[]>();
  for (const member of members) {
    const { alias, name } = aliasMember(member)!;
    let classes = classesOf.get(alias);
    if (!classes) {
      classes = (await lookups.subtypesOf(indexIds, [alias])).filter((t) => t.endsWith('#'));
      classesOf.set(alias, classes);
    }
    // The forms a class member of that name takes: property, method, accessors, a constructor's parameter property.
    const forms = classes.flatMap((c) => [
      `${c}${name}.`,
      `${c}${name}().`,
      `${c}\`<get>${name}\`().`,
      `${c}\`<set>${name}\`().`,
      `${c}${CONSTRUCTOR}(${name})`,
    ]);
    if (forms.length > 0) candidates.set(member, forms);
  }
  if (candidates.size === 0) return out;
  const defined = await lookups.definitionsOf(indexIds, [...new Set([...candidates.values()].flat())]);
  // A static member is the class's own, and a plain constructor parameter no member at all.
  const implementing = new Set(
    defined.filter((d) => !isStaticMember(d) && (!CONSTRUCTOR_PARAMETER.test(d.symbol) || isParameterProperty(d))).map((d) => d.symbol),
  );
  for (const [member, forms] of candidates) {
    const found = forms.filter((f) => implementing.has(f));
    if (found.length > 0) out.set(member, found);
  }
  return out;
}

/**
 * Other symbols whose definitions a definition request should return, for a
 * symbol found at the request's position (`isDeclaration` when the position is
 * one of its own declarations).
 */
export function definitionPartners(symbol: string, isDeclaration: boolean, called: boolean): string[] {
  if (isLocalSymbol(symbol)) return [];
  const sibling = accessorSibling(symbol);
  return [...(isDeclaration ? [] : classOfConstructorCall(symbol)), ...mergedDeclarations(symbol, called), ...(sibling ? [sibling] : [])];
}

/** The class a constructor symbol belongs to: TypeScript's `C#\`<constructor>\`().`, Python's `C#__init__().`. */
function constructorClass(symbol: string): string | undefined {
  if (symbol.endsWith(CONSTRUCTOR)) return symbol.slice(0, -CONSTRUCTOR.length);
  if (symbol.endsWith('#' + PYTHON_CONSTRUCTOR)) return symbol.slice(0, -PYTHON_CONSTRUCTOR.length);
  return undefined;
}

/** The symbols a type's constructor may have, in either language (none for what is not a type). */
export function constructorsOf(symbol: string): string[] {
  return symbol.endsWith('#') ? [symbol + CONSTRUCTOR, symbol + PYTHON_CONSTRUCTOR] : [];
}

/** For a constructor found at a call site (`new X()`, a use of the class X as much as a call), the class. */
export function classOfConstructorCall(symbol: string): string[] {
  return symbol.endsWith(CONSTRUCTOR) ? [symbol.slice(0, -CONSTRUCTOR.length)] : [];
}

/**
 * At `new X(...)` of a class merged with a namespace, the index names the
 * constructor and the namespace `X/`. TypeScript's goToDefinition answers a
 * construction with the class and its constructor, never the namespace (in
 * either order of the two declarations), so the namespace is left out there.
 */
export function withoutConstructedNamespaces(symbols: readonly string[]): readonly string[] {
  const constructed = new Set(symbols.flatMap(classOfConstructorCall).map(namespaceMergedWith));
  return constructed.size === 0 ? symbols : symbols.filter((s) => !constructed.has(s));
}

/** The namespace a class (`X#`) merges with, which TypeScript declares by the same name: `X/`. */
export function namespaceMergedWith(type: string): string {
  return `${type.slice(0, -1)}/`;
}

/**
 * The same name declared with another meaning in the same scope (TypeScript
 * declaration merging). JavaScript merges no function with a value: a
 * module's `f().` and `f.` there are a function and its CommonJS export
 * (`exports.f = f`, which sextant names `f.`), and TypeScript's goToDefinition
 * answers the function from the export only where it is called
 * (`m.f(...)`), and the export never from the function.
 */
function mergedDeclarations(symbol: string, called: boolean): string[] {
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
  const merged = ['#', '.', '/', '().'].map((s) => base + s).filter((s) => s !== symbol);
  const file = parsed.descriptors.findLast((d) => d.suffix === 'namespace')?.name ?? '';
  if (!JAVASCRIPT_FILE.test(file)) return merged;
  if (last.suffix === 'method') return merged.filter((s) => s !== base + '.');
  return last.suffix === 'term' && !called ? merged.filter((s) => s !== base + '().') : merged;
}

const JAVASCRIPT_FILE = /\.[cm]?jsx?$/;
