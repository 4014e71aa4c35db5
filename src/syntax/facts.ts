// What the syntax of a file says that a SCIP index may not: how each name is
// used (for reference kinds), and for each declaration how far it extends,
// whether it holds code that calls (for call hierarchies) and which types its
// heritage clauses name (scip-typescript records no relationship for
// `interface B extends A`), and names the indexer did not record (shorthand
// properties, names in doc comments).
import type { Range } from '../scip/range.js';
import { RefKindCode } from '../registry/payload.js';

export interface Declaration {
  extent: Range;
  /** A function, method, constructor or accessor, or a variable or property holding a function. */
  callable: boolean;
  /** Positions [line, character] of the type names in `extends` and `implements` clauses. */
  heritage: [number, number][];
  /** How many arguments a call may pass: [required, most], most = Infinity with a rest parameter. */
  parameters?: [number, number] | undefined;
  /**
   * A method or accessor of an object literal, with
   * [line, character] of the name of the const it initializes (`export const X =
   * freeze({ create() {...} })`), when it does.
   */
  member?: { owner: [number, number] | undefined } | undefined;
  /**
   * A named function expression no variable or property holds
   * (`Object.assign(function flow() {...}, ...)`, `xs.map(function visit() {...})`):
   * TypeScript's call hierarchy names it the caller of the calls in it, but
   * scip-typescript records its name only as a use.
   */
  namedExpression?: boolean | undefined;
  /**
   * What a file exports as its default without a name (`export default
   * function () {...}`, `export default class {...}`, `export default () =>
   * ...`, `export default {...}`), declared at its `default` keyword:
   * TypeScript names it `default`, scip-typescript defines nothing for it.
   */
  anonymousDefault?: boolean | undefined;
  /**
   * The value of a JavaScript module's `module.exports = value` (an
   * anonymousDefault too, declared at `module.exports`). TypeScript's call
   * hierarchy counts the calls in an anonymous function assigned so as the
   * module's, where it names `export default function () {...}` `default`.
   */
  moduleExports?: boolean | undefined;
  /**
   * [line, character] of each name written directly in an `export default`'s
   * (or `module.exports =`'s) expression (`make` and `getLength` of `export default
   * make(getLength)`), for which TypeScript's findReferences takes the
   * export as an export of that name's: it counts the export's uses as the
   * name's references and calls. Not in parentheses, nor deeper (`ns` of
   * `ns.make(x)`). A CommonJS module's `module.exports = make(x)` too, but
   * not `module.exports = require('./impl')`, a re-export.
   */
  exportedNames?: [number, number][] | undefined;
  /** A class declaration or expression. */
  isClass?: boolean | undefined;
  /**
   * A CommonJS module's export by assignment, `exports.name = value` or
   * `module.exports.name = value` at the module's top level, or a property
   * or method of `module.exports = {...}`, declared at `name`: TypeScript
   * binds it as the module's export `name`, but scip-typescript names it with
   * a local symbol (or a property's), defining nothing for the first.
   */
  commonJsExport?: boolean | undefined;
  /**
   * A member JavaScript declares by assigning it, declared at `m`, its owner
   * `A`: a method of A's instances (`A.prototype.m = function () {...}`), or
   * A's own member where A is a function, a class or an object literal of
   * the file (`A.m = value`). TypeScript binds both; scip-typescript names
   * `m` with a local symbol and defines nothing. Its call hierarchy lists no
   * such member, and counts the calls in the function assigned as those of
   * the function or module around it.
   */
  assignedMember?: boolean | undefined;
  /** [line, character] of the type name annotating a const without initializer (`declare const X: XFactory`). */
  typeName?: [number, number] | undefined;
  /**
   * A static method or accessor of a class. scip-typescript's signature does
   * not say so, and names a class's static and instance members of one name
   * with one symbol.
   */
  isStatic?: boolean | undefined;
}

