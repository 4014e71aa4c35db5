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
// has is left as scip-typescript names it (see inherited).
import type * as ts from 'typescript';
import { languageOf } from '../languages.js';
import type { NamingModules, ScipSymbolLike, SymbolNaming } from './scip-typescript-internals.js';

interface FileIndexerLike extends SymbolNaming {
  checker: ts.TypeChecker;
}

/** Wraps FileIndexer's scipSymbol, given what scip-typescript's own modules export. */
export function patchFileIndexer(prototype: FileIndexerLike, modules: NamingModules): void {
  const original = prototype.scipSymbol;
  prototype.scipSymbol = function (this: FileIndexerLike, node: ts.Node): ScipSymbolLike {
    const owner = thisPropertyClass(modules.ts, node);
    const cached = owner && this.globalSymbolTable.get(node);
    if (cached) return cached;
    if (owner && !inherited(this.checker, owner.cls, owner.name)) {
      const cls = this.scipSymbol(owner.cls);
      if (!cls.isEmpty() && !cls.isLocal()) return this.cached(node, modules.global(cls, modules.termDescriptor(owner.name)));
    }
    return original.call(this, node);
  };
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
 * Whether a base class has the property: a subclass's `this.count = 0` is
 * then, to TypeScript's findReferences, the base's property assigned again,
 * which prepare.ts relates to the base's as before (the indexer's locals).
 * Unknown counts as inherited: the indexer names it as it would.
 */
function inherited(checker: ts.TypeChecker, cls: ts.ClassLikeDeclaration, name: string): boolean {
  try {
    const symbol = cls.name && checker.getSymbolAtLocation(cls.name);
    if (!symbol) return true;
    const type = checker.getDeclaredTypeOfSymbol(symbol) as ts.InterfaceType;
    return checker.getBaseTypes(type).some((base) => base.getProperty(name) !== undefined);
  } catch {
    return true;
  }
}
