// Reference kinds and declarations for TypeScript and JavaScript, from the
// TypeScript parser (syntax only: no program, no type checker, so it is fast).
import ts from 'typescript';
import { RefKindCode } from '../registry/payload.js';
import { SyntaxFacts } from './facts.js';

const SCRIPT_KIND: Record<string, ts.ScriptKind> = {
  '.ts': ts.ScriptKind.TS,
  '.mts': ts.ScriptKind.TS,
  '.cts': ts.ScriptKind.TS,
  '.tsx': ts.ScriptKind.TSX,
  '.js': ts.ScriptKind.JS,
  '.mjs': ts.ScriptKind.JS,
  '.cjs': ts.ScriptKind.JS,
  '.jsx': ts.ScriptKind.JSX,
};

export function typescriptFacts(path: string, text: string): SyntaxFacts {
  const ext = /\.[^./]+$/.exec(path)?.[0] ?? '.ts';
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, SCRIPT_KIND[ext] ?? ts.ScriptKind.TS);
  const facts = new SyntaxFacts();
  const position = (offset: number) => file.getLineAndCharacterOfPosition(offset);
  const record = (node: ts.Node, kind: number) => {
    if (kind === RefKindCode.identifier) return;
    const { line, character } = position(node.getStart(file));
    facts.setKind(line, character, kind);
  };

  // Names that refer to something without the indexer recording it: the
  // variable of a shorthand property `{ value }` and names in doc comments.
  const unrecorded: ts.Node[] = [];
  // `super(...)`: a call of the base class the index has no occurrence for.
  const superCalls: ts.Node[] = [];

  const visit = (node: ts.Node, inType: boolean, inImport: boolean): void => {
    if (ts.isShorthandPropertyAssignment(node)) unrecorded.push(node.name);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword) superCalls.push(node.expression);
    // Which overload a call means depends on its arguments; their count narrows it down.
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && node.arguments && !node.arguments.some(ts.isSpreadElement)) {
      const callee = calleeName(node.expression);
      if (callee) {
        const at = position(callee.getStart(file));
        facts.setArgumentCount(at.line, at.character, node.arguments.length);
      }
    }
    for (const doc of attachedDocs(node)) collectDocNames(doc, unrecorded);
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      record(node, inImport ? RefKindCode.import : usage(node, inType));
      return;
    }
    if (inImport && ts.isStringLiteral(node)) {
      record(node, RefKindCode.import);
      return;
    }
    const declared = declarationOf(node);
    if (declared) {
      const at = position(declared.name.getStart(file));
      const start = position(node.getStart(file));
      const end = position(node.end);
      facts.setDeclaration(at.line, at.character, {
        extent: [start.line, start.character, end.line, end.character],
        callable: declared.callable,
        heritage: heritageNames(node).map((n) => {
          const p = position(n.getStart(file));
          return [p.line, p.character];
        }),
        parameters: ts.isFunctionLike(node) ? parameterCounts(node) : undefined,
      });
    }
    const importing =
      inImport ||
      ts.isImportDeclaration(node) ||
      ts.isImportEqualsDeclaration(node) ||
      (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined);
    const typing = inType || ts.isTypeNode(node) || ts.isHeritageClause(node);
    ts.forEachChild(node, (child) => visit(child, typing, importing));
  };
  visit(file, false, false);
  if (unrecorded.length > 0) resolveInFile(file, unrecorded, facts);
  for (const call of superCalls) {
    const base = baseClassName(call);
    if (!base) continue;
    const from = file.getLineAndCharacterOfPosition(call.getStart(file));
    const to = file.getLineAndCharacterOfPosition(base.getStart(file));
    facts.addAlias({
      range: [from.line, from.character, from.line, from.character + 'super'.length],
      target: [to.line, to.character],
      call: true,
    });
  }
  return facts;
}

