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
// This walks each node's doc comments too, as the tree's own children.
import type * as ts from 'typescript';

interface FileIndexerLike {
  visit(node: ts.Node): void;
}

/** Wraps FileIndexer's visit, given TypeScript's module. */
export function patchDocComments(prototype: FileIndexerLike, tsc: typeof ts): void {
  const original = prototype.visit;
  prototype.visit = function (this: FileIndexerLike, node: ts.Node): void {
    // A tag's own name (`param` of `@param`) is none; the checker resolves it
    // to what the tag documents. A `@param` tag's name is no reference of the
    // parameter to TypeScript's findReferences: sextant's parse makes it a
    // name that leads there alone.
    const tag = node.parent;
    if (tag && ((tag as Partial<ts.JSDocTag>).tagName === node || (tsc.isJSDocParameterTag(tag) && tag.name === node))) return;
    original.call(this, node);
    // TypeScript keeps a node's doc comments beside it (`jsDoc`), not among its children.
    const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc;
    if (!docs) return;
    for (const doc of docs) tsc.forEachChild(doc, (child) => this.visit(child));
  };
}
