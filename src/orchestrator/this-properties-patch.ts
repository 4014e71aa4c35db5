// Loaded into scip-typescript's process with indexer-preload.ts. In
// JavaScript, `this.parent = parent` in a class's constructor or methods
// declares the property (TypeScript binds each such assignment as a
// declaration of the class's member), but scip-typescript names a symbol by
// its declaration's syntax, and an assignment is no declaration it can name:
// it gives the property a new local symbol in every file, once per
// assignment. So a use in another file (`item.parent`, typed by JSDoc) was
// linked to nothing, and sextant could relate it only by name, which fails
// where several classes have a member of that name (yjs's `clock`, `right`,
// `content`). Named as the class's member (`Item#parent.`, as a declared
// field is), every use the checker resolves to it is linked, in any file.
// prepare.ts makes each such assignment a definition. A property a base class
// has is, to TypeScript, the class's own wherever the class assigns it, an
// override of the base's (postcss's `this.nodes = []` in subclasses of classes
// its declaration files give; three's materials' `this.depthPacking`):
// goToDefinition at the assignment answers the class's assignments, at a read
// the checker's choice, and findReferences at either lists both. It is named
// as the class's member, related to the base's as an override is (its
// SymbolInformation in the file that assigns it). A base member the indexer
// names a local leaves the assignment as scip-typescript names it (prepare.ts
// relates such locals by name).
import type * as ts from 'typescript';
import { languageOf } from '../languages.js';
import type { NamingModules, ScipSymbolLike, SymbolNaming } from './scip-typescript-internals.js';

interface FileIndexerLike extends SymbolNaming {
  checker: ts.TypeChecker;
  sourceFile: ts.SourceFile;
  document: { symbols: unknown[] };
}

interface Modules extends NamingModules {
  symbolInformation(fields: { symbol: string; relationships: unknown[] }): unknown;
  relationship(fields: { symbol: string; is_implementation: boolean; is_reference: boolean }): unknown;
}

/** Wraps FileIndexer's scipSymbol, given what scip-typescript's own modules export. */
export function patchFileIndexer(prototype: FileIndexerLike, modules: Modules): void {
  const original = prototype.scipSymbol;
  /** The overrides named, each with the base member's symbol, and the documents that relate them already. */
  const overrides = new Map<ts.Node, { base: string; relatedIn: WeakSet<object> }>();
  prototype.scipSymbol = function (this: FileIndexerLike, node: ts.Node): ScipSymbolLike {
    const owner = thisPropertyClass(modules.ts, node);
    if (!owner) return original.call(this, node);
    let named = this.globalSymbolTable.get(node);
    if (!named) {
      const base = inherited(this.checker, owner.cls, owner.name);
      const baseSymbol = base ? baseMember(this, base) : undefined;
      if (base !== undefined && !baseSymbol) return original.call(this, node);
      const cls = this.scipSymbol(owner.cls);
      if (cls.isEmpty() || cls.isLocal()) return original.call(this, node);
      named = this.cached(node, modules.global(cls, modules.termDescriptor(owner.name)));
      if (baseSymbol) overrides.set(node, { base: baseSymbol.value, relatedIn: new WeakSet() });
    }
    // The relationship goes with the file that assigns it, however many times it is named there.
    const override = overrides.get(node);
    if (override && node.getSourceFile() === this.sourceFile && !override.relatedIn.has(this.document)) {
      override.relatedIn.add(this.document);
      const relationship = modules.relationship({ symbol: override.base, is_implementation: true, is_reference: true });
      this.document.symbols.push(modules.symbolInformation({ symbol: named.value, relationships: [relationship] }));
    }
    return named;
  };
}

/** The global symbol of a base class's member, if the indexer names it so. */
function baseMember(indexer: FileIndexerLike, base: ts.Symbol): ScipSymbolLike | undefined {
  const declaration = base.valueDeclaration ?? base.declarations?.[0];
  const symbol = declaration && indexer.scipSymbol(declaration);
  return symbol && !symbol.isEmpty() && !symbol.isLocal() ? symbol : undefined;
}

/**
 * The named class whose constructor, method or accessor assigns `this.name`
 * at `node` (the assignment, or its left side: TypeScript lists either as the
 * declaration), through arrow functions, which keep `this`.
 */
function thisPropertyClass(tsc: typeof ts, node: ts.Node): { cls: ts.ClassLikeDeclaration; name: string } | undefined {
  const access = tsc.isBinaryExpression(node) ? node.left : node;
  if (!tsc.isPropertyAccessExpression(access) || access.expression.kind !== tsc.SyntaxKind.ThisKeyword) return undefined;
  const assignment = access.parent;
  if (!tsc.isBinaryExpression(assignment) || assignment.left !== access || assignment.operatorToken.kind !== tsc.SyntaxKind.EqualsToken)
    return undefined;
  if (!tsc.isIdentifier(access.name) || languageOf(access.getSourceFile().fileName) !== 'javascript') return undefined;
  let container: ts.Node = assignment.parent;
  while (!tsc.isSourceFile(container) && !(tsc.isFunctionLike(container) && !tsc.isArrowFunction(container)) && !tsc.isClassLike(container))
    container = container.parent;
  const isMember =
    tsc.isConstructorDeclaration(container) ||
    tsc.isMethodDeclaration(container) ||
    tsc.isGetAccessorDeclaration(container) ||
    tsc.isSetAccessorDeclaration(container);
  if (!isMember || !tsc.isClassLike(container.parent) || !container.parent.name) return undefined;
  return { cls: container.parent, name: access.name.text };
}

/**
 * The property of that name a base class has, if one does. Unknown counts as
 * inherited, from no member (null): the indexer names it as it would.
 */
function inherited(checker: ts.TypeChecker, cls: ts.ClassLikeDeclaration, name: string): ts.Symbol | null | undefined {
  try {
    const symbol = cls.name && checker.getSymbolAtLocation(cls.name);
    if (!symbol) return null;
    const type = checker.getDeclaredTypeOfSymbol(symbol) as ts.InterfaceType;
    for (const base of checker.getBaseTypes(type)) {
      const property = base.getProperty(name);
      if (property) return property;
    }
    return undefined;
  } catch {
    return null;
  }
}
