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
// relates a method signature, through the same ancestors.
import type * as ts from 'typescript';
import type { ScipSymbolLike } from './scip-typescript-internals.js';

interface FileIndexerLike {
  scipSymbol(node: ts.Node): ScipSymbolLike;
  relationships(declaration: ts.Node, declarationSymbol: ScipSymbolLike): unknown[];
  forEachAncestor(node: ts.Node, onAncestor: (ancestor: ts.ClassLikeDeclaration | ts.InterfaceDeclaration) => void): void;
}

interface Modules {
  ts: typeof ts;
  relationship(fields: { symbol: string; is_implementation: boolean; is_reference: boolean }): unknown;
}

/** Wraps FileIndexer's relationships, given what scip-typescript's own modules export. */
export function patchPropertySignatures(prototype: FileIndexerLike, modules: Modules): void {
  const original = prototype.relationships;
  prototype.relationships = function (this: FileIndexerLike, declaration, declarationSymbol) {
    const relationships = original.call(this, declaration, declarationSymbol);
    if (!modules.ts.isPropertySignature(declaration) || !modules.ts.isInterfaceDeclaration(declaration.parent)) return relationships;
    const name = declaration.name.getText();
    const related = new Set([declarationSymbol.value]);
    this.forEachAncestor(declaration.parent, (ancestor) => {
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
