// Loaded into scip-typescript's process with indexer-preload.ts. An
// interface that extends another and declares one of its properties again,
// narrowed (zod's `interface $ZodIssueStringCommonFormats extends
// $ZodIssueInvalidStringFormat { format: ... }`), declares the same property
// to TypeScript: findReferences at either lists the uses of both, and of
// every sibling that narrows it too. scip-typescript relates a method
// signature, a method and a class's property to the members they override
// (is_implementation and is_reference, which related.ts follows), but not a
// property signature: each narrowed property's uses stood alone (zod's
// references recall 0.962 against typescript-language-server, its misses
// nearly all here). This relates a property signature as scip-typescript
// relates a method signature, through the same ancestors. So it relates a
// constructor's parameter property (`constructor(public node: Node)` in
// prosemirror-view's `NodeViewDesc`, which narrows `ViewDesc`'s `declare
// node: Node | null`), which scip-typescript names as the parameter it also
// is: findReferences at the base's property missed every `desc.node` typed
// by the subclass.
import type * as ts from 'typescript';
import type { MemberRelating } from './scip-typescript-internals.js';

interface Modules {
  ts: typeof ts;
  relationship(fields: { symbol: string; is_implementation: boolean; is_reference: boolean }): unknown;
}

/** Wraps FileIndexer's relationships, given what scip-typescript's own modules export. */
export function patchPropertySignatures(prototype: MemberRelating, modules: Modules): void {
  const original = prototype.relationships;
  prototype.relationships = function (this: MemberRelating, declaration, declarationSymbol) {
    const relationships = original.call(this, declaration, declarationSymbol);
    const owner = ownerOfProperty(modules.ts, declaration);
    if (!owner) return relationships;
    const name = (declaration as ts.PropertySignature | ts.ParameterDeclaration).name.getText();
    const related = new Set([declarationSymbol.value]);
    this.forEachAncestor(owner, (ancestor) => {
      for (const member of ancestor.members) {
        if (member.name?.getText() !== name) continue;
        const symbol = this.scipSymbol(member);
        if (symbol.isEmpty() || related.has(symbol.value)) continue;
        related.add(symbol.value);
        relationships.push(modules.relationship({ symbol: symbol.value, is_implementation: true, is_reference: true }));
      }
    });
    return relationships;
  };
}

/** The interface a property signature is of, or the class a constructor's parameter property is of. */
function ownerOfProperty(tsc: typeof ts, declaration: ts.Node): ts.Node | undefined {
  if (tsc.isPropertySignature(declaration)) return tsc.isInterfaceDeclaration(declaration.parent) ? declaration.parent : undefined;
  if (tsc.isParameter(declaration) && tsc.isParameterPropertyDeclaration(declaration, declaration.parent)) return declaration.parent.parent;
  return undefined;
}
