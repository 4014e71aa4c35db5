// Loaded into scip-typescript's process with indexer-preload.ts. scip-typescript
// relates a class's method or property to every member of its name in the
// types the class extends or implements, static or not. To TypeScript a static
// member belongs to the class itself, not to its instances: it overrides and
// implements nothing, and nothing of an instance's overrides it. Its
// findReferences at prosemirror-transform's `static fromJSON` of `DocAttrStep`
// lists that declaration alone, where sextant listed every step class's
// `fromJSON` and the calls of `Step.fromJSON(...)`, and gave those calls'
// functions as its callers. This drops such relationships: a static member's
// own, and an instance member's to a static one.
import type * as ts from 'typescript';
import type { MemberRelating } from './scip-typescript-internals.js';

/** Wraps FileIndexer's relationships, given the TypeScript scip-typescript loaded. */
export function patchStaticMembers(prototype: MemberRelating, tsc: typeof ts): void {
  const original = prototype.relationships;
  const isStatic = (node: ts.Node) =>
    tsc.canHaveModifiers(node) && (tsc.getModifiers(node) ?? []).some((m) => m.kind === tsc.SyntaxKind.StaticKeyword);
  prototype.relationships = function (this: MemberRelating, declaration, declarationSymbol) {
    const relationships = original.call(this, declaration, declarationSymbol);
    if (relationships.length === 0 || !(tsc.isMethodDeclaration(declaration) || tsc.isPropertyDeclaration(declaration)))
      return relationships;
    if (isStatic(declaration)) return [];
    const name = declaration.name.getText();
    const statics = new Set<string>();
    this.forEachAncestor(declaration.parent, (ancestor) => {
      for (const member of ancestor.members)
        if (member.name?.getText() === name && isStatic(member)) statics.add(this.scipSymbol(member).value);
    });
    return statics.size === 0 ? relationships : relationships.filter((r) => !statics.has((r as { symbol: string }).symbol));
  };
}