/** A name that refers to what is named at `target`, where the index has no occurrence for it. */
export interface Alias {
  range: Range;
  /** [line, character] of the name whose symbol this name stands for. */
  target: [number, number];
  /** The name is called there (`super(...)` calls the base class). */
  call?: boolean;
  /** The name is a type there (a JavaScript doc comment's `@type {Block}`). */
  type?: boolean;
  /** The name is assigned there (`exports.a = void 0`). */
  write?: boolean;
}

/**
 * A name that stands for what another module exports: the binding of
 * `import x from './m'` (its default), the imported name of `import { a as b }
 * from './m'` and of `export { a as b } from './m'`, and `a` in `ns.a` where
 * `ns` is a namespace import (`import * as ns from './m'`).
 */
export interface ModuleName {
  /** [line, character] of the name. */
  name: [number, number];
  /** [line, character] of what names the module: the specifier's string, or `ns` in `ns.a`. */
  module: [number, number];
  /** The module's default export, whatever the name says (`import x from`); else the export named as written. */
  isDefault: boolean;
  /**
   * A property of a pattern a `require(...)` call initializes (`const { a, b:
   * c } = require('./m')`): where the shorthand `a` is both the binding (a
   * definition) and the export it reads, the export is the name's other
   * occurrence.
   */
  required?: boolean;
}

/** A bit beside a name's kind in `kinds`: reference kinds fit in a byte. */
const MEMBER_ACCESS = 0x100;

/**
 * SyntaxFacts packed into numbers, to cross from the parsing worker as
 * transferred buffers: cloning maps of objects cost more than the parse.
 */
export interface SyntaxFactsData {
  /** key, kind (| MEMBER_ACCESS), key, kind, ... */
  kinds: Float64Array;
  /** key, count, ... */
  argumentCounts: Float64Array;
  /** key, extent (4), callable, required, most (NaN: unknown), heritage count, heritage positions (2 each), member (1), named expression (2), anonymous default (4), static (8), class (16) and CommonJS export (32) flags, owner (2), type name (2), ... (NaN: none) */
  declarations: Float64Array;
  /** range (4), target (2), 1 call | 2 type | 3 write | 0, ... */
  aliases: Float64Array;
  /** name (2), module (2), 1 default | 2 required | 0, ... */
  moduleNames: Float64Array;
  /** [line, character] of each name an export list exports (`b` in `export { a as b }`), ... */
  exportNames: Float64Array;
}

export class SyntaxFacts {
  private readonly kinds = new Map<number, number>();
  private readonly declarations = new Map<number, Declaration>();
  private readonly argumentCounts = new Map<number, number>();
  readonly aliases: Alias[] = [];
  readonly moduleNames: ModuleName[] = [];
  readonly exportNames: [number, number][] = [];
  /**
   * Python's: the module each name an import binds names, as written (`.pkg`).
   * TypeScript's are in moduleNames, which also link what they import.
   */
  private readonly importedModules = new Map<number, string>();

