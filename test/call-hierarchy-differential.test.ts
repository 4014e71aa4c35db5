// Differential test of callHierarchy on real code (rxjs 7.8.2). For a seeded
// sample of functions, methods, constructors and arrow functions held in
// consts, sextant's incoming and outgoing calls (depth 1, calls only) are held
// against typescript-language-server's call hierarchy (prepareCallHierarchy at
// the same position, then incomingCalls / outgoingCalls) on the same pinned
// TypeScript: precision and recall of callers, callees and call ranges are
// measured, printed with the kinds of disagreement seen, and held to floors
// the measured data clears.
//
// What is compared, and the conventions that are not disagreements:
//  - a caller or callee is keyed by its path and the start of its selection
//    range (sextant: the item's line/column, the name of the definition);
//    tsserver's File/Module item (top-level code) matches sextant's `module`
//    item of that file;
//  - tsserver has no constructor items (a constructor is its class: calls in a
//    constructor come from the class, `new X()` calls the class) and names an
//    overloaded function by its first signature, sextant by the definition
//    with a body: both sides' keys go through the raw SCIP index to the
//    definition with a body, a constructor to its class;
//  - tsserver's outgoing call ranges span the callee expression
//    (`source.subscribe`), its incoming ones the name: the outgoing ones are
//    cut to the name they end with;
//  - callees outside the repository (lib.d.ts; sextant's items without a path)
//    are counted apart and left out of precision and recall, their ranges too;
//  - targets are definitions with a body: tsserver's outgoing calls of an
//    overload signature are empty (it looks for the body through the symbol's
//    first declaration), which would say nothing of sextant.
// Each disagreement is put in a kind by looking at the syntax around it (a
// TypeScript parse, with tsserver's own rule for which declarations own
// calls); SEXTANT_DIFFERENTIAL_VERBOSE=1 prints every one.
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { isAbsolute, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import ts from 'typescript';
import { SymbolKind, type CallHierarchyItem } from 'vscode-languageserver-protocol';
import type * as CallHierarchy from '../src/protocol/call-hierarchy.js';
import { SymbolRole } from '../src/scip/schema.js';
import { parseSymbol } from '../src/scip/symbol.js';
import { isLocal, rawSymbolsAt, type RawOccurrence } from './support/raw-scip.js';
import { isCallHierarchyDeclaration } from './support/ts-call-hierarchy.js';
import { startRxjsDifferential, type RxjsDifferential } from './support/rxjs-differential.js';
import { drawStratified, fmt, formatSummary, prng, score, summarize, type Score } from './support/stats.js';

const SEED = 0xca11ed;
/** Set to print every disagreement. */
const VERBOSE = process.env.SEXTANT_DIFFERENTIAL_VERBOSE === '1';

// ---------------------------------------------------------------- sampling

type Stratum = 'function' | 'method' | 'constructor' | 'arrow function in a const' | 'nested function' | 'no callers in the index';

/** At most how many of each (rxjs has only a few nested function declarations); the strata are disjoint, 'no callers in the index' drawn first from every kind. */
const QUOTAS: Record<Stratum, number> = {
  'no callers in the index': 10,
  function: 24,
  method: 24,
  constructor: 12,
  'arrow function in a const': 16,
  'nested function': 10,
};

interface Target {
  path: string;
  /** 0-based start of the name (the `constructor` keyword for a constructor). */
  line: number;
  character: number;
  name: string;
  stratum: Stratum;
  symbol: string;
}

/** The kind of callable a definition occurrence defines, or undefined when it is not one the sample takes. */
function callableKind(o: RawOccurrence, text: string): Exclude<Stratum, 'no callers in the index'> | undefined {
  const before = text.slice(0, o.range[1]);
  const after = text.slice(o.range[3]);
  // `const f = (...) => ...`, `const f = function ...`: tsserver's call hierarchy takes only consts.
  const arrowConst =
    /\bconst\s+$/.test(before) && /^\s*(:[^=]*)?=\s*(async\s*)?(function\b|(<[^>]*>)?\([^()]*\)\s*(:[^=]*)?=>|[\w$]+\s*=>)/.test(after);
  if (isLocal(o.symbol)) {
    if (/\bfunction\s*\*?\s*$/.test(before)) return 'nested function';
    return arrowConst ? 'arrow function in a const' : undefined;
  }
  let descriptors;
  try {
    descriptors = parseSymbol(o.symbol).descriptors;
  } catch {
    return undefined;
  }
  const last = descriptors[descriptors.length - 1]!;
  const ownerIsType = descriptors[descriptors.length - 2]?.suffix === 'type';
  // Only definitions with a body: an overload's implementation, not its signatures nor an interface's.
  if (last.suffix === 'method' && o.enclosing) {
    if (last.name === '<constructor>') return 'constructor';
    return ownerIsType ? 'method' : 'function';
  }
  if (last.suffix === 'term' && !ownerIsType && arrowConst) return 'arrow function in a const';
  return undefined;
}

const IMPORT_OR_EXPORT = /^\s*(import\b|export\s*(\*|\{|type\s*\{))/;

/**
 * Draws the targets from the definitions of the raw SCIP index, per stratum
 * and within a stratum over files in turn. 'no callers in the index' takes
 * callables whose symbol occurs nowhere but in its definitions and in
 * import/export lines.
 */
function sampleTargets(d: RxjsDifferential): Target[] {
  const random = prng(SEED);
  const candidates = new Map<Stratum, Map<string, Target[]>>();
  const add = (stratum: Stratum, t: Target) => {
    if (!candidates.has(stratum)) candidates.set(stratum, new Map());
    const byFile = candidates.get(stratum)!;
    if (!byFile.has(t.path)) byFile.set(t.path, []);
    byFile.get(t.path)!.push(t);
  };
  for (const [path, occurrences] of d.raw.documents) {
    for (const o of occurrences) {
      if (!(o.roles & SymbolRole.Definition)) continue;
      const text = d.lines(path)[o.range[0]]!;
      const kind = callableKind(o, text);
      // Of an overloaded function, only the definition with a body (see the top of the file).
      if (!kind || implementationOf(isLocal(o.symbol) ? `${path}\0${o.symbol}` : o.symbol) !== o) continue;
      const target: Target = {
        path,
        line: o.range[0],
        character: o.range[1],
        name: text.slice(o.range[1], o.range[3]),
        stratum: kind,
        symbol: o.symbol,
      };
      const uses = (isLocal(o.symbol) ? occurrences.filter((u) => u.symbol === o.symbol) : d.raw.bySymbol.get(o.symbol)!).filter(
        (u) => !(u.roles & SymbolRole.Definition) && !IMPORT_OR_EXPORT.test(d.lines(u.path)[u.range[0]]!),
      );
      add(
        uses.length === 0 ? 'no callers in the index' : kind,
        uses.length === 0 ? { ...target, stratum: 'no callers in the index' } : target,
      );
    }
  }
  return drawStratified(candidates, QUOTAS, random);
}

// ---------------------------------------------------------------- keys

interface Place {
  path: string;
  line: number;
  character: number;
  /** A module item: the file's top-level code. */
  file?: boolean;
}

const placeKey = (p: Place) => `${p.path}:${p.line}:${p.character}`;
const fileKey = (path: string) => `${path}:<file>`;

/** Counts of keys that a convention rewrote, by convention, to show how much the comparison leans on them. */
const conventions = new Map<string, number>();
const applied = (name: string) => conventions.set(name, (conventions.get(name) ?? 0) + 1);

let d: RxjsDifferential;

/** Raw SCIP definition occurrences by their start, and a symbol's definitions. */
let definitionsAt: Map<string, RawOccurrence[]>;
let definitionsOfSymbol: Map<string, RawOccurrence[]>;

function indexDefinitions(): void {
  definitionsAt = new Map();
  definitionsOfSymbol = new Map();
  for (const [path, occurrences] of d.raw.documents) {
    for (const o of occurrences) {
      if (!(o.roles & SymbolRole.Definition)) continue;
      const at = placeKey({ path, line: o.range[0], character: o.range[1] });
      if (!definitionsAt.has(at)) definitionsAt.set(at, []);
      definitionsAt.get(at)!.push(o);
      const bySymbol = isLocal(o.symbol) ? `${path}\0${o.symbol}` : o.symbol;
      if (!definitionsOfSymbol.has(bySymbol)) definitionsOfSymbol.set(bySymbol, []);
      definitionsOfSymbol.get(bySymbol)!.push(o);
    }
  }
}

/** The definition of a symbol with the widest extent: of an overloaded function, the one with a body. */
function implementationOf(symbolKey: string): RawOccurrence | undefined {
  const extent = (o: RawOccurrence) => (o.enclosing ? (o.enclosing[2] - o.enclosing[0]) * 1e6 + (o.enclosing[3] - o.enclosing[1]) : -1);
  return (definitionsOfSymbol.get(symbolKey) ?? []).reduce<RawOccurrence | undefined>(
    (best, o) => (!best || extent(o) > extent(best) ? o : best),
    undefined,
  );
}

/**
 * The key of a definition: its start, moved through the raw SCIP index from a
 * constructor to its class, and from an overload signature to the definition
 * with a body.
 */
function definitionKey(p: Place): string {
  const key = placeKey(p);
  for (const o of definitionsAt.get(key) ?? []) {
    let symbol = o.symbol;
    let convention = 'an overload signature is its implementation';
    if (symbol.endsWith('`<constructor>`().')) {
      symbol = symbol.slice(0, -'`<constructor>`().'.length);
      convention = 'a constructor is its class';
    }
    const canonical = implementationOf(isLocal(symbol) ? `${o.path}\0${symbol}` : symbol);
    if (!canonical) continue;
    const moved = placeKey({ path: canonical.path, line: canonical.range[0], character: canonical.range[1] });
    if (moved !== key) applied(convention);
    return moved;
  }
  return key;
}

function sextantItemKey(item: CallHierarchy.CallItem): string | undefined {
  if (item.path === null || item.line === null || item.column === null) return undefined;
  if (item.kind === 'module') return fileKey(item.path);
  return definitionKey({ path: item.path, line: item.line - 1, character: item.column - 1 });
}

/** undefined for an item outside the repository. */
function serverItemKey(item: CallHierarchyItem): string | undefined {
  const path = relativePath(item.uri);
  if (path === undefined) return undefined;
  if (item.kind === SymbolKind.File || (item.kind === SymbolKind.Module && item.name === posix.basename(path))) {
    applied('a file item is the module');
    return fileKey(path);
  }
  return definitionKey({ path, line: item.selectionRange.start.line, character: item.selectionRange.start.character });
}

let realRoot: string;

/** The repository-relative path of a file URI of the server, or undefined outside the repository (lib.d.ts). */
function relativePath(uri: string): string | undefined {
  const rel = relative(realRoot, fileURLToPath(uri));
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? undefined : rel.split(sep).join('/');
}

const sextantRangeKey = (r: CallHierarchy.CallRange) => placeKey({ path: r.path, line: r.line - 1, character: r.column - 1 });

/** tsserver's outgoing range spans the callee expression: the start of the name it ends with. */
function serverOutgoingRangeKey(path: string, range: { start: ts.LineAndCharacter; end: ts.LineAndCharacter }): string {
  const text = d.lines(path)[range.end.line]!.slice(range.end.line === range.start.line ? range.start.character : 0, range.end.character);
  const name = /[\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$\u200c\u200d]*$/u.exec(text);
  if (!name || (range.end.line === range.start.line && name.index === 0)) {
    return placeKey({ path, line: range.start.line, character: range.start.character });
  }
  applied("an outgoing range is the callee's name");
  return placeKey({ path, line: range.end.line, character: range.end.character - name[0].length });
}

// ---------------------------------------------------------------- syntax

const sourceFiles = new Map<string, ts.SourceFile>();

function sourceFile(path: string): ts.SourceFile {
  if (!sourceFiles.has(path)) {
    sourceFiles.set(path, ts.createSourceFile(path, d.lines(path).join('\n'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS));
  }
  return sourceFiles.get(path)!;
}

/** The innermost node at a position. */
function nodeAt(p: Place): ts.Node {
  const file = sourceFile(p.path);
  const offset = file.getPositionOfLineAndCharacter(p.line, p.character);
  let node: ts.Node = file;
  for (;;) {
    const child: ts.Node | undefined = node.getChildren(file).find((c) => c.getStart(file) <= offset && offset < c.getEnd());
    if (!child) return node;
    node = child;
  }
}

function ancestors(node: ts.Node): ts.Node[] {
  const out: ts.Node[] = [];
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) out.push(n);
  return out;
}

/** A name used as a call target: `f()`, `new F()`, `o.f()`, f`...`, `@f`. */
function isCalled(name: ts.Node): boolean {
  let expression: ts.Node = name;
  if (ts.isPropertyAccessExpression(name.parent) && name.parent.name === name) expression = name.parent;
  if (ts.isElementAccessExpression(name.parent) && name.parent.argumentExpression === name) expression = name.parent;
  while (ts.isParenthesizedExpression(expression.parent) || ts.isNonNullExpression(expression.parent)) expression = expression.parent;
  const p = expression.parent;
  return (
    ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression === expression) ||
    (ts.isTaggedTemplateExpression(p) && p.tag === expression) ||
    ts.isDecorator(p)
  );
}

// ---------------------------------------------------------------- disagreements

interface Disagreement {
  target: Target;
  direction: 'incoming' | 'outgoing';
  what: 'caller' | 'callee' | 'range';
  /** Who alone has it. */
  side: 'sextant' | 'tsserver';
  /** The caller or callee, or the call range. */
  place: Place;
  /** The name of the caller or callee (of a range: the one it belongs to). */
  name: string;
  /** The call ranges of the caller or callee; a range alone for a range. */
  ranges: Place[];
  /** The caller or callee of a range, on the side that has it. */
  party?: Place;
  /** The callers or callees to which the other side gives the same call ranges. */
  elsewhere: { name: string; place: Place }[];
}

interface DisagreementKind {
  name: string;
  matches(x: Disagreement): boolean;
}

/** The declaration a caller or callee names: the node around its name, the file for a module item. */
function declarationAt(p: Place): ts.Node {
  if (p.file) return sourceFile(p.path);
  const n = nodeAt(p);
  return n.kind === ts.SyntaxKind.ConstructorKeyword ? n.parent : ts.isIdentifier(n) || ts.isPrivateIdentifier(n) ? n.parent : n;
}

/** The innermost call hierarchy declaration around a range, by tsserver's rule. */
const ownerOf = (p: Place) => ancestors(nodeAt(p)).find(isCallHierarchyDeclaration) ?? sourceFile(p.path);

/** The call hierarchy declaration of a target, by tsserver's rule: a const's function, a constructor's class. */
function targetDeclaration(t: Target): ts.Node {
  const declaration = declarationAt(t);
  if (ts.isConstructorDeclaration(declaration)) return declaration.parent;
  if (ts.isVariableDeclaration(declaration) && declaration.initializer) return declaration.initializer;
  return declaration;
}

const isInside = (inner: ts.Node, outer: ts.Node) => inner.getStart() >= outer.getStart() && inner.getEnd() <= outer.getEnd();
/** Whether every call range of a disagreement satisfies `f`. */
const allRanges = (x: Disagreement, f: (r: Place) => boolean) => x.ranges.length > 0 && x.ranges.every(f);
/** The callers or callees of a disagreement on sextant's side and on tsserver's. */
const sides = (x: Disagreement) => {
  const own = [x.party ?? x.place];
  const other = x.elsewhere.map((e) => e.place);
  return x.side === 'sextant' ? { sextant: own, tsserver: other } : { sextant: other, tsserver: own };
};
const inClassFieldInitializer = (r: Place) => {
  const n = nodeAt(r);
  return ancestors(n).some((a) => ts.isPropertyDeclaration(a) && !!a.initializer && isInside(n, a.initializer) && ts.isClassLike(a.parent));
};
const holdsAFunctionValue = (n: ts.Node) =>
  ts.isParameter(n) ||
  ts.isBindingElement(n) ||
  ts.isPropertySignature(n) ||
  ((ts.isPropertyDeclaration(n) || ts.isPropertyAssignment(n) || ts.isVariableDeclaration(n)) &&
    !isCallHierarchyDeclaration(n.initializer ?? n));

/** Kinds of disagreement seen on rxjs; the first that matches names one, 'other' when none does. */
const DISAGREEMENTS: DisagreementKind[] = [
  {
    name: 'calls inside an arrow function held by an object-literal property (`{ next: (x) => ... }`): sextant names the property as the caller, tsserver the function around the object',
    matches: (x) => x.what === 'caller' && sides(x).sextant.some((p) => ts.isPropertyAssignment(declarationAt(p))),
  },
  {
    name: 'calls inside a method of an object literal (`const p = { schedule() {...} }`): tsserver names the method as the caller, sextant the file or the function around it',
    matches: (x) =>
      x.what === 'caller' &&
      sides(x).tsserver.some((p) => {
        const n = declarationAt(p);
        return (ts.isMethodDeclaration(n) || ts.isAccessor(n)) && ts.isObjectLiteralExpression(n.parent);
      }),
  },
  {
    name: "calls in class field initializers: tsserver counts them as the class's (its item for a constructor is the class), sextant as the file's or the enclosing function's",
    matches: (x) => allRanges(x, inClassFieldInitializer),
  },
  {
    name: '`super(...)`: tsserver has a call of the base class there, sextant none',
    matches: (x) => allRanges(x, (r) => nodeAt(r).kind === ts.SyntaxKind.SuperKeyword),
  },
  {
    name: 'asked at an overload signature: sextant answers for the implementation that follows it (the calls in its body), tsserver for the signature (no calls)',
    matches: (x) => {
      const target = declarationAt(x.target);
      return x.direction === 'outgoing' && x.side === 'sextant' && ts.isFunctionLike(target) && !(target as ts.FunctionLikeDeclaration).body;
    },
  },
  {
    name: 'a call through a union type (`this.destination.next()` with destination: Subscriber | Observer): SCIP records the member of each type and sextant lists them all, tsserver resolves no declaration',
    matches: (x) =>
      x.direction === 'outgoing' &&
      x.side === 'sextant' &&
      allRanges(x, (r) => rawSymbolsAt(d.raw, r.path, r.line, r.character).length > 1),
  },
  {
    name: 'calls of a parameter, property or variable holding a function (`init(...)`, `this.work(state)`): sextant lists it as a callee, tsserver lists only declared functions, methods and classes',
    matches: (x) => x.direction === 'outgoing' && x.side === 'sextant' && holdsAFunctionValue(declarationAt(x.party ?? x.place)),
  },
  {
    name: "calls made inside a named nested function or arrow const: sextant counts them as the outer function's outgoing calls (they lie in its extent), tsserver as the nested one's",
    matches: (x) =>
      x.direction === 'outgoing' &&
      x.side === 'sextant' &&
      allRanges(x, (r) => {
        const owner = ownerOf(r);
        const target = targetDeclaration(x.target);
        return owner !== target && isInside(owner, target);
      }),
  },
  {
    name: 'a method or accessor named through a property access without a call (`fn.bind(this)`, `this.fn` passed or assigned as a value): tsserver counts it as a call',
    matches: (x) =>
      x.side === 'tsserver' &&
      allRanges(x, (r) => {
        const n = nodeAt(r);
        return ts.isIdentifier(n) && ts.isPropertyAccessExpression(n.parent) && n.parent.name === n && !isCalled(n);
      }),
  },
  {
    name: 'calls through an interface or base method that the target implements or overrides: tsserver finds them, sextant lists calls of the symbol itself and its one-hop is_reference links',
    matches: (x) =>
      x.direction === 'incoming' &&
      x.side === 'tsserver' &&
      allRanges(x, (r) => !rawSymbolsAt(d.raw, r.path, r.line, r.character).includes(x.target.symbol)),
  },
  {
    name: '`new X()`',
    matches: (x) => allRanges(x, (r) => ts.isNewExpression(nodeAt(r).parent)),
  },
  {
    name: 'top-level code',
    matches: (x) => allRanges(x, (r) => ts.isSourceFile(ownerOf(r))),
  },
];

function categorize(x: Disagreement): string {
  return DISAGREEMENTS.find((c) => c.matches(x))?.name ?? 'other';
}

function describe(x: Disagreement): string {
  const text = d.lines(x.place.path)[x.place.line]!.trim();
  const where = (p: Place) => `${p.path}:${p.line + 1}:${p.character + 1}`;
  const ranges = x.ranges.map((r) => `${r.line + 1}:${r.character + 1}`).join(' ');
  const elsewhere = x.elsewhere.length
    ? `; ${x.side === 'sextant' ? 'tsserver' : 'sextant'} gives these calls to ${x.elsewhere.map((e) => `${e.name} at ${where(e.place)}`).join(', ')}`
    : '';
  return (
    `${x.direction} calls of ${x.target.stratum} "${x.target.name}" (${where(x.target)}): only ${x.side} has ` +
    (x.what === 'range'
      ? `the call at ${where(x.place)} (of ${x.name})`
      : `${x.what} ${x.name} at ${where(x.place)} (calls at ${ranges})`) +
    `${elsewhere} \`${text.length > 90 ? text.slice(0, 89) + '…' : text}\``
  );
}

// ---------------------------------------------------------------- setup

let targets: Target[];
const started = Date.now();

before(async () => {
  d = await startRxjsDifferential();
  realRoot = realpathSync(d.repo);
  indexDefinitions();
  targets = sampleTargets(d);
});

after(async () => {
  await d?.stop();
});

// ---------------------------------------------------------------- the comparison

/** A caller or callee with its call ranges. */
interface Party {
  name: string;
  place: Place;
  ranges: Place[];
}

interface Answer {
  item: string | undefined;
  parties: Map<string, Party>;
  /** Range key -> the key of its caller or callee. */
  ranges: Map<string, { place: Place; party: string }>;
  external: number;
}

function emptyAnswer(): Answer {
  return { item: undefined, parties: new Map(), ranges: new Map(), external: 0 };
}

function toPlace(key: string): Place {
  const m = /^(.*):(\d+):(\d+)$/.exec(key);
  if (m) return { path: m[1]!, line: Number(m[2]), character: Number(m[3]) };
  return { path: key.replace(/:<file>$/, ''), line: 0, character: 0, file: true };
}

function addParty(answer: Answer, key: string, name: string, rangeKeys: string[]): void {
  const party = answer.parties.get(key) ?? { name, place: toPlace(key), ranges: [] };
  answer.parties.set(key, party);
  for (const r of rangeKeys) {
    const place = toPlace(r);
    if (!party.ranges.some((p) => placeKey(p) === r)) party.ranges.push(place);
    answer.ranges.set(r, { place, party: key });
  }
}

async function askSextant(t: Target, direction: 'incoming' | 'outgoing'): Promise<Answer | string> {
  let result: CallHierarchy.Result;
  try {
    result = await d.navigation.callHierarchy({
      repo: d.slug,
      path: t.path,
      line: t.line + 1,
      column: t.character + 1,
      direction,
      depth: 1,
      include_references: false,
      limit: 1000,
    });
  } catch (error) {
    return (error as Error).message;
  }
  assert.equal(result.truncated, false, `${t.path}:${t.line + 1}: callHierarchy truncated at ${result.limit}`);
  const answer = emptyAnswer();
  answer.item = sextantItemKey(result.item);
  for (const call of result.calls) {
    const party = direction === 'incoming' ? call.from! : call.to!;
    const key = sextantItemKey(party);
    if (key === undefined) {
      answer.external += call.ranges.length;
      continue;
    }
    addParty(answer, key, `${party.kind} ${party.name}`, call.ranges.map(sextantRangeKey));
  }
  return answer;
}

const LSP_KIND: Record<number, string> = Object.fromEntries(Object.entries(SymbolKind).map(([k, v]) => [v, k.toLowerCase()]));

async function askServer(t: Target, direction: 'incoming' | 'outgoing', item: CallHierarchyItem): Promise<Answer> {
  const answer = emptyAnswer();
  answer.item = serverItemKey(item);
  if (direction === 'incoming') {
    for (const call of await d.server.incomingCalls(item)) {
      const key = serverItemKey(call.from);
      const path = relativePath(call.from.uri);
      if (key === undefined || path === undefined) {
        answer.external += call.fromRanges.length;
        continue;
      }
      const ranges = call.fromRanges.map((r) => placeKey({ path, line: r.start.line, character: r.start.character }));
      addParty(answer, key, `${LSP_KIND[call.from.kind]} ${call.from.name}`, ranges);
    }
  } else {
    for (const call of await d.server.outgoingCalls(item)) {
      const key = serverItemKey(call.to);
      if (key === undefined) {
        answer.external += call.fromRanges.length;
        continue;
      }
      // Outgoing ranges lie in the target's file.
      addParty(
        answer,
        key,
        `${LSP_KIND[call.to.kind]} ${call.to.name}`,
        call.fromRanges.map((r) => serverOutgoingRangeKey(t.path, r)),
      );
    }
  }
  return answer;
}

test('sextant agrees with typescript-language-server on call hierarchies', async (t) => {
  assert.ok(targets.length >= 60, `only ${targets.length} targets sampled`);
  assert.ok(new Set(targets.map((x) => x.path)).size >= 40, 'the sample should spread over many files');
  const scores = {
    incoming: { parties: [] as Score[], ranges: [] as Score[] },
    outgoing: { parties: [] as Score[], ranges: [] as Score[] },
  };
  const external = { incoming: { sextant: 0, tsserver: 0 }, outgoing: { sextant: 0, tsserver: 0 } };
  const byStratum = new Map<Stratum, { callers: Score[]; callees: Score[] }>();
  /** sextant failed to answer. */
  const failures: string[] = [];
  /** tsserver prepared no item (or several). */
  const unprepared: string[] = [];
  const itemMismatches: string[] = [];
  const noCallers = { sextant: 0, tsserver: 0, both: 0 };
  const categories = new Map<string, { count: number; what: Map<string, number>; targets: Set<Target>; example: string }>();
  const others: string[] = [];
  let serverMs = 0;
  let sextantMs = 0;
  for (const target of targets) {
    const at = `${target.path}:${target.line + 1}:${target.character + 1} (${target.stratum} "${target.name}")`;
    let t0 = performance.now();
    const items = await d.server.prepareCallHierarchy(target.path, target.line, target.character);
    serverMs += performance.now() - t0;
    if (items.length !== 1) {
      unprepared.push(`${at}: tsserver prepared ${items.length} items`);
      continue;
    }
    if (!byStratum.has(target.stratum)) byStratum.set(target.stratum, { callers: [], callees: [] });
    for (const direction of ['incoming', 'outgoing'] as const) {
      t0 = performance.now();
      const mine = await askSextant(target, direction);
      sextantMs += performance.now() - t0;
      t0 = performance.now();
      const theirs = await askServer(target, direction, items[0]!);
      serverMs += performance.now() - t0;
      if (typeof mine === 'string') {
        failures.push(`${at}: sextant ${direction}: ${mine}`);
        continue;
      }
      if (direction === 'incoming') {
        if (mine.item !== theirs.item) itemMismatches.push(`${at}: sextant's item ${mine.item}, tsserver's ${theirs.item}`);
        const none = { sextant: mine.parties.size === 0, tsserver: theirs.parties.size === 0 };
        if (none.sextant) noCallers.sextant++;
        if (none.tsserver) noCallers.tsserver++;
        if (none.sextant && none.tsserver) noCallers.both++;
      }
      scores[direction].parties.push(score(mine.parties, theirs.parties));
      byStratum.get(target.stratum)![direction === 'incoming' ? 'callers' : 'callees'].push(score(mine.parties, theirs.parties));
      scores[direction].ranges.push(score(mine.ranges, theirs.ranges));
      external[direction].sextant += mine.external;
      external[direction].tsserver += theirs.external;
      for (const [side, a, b] of [
        ['sextant', mine, theirs],
        ['tsserver', theirs, mine],
      ] as const) {
        const record = (x: Disagreement) => {
          const name = categorize(x);
          if (VERBOSE) console.log(`disagreement [${name.slice(0, 40)}] ${describe(x)}`);
          if (name === 'other' && others.length < 20) others.push(describe(x));
          const c = categories.get(name) ?? { count: 0, what: new Map(), targets: new Set(), example: describe(x) };
          c.count++;
          const what = `${x.direction === 'incoming' ? 'incoming' : 'outgoing'} ${x.what}s only in ${x.side}`;
          c.what.set(what, (c.what.get(what) ?? 0) + 1);
          c.targets.add(target);
          categories.set(name, c);
        };
        for (const [key, party] of a.parties) {
          if (b.parties.has(key)) continue;
          // Where the other side puts the same calls, if it has them.
          const elsewhere = [...new Set(party.ranges.map((r) => b.ranges.get(placeKey(r))?.party).filter((k) => k !== undefined))];
          record({
            target,
            direction,
            what: direction === 'incoming' ? 'caller' : 'callee',
            side,
            place: party.place,
            name: party.name,
            ranges: party.ranges,
            elsewhere: elsewhere.map((k) => ({ name: b.parties.get(k)!.name, place: b.parties.get(k)!.place })),
          });
        }
        for (const [key, range] of a.ranges) {
          if (b.ranges.has(key)) continue;
          const party = a.parties.get(range.party)!;
          record({
            target,
            direction,
            what: 'range',
            side,
            place: range.place,
            name: party.name,
            ranges: [range.place],
            party: party.place,
            elsewhere: [],
          });
        }
      }
    }
  }
  const summaries = {
    callers: summarize(scores.incoming.parties),
    incomingRanges: summarize(scores.incoming.ranges),
    callees: summarize(scores.outgoing.parties),
    outgoingRanges: summarize(scores.outgoing.ranges),
  };
  const sum = (ss: Score[], f: (s: Score) => number) => ss.reduce((n, s) => n + f(s), 0);
  const sizes = (ss: Score[]) =>
    `${sum(ss, (s) => s.sextant)} sextant / ${sum(ss, (s) => s.server)} tsserver / ${sum(ss, (s) => s.both)} both`;
  const strata = new Map<string, number>();
  for (const x of targets) strata.set(x.stratum, (strata.get(x.stratum) ?? 0) + 1);
  const report = [
    `call hierarchy vs typescript-language-server (TypeScript ${d.server.typescript.version}): ${targets.length} targets in ${new Set(targets.map((x) => x.path)).size} files (` +
      [...strata].map(([k, n]) => `${n} ${k}`).join(', ') +
      `); sextant failed at ${failures.length}, tsserver prepared no item at ${unprepared.length}; items differ at ${itemMismatches.length}; no callers: sextant ${noCallers.sextant}, tsserver ${noCallers.tsserver}, both ${noCallers.both}`,
    `callers: ${formatSummary(summaries.callers)} (${sizes(scores.incoming.parties)})`,
    `incoming call ranges: ${formatSummary(summaries.incomingRanges)} (${sizes(scores.incoming.ranges)})`,
    `callees: ${formatSummary(summaries.callees)} (${sizes(scores.outgoing.parties)})`,
    `outgoing call ranges: ${formatSummary(summaries.outgoingRanges)} (${sizes(scores.outgoing.ranges)})`,
    'by kind of target, micro: ' +
      [...byStratum]
        .map(([stratum, s]) => {
          const callers = summarize(s.callers);
          const callees = summarize(s.callees);
          return `${stratum} (${s.callers.length}): callers P ${fmt(callers.microPrecision)} R ${fmt(callers.microRecall)}, callees P ${fmt(callees.microPrecision)} R ${fmt(callees.microRecall)}`;
        })
        .join('; '),
    `outside the repository, left out: incoming ranges sextant ${external.incoming.sextant} / tsserver ${external.incoming.tsserver}, ` +
      `outgoing ranges sextant ${external.outgoing.sextant} / tsserver ${external.outgoing.tsserver}`,
    `conventions applied (keys rewritten): ${[...conventions].map(([k, n]) => `${n}× ${k}`).join('; ')}`,
    `time: sextant ${Math.round(sextantMs)} ms, tsserver ${Math.round(serverMs)} ms, whole test ${Math.round((Date.now() - started) / 1000)} s`,
    ...failures.map((f) => `sextant failed: ${f}`),
    ...unprepared.map((f) => `not compared: ${f}`),
    ...itemMismatches.map((f) => `item: ${f}`),
    'disagreements, most common first:',
    ...[...categories]
      .sort((a, b) => b[1].count - a[1].count)
      .map(
        ([name, c]) =>
          `${c.count} at ${c.targets.size} targets (${[...c.what].map(([w, n]) => `${n} ${w}`).join(', ')}) — ${name}; e.g. ${c.example}`,
      ),
    ...others.map((o) => `other: ${o}`),
  ];
  for (const line of report) {
    t.diagnostic(line);
    console.log(line);
  }
  assert.deepEqual(failures, [], 'sextant has a call hierarchy for every sampled callable');
  assert.ok(unprepared.length <= targets.length * 0.05, `tsserver prepared no item at ${unprepared.length} targets`);
  assert.deepEqual(itemMismatches, [], "sextant's item is the declaration tsserver prepares");
  assert.ok(noCallers.both >= 5, `the sample should hold callables without callers; it has ${noCallers.both}`);
  // Floors a little under what rxjs measured with 90 targets (callers: precision 0.997 micro / 1.000 macro, recall 0.969 / 0.949;
  // incoming ranges: 1.000 / 1.000, 0.961 / 0.943; callees: 0.989 / 0.970, 0.974 / 0.972; outgoing ranges: 0.991 / 0.970,
  // 0.959 / 0.969), so that losing a kind of call, or listing what is not one, fails.
  const floors: [string, number, number][] = [
    ['caller precision (micro)', summaries.callers.microPrecision, 0.97],
    ['caller precision (macro)', summaries.callers.macroPrecision, 0.97],
    ['caller recall (micro)', summaries.callers.microRecall, 0.94],
    ['caller recall (macro)', summaries.callers.macroRecall, 0.92],
    ['incoming range precision (micro)', summaries.incomingRanges.microPrecision, 0.98],
    ['incoming range recall (micro)', summaries.incomingRanges.microRecall, 0.93],
    ['incoming range recall (macro)', summaries.incomingRanges.macroRecall, 0.91],
    ['callee precision (micro)', summaries.callees.microPrecision, 0.96],
    ['callee precision (macro)', summaries.callees.macroPrecision, 0.95],
    ['callee recall (micro)', summaries.callees.microRecall, 0.94],
    ['callee recall (macro)', summaries.callees.macroRecall, 0.94],
    ['outgoing range precision (micro)', summaries.outgoingRanges.microPrecision, 0.96],
    ['outgoing range recall (micro)', summaries.outgoingRanges.microRecall, 0.93],
  ];
  const below = floors.filter(([, value, floor]) => !(value >= floor)).map(([name, value, floor]) => `${name} ${fmt(value)} < ${floor}`);
  assert.deepEqual(below, [], 'call hierarchies fell under their floors');
});
