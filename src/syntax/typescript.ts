// Reference kinds and declarations for TypeScript and JavaScript, from the
// TypeScript parser (syntax only: no program, no type checker, so it is fast).
import type * as ts from 'typescript';
import { DESTRUCTURED, DOC_LINK, RefKindCode } from '../registry/payload.js';
import { SyntaxFacts } from './facts.js';
import { loadTypescript } from './load-typescript.js';

const tsc = loadTypescript();

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const SCRIPT_KIND: Record<string, ts.ScriptKind> = {
  '.ts': tsc.ScriptKind.TS,
  '.mts': tsc.ScriptKind.TS,
  '.cts': tsc.ScriptKind.TS,
  '.tsx': tsc.ScriptKind.TSX,
  '.js': tsc.ScriptKind.JS,
  '.mjs': tsc.ScriptKind.JS,
  '.cjs': tsc.ScriptKind.JS,
  '.jsx': tsc.ScriptKind.JSX,
};

/**
 * Doc comments give facts only through the names their tags refer to
 * (collectDocNames): {@link X} (and linkcode, linkplain), @see X, @param x and
 * its synonyms @arg and @argument. TypeScript matches these tag names exactly,
 * so a text without any of these strings has no doc comment that gives a fact,
 * and parsing its doc comments (a quarter of the parse) can be skipped.
 */
const DOC_NAME_TAG = /@(?:link|see|param|arg)/;
/**
 * In JavaScript, doc comments are where types are written (`@type {Block}`,
 * `@param {Node} node`, `@augments Node`): TypeScript resolves the names in
 * them, and scip-typescript records none of them.
 */
const JS_DOC_TYPE_TAG = /@(?:type|param|arg|returns?|augments|extends|implements|property|prop|template|this|satisfies|typedef|callback)\b/;

/** Whether a text's doc comments give facts (what DOC_NAME_TAG and JS_DOC_TYPE_TAG look for): otherwise they are not parsed. */
function docsGiveFacts(text: string, javascript: boolean): boolean {
  return DOC_NAME_TAG.test(text) || (javascript && JS_DOC_TYPE_TAG.test(text));
}

const extensionOf = (path: string): string => /\.[^./]+$/.exec(path)?.[0] ?? '.ts';
const isJavascript = (ext: string): boolean => /^\.[cm]?jsx?$/.test(ext);

export function typescriptFacts(path: string, text: string): SyntaxFacts {
  const ext = extensionOf(path);
  const docs = docsGiveFacts(text, isJavascript(ext));
  const file = tsc.createSourceFile(
    path,
    text,
    { languageVersion: tsc.ScriptTarget.Latest, jsDocParsingMode: docs ? tsc.JSDocParsingMode.ParseAll : tsc.JSDocParsingMode.ParseNone },
    // Parent pointers are set by the walk below as it goes down (what the
    // parser's own pass would set, in a second walk over every node).
    false,
    SCRIPT_KIND[ext] ?? tsc.ScriptKind.TS,
  );
  return sourceFileFacts(file, docs);
}

/**
 * The facts of a parsed file: of typescriptFacts' own parse, or of the
 * indexer's program, whose trees are walked where they are (see
 * orchestrator/syntax-facts-patch.ts). Doc comments are read only where
 * typescriptFacts would parse them (`docs`), so that both give the same facts
 * whichever parse the file had.
 */