  constructor(data?: SyntaxFactsData) {
    if (!data) return;
    for (let i = 0; i < data.kinds.length; i += 2) this.kinds.set(data.kinds[i]!, data.kinds[i + 1]!);
    for (let i = 0; i < data.argumentCounts.length; i += 2) this.argumentCounts.set(data.argumentCounts[i]!, data.argumentCounts[i + 1]!);
    const d = data.declarations;
    for (let i = 0; i < d.length;) {
      const key = d[i]!;
      const extent: Range = [d[i + 1]!, d[i + 2]!, d[i + 3]!, d[i + 4]!];
      const callable = d[i + 5] === 1;
      const parameters: [number, number] | undefined = Number.isNaN(d[i + 6]!) ? undefined : [d[i + 6]!, d[i + 7]!];
      const count = d[i + 8]!;
      const heritage: [number, number][] = [];
      for (let h = 0; h < count; h++) heritage.push([d[i + 9 + 2 * h]!, d[i + 10 + 2 * h]!]);
      const j = i + 9 + 2 * count;
      const position = (at: number): [number, number] | undefined => (Number.isNaN(d[at]!) ? undefined : [d[at]!, d[at + 1]!]);
      const member = d[j]! & 1 ? { owner: position(j + 1) } : undefined;
      const namedExpression = (d[j]! & 2) !== 0;
      const anonymousDefault = (d[j]! & 4) !== 0;
      const isStatic = (d[j]! & 8) !== 0;
      const isClass = (d[j]! & 16) !== 0;
      const commonJsExport = (d[j]! & 32) !== 0;
      const assignedMember = (d[j]! & 64) !== 0;
      const moduleExports = (d[j]! & 128) !== 0;
      const exported = d[j + 5]!;
      const exportedNames: [number, number][] | undefined = exported > 0 ? [] : undefined;
      for (let e = 0; e < exported; e++) exportedNames!.push([d[j + 6 + 2 * e]!, d[j + 7 + 2 * e]!]);
      this.declarations.set(key, {
        extent,
        callable,
        heritage,
        parameters,
        member,
        namedExpression,
        anonymousDefault,
        isClass,
        typeName: position(j + 3),
        exportedNames,
        isStatic,
        commonJsExport,
        assignedMember,
        moduleExports,
      });
      i = j + 6 + 2 * exported;
    }
    const a = data.aliases;
    for (let i = 0; i < a.length; i += 7) {
      this.aliases.push({
        range: [a[i]!, a[i + 1]!, a[i + 2]!, a[i + 3]!],
        target: [a[i + 4]!, a[i + 5]!],
        call: a[i + 6] === 1,
        type: a[i + 6] === 2,
        write: a[i + 6] === 3,
      });
    }
    const m = data.moduleNames;
    for (let i = 0; i < m.length; i += 5) {
      this.moduleNames.push({
        name: [m[i]!, m[i + 1]!],
        module: [m[i + 2]!, m[i + 3]!],
        isDefault: m[i + 4] === 1,
        required: m[i + 4] === 2,
      });
    }
    const e = data.exportNames;
    for (let i = 0; i < e.length; i += 2) this.exportNames.push([e[i]!, e[i + 1]!]);
  }

  /** Written straight into arrays of their final size: the worker packs every file's facts beside the indexer. */
  toData(): SyntaxFactsData {
    const pairs = (map: ReadonlyMap<number, number>): Float64Array => {
      const out = new Float64Array(2 * map.size);
      let i = 0;
      for (const [key, value] of map) {
        out[i++] = key;
        out[i++] = value;
      }
      return out;
    };
    let size = 0;
    for (const d of this.declarations.values()) size += 15 + 2 * (d.heritage.length + (d.exportedNames?.length ?? 0));
    const declarations = new Float64Array(size);
    let i = 0;
    for (const [key, d] of this.declarations) {
      declarations[i++] = key;
      for (const n of d.extent) declarations[i++] = n;
      declarations[i++] = d.callable ? 1 : 0;
      declarations[i++] = d.parameters?.[0] ?? NaN;
      declarations[i++] = d.parameters?.[1] ?? NaN;
      declarations[i++] = d.heritage.length;
      for (const [line, character] of d.heritage) {
        declarations[i++] = line;
        declarations[i++] = character;
      }
      declarations[i++] =
        (d.member ? 1 : 0) |
        (d.namedExpression ? 2 : 0) |
        (d.anonymousDefault ? 4 : 0) |
        (d.isStatic ? 8 : 0) |
        (d.isClass ? 16 : 0) |
        (d.commonJsExport ? 32 : 0) |
        (d.assignedMember ? 64 : 0) |
        (d.moduleExports ? 128 : 0);
      declarations[i++] = d.member?.owner?.[0] ?? NaN;
      declarations[i++] = d.member?.owner?.[1] ?? NaN;
      declarations[i++] = d.typeName?.[0] ?? NaN;
      declarations[i++] = d.typeName?.[1] ?? NaN;
      declarations[i++] = d.exportedNames?.length ?? 0;
      for (const [line, character] of d.exportedNames ?? []) {
        declarations[i++] = line;
        declarations[i++] = character;
      }
    }
    const aliases = new Float64Array(7 * this.aliases.length);
    let j = 0;
    for (const a of this.aliases) {
      for (const n of a.range) aliases[j++] = n;
      aliases[j++] = a.target[0];
      aliases[j++] = a.target[1];
      aliases[j++] = a.call ? 1 : a.type ? 2 : a.write ? 3 : 0;
    }
    const moduleNames = new Float64Array(5 * this.moduleNames.length);
    let k = 0;
    for (const { name, module, isDefault, required } of this.moduleNames) {
      moduleNames[k++] = name[0];
      moduleNames[k++] = name[1];
      moduleNames[k++] = module[0];
      moduleNames[k++] = module[1];
      moduleNames[k++] = isDefault ? 1 : required ? 2 : 0;
    }
    return {
      kinds: pairs(this.kinds),
      argumentCounts: pairs(this.argumentCounts),
      declarations,
      aliases,
      moduleNames,
      exportNames: new Float64Array(this.exportNames.flat()),
    };
  }