/**
 * The doc comments the parser attached to a node. `ts.getJSDocCommentsAndTags`
 * answers the same but searches around every node it is asked about, which
 * costs more than the parse itself; the parser's own list (`jsDoc`, present on
 * every node that has one since TypeScript 2) is read directly instead.
 */
function attachedDocs(node: ts.Node): readonly ts.JSDoc[] {
  return (node as { jsDoc?: readonly ts.JSDoc[] }).jsDoc ?? [];
}

/** Names a doc comment refers to: {@link X}, @see X, @param x. */
function collectDocNames(doc: ts.Node, out: ts.Node[]): void {
  const visit = (node: ts.Node): void => {
    if ((ts.isJSDocLink(node) || ts.isJSDocLinkCode(node) || ts.isJSDocLinkPlain(node)) && node.name) out.push(rightmost(node.name));
    else if (ts.isJSDocSeeTag(node) && node.name) out.push(rightmost(node.name.name));
    else if (ts.isJSDocParameterTag(node) && ts.isIdentifier(node.name)) out.push(node.name);
    ts.forEachChild(node, visit);
  };
  visit(doc);
}

function rightmost(name: ts.EntityName | ts.JSDocMemberName): ts.Node {
  return ts.isIdentifier(name) ? name : ts.isQualifiedName(name) ? name.right : name.right;
}

/**
 * Resolves names to the declarations of this file by walking the scopes
 * around them (parameters, block and file declarations, imports), the way
 * the binder would for names a file declares or imports. Qualified doc links
 * (`{@link A.b}`) need types and are left alone. Each resolved name becomes an
 * alias of the declaration's name, where the index has the symbol.
 */
function resolveInFile(file: ts.SourceFile, names: readonly ts.Node[], facts: SyntaxFacts): void {
  for (const name of names) {
    if (!ts.isIdentifier(name) || (name.parent && ts.isQualifiedName(name.parent) && name.parent.right === name)) continue;
    const target = ts.isJSDocParameterTag(name.parent)
      ? parameterNamed(name.parent.parent?.parent, name.text)
      : declarationInScope(name, name.text);
    if (!target || target === name) continue;
    const from = file.getLineAndCharacterOfPosition(name.getStart(file));
    const end = file.getLineAndCharacterOfPosition(name.end);
    const to = file.getLineAndCharacterOfPosition(target.getStart(file));
    if (from.line !== end.line) continue;
    facts.addAlias({ range: [from.line, from.character, end.line, end.character], target: [to.line, to.character] });
  }
}

/** The parameter named `text` of a function-like node (what a @param tag documents). */
function parameterNamed(host: ts.Node | undefined, text: string): ts.Node | undefined {
  if (!host || !ts.isFunctionLike(host)) return undefined;
  for (const p of host.parameters) {
    const found = bindingNamed(p.name, text);
    if (found) return found;
  }
  return undefined;
}

/** The innermost declaration of `text` visible from `from`, in this file. */
function declarationInScope(from: ts.Node, text: string): ts.Node | undefined {
  for (let scope: ts.Node | undefined = from.parent; scope; scope = scope.parent) {
    // A doc comment sits on its declaration: resolve from there.
    if (ts.isJSDoc(scope)) continue;
    if (ts.isFunctionLike(scope)) {
      const parameter = parameterNamed(scope, text);
      if (parameter) return parameter;
      if ((ts.isFunctionExpression(scope) || ts.isClassExpression(scope)) && scope.name?.text === text) return scope.name;
    }
    if (ts.isCatchClause(scope) && scope.variableDeclaration) {
      const found = bindingNamed(scope.variableDeclaration.name, text);
      if (found) return found;
    }
    if (
      (ts.isForStatement(scope) || ts.isForInStatement(scope) || ts.isForOfStatement(scope)) &&
      scope.initializer &&
      ts.isVariableDeclarationList(scope.initializer)
    ) {
      for (const d of scope.initializer.declarations) {
        const found = bindingNamed(d.name, text);
        if (found) return found;
      }
    }
    if (ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isModuleBlock(scope) || ts.isCaseClause(scope) || ts.isDefaultClause(scope)) {
      for (const statement of scope.statements) {
        const found = declaredBy(statement, text);
        if (found) return found;
      }
    }
  }
  return undefined;
}