export function sourceFileFacts(file: ts.SourceFile, docs?: boolean): SyntaxFacts {
  const javascript = isJavascript(extensionOf(file.fileName));
  docs ??= docsGiveFacts(file.text, javascript);
  const facts = new SyntaxFacts();
  const position = (offset: number) => file.getLineAndCharacterOfPosition(offset);
  const at2 = (node: ts.Node): [number, number] => {
    const p = position(node.getStart(file));
    return [p.line, p.character];
  };
  const record = (node: ts.Node, kind: number, memberAccess = false) => {
    if (kind === RefKindCode.identifier && !memberAccess) return;
    const { line, character } = position(node.getStart(file));
    facts.setKind(line, character, kind, memberAccess);
  };

  // Names that refer to something without the indexer recording it: the
  // variable of a shorthand property `{ value }` and names in doc comments.
  const unrecorded: ts.Node[] = [];
  // Type names in a JavaScript file's doc comments, which TypeScript resolves as types.
  const docTypes: ts.Node[] | undefined = javascript ? [] : undefined;
  // `super(...)`: a call of the base class the index has no occurrence for.
  const superCalls: ts.Node[] = [];
  // Names bound by `import * as ns` or `const ns = require('./m')`: `ns.a` names what the module exports (imports
  // come before their uses).
  const namespaces = new Set<string>();

  // A declaration's facts, at the start of the node that names it.
  const declare = (node: ts.Node, declared: DeclarationOf) => {
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
      parameters: tsc.isFunctionLike(declared.value) ? parameterCounts(declared.value) : undefined,
      member: declared.member ? { owner: declared.member.owner && at2(declared.member.owner) } : undefined,
      namedExpression: declared.namedExpression,
      anonymousDefault: declared.anonymousDefault,
      isClass: tsc.isClassLike(declared.value),
      typeName: declared.typeName && at2(declared.typeName),
      exportedNames: declared.exportedNames?.map(at2),
      isStatic: declared.isStatic,
      commonJsExport: declared.commonJsExport,
      assignedMember: declared.assignedMember,
      moduleExports: declared.moduleExports,
    });
  };
  // `A.m = value` in a JavaScript file, declared once the walk knows what A is (see ownMemberAssignment): a function
  // is declared after its uses as often as before.
  const ownMembers: [ts.Node, DeclarationOf & { owner: string }][] = [];
  // Each name, with the scopes that declare it so (see scopesDeclaring).
  const functionsAndClasses = new Map<string, ts.Node[]>();
  const objects = new Map<string, ts.Node[]>();
  // Names of what the module exports whole (`var app = exports = module.exports = {}`, `module.exports = app`): a
  // member assigned at the top level to one that is no function or class (`app.init = ...`) is an export, as
  // `exports.init = ...` is. A function's or a class's stays its own: importers reach it through the function.
  const exportedWhole = new Set<string>();

  // The walk runs over every node of every file, beside the indexer: it keeps
  // its context (inside a type? an import? under which node?) in variables
  // rather than in a closure per node, and tests the common case, a name,
  // first. It sets each child's parent before visiting it, so every node's
  // ancestors are linked when it is visited (all that the tests of a node
  // read), and the whole tree once the walk is done.
  let inType = false;
  let inImport = false;
  let parent: ts.Node = file;
  const visitChild = (child: ts.Node): void => {
    (child as Mutable<ts.Node>).parent = parent;
    visit(child);
  };
  const visit = (node: ts.Node): void => {
    const kind = node.kind;
    if (kind === tsc.SyntaxKind.Identifier || kind === tsc.SyntaxKind.PrivateIdentifier) {
      const memberAccess = tsc.isPropertyAccessExpression(node.parent) && node.parent.name === node;
      record(node, inImport ? RefKindCode.import : usage(node as ts.Identifier, inType), memberAccess);
      return;
    }
    if (inImport && kind === tsc.SyntaxKind.StringLiteral) {
      record(node, RefKindCode.import);
      return;
    }
    // `T['name']`: the index records the member the literal names; in a type it is read by no code, so it
    // calls no getter. The module named by `import('./m')` in a type is left as it was.
    if (inType && kind === tsc.SyntaxKind.StringLiteral && node.parent.parent?.kind !== tsc.SyntaxKind.ImportType) {
      record(node, RefKindCode.type);
      return;
    }
    if (kind === tsc.SyntaxKind.ShorthandPropertyAssignment) unrecorded.push((node as ts.ShorthandPropertyAssignment).name);
    if (kind === tsc.SyntaxKind.ImportDeclaration) {
      const bindings = (node as ts.ImportDeclaration).importClause?.namedBindings;
      if (bindings && tsc.isNamespaceImport(bindings)) namespaces.add(bindings.name.text);
    }
    if (kind === tsc.SyntaxKind.VariableDeclaration) {
      const declaration = node as ts.VariableDeclaration;
      const module = declaration.initializer && requiredModule(declaration.initializer);
      if (module && tsc.isIdentifier(declaration.name)) namespaces.add(declaration.name.text);
      else if (module && tsc.isObjectBindingPattern(declaration.name)) {
        for (const element of declaration.name.elements) {
          const property = element.propertyName ?? element.name;
          if (!element.dotDotDotToken && tsc.isIdentifier(property)) facts.addModuleName(at2(property), at2(module), false, true);
        }
      }
    }
    if (kind === tsc.SyntaxKind.ExportSpecifier) facts.addExportName(at2((node as ts.ExportSpecifier).name));
    const moduleName = moduleNameOf(node, namespaces);
    if (moduleName) facts.addModuleName(at2(moduleName.name), at2(moduleName.module), moduleName.isDefault);
    if (kind === tsc.SyntaxKind.CallExpression || kind === tsc.SyntaxKind.NewExpression) {
      const call = node as ts.CallExpression | ts.NewExpression;
      if (call.expression.kind === tsc.SyntaxKind.SuperKeyword) superCalls.push(call.expression);
      // Which overload a call means depends on its arguments; their count narrows it down.
      if (call.arguments && !call.arguments.some(tsc.isSpreadElement)) {
        const callee = calleeName(call.expression);
        if (callee) {
          const at = position(callee.getStart(file));
          facts.setArgumentCount(at.line, at.character, call.arguments.length);
        }
      }
    }
    if (docs)
      for (const doc of attachedDocs(node)) {
        (doc as Mutable<ts.Node>).parent = node;
        collectDocNames(doc, unrecorded, docTypes, record);
      }
    const declared = declarationOf(node);
    if (declared) declare(node, declared);
    else if (javascript && kind === tsc.SyntaxKind.BinaryExpression) {
      const assigned = ownMemberAssignment(node as ts.BinaryExpression);
      if (assigned) ownMembers.push([node, assigned]);
    }
    if (javascript) {
      const named = expandableName(node);
      if (named) {
        const byName = named.object ? objects : functionsAndClasses;
        byName.set(named.name, [...(byName.get(named.name) ?? []), ...scopesDeclaring(node)]);
      }
      const exported = exportedWholeName(node);
      if (exported) exportedWhole.add(exported);
    }
    const outerType = inType;
    const outerImport = inImport;
    inImport ||=
      kind === tsc.SyntaxKind.ImportDeclaration ||
      kind === tsc.SyntaxKind.ImportEqualsDeclaration ||
      (kind === tsc.SyntaxKind.ExportDeclaration && (node as ts.ExportDeclaration).moduleSpecifier !== undefined);
    inType ||= kind === tsc.SyntaxKind.HeritageClause || tsc.isTypeNode(node);
    const outerParent = parent;
    parent = node;
    tsc.forEachChild(node, visitChild);
    parent = outerParent;
    inType = outerType;
    inImport = outerImport;
  };
  visit(file);
  for (const [node, assigned] of ownMembers) {
    const { owner } = assigned;
    if (exportedWhole.has(owner) && !functionsAndClasses.has(owner) && tsc.isSourceFile(node.parent.parent)) {
      // As commonJsExportValue declares `exports.name = value`.
      declare(node, { name: assigned.name, value: assigned.value, callable: false, commonJsExport: true });
    } else {
      // TypeScript looks the owner up in the assignment's own scopes only: `createDebug.names = []` in a function
      // nested in the one that declares createDebug assigns the member its declaration declared, and declares none.
      const here = scopesOfStatement(node);
      const declaredHere = (scopes: ts.Node[] | undefined) => scopes?.some((scope) => here.includes(scope)) ?? false;
      if (declaredHere(functionsAndClasses.get(owner)) || declaredHere(objects.get(owner))) declare(node, assigned);
    }
  }
  if (unrecorded.length > 0) resolveInFile(file, unrecorded, facts);
  if (docTypes?.length) resolveInFile(file, docTypes, facts, true);
  if (javascript) aliasExportPreamble(file, facts);
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
  return (node as { jsDoc?: readonly ts.JSDoc[] }).jsDoc ?? NO_DOCS;
}

const NO_DOCS: readonly ts.JSDoc[] = [];

/**
 * Names a doc comment refers to: {@link X}, @see X, @param x; and into `types`, when given (a JavaScript file's), the
 * type names of its tags (`{Block}`, `@augments Node`). Records the kinds of links' names and of names in types. Links the
 * comment's nodes to their parents (resolveInFile climbs from them).
 */
