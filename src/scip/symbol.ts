// The SCIP symbol grammar:
//   <scheme> ' ' <manager> ' ' <package-name> ' ' <version> ' ' <descriptor>+
//   | 'local ' <id>
// Fields escape a space by doubling it; names with unusual characters are
// wrapped in backticks, a backtick inside them doubled.

export type DescriptorSuffix =
  | 'namespace' // name/
  | 'type' // name#
  | 'term' // name.
  | 'method' // name(disambiguator).
  | 'type-parameter' // [name]
  | 'parameter' // (name)
  | 'meta' // name:
  | 'macro'; // name!

export interface Descriptor {
  name: string;
  suffix: DescriptorSuffix;
  disambiguator?: string;
  /** Where the descriptor starts in the symbol string. */
  offset: number;
}

export interface ParsedSymbol {
  local: boolean;
  scheme: string;
  manager: string;
  packageName: string;
  version: string;
  descriptors: Descriptor[];
}

export class SymbolSyntaxError extends Error {}

export function isLocalSymbol(symbol: string): boolean {
  return symbol.startsWith('local ');
}

/** A method or term whose owner is a file's `default#`, directly. */
const DEFAULT_CLASS_MEMBER = /\/default#(?:[^\s`#./()[\]:!]+|`(?:[^`]|``)+`)(?:\([^)]*\))?\.$/;

/**
 * A member the index names only in the file that declares it: a local symbol
 * (a member of an object literal or of a type literal), or a member of the
 * class a CommonJS module assigns to `module.exports` (`module.exports = class
 * Queue { push() {...} }`), which scip-typescript names with locals too and
 * sextant's prepare names `<module>default#push().` in its file
 * (prepare-assigned-class.ts); a file that uses it (`queue.push(x)`) keeps a
 * local of its own.
 */
export function isNamedOnlyInItsFile(symbol: string): boolean {
  return isLocalSymbol(symbol) || DEFAULT_CLASS_MEMBER.test(symbol);
}

/** The standard libraries as their indexers name them: TypeScript's lib files, Python's stdlib. */
const STANDARD_LIBRARY = /^(?:scip-typescript npm typescript \S+ lib\/|scip-python python python-stdlib )/;

/**
 * Whether a symbol is of a language's standard library
 * (`scip-typescript npm typescript 5.9.3 lib/\`lib.es5.d.ts\`/JSON#`,
 * `scip-python python python-stdlib 3.11 builtins/str#`), which every program
 * uses: its uses that matter are those of the program asked about.
 */
export function isStandardLibrarySymbol(symbol: string): boolean {
  return STANDARD_LIBRARY.test(symbol);
}

/** A module: a namespace descriptor, `lib/\`math.js\`/`, ends in a slash. */
export function isModuleSymbol(symbol: string): boolean {
  return symbol.endsWith('/') && !isLocalSymbol(symbol);
}

/**
 * The module symbol of the file at `path` (its descriptors up to and including
 * the file's, `npm pkg 1.0 src/\`x.ts\`/`), from a global symbol declared in
 * that file; undefined when the symbol names no such file.
 */
export function fileNamespaceOf(symbol: string, path: string): string | undefined {
  const slash = path.lastIndexOf('/');
  const needle = `\`${path.slice(slash + 1)}\`/`;
  const i = symbol.indexOf(needle);
  return i > 0 && !isLocalSymbol(symbol) ? symbol.slice(0, i + needle.length) : undefined;
}

/** A parameter descriptor, `f().(x)`: ends in a parenthesis that does not close a method. */
export function isParameterSymbol(symbol: string): boolean {
  return symbol.endsWith(')') && !symbol.endsWith(').');
}

/**
 * The name scip-typescript gives an object type written in a declaration
 * (`T#typeLiteral12:`, sextant's run numbering it by where it starts): a
 * type its members belong to, which names nothing a reader would.
 */
export function isObjectTypeName(name: string): boolean {
  return /^typeLiteral\d+$/.test(name);
}

/** A type parameter (`f().[T]`, `C#[T]`). */
export function isTypeParameterSymbol(symbol: string): boolean {
  return symbol.endsWith(']');
}

export function parseSymbol(symbol: string): ParsedSymbol {
  if (isLocalSymbol(symbol)) {
    return {
      local: true,
      scheme: 'local',
      manager: '',
      packageName: '',
      version: '',
      descriptors: [{ name: symbol.slice(6), suffix: 'term', offset: 6 }],
    };
  }
  const parser = new Parser(symbol);
  const scheme = parser.field();
  const manager = parser.field();
  const packageName = parser.field();
  const version = parser.field();
  const descriptors: Descriptor[] = [];
  while (!parser.done()) descriptors.push(parser.descriptor());
  if (descriptors.length === 0) throw new SymbolSyntaxError(`symbol has no descriptors: ${symbol}`);
  const dot = (s: string) => (s === '.' ? '' : s);
  return { local: false, scheme, manager: dot(manager), packageName: dot(packageName), version: dot(version), descriptors };
}