  addAlias(alias: Alias): void {
    this.aliases.push(alias);
  }

  addModuleName(name: [number, number], module: [number, number], isDefault: boolean, required = false): void {
    this.moduleNames.push({ name, module, isDefault, required });
  }

  addExportName(name: [number, number]): void {
    this.exportNames.push(name);
  }

  /** `memberAccess`: the name is the member of an access, `a.name` (see Occurrence.memberAccess). */
  setKind(line: number, character: number, kind: number, memberAccess = false): void {
    this.kinds.set(key(line, character), memberAccess ? kind | MEMBER_ACCESS : kind);
  }

  setDeclaration(line: number, character: number, declaration: Declaration): void {
    this.declarations.set(key(line, character), declaration);
  }

  setArgumentCount(line: number, character: number, count: number): void {
    this.argumentCounts.set(key(line, character), count);
  }

  setImportedModule(line: number, character: number, module: string): void {
    this.importedModules.set(key(line, character), module);
  }

  /** The module the Python import binding the name at (line, character) names, as written. */
  importedModuleAt(line: number, character: number): string | undefined {
    return this.importedModules.get(key(line, character));
  }

  /** How many arguments the call of the name starting at (line, character) passes; -1 when unknown. */
  argumentCountAt(line: number, character: number): number {
    return this.argumentCounts.get(key(line, character)) ?? -1;
  }

  /** The reference kind of the name starting at (line, character); identifier when syntax says nothing more. */
  kindAt(line: number, character: number): number {
    return (this.kinds.get(key(line, character)) ?? RefKindCode.identifier) & ~MEMBER_ACCESS;
  }

  /** Whether the name starting at (line, character) is the member of an access (`a.name`). */
  memberAccessAt(line: number, character: number): boolean {
    return ((this.kinds.get(key(line, character)) ?? 0) & MEMBER_ACCESS) !== 0;
  }

  /** Where the file's anonymous default export is declared: the [line, character] of its `default`. */
  anonymousDefaults(): [number, number][] {
    const out: [number, number][] = [];
    for (const [k, d] of this.declarations) if (d.anonymousDefault) out.push(unkey(k));
    return out;
  }

  /** Where the file's CommonJS exports are declared: [line, character] of `name` in `exports.name = ...`, `module.exports = { name }`. */
  commonJsExports(): [number, number][] {
    const out: [number, number][] = [];
    for (const [k, d] of this.declarations) if (d.commonJsExport) out.push(unkey(k));
    return out;
  }

  /** The declaration whose name starts at (line, character). */
  declarationAt(line: number, character: number): Declaration | undefined {
    return this.declarations.get(key(line, character));
  }
}

function key(line: number, character: number): number {
  return line * 0x100000 + character;
}

function unkey(k: number): [number, number] {
  return [Math.floor(k / 0x100000), k % 0x100000];
}