/** The name `text` as declared by one statement. */
function declaredBy(statement: ts.Statement, text: string): ts.Node | undefined {
  if (ts.isVariableStatement(statement)) {
    for (const d of statement.declarationList.declarations) {
      const found = bindingNamed(d.name, text);
      if (found) return found;
    }
    return undefined;
  }
  if (
    (ts.isFunctionDeclaration(statement) ||
      ts.isClassDeclaration(statement) ||
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isEnumDeclaration(statement) ||
      ts.isModuleDeclaration(statement) ||
      ts.isImportEqualsDeclaration(statement)) &&
    statement.name &&
    ts.isIdentifier(statement.name) &&
    statement.name.text === text
  ) {
    return statement.name;
  }
  if (ts.isImportDeclaration(statement) && statement.importClause) {
    const clause = statement.importClause;
    if (clause.name?.text === text) return clause.name;
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings) && bindings.name.text === text) return bindings.name;
    if (bindings && ts.isNamedImports(bindings)) return bindings.elements.find((e) => e.name.text === text)?.name;
  }
  return undefined;
}

/** The identifier named `text` in a binding name, destructuring patterns included. */
function bindingNamed(name: ts.BindingName, text: string): ts.Node | undefined {
  if (ts.isIdentifier(name)) return name.text === text ? name : undefined;
  for (const element of name.elements) {
    if (ts.isOmittedExpression(element)) continue;
    const found = bindingNamed(element.name, text);
    if (found) return found;
  }
  return undefined;
}

/**
 * Declarations that contain code or other declarations, with the node that
 * names them (where the indexer puts the definition occurrence).
 */
function declarationOf(node: ts.Node): { name: ts.Node; callable: boolean } | undefined {
  if (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  ) {
    return node.name ? { name: node.name, callable: true } : undefined;
  }
  if (ts.isConstructorDeclaration(node)) {
    const keyword = node.getChildren().find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword);
    return keyword ? { name: keyword, callable: true } : undefined;
  }
  if (
    ts.isClassDeclaration(node) ||
    ts.isClassExpression(node) ||
    ts.isInterfaceDeclaration(node) ||
    ts.isEnumDeclaration(node) ||
    ts.isModuleDeclaration(node) ||
    ts.isTypeAliasDeclaration(node)
  ) {
    return node.name ? { name: node.name, callable: false } : undefined;
  }
  // `const f = () => ...` is a function by another name, and a caller, as the
  // TypeScript language service's call hierarchy has it; a function held by a
  // `let`, a class field or an object-literal property calls on behalf of the
  // function or class around it. Any of them holding a function, an object or
  // a class expression contains declarations.
  if ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isPropertyAssignment(node)) && node.initializer) {
    const value = skipOuterExpressions(node.initializer);
    const isFunction = ts.isArrowFunction(value) || ts.isFunctionExpression(value);
    if (isFunction || ts.isObjectLiteralExpression(value) || ts.isClassExpression(value)) {
      const isConst = ts.isVariableDeclaration(node) && (ts.getCombinedNodeFlags(node) & ts.NodeFlags.Const) !== 0;
      return { name: node.name, callable: isFunction && isConst };
    }
  }
  return undefined;
}

function skipOuterExpressions(node: ts.Expression): ts.Expression {
  while (
    ts.isParenthesizedExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isTypeAssertionExpression(node)
  ) {
    node = node.expression;
  }
  return node;
}

/** The name a call is made through: `f` in `f()`, `m` in `a.b.m()`. */
function calleeName(expression: ts.Expression): ts.Node | undefined {
  const callee = skipOuterExpressions(expression);
  if (ts.isIdentifier(callee)) return callee;
  if (ts.isPropertyAccessExpression(callee)) return callee.name;
  return undefined;
}

