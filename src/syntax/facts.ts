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
}

/** A name that refers to what is named at `target`, where the index has no occurrence for it. */
export interface Alias {
  range: Range;
  /** [line, character] of the name whose symbol this name stands for. */
  target: [number, number];
  /** The name is called there (`super(...)` calls the base class). */
  call?: boolean;
}

/** SyntaxFacts as plain data, to cross from a worker thread. */
export interface SyntaxFactsData {
  kinds: Map<number, number>;
  declarations: Map<number, Declaration>;
  argumentCounts: Map<number, number>;
  aliases: Alias[];
}

export class SyntaxFacts {
  private readonly kinds: Map<number, number>;
  private readonly declarations: Map<number, Declaration>;
  private readonly argumentCounts: Map<number, number>;
  readonly aliases: Alias[];

  constructor(data?: SyntaxFactsData) {
    this.kinds = data?.kinds ?? new Map();
    this.declarations = data?.declarations ?? new Map();
    this.argumentCounts = data?.argumentCounts ?? new Map();
    this.aliases = data?.aliases ?? [];
  }

  toData(): SyntaxFactsData {
    return { kinds: this.kinds, declarations: this.declarations, argumentCounts: this.argumentCounts, aliases: this.aliases };
  }

  addAlias(alias: Alias): void {
    this.aliases.push(alias);
  }

  setKind(line: number, character: number, kind: number): void {
    this.kinds.set(key(line, character), kind);
  }

  setDeclaration(line: number, character: number, declaration: Declaration): void {
    this.declarations.set(key(line, character), declaration);
  }

  setArgumentCount(line: number, character: number, count: number): void {
    this.argumentCounts.set(key(line, character), count);
  }

  /** How many arguments the call of the name starting at (line, character) passes; -1 when unknown. */
  argumentCountAt(line: number, character: number): number {
    return this.argumentCounts.get(key(line, character)) ?? -1;
  }

  /** The reference kind of the name starting at (line, character); identifier when syntax says nothing more. */
  kindAt(line: number, character: number): number {
    return this.kinds.get(key(line, character)) ?? RefKindCode.identifier;
  }

  /** The declaration whose name starts at (line, character). */
  declarationAt(line: number, character: number): Declaration | undefined {
    return this.declarations.get(key(line, character));
  }
}

function key(line: number, character: number): number {
  return line * 0x100000 + character;
}
