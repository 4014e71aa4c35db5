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
  const docs = new Set<ts.JSDoc>();

  const visit = (node: ts.Node, inType: boolean, inImport: boolean): void => {
    if (ts.isShorthandPropertyAssignment(node)) unrecorded.push(node.name);
    for (const doc of ts.getJSDocCommentsAndTags(node)) {
      if (ts.isJSDoc(doc) && !docs.has(doc)) {
        docs.add(doc);
        collectDocNames(doc, unrecorded);
      }
    }
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
  return facts;
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
 * Resolves names with TypeScript's binder and checker over this one file
 * (no libraries, no imports followed): exact for what the file declares or
 * imports, which is what these names refer to. Each resolved name becomes an
 * alias of the declaration's name, where the index has the symbol.
 */
function resolveInFile(file: ts.SourceFile, names: readonly ts.Node[], facts: SyntaxFacts): void {
  const options: ts.CompilerOptions = { noLib: true, noResolve: true, allowJs: true, types: [] };
  const host = ts.createCompilerHost(options);
  host.getSourceFile = (fileName) => (fileName === file.fileName ? file : undefined);
  host.fileExists = (fileName) => fileName === file.fileName;
  host.readFile = (fileName) => (fileName === file.fileName ? file.text : undefined);
  const checker = ts.createProgram([file.fileName], options, host).getTypeChecker();
  for (const name of names) {
    const symbol = ts.isShorthandPropertyAssignment(name.parent)
      ? checker.getShorthandAssignmentValueSymbol(name.parent)
      : checker.getSymbolAtLocation(name);
    const declaration = symbol?.declarations?.find((d) => d.getSourceFile() === file);
    if (!declaration) continue;
    const target = ts.getNameOfDeclaration(declaration) ?? declaration;
    if (target === name) continue;
    const from = file.getLineAndCharacterOfPosition(name.getStart(file));
    const end = file.getLineAndCharacterOfPosition(name.end);
    const to = file.getLineAndCharacterOfPosition(target.getStart(file));
    if (from.line !== end.line) continue;
    facts.addAlias({ range: [from.line, from.character, end.line, end.character], target: [to.line, to.character] });
  }
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
  // `const f = () => ...`, `handler = function () {}`, `{ key: () => ... }`: a
  // name holding a function is a caller; one holding an object or a class
  // expression contains declarations.
  if ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isPropertyAssignment(node)) && node.initializer) {
    const value = skipOuterExpressions(node.initializer);
    if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) return { name: node.name, callable: true };
    if (ts.isObjectLiteralExpression(value) || ts.isClassExpression(value)) return { name: node.name, callable: false };
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
