// TypeScript's own rule (services/callHierarchy.ts, isValidCallHierarchyDeclaration)
// for the declarations that own the calls in them, for the differential tests
// that hold sextant's call hierarchy against typescript-language-server's.
// A function held by an object-literal property is not one, where sextant
// makes it a function of its own.
import ts from 'typescript';

export function isCallHierarchyDeclaration(node: ts.Node): boolean {
  const assigned =
    (ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isClassExpression(node)) &&
    (ts.isVariableDeclaration(node.parent) || ts.isPropertyDeclaration(node.parent)) &&
    node.parent.initializer === node &&
    ts.isIdentifier(node.parent.name) &&
    (ts.isPropertyDeclaration(node.parent) || (ts.getCombinedNodeFlags(node.parent) & ts.NodeFlags.Const) !== 0);
  return (
    ts.isSourceFile(node) ||
    (ts.isModuleDeclaration(node) && ts.isIdentifier(node.name)) ||
    ts.isFunctionDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isClassStaticBlockDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isMethodSignature(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ((ts.isFunctionExpression(node) || ts.isClassExpression(node)) && node.name !== undefined) ||
    assigned
  );
}