/** The name a person would call the symbol: its last descriptor's name. */
export function displayName(parsed: ParsedSymbol): string {
  const last = parsed.descriptors[parsed.descriptors.length - 1]!;
  // scip-typescript names constructors `<constructor>`; scip-python names a
  // module `pkg.mod/__init__:`, after the namespace that holds its name.
  if (last.name === '<constructor>') return 'constructor';
  const previous = parsed.descriptors[parsed.descriptors.length - 2];
  if (last.suffix === 'meta' && last.name === '__init__' && previous) return previous.name;
  return last.name;
}

/** The symbol string of the descriptor chain without its last descriptor, or undefined at the top. */
export function ownerSymbol(symbol: string, parsed: ParsedSymbol): string | undefined {
  if (parsed.local || parsed.descriptors.length < 2) return undefined;
  return symbol.slice(0, parsed.descriptors[parsed.descriptors.length - 1]!.offset);
}

/** A character of a simple descriptor name: [A-Za-z0-9_+\-$]. */
function isIdentifierCode(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || // a-z
    (c >= 0x41 && c <= 0x5a) || // A-Z
    (c >= 0x30 && c <= 0x39) || // 0-9
    c === 0x5f || // _
    c === 0x2b || // +
    c === 0x2d || // -
    c === 0x24 // $
  );
}

// Scans by indexOf and character codes, not character by character into a
// string: every answer and every ingested document parses symbols, and the
// per-character version took 1.4-2.6 µs a symbol, 3-6 times as long.
class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  done(): boolean {
    return this.i >= this.s.length;
  }

  /** A space-terminated field with doubled spaces as escapes. */
  field(): string {
    return this.until(' ', `symbol ends before its package fields: ${this.s}`);
  }

  /**
   * The text up to the next `end` character, which a doubled `end` escapes,
   * and past it; `unterminated` is the error when none ends it.
   */
  private until(end: string, unterminated: string): string {
    const s = this.s;
    let out = '';
    let from = this.i;
    for (;;) {
      const at = s.indexOf(end, from);
      if (at < 0) throw new SymbolSyntaxError(unterminated);
      if (s[at + 1] === end) {
        out += s.slice(from, at + 1);
        from = at + 2;
        continue;
      }
      this.i = at + 1;
      return out + s.slice(from, at);
    }
  }

  descriptor(): Descriptor {
    const offset = this.i;
    const c = this.s[this.i];
    if (c === '(') {
      this.i++;
      const name = this.name();
      this.expect(')');
      return { name, suffix: 'parameter', offset };
    }
    if (c === '[') {
      this.i++;
      const name = this.name();
      this.expect(']');
      return { name, suffix: 'type-parameter', offset };
    }
    const name = this.name();
    const suffix = this.s[this.i++];
    switch (suffix) {
      case '/':
        return { name, suffix: 'namespace', offset };
      case '#':
        return { name, suffix: 'type', offset };
      case '.':
        return { name, suffix: 'term', offset };
      case ':':
        return { name, suffix: 'meta', offset };
      case '!':
        return { name, suffix: 'macro', offset };
      case '(': {
        const close = this.s.indexOf(')', this.i);
        const disambiguator = this.s.slice(this.i, close < 0 ? this.s.length : close);
        this.i += disambiguator.length;
        this.expect(')');
        this.expect('.');
        return disambiguator ? { name, suffix: 'method', disambiguator, offset } : { name, suffix: 'method', offset };
      }
      default:
        throw new SymbolSyntaxError(`unexpected ${JSON.stringify(suffix ?? 'end')} after descriptor name in ${this.s}`);
    }
  }

  private name(): string {
    const s = this.s;
    if (s[this.i] === '`') {
      this.i++;
      return this.until('`', `unterminated backtick name in ${s}`);
    }
    const from = this.i;
    while (this.i < s.length && isIdentifierCode(s.charCodeAt(this.i))) this.i++;
    // An empty simple name is legal for some indexers' anonymous descriptors.
    return s.slice(from, this.i);
  }

  private expect(c: string): void {
    if (this.s[this.i] !== c) throw new SymbolSyntaxError(`expected '${c}' at ${this.i} in ${this.s}`);
    this.i++;
  }
}

/** A name as a SCIP descriptor writes it: backquoted unless it is a plain identifier. */
export function descriptorName(name: string): string {
  return /^[\w$+-]+$/.test(name) ? name : `\`${name.replaceAll('`', '``')}\``;
}
