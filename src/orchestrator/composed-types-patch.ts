// Loaded into scip-typescript's process with indexer-preload.ts. scip-typescript
// names the members of an object type written as a type alias's whole type
// (`type Options = { condition?(): boolean }`) under the alias, but a union,
// an intersection, a parenthesized, array or tuple type, an operator's
// operand or a conditional type's branch names nothing, and every member of
// an object type written inside one got a new local symbol in each file that
// named it. Redux Toolkit's `AsyncThunkOptions<...> = { condition?(...) } &
// IsUnknown<...>` is one: the calls `options.condition(...)` in its own file
// and the literal that sets it in another (`createAsyncThunk(..., {
// condition() {...} })`) were not linked, where TypeScript's findReferences and
// call hierarchy link them (contextual-properties-patch.ts leaves a literal's
// key alone when what it sets is another file's local). Those types are passed
// through here, as scip-typescript passes through a variable statement, so
// that an object type inside one is named under the declaration around it.
//
// scip-typescript tells apart the object types of one declaration by a counter
// of the file being indexed (`typeLiteral3`), so the same type got another
// name wherever another file, or another project of the repository, named it
// first. It is named here by where it starts in its own file, the same
// wherever it is named from.
//
// A function type is not passed through: its parameters would be named under
// the declaration holding it, and two function types of one alias would share
// a parameter's symbol. But an object type in one's parameters or result
// (`onTick: (event: { kind: 'tick' } | Done) => void`) is named under that
// declaration, by its position as above, so that a literal given to such a
// function in another file (`onTick({ kind: 'tick' })`) sets its members, as
// TypeScript has it, rather than leaving only `Done`'s `kind` to answer.
// So is an object type in the parameters or result of a function that
// scip-typescript names nothing, held by a variable or a class field: an
// arrow function or a function expression (`export const executeHandlers =
// async ({ handlers }: { handlers: Handler[] }) => ...`), or an object
// literal's method: `executeHandlers({ handlers })` in another file then sets
// its `handlers`, and findReferences there finds it.
import type * as ts from 'typescript';
import type { NamingModules, ScipSymbolLike, SymbolNaming } from './scip-typescript-internals.js';

interface FileIndexerLike extends SymbolNaming {
  descriptor(node: ts.Node): unknown;
}

interface Modules extends Pick<NamingModules, 'ts' | 'global'> {
  metaDescriptor(name: string): unknown;
}

/** Wraps FileIndexer's scipSymbol and descriptor, given what scip-typescript's own modules export. */
export function patchComposedTypes(prototype: FileIndexerLike, { ts: tsc, global, metaDescriptor }: Modules): void {
  const composes = composedTypeKinds(tsc);
  const named = (node: ts.Node) => metaDescriptor(`typeLiteral${node.pos}`);
  const scipSymbol = prototype.scipSymbol;
  prototype.scipSymbol = function (this: FileIndexerLike, node: ts.Node): ScipSymbolLike {
    if (this.globalSymbolTable.has(node)) return scipSymbol.call(this, node);
    if (composes.has(node.kind)) {
      const owner = this.scipSymbol(node.parent);
      return isNamed(owner) ? this.cached(node, owner) : scipSymbol.call(this, node);
    }
    if (tsc.isTypeLiteralNode(node) && !isNamed(this.scipSymbol(node.parent))) {
      const outside = outsideFunctionTypes(tsc, composes, node.parent);
      const declaration = outside === node.parent ? holderOfFunctionTyped(tsc, composes, node) : outside;
      const owner = declaration && this.scipSymbol(declaration);
      if (owner && isNamed(owner)) return this.cached(node, global(owner, named(node)));
    }
    return scipSymbol.call(this, node);
  };
  const descriptor = prototype.descriptor;
  prototype.descriptor = function (this: FileIndexerLike, node: ts.Node): unknown {
    return tsc.isTypeLiteralNode(node) ? named(node) : descriptor.call(this, node);
  };
}

function isNamed(symbol: ScipSymbolLike): boolean {
  return !symbol.isEmpty() && !symbol.isLocal();
}

/** The first node above a function type's parameters and result, and the composed types around them. */
function outsideFunctionTypes(tsc: typeof ts, composes: Set<ts.SyntaxKind>, node: ts.Node): ts.Node {
  const signature = (n: ts.Node) => tsc.isFunctionTypeNode(n) || tsc.isConstructorTypeNode(n);
  while (composes.has(node.kind) || signature(node) || (tsc.isParameter(node) && signature(node.parent))) node = node.parent;
  return node;
}

/**
 * The variable or class field that holds a function whose parameter or result
 * `typeLiteral` types, where scip-typescript names that function nothing: an
 * arrow function or a function expression (`export const run = ({ handlers }:
 * { handlers: Handler[] }) => ...`), or an object literal's method, held
 * directly or through the literals around it (`export const api = { get({ id }:
 * { id: string }) {...} }`). Its parameters and their types are then locals.
 * (A function declaration's or a class method's parameters are named already,
 * and so are the object types in them.)
 */
function holderOfFunctionTyped(tsc: typeof ts, composes: Set<ts.SyntaxKind>, typeLiteral: ts.TypeLiteralNode): ts.Node | undefined {
  let child: ts.Node = typeLiteral;
  let node = typeLiteral.parent;
  while (composes.has(node.kind)) {
    child = node;
    node = node.parent;
  }
  if (tsc.isParameter(node) && node.type === child) node = node.parent;
  else if (!(tsc.isFunctionLike(node) && node.type === child)) return undefined;
  const literalMember = (tsc.isMethodDeclaration(node) || tsc.isAccessor(node)) && tsc.isObjectLiteralExpression(node.parent);
  if (!literalMember && !tsc.isArrowFunction(node) && !tsc.isFunctionExpression(node)) return undefined;
  let held: ts.Node = node;
  let holder = node.parent;
  while (tsc.isObjectLiteralExpression(holder) || (tsc.isPropertyAssignment(holder) && holder.initializer === held)) {
    held = holder;
    holder = holder.parent;
  }
  const holds = (tsc.isVariableDeclaration(holder) || tsc.isPropertyDeclaration(holder)) && holder.initializer === held;
  return holds ? holder : undefined;
}

/** The type nodes that hold other types and name nothing themselves. */
function composedTypeKinds(tsc: typeof ts): Set<ts.SyntaxKind> {
  const k = tsc.SyntaxKind;
  return new Set([
    k.UnionType,
    k.IntersectionType,
    k.ParenthesizedType,
    k.ArrayType,
    k.TupleType,
    k.OptionalType,
    k.RestType,
    k.TypeOperator,
    k.ConditionalType,
  ]);
}
