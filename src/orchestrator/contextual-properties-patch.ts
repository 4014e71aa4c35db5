// Loaded into scip-typescript's process with indexer-preload.ts. A property
// an object literal gives (`{ input: x, type: 'infinite' }`) is, to
// TypeScript, the property of the literal's contextual type that it sets:
// goToDefinition answers that property and findReferences lists the literal's
// key among its uses. scip-typescript asks the contextual type for the
// property by name, which a union answers only when every member declares it:
// a literal typed by an optional tuple element or parameter (`{...} |
// undefined`), or by a union of object types and primitives, set nothing, and
// its keys stood alone (@trpc/react-query's query keys, @tanstack/virtual-core's
// measurements). There, this asks as TypeScript's findReferences does: each
// member of the union that declares the property, less those the literal's
// own discriminants rule out. Where scip-typescript found the property, its
// answer stands: the union's property is every member's, which is what
// findReferences at a literal's key lists, and sextant narrows goToDefinition
// to the members the literal's tags pick out (src/navigation/definitions.ts,
// byLiteralTags). So does a key any member of which is of another file and
// named by a local there (an anonymous object type in a union), which the
// asking file could not resolve.
//
// A literal whose contextual type was inferred from the literal itself (an
// argument for a type parameter, `freeze({ kind, column })`, or a generic
// callback's result, `.map((u) => ({ id: u.id }))`) finds its own keys there.
// scip-typescript then wrote each key as a use of itself, defined nowhere:
// goToDefinition answered nothing and findReferences missed the key, where
// TypeScript answers the key. Those keys declare their own properties.
// Methods and accessors stay uses of themselves, which sextant defines.
import type * as ts from 'typescript';
import type { ScipSymbolLike } from './scip-typescript-internals.js';

interface FileIndexerLike {
  checker: ts.TypeChecker;
  scipSymbol(node: ts.Node): ScipSymbolLike;
  getDeclarationsForPropertyAssignment(node: ts.Node): ts.Declaration[] | undefined;
}

/** The language service's helpers, which typescript.js exports beside its public API. */
interface ServiceInternals {
  getContainingObjectLiteralElement(node: ts.Node): ts.ObjectLiteralElementLike | undefined;
  getPropertySymbolsFromContextualType(
    node: ts.ObjectLiteralElementLike,
    checker: ts.TypeChecker,
    contextualType: ts.Type,
    unionSymbolOk: boolean,
  ): readonly ts.Symbol[];
}

/** Whether the TypeScript scip-typescript loaded has the helpers this patch calls. */
export function hasContextualPropertyHelpers(tsc: typeof ts): boolean {
  const internals = tsc as unknown as Partial<ServiceInternals>;
  return (
    typeof internals.getContainingObjectLiteralElement === 'function' &&
    typeof internals.getPropertySymbolsFromContextualType === 'function'
  );
}

/** Extends FileIndexer's lookup of the declarations a literal's property sets to unions not every member of which declares it. */
export function patchContextualProperties(prototype: FileIndexerLike, tsc: typeof ts): void {
  const internals = tsc as unknown as ServiceInternals;
  const original = prototype.getDeclarationsForPropertyAssignment;
  prototype.getDeclarationsForPropertyAssignment = function (this: FileIndexerLike, node) {
    const found = original.call(this, node);
    const element = internals.getContainingObjectLiteralElement(node);
    // Only a key holding a value: a method's or an accessor's use of itself is what sextant names after the literal's
    // holder (`X.create().` for `const X = freeze({ create() {...} })`: defineLiteralMembers in prepare.ts).
    const isKey = element !== undefined && (tsc.isPropertyAssignment(element) || tsc.isShorthandPropertyAssignment(element));
    const ownOnly = (declarations: readonly ts.Declaration[]) => isKey && declarations.every((d) => d === element);
    if (found !== undefined && found.length > 0) return ownOnly(found) ? [] : found;
    if (!element) return found;
    const contextualType = this.checker.getContextualType(element.parent as ts.ObjectLiteralExpression);
    if (contextualType === undefined) return found;
    const declarations = internals
      .getPropertySymbolsFromContextualType(element, this.checker, contextualType, true)
      .flatMap((symbol) => symbol.getDeclarations() ?? []);
    const file = node.getSourceFile();
    const unresolvable = declarations.some((d) => d.getSourceFile() !== file && this.scipSymbol(d).isLocal());
    // None (or none the asking file can name, or the key alone): the literal's key declares its own property.
    return declarations.length > 0 && !unresolvable && !ownOnly(declarations) ? declarations : found;
  };
}
