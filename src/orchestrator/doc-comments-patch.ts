// Loaded into scip-typescript's process with indexer-preload.ts. TypeScript
// reads doc comments as code: `@param {Item} item`, `@returns {{ assign:
// boolean }}`, `@typedef {{ kind: string }} Entry` and `{@link DateTime.local}`
// name symbols, and declare some (the properties of a type literal written in
// a comment). Its language server answers there and counts them: references
// of luxon's `DateTime` include 79 `{@link DateTime.x}` in datetime.js, and
// goToDefinition at `assign: true` in webpack's `return { ... }` lands on the
// `assign` of the function's `@returns` type. scip-typescript walks a file's
// syntax tree, which holds no comments, so it recorded none of these: an
// object literal's property typed by a comment had a symbol nothing defined.
// This walks each node's doc comments too, as the tree's own children. And
// it names a `@typedef` and its properties as a type alias and its members
// are named (`c.js/Box#`, `c.js/Box#size.`): scip-typescript gives whatever
// a comment declares a local of the file, so another file's object literal
// typed by it (`@type {import('./c.js').Box}`) was linked to nothing.
import type * as ts from 'typescript';
import type { NamingModules, ScipSymbolLike, SymbolNaming } from './scip-typescript-internals.js';

interface FileIndexerLike extends SymbolNaming {
  visit(node: ts.Node): void;
  visitSymbolOccurrence(node: ts.Node, symbol: ts.Symbol): void;
  document: { occurrences: { symbol: string; symbol_roles: number }[]; symbols: unknown[] };
}

interface Modules extends NamingModules {
  typeDescriptor(name: string): unknown;
  symbolInformation(fields: { symbol: string; kind: number; documentation: string[] }): unknown;
}

/** SCIP's SymbolRole.Definition and SymbolInformation.Kind.TypeAlias. */
const DEFINITION = 1;
const TYPE_ALIAS = 55;

/** Wraps FileIndexer's visit, visitSymbolOccurrence and scipSymbol, given what scip-typescript's own modules export. */
export function patchDocComments(prototype: FileIndexerLike, modules: Modules): void {
  const tsc = modules.ts;
  const scipSymbol = prototype.scipSymbol;
  prototype.scipSymbol = function (this: FileIndexerLike, node: ts.Node): ScipSymbolLike {
    const declared = typedefDeclaration(tsc, node);
    if (!declared) return scipSymbol.call(this, node);
    const cached = this.globalSymbolTable.get(node);
    if (cached) return cached;
    const owner = this.scipSymbol(declared.owner);
    if (owner.isEmpty() || owner.isLocal()) return scipSymbol.call(this, node);
    const descriptor =
      declared.owner === node.getSourceFile() ? modules.typeDescriptor(declared.name) : modules.termDescriptor(declared.name);
    return this.cached(node, modules.global(owner, descriptor));
  };
  // scip-typescript takes a name for a definition by its declaration's kind, which a tag is none of.
  const visitOccurrence = prototype.visitSymbolOccurrence;
  prototype.visitSymbolOccurrence = function (this: FileIndexerLike, node: ts.Node, symbol: ts.Symbol): void {
    const before = this.document.occurrences.length;
    visitOccurrence.call(this, node, symbol);
    const tag = node.parent;
    if (!tag || !(tsc.isJSDocTypedefTag(tag) || tsc.isJSDocPropertyTag(tag)) || tag.name !== node || !typedefDeclaration(tsc, tag)) return;
    for (const occurrence of this.document.occurrences.slice(before)) {
      occurrence.symbol_roles |= DEFINITION;
      // A typedef is a type alias, which the symbol's descriptor (`Box#`) does not tell from a class.
      if (tsc.isJSDocTypedefTag(tag))
        this.document.symbols.push(
          modules.symbolInformation({
            symbol: occurrence.symbol,
            kind: TYPE_ALIAS,
            documentation: ['```ts\ntype ' + node.getText() + '\n```'],
          }),
        );
    }
  };
  const original = prototype.visit;
  prototype.visit = function (this: FileIndexerLike, node: ts.Node): void {
    // A tag's own name (`param` of `@param`) is none; the checker resolves it
    // to what the tag documents. A `@param` tag's name is no reference of the
    // parameter to TypeScript's findReferences: sextant's parse makes it a
    // name that leads there alone. (A JSX element has a `tagName` too, which
    // is a use of the component: only a doc comment's tags are skipped.)
    const tag = node.parent;
    if (tag && isJSDocTag(tsc, tag) && (tag.tagName === node || (tsc.isJSDocParameterTag(tag) && tag.name === node))) return;
    original.call(this, node);
    // TypeScript keeps a node's doc comments beside it (`jsDoc`), not among its children.
    const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc;
    if (!docs) return;
    for (const doc of docs) tsc.forEachChild(doc, (child) => this.visit(child));
  };
}

function isJSDocTag(tsc: typeof ts, node: ts.Node): node is ts.JSDocTag {
  return node.kind >= tsc.SyntaxKind.FirstJSDocTagNode && node.kind <= tsc.SyntaxKind.LastJSDocTagNode;
}

/**
 * A named `@typedef` (owned by its file) or a property of the type literal
 * it names, `{{ size: number }}` or `@property {number} size` (owned by the
 * typedef), with the name each is declared by.
 */
function typedefDeclaration(tsc: typeof ts, node: ts.Node): { owner: ts.Node; name: string } | undefined {
  if (tsc.isJSDocTypedefTag(node))
    return node.name && tsc.isIdentifier(node.name) ? { owner: node.getSourceFile(), name: node.name.text } : undefined;
  let literal: ts.Node | undefined;
  if (tsc.isPropertySignature(node) && tsc.isTypeLiteralNode(node.parent) && tsc.isJSDocTypeExpression(node.parent.parent))
    literal = node.parent.parent;
  else if (tsc.isJSDocPropertyTag(node) && tsc.isJSDocTypeLiteral(node.parent)) literal = node.parent;
  const typedef = literal?.parent;
  if (!typedef || !tsc.isJSDocTypedefTag(typedef) || typedef.typeExpression !== literal || !typedef.name) return undefined;
  const name = (node as ts.PropertySignature | ts.JSDocPropertyTag).name;
  return tsc.isIdentifier(name) ? { owner: typedef, name: name.text } : undefined;
}