/** [required, most] arguments of a signature; most is Infinity with a rest parameter. */
function parameterCounts(node: ts.SignatureDeclaration): [number, number] {
  const parameters = node.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'));
  const required = parameters.filter((p) => !p.questionToken && !p.initializer && !p.dotDotDotToken).length;
  return [required, parameters.some((p) => p.dotDotDotToken) ? Infinity : parameters.length];
}

/** The name in the `extends` clause of the class around a `super` call. */
function baseClassName(node: ts.Node): ts.Node | undefined {
  let scope: ts.Node | undefined = node.parent;
  while (scope && !ts.isClassLike(scope)) scope = scope.parent;
  const extendsClause = scope?.heritageClauses?.find((c) => c.token === ts.SyntaxKind.ExtendsKeyword);
  const expression = extendsClause?.types[0]?.expression;
  if (!expression) return undefined;
  return ts.isPropertyAccessExpression(expression) ? expression.name : expression;
}

/** The names of the types a class or interface extends or implements. */
function heritageNames(node: ts.Node): ts.Node[] {
  if (!(ts.isClassLike(node) || ts.isInterfaceDeclaration(node)) || !node.heritageClauses) return [];
  const names: ts.Node[] = [];
  for (const clause of node.heritageClauses) {
    for (const type of clause.types) {
      const expression = type.expression;
      names.push(ts.isPropertyAccessExpression(expression) ? expression.name : expression);
    }
  }
  return names;
}

function usage(node: ts.Identifier | ts.PrivateIdentifier, inType: boolean): number {
  // The expression the name stands for: itself, or `a.name` when it is a member name.
  let expr: ts.Node = node;
  if ((ts.isPropertyAccessExpression(expr.parent) || ts.isQualifiedName(expr.parent)) && nameOf(expr.parent) === expr) expr = expr.parent;
  while (ts.isParenthesizedExpression(expr.parent) || ts.isNonNullExpression(expr.parent)) expr = expr.parent;
  const parent = expr.parent;
  if (isWriteTarget(expr)) return RefKindCode.write;
  if (
    ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression === expr) ||
    (ts.isTaggedTemplateExpression(parent) && parent.tag === expr) ||
    (ts.isDecorator(parent) && parent.expression === expr) ||
    ((ts.isJsxOpeningElement(parent) || ts.isJsxSelfClosingElement(parent) || ts.isJsxClosingElement(parent)) && parent.tagName === expr)
  ) {
    return RefKindCode.call;
  }
  return inType ? RefKindCode.type : RefKindCode.identifier;
}

function nameOf(node: ts.PropertyAccessExpression | ts.QualifiedName): ts.Node {
  return ts.isPropertyAccessExpression(node) ? node.name : node.right;
}

/** Assignment targets, including destructuring assignments and ++/--. */
function isWriteTarget(expr: ts.Node): boolean {
  let node = expr;
  for (;;) {
    const parent = node.parent;
    if (ts.isBinaryExpression(parent)) {
      return parent.left === node && isAssignmentOperator(parent.operatorToken.kind);
    }
    if (ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) {
      return parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken;
    }
    if ((ts.isForInStatement(parent) || ts.isForOfStatement(parent)) && parent.initializer === node) return true;
    // Destructuring assignment: climb through the literal that is the target.
    if (
      ts.isShorthandPropertyAssignment(parent) ||
      (ts.isPropertyAssignment(parent) && parent.initializer === node) ||
      ts.isArrayLiteralExpression(parent) ||
      ts.isSpreadElement(parent) ||
      ts.isSpreadAssignment(parent) ||
      ts.isObjectLiteralExpression(parent) ||
      ts.isParenthesizedExpression(parent)
    ) {
      node = parent;
      continue;
    }
    return false;
  }
}

function isAssignmentOperator(kind: ts.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}