function collectDocNames(doc: ts.Node, out: ts.Node[], types: ts.Node[] | undefined, record: (name: ts.Node, kind: number) => void): void {
  let inType = false;
  const link = (name: ts.Node): void => {
    out.push(name);
    record(name, DOC_LINK);
  };
  const visit = (node: ts.Node): void => {
    // A name in a doc comment's type (`@param {Item}`, `@returns {{ a: A }}`) is a use of a type: the indexer
    // records it (see orchestrator/doc-comments-patch.ts), and this says its kind.
    if (inType && tsc.isIdentifier(node)) record(node, RefKindCode.type);
    if ((tsc.isJSDocLink(node) || tsc.isJSDocLinkCode(node) || tsc.isJSDocLinkPlain(node)) && node.name) link(rightmost(node.name));
    else if (tsc.isJSDocSeeTag(node) && node.name) link(rightmost(node.name.name));
    else if (tsc.isJSDocParameterTag(node) && tsc.isIdentifier(node.name)) out.push(node.name);
    else if (types && tsc.isTypeReferenceNode(node) && tsc.isIdentifier(node.typeName)) types.push(node.typeName);
    else if (types && (tsc.isJSDocAugmentsTag(node) || tsc.isJSDocImplementsTag(node)) && tsc.isIdentifier(node.class.expression)) {
      types.push(node.class.expression);
    }
    const outer = inType;
    inType ||= tsc.isJSDocTypeExpression(node) || tsc.isJSDocAugmentsTag(node) || tsc.isJSDocImplementsTag(node);
    tsc.forEachChild(node, (child) => {
      (child as Mutable<ts.Node>).parent = node;
      visit(child);
    });
    inType = outer;
  };
  visit(doc);
}

function rightmost(name: ts.EntityName | ts.JSDocMemberName): ts.Node {
  return tsc.isIdentifier(name) ? name : tsc.isQualifiedName(name) ? name.right : name.right;
}

/**
 * Resolves names to the declarations of this file by walking the scopes
 * around them (parameters, block and file declarations, imports), the way
 * the binder would for names a file declares or imports. Qualified doc links
 * (`{@link A.b}`) need types and are left alone. Each resolved name becomes an
 * alias of the declaration's name, where the index has the symbol.
 */
function resolveInFile(file: ts.SourceFile, names: readonly ts.Node[], facts: SyntaxFacts, types = false): void {
  for (const name of names) {
    if (!tsc.isIdentifier(name) || (name.parent && tsc.isQualifiedName(name.parent) && name.parent.right === name)) continue;
    const target = tsc.isJSDocParameterTag(name.parent)
      ? parameterNamed(name.parent.parent?.parent, name.text)
      : declarationInScope(name, name.text);
    if (!target || target === name) continue;
    const from = file.getLineAndCharacterOfPosition(name.getStart(file));
    const end = file.getLineAndCharacterOfPosition(name.end);
    const to = file.getLineAndCharacterOfPosition(target.getStart(file));
    if (from.line !== end.line) continue;
    facts.addAlias({
      range: [from.line, from.character, end.line, end.character],
      target: [to.line, to.character],
      ...(types ? { type: true } : {}),
    });
  }
}

/** The parameter named `text` of a function-like node (what a @param tag documents). */
function parameterNamed(host: ts.Node | undefined, text: string): ts.Node | undefined {
  if (!host || !tsc.isFunctionLike(host)) return undefined;
  for (const p of host.parameters) {
    // A doc comment's function type (`@param {function(string): void} cb`) has parameters without names.
    const found = p.name && bindingNamed(p.name, text);
    if (found) return found;
  }
  return undefined;
}

