// The parts of scip-typescript's FileIndexer and modules that sextant's
// patches to it use (this-properties-patch.ts, doc-comments-patch.ts,
// property-signatures-patch.ts, composed-types-patch.ts,
// static-members-patch.ts):
// declared once, checked for at load by indexer-preload.ts, which leaves a
// scip-typescript without them unpatched.
import type * as ts from 'typescript';

export interface ScipSymbolLike {
  value: string;
  isEmpty(): boolean;
  isLocal(): boolean;
}

/** How FileIndexer names a node's symbol, and the table of global names it keeps. */
export interface SymbolNaming {
  scipSymbol(node: ts.Node): ScipSymbolLike;
  cached(node: ts.Node, symbol: ScipSymbolLike): ScipSymbolLike;
  globalSymbolTable: Map<ts.Node, ScipSymbolLike>;
}

/** How FileIndexer relates a declaration to the members it implements or overrides, through its type's ancestors. */
export interface MemberRelating {
  scipSymbol(node: ts.Node): ScipSymbolLike;
  relationships(declaration: ts.Node, declarationSymbol: ScipSymbolLike): unknown[];
  forEachAncestor(node: ts.Node, onAncestor: (ancestor: ts.ClassLikeDeclaration | ts.InterfaceDeclaration) => void): void;
}

/** What a patch that names symbols needs of scip-typescript's modules. */
export interface NamingModules {
  ts: typeof ts;
  global(owner: ScipSymbolLike, descriptor: unknown): ScipSymbolLike;
  termDescriptor(name: string): unknown;
}
