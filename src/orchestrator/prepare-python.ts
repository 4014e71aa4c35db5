// What prepare.ts derives for Python documents beyond what scip-python
// records: overload groups and functions defined per branch, builtin
// functions, `from m import A as B`, `__slots__` attributes, relatively
// imported modules and the names of `__all__`.
import { posix } from 'node:path';
import type { Range } from '../scip/range.js';
import { SymbolRole } from '../scip/schema.js';
import { descriptorName, displayName, isLocalSymbol, parseSymbol } from '../scip/symbol.js';
import { derivedOccurrence, RefKindCode, type Occurrence } from '../registry/payload.js';
import type { SyntaxFacts } from '../syntax/facts.js';
import { internSymbol, nameInSource, renameOrMerge } from './symbol-names.js';

/** Python's derivations, in order, on a document's occurrences and symbols (renamed in place). */
export function derivePython(
  occurrences: Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  lines: readonly string[],
  path: string,
  facts: SyntaxFacts | undefined,
): void {
  if (facts) defineRedefinitions(occurrences, facts);
  splitImportAliases(occurrences, lines);
  nameSlotAttributes(occurrences, symbols, symbolIndex, lines);
  nameBuiltinFunctions(occurrences, symbols, symbolIndex, lines);
  nameRelativeModules(occurrences, symbols, symbolIndex, lines, path);
  startRelativeModulesAtNames(occurrences, symbols, lines);
  referExportedNames(occurrences, symbols, lines);
}

/**
 * Python's overloads (`@overload` stubs, then the implementation), and a
 * function defined in each branch of an `if` or `try`, share one symbol,
 * which scip-python defines once, at its first `def`: the others are
 * recorded as uses, so the calls in the implementation (or in the `else`
 * branch's function) were the class's or the file's. Each `def` of such a
 * group (python_refs.py finds them) becomes a definition of its own, its
 * extent the parse's, as TypeScript's overloads are, and the call hierarchy
 * takes the largest and last, the implementation, for its item.
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
    const text = (lines[o.range[0]] ?? '').slice(o.range[1], o.range[3]);
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
    return internSymbol(symbols, symbolIndex, `${type}${descriptorName(name)}.`);
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
    const before = (lines[o.range[0]] ?? '').slice(0, o.range[1]);
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
      occurrences.push(derivedOccurrence(range, index, SymbolRole.Definition));
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
    const text = (lines[o.range[0]] ?? '').slice(o.range[1], o.range[3]);
    let dots: number;
    if (text.startsWith('.')) {
      // `from .visitor import X`, `from ..a.b import X`: the occurrence is the relative name itself.
      dots = /^\.+/.exec(text)![0].length;
      if (text.slice(dots) !== name) continue;
    } else {
      // `from . import nodes`, `from .. import (a,\n b)`: the name follows `from <dots> import`.
      if (text !== name) continue;
      const before =
        lines.slice(Math.max(0, o.range[0] - 20), o.range[0]).join('\n') + '\n' + (lines[o.range[0]] ?? '').slice(0, o.range[1]);
      const from = /\bfrom\s+(\.+)\s+import\s*\(?[\w\s,\\]*$/.exec(before);
      if (!from) continue;
      dots = from[1]!.length;
    }
    if (dots - 1 >= packageParts.length) continue;
    const resolved = [...packageParts.slice(0, packageParts.length - (dots - 1)), name].join('.');
    const target = symbol.slice(0, symbol.length - `${descriptorName(name)}/__init__:`.length) + `${descriptorName(resolved)}/__init__:`;
    if (target === symbol || !symbol.endsWith(`${descriptorName(name)}/__init__:`)) continue;
    renamed.add(o.symbol);
    // Where the document names the module absolutely too: one symbol for both.
    renameOrMerge(occurrences, symbols, symbolIndex, o.symbol, target);
  }
}

/** Python's builtin functions (its builtin classes scip-python names as `builtins/str#` already). */
const BUILTIN_FUNCTIONS: ReadonlySet<string> = new Set(
  (
    'abs aiter all anext any ascii bin breakpoint callable chr compile delattr dir divmod eval exec exit format getattr ' +
    'globals hasattr hash help hex id input isinstance issubclass iter len locals max min next oct open ord pow print ' +
    'quit repr round setattr sorted sum vars __import__'
  ).split(' '),
);
const STDLIB_VERSION = /^scip-python python python-stdlib (\S+) /;

/**
 * scip-python gives some uses of builtin functions (`len`, `isinstance`,
 * `hasattr`, `id`) a local of their own that nothing defines, where it names
 * others (`sorted`, `getattr`) `builtins/sorted().` of the standard library:
 * goToDefinition at `len(x)` said a local had no declaration, and its
 * references were that one use. Such a local, named a builtin function at
 * every occurrence, becomes the builtin, in the standard library's version
 * the document's other standard-library symbols carry (none: left as it is).
 */
function nameBuiltinFunctions(
  occurrences: Occurrence[],
  symbols: string[],
  symbolIndex: Map<string, number>,
  lines: readonly string[],
): void {
  const version = symbols.map((s) => STDLIB_VERSION.exec(s)?.[1]).find((v) => v !== undefined);
  if (!version) return;
  const defined = new Set<number>();
  // Each local's name where every occurrence spells the same builtin function, else null.
  const names = new Map<number, string | null>();
  for (const o of occurrences) {
    if (o.roles & SymbolRole.Definition) defined.add(o.symbol);
    if (!isLocalSymbol(symbols[o.symbol]!)) continue;
    const text = o.range[0] === o.range[2] ? (lines[o.range[0]] ?? '').slice(o.range[1], o.range[3]) : '';
    const seen = names.get(o.symbol);
    names.set(o.symbol, BUILTIN_FUNCTIONS.has(text) && (seen === undefined || seen === text) ? text : null);
  }
  for (const [index, name] of names) {
    if (name === null || defined.has(index)) continue;
    renameOrMerge(occurrences, symbols, symbolIndex, index, `scip-python python python-stdlib ${version} builtins/${name}().`);
  }
}

/**
 * scip-python's occurrence of a module imported relatively spans its dots
 * (`.exceptions` in `from .exceptions import Abort`); pyright's references
 * and definitions start at the name, as an absolute import's do. Every such
 * occurrence starts at its name (read after nameRelativeModules, which
 * counts the dots).
 */
function startRelativeModulesAtNames(occurrences: Occurrence[], symbols: readonly string[], lines: readonly string[]): void {
  for (const o of occurrences) {
    if (o.range[0] !== o.range[2] || !isModuleSymbol(symbols[o.symbol]!)) continue;
    const dots = /^\.+(?=[\p{L}_])/u.exec((lines[o.range[0]] ?? '').slice(o.range[1], o.range[3]));
    if (dots) o.range = [o.range[0], o.range[1] + dots[0].length, o.range[2], o.range[3]];
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
    occurrences.push(derivedOccurrence(range, symbol));
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