/** The innermost declaration of `text` visible from `from`, in this file. */
function declarationInScope(from: ts.Node, text: string): ts.Node | undefined {
  for (let scope: ts.Node | undefined = from.parent; scope; scope = scope.parent) {
    // A doc comment sits on its declaration: resolve from there.
    if (tsc.isJSDoc(scope)) continue;
    if (tsc.isFunctionLike(scope)) {
      const parameter = parameterNamed(scope, text);
      if (parameter) return parameter;
      if ((tsc.isFunctionExpression(scope) || tsc.isClassExpression(scope)) && scope.name?.text === text) return scope.name;
    }
    if (tsc.isCatchClause(scope) && scope.variableDeclaration) {
      const found = bindingNamed(scope.variableDeclaration.name, text);
      if (found) return found;
    }
    if (
      (tsc.isForStatement(scope) || tsc.isForInStatement(scope) || tsc.isForOfStatement(scope)) &&
      scope.initializer &&
      tsc.isVariableDeclarationList(scope.initializer)
    ) {
      for (const d of scope.initializer.declarations) {
        const found = bindingNamed(d.name, text);
        if (found) return found;
      }
    }
    if (
      tsc.isBlock(scope) ||
      tsc.isSourceFile(scope) ||
      tsc.isModuleBlock(scope) ||
      tsc.isCaseClause(scope) ||
      tsc.isDefaultClause(scope)
    ) {
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
  if (tsc.isVariableStatement(statement)) {
    for (const d of statement.declarationList.declarations) {
      const found = bindingNamed(d.name, text);
      if (found) return found;
    }
    return undefined;
  }
  if (
    (tsc.isFunctionDeclaration(statement) ||
      tsc.isClassDeclaration(statement) ||
      tsc.isInterfaceDeclaration(statement) ||
      tsc.isTypeAliasDeclaration(statement) ||
      tsc.isEnumDeclaration(statement) ||
      tsc.isModuleDeclaration(statement) ||
      tsc.isImportEqualsDeclaration(statement)) &&
    statement.name &&
    tsc.isIdentifier(statement.name) &&
    statement.name.text === text
  ) {
    return statement.name;
  }
  if (tsc.isImportDeclaration(statement) && statement.importClause) {
    const clause = statement.importClause;
    if (clause.name?.text === text) return clause.name;
    const bindings = clause.namedBindings;
    if (bindings && tsc.isNamespaceImport(bindings) && bindings.name.text === text) return bindings.name;
    if (bindings && tsc.isNamedImports(bindings)) return bindings.elements.find((e) => e.name.text === text)?.name;
  }
  return undefined;
}

/** The identifier named `text` in a binding name, destructuring patterns included. */
function bindingNamed(name: ts.BindingName, text: string): ts.Node | undefined {
  if (tsc.isIdentifier(name)) return name.text === text ? name : undefined;
  for (const element of name.elements) {
    if (tsc.isOmittedExpression(element)) continue;
    const found = bindingNamed(element.name, text);
    if (found) return found;
  }
  return undefined;
}

/** The kinds of node declarationOf may answer for; the walk asks about every node, and most are none of them. */
const DECLARATION_KINDS: ReadonlySet<ts.SyntaxKind> = new Set([
  tsc.SyntaxKind.FunctionDeclaration,
  tsc.SyntaxKind.FunctionExpression,
  tsc.SyntaxKind.MethodDeclaration,
  tsc.SyntaxKind.GetAccessor,
  tsc.SyntaxKind.SetAccessor,
  tsc.SyntaxKind.VariableDeclaration,
  tsc.SyntaxKind.Constructor,
  tsc.SyntaxKind.ClassDeclaration,
  tsc.SyntaxKind.ClassExpression,
  tsc.SyntaxKind.InterfaceDeclaration,
  tsc.SyntaxKind.EnumDeclaration,
  tsc.SyntaxKind.ModuleDeclaration,
  tsc.SyntaxKind.TypeAliasDeclaration,
  tsc.SyntaxKind.PropertyDeclaration,
  tsc.SyntaxKind.PropertyAssignment,
  tsc.SyntaxKind.ShorthandPropertyAssignment,
  tsc.SyntaxKind.ExportAssignment,
  tsc.SyntaxKind.BinaryExpression,
]);

/**
 * Declarations that contain code or other declarations, with the node that
 * names them (where the indexer puts the definition occurrence).
 */
function declarationOf(node: ts.Node): DeclarationOf | undefined {
  if (!DECLARATION_KINDS.has(node.kind)) return undefined;
  if (tsc.isExportAssignment(node)) return anonymousDefaultValue(node);
  if (tsc.isBinaryExpression(node)) return moduleExportsValue(node) ?? commonJsExportValue(node) ?? prototypeMethodValue(node);
  const declared = declarationNamed(node);
  // A property of `module.exports = {...}` is an export of the module by its name, as TypeScript binds it.
  if (isModuleExportsProperty(node)) {
    const name = (node as ts.ObjectLiteralElementLike).name!;
    const value = tsc.isPropertyAssignment(node) ? skipOuterExpressions(node.initializer) : node;
    return { value, ...(declared ?? { name, callable: false }), commonJsExport: true };
  }
  return declared && { value: node, ...declared };
}

/** A property, shorthand property, method or accessor of the object literal a JavaScript module assigns to `module.exports`. */
function isModuleExportsProperty(node: ts.Node): boolean {
  const member =
    tsc.isPropertyAssignment(node) ||
    tsc.isShorthandPropertyAssignment(node) ||
    tsc.isMethodDeclaration(node) ||
    tsc.isGetAccessorDeclaration(node) ||
    tsc.isSetAccessorDeclaration(node);
  if (!member) return false;
  const literal = node.parent;
  return (
    tsc.isIdentifier(node.name) &&
    tsc.isObjectLiteralExpression(literal) &&
    tsc.isBinaryExpression(literal.parent) &&
    exportsAssignedWhole(literal.parent) === literal
  );
}

interface DeclarationOf {
  name: ts.Node;
  /** What is declared: the node itself, or the value an `export default` gives. */
  value: ts.Node;
  callable: boolean;
  member?: { owner: ts.Node | undefined };
  namedExpression?: boolean;
  anonymousDefault?: boolean;
  typeName?: ts.Node;
  isStatic?: boolean;
  commonJsExport?: boolean;
  assignedMember?: boolean;
  moduleExports?: boolean;
  /** Names written directly in an `export default`'s expression (see Declaration.exportedNames). */
  exportedNames?: ts.Node[];
}

function declarationNamed(node: ts.Node): Omit<DeclarationOf, 'value'> | undefined {
  if (
    tsc.isFunctionDeclaration(node) ||
    tsc.isFunctionExpression(node) ||
    tsc.isMethodDeclaration(node) ||
    tsc.isGetAccessorDeclaration(node) ||
    tsc.isSetAccessorDeclaration(node)
  ) {
    if (!node.name) {
      // `export default function () {...}`: named by its `default`, as TypeScript's call hierarchy names it.
      const keyword = tsc.isFunctionDeclaration(node) ? defaultKeyword(node) : undefined;
      return keyword && node.body ? { name: keyword, callable: true, anonymousDefault: true } : undefined;
    }
    if (tsc.isObjectLiteralExpression(node.parent))
      return { name: node.name, callable: true, member: { owner: literalOwner(node.parent) } };
    // A const or a class field holding the function is its caller's name, as for an arrow function; anything else
    // holding it (a property of a literal, a `let` or `var`, an assignment `this.skip = function asyncSkip() {...}`, a
    // cast) leaves it its own name, as TypeScript's call hierarchy has it (its isAssignedExpression).
    if (tsc.isFunctionExpression(node) && !isHeld(node)) return { name: node.name, callable: true, namedExpression: true };
    if (tsc.isClassLike(node.parent) && node.modifiers?.some((m) => m.kind === tsc.SyntaxKind.StaticKeyword))
      return { name: node.name, callable: true, isStatic: true };
    return { name: node.name, callable: true };
  }
  // `declare const X: XFactory` (a declaration file's view of a const built from a literal).
  if (
    tsc.isVariableDeclaration(node) &&
    !node.initializer &&
    node.type &&
    tsc.isTypeReferenceNode(node.type) &&
    node.getSourceFile().isDeclarationFile
  ) {
    const typeName = node.type.typeName;
    return { name: node.name, callable: false, typeName: tsc.isQualifiedName(typeName) ? typeName.right : typeName };
  }
  if (tsc.isConstructorDeclaration(node)) {
    const keyword = node.getChildren().find((c) => c.kind === tsc.SyntaxKind.ConstructorKeyword);
    return keyword ? { name: keyword, callable: true } : undefined;
  }
  if (
    tsc.isClassDeclaration(node) ||
    tsc.isClassExpression(node) ||
    tsc.isInterfaceDeclaration(node) ||
    tsc.isEnumDeclaration(node) ||
    tsc.isModuleDeclaration(node) ||
    tsc.isTypeAliasDeclaration(node)
  ) {
    if (node.name) return { name: node.name, callable: false };
    // `export default class {...}`
    const keyword = tsc.isClassDeclaration(node) ? defaultKeyword(node) : undefined;
    return keyword ? { name: keyword, callable: false, anonymousDefault: true } : undefined;
  }
  // `const f = () => ...` and a class field `f = () => ...` are functions by
  // another name, and callers, as the TypeScript language service's call
  // hierarchy has it, and so is a class expression a const holds (`export const
  // InvalidValue: new (...) => InvalidValue = class extends Base {...}`): `new
  // InvalidValue(...)` calls it; a function held by a `let` or an object-literal property,
  // or held through parentheses or a cast (`const f = ((x) => ...) as F`),
  // calls on behalf of the function or class around it, as there. Any of them
  // holding a function, an object or a class expression contains declarations.
  if ((tsc.isVariableDeclaration(node) || tsc.isPropertyDeclaration(node) || tsc.isPropertyAssignment(node)) && node.initializer) {
    const value = skipOuterExpressions(node.initializer);
    const isFunction = tsc.isArrowFunction(value) || tsc.isFunctionExpression(value);
    if (isFunction || tsc.isObjectLiteralExpression(value) || tsc.isClassExpression(value)) {
      const isConst = tsc.isVariableDeclaration(node) && (tsc.getCombinedNodeFlags(node) & tsc.NodeFlags.Const) !== 0;
      const isField = tsc.isPropertyDeclaration(node) && tsc.isIdentifier(node.name);
      const isClass = tsc.isClassExpression(value);
      return { name: node.name, callable: (isFunction || isClass) && value === node.initializer && (isConst || isField) };
    }
  }
  return undefined;
}

function defaultKeyword(node: ts.FunctionDeclaration | ts.ClassDeclaration): ts.Node | undefined {
  return node.modifiers?.find((m) => m.kind === tsc.SyntaxKind.DefaultKeyword);
}

/**
 * `export default <value>` where the value has no name of its own to export
 * (an arrow function, a function or class expression, an object literal, a
 * call's result): TypeScript names it `default`, at the statement's `default`
 * keyword. A name (`export default foo`) exports what it names, which the
 * index already has.
 */
function anonymousDefaultValue(node: ts.ExportAssignment): DeclarationOf | undefined {
  if (node.isExportEquals) return undefined;
  const value = skipOuterExpressions(node.expression);
  if (tsc.isIdentifier(value) || tsc.isPropertyAccessExpression(value)) return undefined;
  // The statement's tokens are not nodes of the tree: its `default` is the first token after `export`.
  const keyword = node.getChildren().find((c) => c.kind === tsc.SyntaxKind.DefaultKeyword);
  if (!keyword) return undefined;
  return {
    name: keyword,
    value,
    callable: tsc.isArrowFunction(value) || tsc.isFunctionExpression(value),
    anonymousDefault: true,
    ...exportedNames(node.expression),
  };
}

/**
 * The names TypeScript's findReferences takes an `export default` for an
 * export of: those whose parent is its expression (an identifier whose
 * grandparent is the export, its importTracker's test, meant for `export =
 * class A {}`): the function called and the arguments of `export default
 * make(getLength)`, not in parentheses, nor deeper.
 */
function exportedNames(value: ts.Expression): { exportedNames?: ts.Node[] } {
  const names: ts.Node[] = [];
  tsc.forEachChild(value, (child) => {
    if (tsc.isIdentifier(child)) names.push(child);
  });
  return names.length > 0 ? { exportedNames: names } : {};
}

/**
 * `module.exports = <value>` at the top of a JavaScript module: what an
 * `import x from './m.js'` gets, TypeScript's `export =`. Declared at
 * `module.exports`, whose start is where TypeScript's goToDefinition puts
 * such a module's export. But an object literal of shorthand properties
 * alone (`module.exports = { a, b }`) TypeScript binds as an export list
 * (`export { a, b }`): no value of its own, the module is its file.
 */
function moduleExportsValue(node: ts.BinaryExpression): DeclarationOf | undefined {
  const value = exportsAssignedWhole(node);
  // A member (`= require('bson').Double`, `= utils.format`) is no name of the module's own: TypeScript declares the
  // assignment, resolved or not (goToDefinition at `module`, and at an importer's binding, goes to it).
  if (!value || tsc.isIdentifier(value)) return undefined;
  if (tsc.isObjectLiteralExpression(value) && value.properties.every(tsc.isShorthandPropertyAssignment)) return undefined;
  const name = node.left;
  return {
    name,
    value,
    callable: tsc.isArrowFunction(value) || tsc.isFunctionExpression(value),
    anonymousDefault: true,
    moduleExports: true,
    // `module.exports = require('./impl')` re-exports a module, as TypeScript binds it: no names of its own.
    ...(requiredModule(node.right) ? {} : exportedNames(node.right)),
  };
}

/**
 * What `module.exports = <value>` at the top of a JavaScript module assigns,
 * in a chain of assignments too (`exports = module.exports = internals.Auth =
 * class {...}`, hapi's style): the value at its end.
 */
function exportsAssignedWhole(node: ts.BinaryExpression): ts.Expression | undefined {
  let statement: ts.BinaryExpression = node;
  while (tsc.isBinaryExpression(statement.parent) && isAssignment(statement.parent) && statement.parent.right === statement) {
    statement = statement.parent;
  }
  const topLevel = tsc.isExpressionStatement(statement.parent) && atTopOfModule(statement.parent);
  if (!isAssignment(node) || !isModuleExports(node.left) || !topLevel || (node.flags & tsc.NodeFlags.JavaScriptFile) === 0)
    return undefined;
  let value = skipOuterExpressions(node.right);
  while (tsc.isBinaryExpression(value) && isAssignment(value)) value = skipOuterExpressions(value.right);
  return value;
}

const isAssignment = (node: ts.BinaryExpression) => node.operatorToken.kind === tsc.SyntaxKind.EqualsToken;

/**
 * A statement the module runs as it loads: at its top, or in a branch there
 * (`if (process.env.NODE_ENV === 'production') { module.exports = require('./a') } else {...}`,
 * the entry point of debug and of React's packages), not in a function.
 */
function atTopOfModule(statement: ts.Statement): boolean {
  let node: ts.Node = statement;
  while (tsc.isBlock(node.parent) || tsc.isIfStatement(node.parent)) node = node.parent;
  return tsc.isSourceFile(node.parent);
}

/**
 * `exports.name = <value>` or `module.exports.name = <value>` at the top of a
 * JavaScript module: its export `name` (see Declaration.commonJsExport).
 * It calls nothing on its own behalf: TypeScript's call hierarchy names no
 * caller for an assignment, so the calls in an anonymous function assigned
 * are the module's, and a named one is its own caller (namedExpression).
 * What tsc's CommonJS output writes first, `exports.a = exports.b = void 0`,
 * declares nothing: TypeScript binds no assignment of `void 0` (the module's
 * `exports.a = a` further down declares `a`).
 */
function commonJsExportValue(node: ts.BinaryExpression): DeclarationOf | undefined {
  const target = topLevelAssignment(node);
  const name = target && exportedName(target);
  if (!name || isVoidZero(assignedValue(node.right))) return undefined;
  return { name, value: skipOuterExpressions(node.right), callable: false, commonJsExport: true };
}

/**
 * The names of tsc's CommonJS preamble, `exports.a = exports.b = void 0`,
 * declare nothing (commonJsExportValue); TypeScript reads each as the export
 * the module declares further down (`exports.a = a`), and goToDefinition goes
 * there. Each such name becomes an alias of that declaration's name.
 */
function aliasExportPreamble(file: ts.SourceFile, facts: SyntaxFacts): void {
  const preamble: ts.Identifier[] = [];
  const declared = new Map<string, ts.Identifier>();
  for (const statement of file.statements) {
    if (!tsc.isExpressionStatement(statement)) continue;
    const assignment = skipOuterExpressions(statement.expression);
    if (!tsc.isBinaryExpression(assignment) || !topLevelAssignment(assignment)) continue;
    if (isVoidZero(assignedValue(assignment.right))) {
      for (let value: ts.Expression = assignment; tsc.isBinaryExpression(value); value = skipOuterExpressions(value.right)) {
        if (value.operatorToken.kind !== tsc.SyntaxKind.EqualsToken) break;
        const name = exportedName(value.left);
        if (name) preamble.push(name);
      }
      continue;
    }
    const name = exportedName(assignment.left);
    if (name && !declared.has(name.text)) declared.set(name.text, name);
  }
  for (const name of preamble) {
    const target = declared.get(name.text);
    if (!target) continue;
    const from = file.getLineAndCharacterOfPosition(name.getStart(file));
    const to = file.getLineAndCharacterOfPosition(target.getStart(file));
    facts.addAlias({
      range: [from.line, from.character, from.line, from.character + name.text.length],
      target: [to.line, to.character],
      write: true,
    });
  }
}

/** `name` of `exports.name` or `module.exports.name`. */
function exportedName(node: ts.Expression): ts.Identifier | undefined {
  if (!tsc.isPropertyAccessExpression(node) || !tsc.isIdentifier(node.name)) return undefined;
  const exports = node.expression;
  return namesExports(exports) ? node.name : undefined;
}

/** The value an expression that may chain assignments gives (`v` of `b = v`, or of `a = b = v`). */
function assignedValue(expression: ts.Expression): ts.Expression {
  let value = skipOuterExpressions(expression);
  while (tsc.isBinaryExpression(value) && value.operatorToken.kind === tsc.SyntaxKind.EqualsToken) {
    value = skipOuterExpressions(value.right);
  }
  return value;
}

/** `void 0`. */
function isVoidZero(node: ts.Expression): boolean {
  return tsc.isVoidExpression(node) && tsc.isNumericLiteral(node.expression) && node.expression.text === '0';
}

/**
 * `A.prototype.m = function () {...}` (or an arrow function), a statement of
 * a JavaScript file at any depth: a method of A's instances, as TypeScript
 * binds it (see Declaration.assignedMember). Its owner is `A`.
 */
function prototypeMethodValue(node: ts.BinaryExpression): DeclarationOf | undefined {
  const target = memberAssigned(node);
  const prototype = target?.expression;
  if (!target || !prototype || !tsc.isPropertyAccessExpression(prototype) || prototype.name.text !== 'prototype') return undefined;
  if (!tsc.isIdentifier(prototype.expression)) return undefined;
  const value = skipOuterExpressions(node.right);
  if (!tsc.isFunctionExpression(value) && !tsc.isArrowFunction(value)) return undefined;
  return { name: target.name, value, callable: true, member: { owner: prototype.expression }, assignedMember: true };
}

/**
 * `A.m = value`, a statement of a JavaScript file at any depth, where A is a
 * name: A's own member `m`, as TypeScript binds it when A is a function, a
 * class or an object literal of the file (expandableName, which the walk
 * learns once it has seen the whole file). `exports.m` and
 * `module.exports.m` are exports (commonJsExportValue).
 */
function ownMemberAssignment(node: ts.BinaryExpression): (DeclarationOf & { owner: string }) | undefined {
  const target = memberAssigned(node);
  if (!target || !tsc.isIdentifier(target.expression) || target.expression.text === 'exports') return undefined;
  const value = skipOuterExpressions(node.right);
  const callable = tsc.isFunctionExpression(value) || tsc.isArrowFunction(value);
  return { name: target.name, value, callable, member: { owner: target.expression }, assignedMember: true, owner: target.expression.text };
}

/**
 * The name a JavaScript module exports whole: `app` of `var app = exports =
 * module.exports = {...}` (or `= module.exports = ...`), or of `module.exports
 * = app` at the top level.
 */
function exportedWholeName(node: ts.Node): string | undefined {
  if (tsc.isVariableDeclaration(node) && tsc.isIdentifier(node.name) && node.initializer) {
    // `var httpProxy = module.exports` (http-proxy's lib/http-proxy/index.js): the name is an alias of the exports.
    const initializer = skipOuterExpressions(node.initializer);
    if (namesExports(initializer)) return node.name.text;
    for (let value = initializer; tsc.isBinaryExpression(value); value = skipOuterExpressions(value.right)) {
      if (value.operatorToken.kind !== tsc.SyntaxKind.EqualsToken) return undefined;
      if (namesExports(value.left)) return node.name.text;
    }
    return undefined;
  }
  if (!tsc.isBinaryExpression(node) || !tsc.isExpressionStatement(node.parent) || !tsc.isSourceFile(node.parent.parent)) return undefined;
  const value = skipOuterExpressions(node.right);
  return node.operatorToken.kind === tsc.SyntaxKind.EqualsToken && isModuleExports(node.left) && tsc.isIdentifier(value)
    ? value.text
    : undefined;
}

/** The member `a.m` that `a.m = value`, a statement of a JavaScript file, assigns. */
function memberAssigned(node: ts.BinaryExpression): (ts.PropertyAccessExpression & { name: ts.Identifier }) | undefined {
  const target = node.left;
  if (node.operatorToken.kind !== tsc.SyntaxKind.EqualsToken || !tsc.isExpressionStatement(node.parent)) return undefined;
  if ((node.flags & tsc.NodeFlags.JavaScriptFile) === 0 || !tsc.isPropertyAccessExpression(target) || !tsc.isIdentifier(target.name))
    return undefined;
  return target as ts.PropertyAccessExpression & { name: ts.Identifier };
}

/**
 * The name of what a node declares that JavaScript adds members to by
 * assignment, as TypeScript binds them: `function A`, `class A`, a variable
 * holding a function, a class or an object literal (`var utils = {}`, and
 * `var app = exports = module.exports = {}`).
 */
function expandableName(node: ts.Node): { name: string; object: boolean } | undefined {
  if ((tsc.isFunctionDeclaration(node) || tsc.isClassDeclaration(node)) && node.name) return { name: node.name.text, object: false };
  if (!tsc.isVariableDeclaration(node) || !tsc.isIdentifier(node.name) || !node.initializer) return undefined;
  const value = assignedValue(node.initializer);
  if (tsc.isObjectLiteralExpression(value)) return { name: node.name.text, object: true };
  return tsc.isFunctionExpression(value) || tsc.isArrowFunction(value) || tsc.isClassExpression(value)
    ? { name: node.name.text, object: false }
    : undefined;
}

/**
 * A function's scope, as TypeScript's binder has containers: the file, a
 * function, a class's static block, a namespace's body. `var` and (in sloppy
 * mode) `function` declare names there.
 */
function isContainerScope(node: ts.Node): boolean {
  return tsc.isSourceFile(node) || tsc.isFunctionLike(node) || tsc.isClassStaticBlockDeclaration(node) || tsc.isModuleBlock(node);
}

/** A block's scope, where `let`, `const` and `class` declare names: a container, or a block that is no function's body, a loop's head, a switch's cases, a catch. */
function isBlockScope(node: ts.Node): boolean {
  if (tsc.isBlock(node)) return !(tsc.isFunctionLike(node.parent) || tsc.isClassStaticBlockDeclaration(node.parent));
  return (
    isContainerScope(node) ||
    tsc.isForStatement(node) ||
    tsc.isForInStatement(node) ||
    tsc.isForOfStatement(node) ||
    tsc.isCaseBlock(node) ||
    tsc.isCatchClause(node)
  );
}

function nearest(node: ts.Node, test: (n: ts.Node) => boolean): ts.Node | undefined {
  let n: ts.Node | undefined = node.parent;
  while (n && !test(n)) n = n.parent;
  return n;
}

/**
 * The scopes where an expandable declaration (see expandableName) puts its
 * name: `var` its container; `let`, `const` and `class` their block; a
 * function both, as strict and sloppy mode differ where it sits in a block.
 */
function scopesDeclaring(node: ts.Node): ts.Node[] {
  const container = nearest(node, isContainerScope);
  const block = nearest(node, isBlockScope);
  let scopes: (ts.Node | undefined)[];
  if (tsc.isFunctionDeclaration(node)) scopes = [container, block];
  else if (tsc.isVariableDeclaration(node) && tsc.isVariableDeclarationList(node.parent))
    scopes = [node.parent.flags & tsc.NodeFlags.BlockScoped ? block : container];
  else scopes = [block];
  return scopes.filter((s) => s !== undefined);
}

/** The scopes TypeScript looks up the owner of `A.m = value` in: the statement's block, then its container. */
function scopesOfStatement(node: ts.Node): ts.Node[] {
  return [nearest(node, isBlockScope), nearest(node, isContainerScope)].filter((s) => s !== undefined);
}

/** What `target = value` assigns, where the statement is at the top of a JavaScript module and assigns a property. */
function topLevelAssignment(node: ts.BinaryExpression): ts.PropertyAccessExpression | undefined {
  const target = node.left;
  return node.operatorToken.kind === tsc.SyntaxKind.EqualsToken &&
    tsc.isPropertyAccessExpression(target) &&
    tsc.isExpressionStatement(node.parent) &&
    tsc.isSourceFile(node.parent.parent) &&
    (node.flags & tsc.NodeFlags.JavaScriptFile) !== 0
    ? target
    : undefined;
}

/** `exports` or `module.exports`. */
function namesExports(node: ts.Expression): boolean {
  return tsc.isIdentifier(node) ? node.text === 'exports' : isModuleExports(node);
}

/** `module.exports`. */
function isModuleExports(node: ts.Expression): boolean {
  return (
    tsc.isPropertyAccessExpression(node) &&
    tsc.isIdentifier(node.expression) &&
    node.expression.text === 'module' &&
    node.name.text === 'exports'
  );
}

/** The specifier of `require('./m')`, the whole initializer. */
function requiredModule(initializer: ts.Expression): ts.StringLiteral | undefined {
  const call = skipOuterExpressions(initializer);
  if (!tsc.isCallExpression(call) || !tsc.isIdentifier(call.expression) || call.expression.text !== 'require') return undefined;
  const [specifier] = call.arguments;
  return call.arguments.length === 1 && specifier && tsc.isStringLiteral(specifier) ? specifier : undefined;
}

/**
 * A name standing for what another module exports, and what names that
 * module (see ModuleName): `import x from './m'` (its default), `import { a }
 * from './m'`, `export { a as b } from './m'`, `ns.a` where `ns` is one of
 * the file's namespace imports or a `require('./m')` bound whole, and
 * `require('./m').a` (prepare checks that the index says each names a
 * module).
 */
function moduleNameOf(node: ts.Node, namespaces: ReadonlySet<string>): { name: ts.Node; module: ts.Node; isDefault: boolean } | undefined {
  switch (node.kind) {
    case tsc.SyntaxKind.ImportDeclaration: {
      const declaration = node as ts.ImportDeclaration;
      const name = declaration.importClause?.name;
      return name && tsc.isStringLiteral(declaration.moduleSpecifier)
        ? { name, module: declaration.moduleSpecifier, isDefault: true }
        : undefined;
    }
    case tsc.SyntaxKind.ImportSpecifier:
    case tsc.SyntaxKind.ExportSpecifier: {
      const specifier = node as ts.ImportSpecifier | ts.ExportSpecifier;
      const imported = specifier.propertyName ?? specifier.name;
      const module = tsc.isExportSpecifier(specifier)
        ? specifier.parent.parent.moduleSpecifier
        : specifier.parent.parent.parent.moduleSpecifier;
      return tsc.isIdentifier(imported) && module && tsc.isStringLiteral(module) ? { name: imported, module, isDefault: false } : undefined;
    }
    case tsc.SyntaxKind.PropertyAccessExpression: {
      const access = node as ts.PropertyAccessExpression;
      if (!tsc.isIdentifier(access.name)) return undefined;
      if (tsc.isIdentifier(access.expression) && namespaces.has(access.expression.text))
        return { name: access.name, module: access.expression, isDefault: false };
      // `require('./m').a`: the module is named by the specifier.
      const required = requiredModule(access.expression);
      return required && { name: access.name, module: required, isDefault: false };
    }
    case tsc.SyntaxKind.ImportType: {
      // `import('./m').A` (or `.A.B`) in a type: A is the module's export.
      const type = node as ts.ImportTypeNode;
      const literal =
        tsc.isLiteralTypeNode(type.argument) && tsc.isStringLiteral(type.argument.literal) ? type.argument.literal : undefined;
      let qualifier = type.qualifier;
      while (qualifier && tsc.isQualifiedName(qualifier)) qualifier = qualifier.left;
      return literal && qualifier ? { name: qualifier, module: literal, isDefault: false } : undefined;
    }
    default:
      return undefined;
  }
}

/** A function expression that is directly the initializer of a const or a class field named by an identifier. */
function isHeld(expression: ts.FunctionExpression): boolean {
  const parent = expression.parent;
  return (
    ((tsc.isVariableDeclaration(parent) && (tsc.getCombinedNodeFlags(parent) & tsc.NodeFlags.Const) !== 0) ||
      tsc.isPropertyDeclaration(parent)) &&
    parent.initializer === expression &&
    tsc.isIdentifier(parent.name)
  );
}

/**
 * The name of the const an object literal initializes, directly or through
 * the calls that wrap it (`const X = freeze({...})`, `Object.freeze`).
 */
function literalOwner(literal: ts.ObjectLiteralExpression): ts.Node | undefined {
  let node: ts.Node = literal;
  for (;;) {
    const parent = node.parent;
    if (
      tsc.isParenthesizedExpression(parent) ||
      tsc.isAsExpression(parent) ||
      tsc.isSatisfiesExpression(parent) ||
      (tsc.isCallExpression(parent) && parent.arguments.length === 1 && parent.arguments[0] === node)
    ) {
      node = parent;
      continue;
    }
    const isConst = tsc.isVariableDeclaration(parent) && (tsc.getCombinedNodeFlags(parent) & tsc.NodeFlags.Const) !== 0;
    return isConst && parent.initializer === node && tsc.isIdentifier(parent.name) ? parent.name : undefined;
  }
}

function skipOuterExpressions(node: ts.Expression): ts.Expression {
  while (
    tsc.isParenthesizedExpression(node) ||
    tsc.isAsExpression(node) ||
    tsc.isSatisfiesExpression(node) ||
    tsc.isTypeAssertionExpression(node)
  ) {
    node = node.expression;
  }
  return node;
}

/** The name a call is made through: `f` in `f()`, `m` in `a.b.m()`. */
function calleeName(expression: ts.Expression): ts.Node | undefined {
  const callee = skipOuterExpressions(expression);
  if (tsc.isIdentifier(callee)) return callee;
  if (tsc.isPropertyAccessExpression(callee)) return callee.name;
  return undefined;
}

/** [required, most] arguments of a signature; most is Infinity with a rest parameter. */
function parameterCounts(node: ts.SignatureDeclaration): [number, number] {
  const parameters = node.parameters.filter((p) => !(tsc.isIdentifier(p.name) && p.name.text === 'this'));
  const required = parameters.filter((p) => !p.questionToken && !p.initializer && !p.dotDotDotToken).length;
  return [required, parameters.some((p) => p.dotDotDotToken) ? Infinity : parameters.length];
}

/** The name in the `extends` clause of the class around a `super` call. */
function baseClassName(node: ts.Node): ts.Node | undefined {
  let scope: ts.Node | undefined = node.parent;
  while (scope && !tsc.isClassLike(scope)) scope = scope.parent;
  const extendsClause = scope?.heritageClauses?.find((c) => c.token === tsc.SyntaxKind.ExtendsKeyword);
  const expression = extendsClause?.types[0]?.expression;
  if (!expression) return undefined;
  return tsc.isPropertyAccessExpression(expression) ? expression.name : expression;
}

/** The names of the types a class or interface extends or implements. */
function heritageNames(node: ts.Node): ts.Node[] {
  if (!(tsc.isClassLike(node) || tsc.isInterfaceDeclaration(node)) || !node.heritageClauses) return [];
  const names: ts.Node[] = [];
  for (const clause of node.heritageClauses) {
    for (const type of clause.types) {
      const expression = type.expression;
      names.push(tsc.isPropertyAccessExpression(expression) ? expression.name : expression);
    }
  }
  return names;
}

function usage(node: ts.Identifier | ts.PrivateIdentifier, inType: boolean): number {
  // The expression the name stands for: itself, or `a.name` when it is a member name.
  let expr: ts.Node = node;
  if ((tsc.isPropertyAccessExpression(expr.parent) || tsc.isQualifiedName(expr.parent)) && nameOf(expr.parent) === expr) expr = expr.parent;
  while (tsc.isParenthesizedExpression(expr.parent) || tsc.isNonNullExpression(expr.parent)) expr = expr.parent;
  const parent = expr.parent;
  if (isWriteTarget(expr)) return RefKindCode.write;
  if (
    ((tsc.isCallExpression(parent) || tsc.isNewExpression(parent)) && parent.expression === expr) ||
    (tsc.isTaggedTemplateExpression(parent) && parent.tag === expr) ||
    (tsc.isDecorator(parent) && parent.expression === expr) ||
    ((tsc.isJsxOpeningElement(parent) || tsc.isJsxSelfClosingElement(parent) || tsc.isJsxClosingElement(parent)) && parent.tagName === expr)
  ) {
    return RefKindCode.call;
  }
  if (tsc.isBindingElement(parent) && tsc.isObjectBindingPattern(parent.parent) && (parent.propertyName ?? parent.name) === expr) {
    return DESTRUCTURED;
  }
  return inType ? RefKindCode.type : RefKindCode.identifier;
}

function nameOf(node: ts.PropertyAccessExpression | ts.QualifiedName): ts.Node {
  return tsc.isPropertyAccessExpression(node) ? node.name : node.right;
}

/**
 * Assignment targets, including destructuring assignments and ++/--. Asked of
 * every name: one switch on the parent's kind, not a test per kind.
 */
function isWriteTarget(expr: ts.Node): boolean {
  let node = expr;
  for (;;) {
    const parent = node.parent;
    switch (parent.kind) {
      case tsc.SyntaxKind.BinaryExpression: {
        const binary = parent as ts.BinaryExpression;
        return binary.left === node && isAssignmentOperator(binary.operatorToken.kind);
      }
      case tsc.SyntaxKind.PrefixUnaryExpression:
      case tsc.SyntaxKind.PostfixUnaryExpression: {
        const operator = (parent as ts.PrefixUnaryExpression | ts.PostfixUnaryExpression).operator;
        return operator === tsc.SyntaxKind.PlusPlusToken || operator === tsc.SyntaxKind.MinusMinusToken;
      }
      case tsc.SyntaxKind.ForInStatement:
      case tsc.SyntaxKind.ForOfStatement:
        return (parent as ts.ForInOrOfStatement).initializer === node;
      // Destructuring assignment: climb through the literal that is the target.
      case tsc.SyntaxKind.PropertyAssignment:
        if ((parent as ts.PropertyAssignment).initializer !== node) return false;
        break;
      case tsc.SyntaxKind.ShorthandPropertyAssignment:
      case tsc.SyntaxKind.ArrayLiteralExpression:
      case tsc.SyntaxKind.SpreadElement:
      case tsc.SyntaxKind.SpreadAssignment:
      case tsc.SyntaxKind.ObjectLiteralExpression:
      case tsc.SyntaxKind.ParenthesizedExpression:
        break;
      default:
        return false;
    }
    node = parent;
  }
}

function isAssignmentOperator(kind: ts.SyntaxKind): boolean {
  return kind >= tsc.SyntaxKind.FirstAssignment && kind <= tsc.SyntaxKind.LastAssignment;
}
