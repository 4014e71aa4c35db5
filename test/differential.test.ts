// Differential test on real code (rxjs 7.8.2). At sampled positions sextant's
// goToDefinition and findReferences are held against
//  - the raw SCIP index, decoded here and read by the rules of a precise answer
//    (the definitions of the symbol at the position; its occurrences and those
//    of symbols linked to it by one is_reference hop): sextant must lose none
//    of it. sextant adds to it (a class and its constructor share references,
//    is_reference links are followed transitively, goToDefinition adds the
//    class of a constructor and merged declarations, names the index missed
//    are resolved), so it is a superset, not an equal;
//  - a live typescript-language-server on the same pinned TypeScript:
//    precision and recall are measured for the raw SCIP answers ("before") and
//    sextant's ("after"), side by side and per kind of disagreement, so that
//    the effect of each addition shows; sextant's are held to floors the
//    measured data clears.
import assert from 'node:assert/strict';
import { isAbsolute } from 'node:path';
import { after, before, test } from 'node:test';
import ts from 'typescript';
import type * as Definition from '../src/protocol/definition.js';
import type * as References from '../src/protocol/references.js';
import { parseSymbol } from '../src/scip/symbol.js';
import {
  DEFINITION_ROLE,
  isEmpty,
  isLocal,
  locationKey,
  rangeKey,
  rawOccurrences,
  rawSymbolsAt,
  type RawIndex,
  type RawOccurrence,
} from './support/raw-scip.js';
import { startRxjsDifferential, type RxjsDifferential } from './support/rxjs-differential.js';
import { fmt, formatSummary, prng, score, shuffle, summarize, type Score } from './support/stats.js';
import { pinnedTypeScriptVersion, TypeScriptLanguageServer, type LspLocation } from './support/typescript-language-server.js';

const SEED = 0x5e47a7;
/** Set to print every disagreement of both answers. */
const VERBOSE = process.env.SEXTANT_DIFFERENTIAL_VERBOSE === '1';

// ---------------------------------------------------------------- raw SCIP answers

/** The answer the raw index gives at a position, read by the rules of a precise answer. */
interface RawAnswer {
  symbols: string[];
  definitions: RawOccurrence[];
  references: RawOccurrence[];
}

function rawAnswer(raw: RawIndex, p: Position): RawAnswer {
  const symbols = rawSymbolsAt(raw, p.path, p.line, p.character);
  const definitions = rawOccurrences(raw, p.path, symbols).filter((o) => o.roles & DEFINITION_ROLE);
  // The symbols themselves and those one is_reference hop away (an override and what it overrides).
  const related = symbols.filter((s) => !isLocal(s)).flatMap((s) => [...(raw.referenceRelated.get(s) ?? [])]);
  const seen = new Set<string>();
  const references = rawOccurrences(raw, p.path, [...new Set([...symbols, ...related])]).filter((o) => {
    const key = rangeKey(o.path, o.range);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { symbols, definitions, references };
}

// ---------------------------------------------------------------- sampling

type Category = 'class/type' | 'method' | 'function' | 'property' | 'variable' | 'local' | 'parameter' | 'import' | 'other';

interface Position {
  path: string;
  line: number;
  character: number;
  role: 'definition' | 'reference';
  category: Category;
  name: string;
}

/** Positions are drawn per (role, category) stratum, and within a stratum over files in turn, so that all kinds and many files are covered. */
const QUOTAS: Record<Position['role'], Partial<Record<Category, number>>> = {
  definition: { 'class/type': 12, method: 14, function: 12, property: 12, variable: 8, local: 8, parameter: 6 },
  reference: { 'class/type': 14, method: 16, function: 14, property: 14, variable: 10, local: 10, parameter: 6, import: 18 },
};

function categoryOf(symbol: string, lineText: string): Category {
  if (/^\s*(import|export)\b.*\bfrom\b/.test(lineText) || /^\s*import\b/.test(lineText)) return 'import';
  if (isLocal(symbol)) return 'local';
  let descriptors;
  try {
    descriptors = parseSymbol(symbol).descriptors;
  } catch {
    return 'other';
  }
  const last = descriptors[descriptors.length - 1]!;
  const ownerIsType = descriptors[descriptors.length - 2]?.suffix === 'type';
  switch (last.suffix) {
    case 'type':
      return 'class/type';
    case 'method':
      return ownerIsType ? 'method' : 'function';
    case 'term':
      return ownerIsType ? 'property' : 'variable';
    case 'parameter':
      return 'parameter';
    default:
      return 'other';
  }
}

/**
 * Samples positions from the occurrences of the raw SCIP index (the same
 * occurrences sextant stores, as the first test checks), at a random column
 * inside the occurrence's name.
 */
function samplePositions(raw: RawIndex): Position[] {
  const random = prng(SEED);
  const strata = new Map<string, Map<string, RawOccurrence[]>>();
  for (const [path, occurrences] of raw.documents) {
    for (const o of occurrences) {
      if (isEmpty(o.range) || o.range[0] !== o.range[2]) continue;
      const role = o.roles & DEFINITION_ROLE ? 'definition' : 'reference';
      const key = `${role}/${categoryOf(o.symbol, d.lines(path)[o.range[0]]!)}`;
      if (!strata.has(key)) strata.set(key, new Map());
      const byFile = strata.get(key)!;
      if (!byFile.has(path)) byFile.set(path, []);
      byFile.get(path)!.push(o);
    }
  }
  const positions: Position[] = [];
  for (const role of ['definition', 'reference'] as const) {
    for (const [category, quota] of Object.entries(QUOTAS[role]) as [Category, number][]) {
      const byFile = strata.get(`${role}/${category}`);
      assert.ok(byFile, `no ${role} occurrences of kind ${category} in the corpus`);
      const files = shuffle([...byFile.keys()].sort(), random);
      const taken = new Set<RawOccurrence>();
      for (let i = 0; taken.size < quota && i < quota * files.length; i++) {
        const candidates = byFile.get(files[i % files.length]!)!.filter((o) => !taken.has(o));
        if (candidates.length === 0) continue;
        const o = candidates[Math.floor(random() * candidates.length)]!;
        taken.add(o);
        const character = o.range[1] + Math.floor(random() * (o.range[3] - o.range[1]));
        const name = d.lines(o.path)[o.range[0]]!.slice(o.range[1], o.range[3]);
        positions.push({ path: o.path, line: o.range[0], character, role, category, name });
      }
    }
  }
  return positions;
}

// ---------------------------------------------------------------- setup

let d: RxjsDifferential;
let positions: Position[];

before(async () => {
  d = await startRxjsDifferential();
  positions = samplePositions(d.raw);
});

after(async () => {
  await d?.stop();
});

const sextantAnswers = new Map<Position, Promise<{ definition: Definition.Result; references: References.Result }>>();

/** goToDefinition and findReferences (declarations included, as many as allowed) at a position, asked once. */
function askSextant(p: Position) {
  if (!sextantAnswers.has(p)) {
    const q = { repo: d.slug, path: p.path, line: p.line + 1, column: p.character + 1 };
    sextantAnswers.set(
      p,
      Promise.all([d.navigation.goToDefinition(q), d.navigation.findReferences({ ...q, include_declaration: true, limit: 2000 })]).then(
        ([definition, references]) => ({ definition, references }),
      ),
    );
  }
  return sextantAnswers.get(p)!;
}

/** Whether a symbol's name says what it is, not which one of its file's counted locals or anonymous types. */
function isNamed(symbol: string): boolean {
  return !isLocal(symbol) && !/typeLiteral\d+:/.test(symbol);
}

/**
 * A raw occurrence's key, a module's definition where sextant defines it: the
 * indexer puts it at the start of the file, TypeScript's goToDefinition at its
 * first token (past comments), as sextant does (orchestrator/prepare.ts);
 * TypeScript's own parse says where that is. At a module's specifier sextant
 * answers the file's start, as the raw index does.
 */
function keyAsDefined(o: RawOccurrence): string {
  if (!(o.roles & DEFINITION_ROLE) || !o.symbol.endsWith('/') || isLocal(o.symbol) || o.range.some((n) => n !== 0))
    return rangeKey(o.path, o.range);
  const file = ts.createSourceFile(o.path, d.lines(o.path).join('\n'), ts.ScriptTarget.Latest);
  const { line, character } = file.getLineAndCharacterOfPosition(file.getStart(file));
  return rangeKey(o.path, [line, character, line, character]);
}

/**
 * A raw occurrence's key as findReferences lists it: a string literal's
 * (a module specifier, `'./map'`) spans its text, without the quotes, as
 * TypeScript's references do; the index spans the literal.
 */
function keyAsReferenced(o: RawOccurrence): string {
  const [line, start, endLine, end] = o.range;
  const text = d.lines(o.path)[line] ?? '';
  const quoted = line === endLine && end - start >= 2 && (text[start] === "'" || text[start] === '"') && text[end - 1] === text[start];
  return quoted ? rangeKey(o.path, [line, start + 1, line, end - 1]) : keyAsDefined(o);
}

// ---------------------------------------------------------------- tests

test('the language server runs the pinned TypeScript', () => {
  assert.deepEqual(d.server.typescript, { version: pinnedTypeScriptVersion(), source: 'user-setting' });
});

test('sextant loses nothing of what the raw SCIP index says, at every sampled position', async (t) => {
  assert.ok(positions.length >= 120, `only ${positions.length} positions sampled`);
  assert.ok(new Set(positions.map((p) => p.path)).size >= 60, 'the sample should spread over many files');
  const losses: string[] = [];
  const added = {
    symbols: new Set<Position>(),
    definitions: 0,
    definitionPositions: new Set<Position>(),
    references: 0,
    referencePositions: new Set<Position>(),
  };
  for (const p of positions) {
    const at = `${p.path}:${p.line + 1}:${p.character + 1} (${p.role} of ${p.category} "${p.name}")`;
    const raw = rawAnswer(d.raw, p);
    const { definition: def, references: refs } = await askSextant(p);
    const missing = (expected: Iterable<string>, actual: ReadonlySet<string>) => [...expected].filter((k) => !actual.has(k));
    const symbols = new Set(def.symbols);
    // A name the indexer counts out per file (`local 12`, `typeLiteral3`) is no identity sextant must keep: its
    // own run names such symbols apart (orchestrator/composed-types-patch.ts). Their places are checked below.
    const lostSymbols = missing(raw.symbols.filter(isNamed), symbols);
    if (lostSymbols.length) losses.push(`${at}: symbols lost: ${lostSymbols.join(' ')}`);
    if (symbols.size > raw.symbols.length) added.symbols.add(p);
    const defs = new Set(def.definitions.map(locationKey));
    // At a module's specifier, its definition is answered at the file's start (see keyAsDefined).
    const defKey = /^['"`]/.test(p.name) ? (o: RawOccurrence) => rangeKey(o.path, o.range) : keyAsDefined;
    const rawDefs = new Set(raw.definitions.map(defKey));
    // What sextant may leave out: at a call, the overloads (declarations of one symbol in one file) its
    // argument count rules out, keeping at least one of them; at a name that declares one symbol and uses
    // another (`{ f }`, `const { a } = o`), the name itself, for what it uses (TypeScript's answer).
    const overloadGroup = (o: RawOccurrence) => raw.definitions.filter((x) => x.symbol === o.symbol && x.path === o.path);
    const here = (o: RawOccurrence) =>
      o.path === p.path && o.range[0] === p.line && o.range[2] === p.line && o.range[1] <= p.character && p.character < o.range[3];
    const occurrencesHere = (d.raw.documents.get(p.path) ?? []).filter(here);
    const declaresAndUses =
      occurrencesHere.some((o) => o.roles & DEFINITION_ROLE) && occurrencesHere.some((o) => !(o.roles & DEFINITION_ROLE));
    const lostDefs = raw.definitions
      .filter((o) => !defs.has(defKey(o)))
      .filter((o) => {
        const group = overloadGroup(o);
        return group.length < 2 || !group.some((x) => defs.has(rangeKey(x.path, x.range)));
      })
      .filter((o) => !(declaresAndUses && defs.size > 0 && here(o)))
      .map(defKey);
    if (lostDefs.length) losses.push(`${at}: definitions lost: ${lostDefs.join(' ')} (sextant has ${[...defs].join(' ') || 'none'})`);
    const extraDefs = missing(defs, rawDefs).length;
    added.definitions += extraDefs;
    if (extraDefs) added.definitionPositions.add(p);
    const got = new Set(refs.references.map(locationKey));
    const rawRefs = new Set(raw.references.map(keyAsReferenced));
    const lostRefs = missing(rawRefs, got);
    if (lostRefs.length) losses.push(`${at}: references lost: ${lostRefs.join(' ')}`);
    if (refs.total < rawRefs.size) losses.push(`${at}: references total ${refs.total}, raw SCIP has ${rawRefs.size}`);
    if (refs.truncated) losses.push(`${at}: references truncated at ${refs.limit} of ${refs.total}`);
    const extraRefs = missing(got, rawRefs).length;
    added.references += extraRefs;
    if (extraRefs) added.referencePositions.add(p);
  }
  const strata = new Map<string, number>();
  for (const p of positions) strata.set(`${p.role}s of ${p.category}`, (strata.get(`${p.role}s of ${p.category}`) ?? 0) + 1);
  const lines = [
    `${positions.length} positions in ${new Set(positions.map((p) => p.path)).size} files compared with the raw SCIP index: ` +
      [...strata].map(([k, n]) => `${n} ${k}`).join(', '),
    `sextant adds to the raw index: symbols at ${added.symbols.size} positions, ${added.definitions} definitions at ${added.definitionPositions.size} positions, ` +
      `${added.references} references at ${added.referencePositions.size} positions`,
    ...losses.map((l) => `lost: ${l}`),
  ];
  for (const line of lines) {
    t.diagnostic(line);
    console.log(line);
  }
  assert.equal(losses.length, 0, `sextant loses what the raw SCIP index says at ${losses.length} place(s):\n${losses.join('\n')}`);
});

// ---------------------------------------------------------------- disagreements

/** Whose answer is held against the language server: the raw index ("before") or sextant ("after"). */
type Answerer = 'raw SCIP' | 'sextant';

interface Disagreement {
  position: Position;
  /** The symbols the answer under test found at the position. */
  symbols: readonly string[];
  /** The source lines of its definitions. */
  definitionLines: readonly string[];
  answer: 'definition' | 'references';
  /** Who alone has the location: the answer under test, or the language server. */
  side: 'ours' | 'tsserver';
  path: string;
  line: number;
  character: number;
}

interface DisagreementKind {
  name: string;
  matches(x: Disagreement): boolean;
}

const isConstructor = (s: string) => s.endsWith('`<constructor>`().');
const isMethodOrItsParameter = (s: string) => /\)\.(\([^)]*\))?$/.test(s);
const atLocation = (x: Disagreement) => rawSymbolsAt(d.raw, x.path, x.line, x.character);
const atPosition = (x: Disagreement) => rawSymbolsAt(d.raw, x.position.path, x.position.line, x.position.character);
/** A symbol with its kind suffix dropped: `X#` (interface) and `X.` (const) of one declaration-merged name become equal. */
const stem = (s: string) => s.replace(/(#|\.|\(\)\.)$/, '');

/** Kinds of disagreement seen on rxjs; the first that matches names a disagreement, 'other' when none does. */
const DISAGREEMENTS: DisagreementKind[] = [
  {
    name: 'tsserver counts names in comments (JSDoc {@link X}, @param x); SCIP indexes code only, sextant resolves most of them by scope',
    matches: (x) => x.side === 'tsserver' && /^\s*(\*|\/\*|\/\/)/.test(d.lines(x.path)[x.line]!),
  },
  {
    name: "string literals that name a symbol (module specifiers, T['lift']): SCIP's range starts at the quote, tsserver's inside it, and only SCIP counts a module's own file as a reference",
    matches: (x) => /^['"`]/.test(x.position.name),
  },
  {
    name: "the constructor's declaration (`constructor(...)`) among the references of its class or of a `new X()`: tsserver leaves it out",
    matches: (x) =>
      x.side === 'ours' && atLocation(x).some(isConstructor) && d.lines(x.path)[x.line]!.startsWith('constructor', x.character),
  },
  {
    name: 'asked at a constructor (its declaration, or `new X()`): sextant answers for its class too (the class declaration, imports, type annotations, static member accesses), tsserver for the constructor and its calls',
    matches: (x) => x.side === 'ours' && atPosition(x).some(isConstructor) && !atLocation(x).some(isConstructor),
  },
  {
    name: '`new X(...)` and a class passed as a value: SCIP records the constructor X#<constructor>(), tsserver the class X',
    matches: (x) => [...x.symbols, ...atLocation(x)].some(isConstructor),
  },
  {
    name: 'overloads: SCIP gives all signatures of a function, and their same-named parameters, one symbol, so each is a definition; tsserver answers with the signature at hand',
    matches: (x) => x.side === 'ours' && x.definitionLines.length > 1 && x.symbols.some(isMethodOrItsParameter),
  },
  {
    name: 'static and instance members of one name share a SCIP symbol (Scheduler.now and scheduler.now), so their definitions and references mix',
    matches: (x) => x.definitionLines.some((l) => /\bstatic\b/.test(l)) && x.definitionLines.some((l) => !/\bstatic\b/.test(l)),
  },
  {
    name: 'declaration merging (an interface and a const of one name): tsserver answers for both, SCIP keeps two symbols',
    matches: (x) =>
      x.side === 'tsserver' && atLocation(x).some((s) => !x.symbols.includes(s) && x.symbols.some((q) => stem(q) === stem(s))),
  },
  {
    name: 'one range, two SCIP symbols (destructuring `const { length } = a`, a name that is an interface and a const): sextant answers for both, tsserver for one',
    matches: (x) => atPosition(x).length > 1 || atLocation(x).length > 1,
  },
  {
    name: 'shorthand property `{ x }`: SCIP records only the object-literal property, tsserver also the variable x',
    matches: (x) =>
      x.side === 'tsserver' &&
      [...atPosition(x), ...atLocation(x)].some(isObjectLiteralProperty) &&
      (isShorthand(x.position.path, x.position.line, x.position.character) || isShorthand(x.path, x.line, x.character)),
  },
  {
    name: 'object-literal properties typed by an interface (`{ next: (x) => ... }` passed as an Observer): tsserver counts them as references of the interface member, SCIP gives them symbols of their own',
    matches: (x) => x.side === 'tsserver' && [...atPosition(x), ...atLocation(x)].some(isObjectLiteralProperty),
  },
  {
    name: 'related members: tsserver follows overrides, implementations and structural matches transitively; SCIP links one is_reference hop',
    matches: (x) => x.side === 'tsserver' && /^(method|property|parameter)$/.test(x.position.category),
  },
];

/** Whether the name at a position is a shorthand property: `{ x }`, `{ a, x, b }`. */
function isShorthand(path: string, line: number, character: number): boolean {
  const text = d.lines(path)[line]!;
  const start = text.slice(0, character + 1).search(/[\w$]+$/);
  const name = /^[\w$]+/.exec(text.slice(start))?.[0] ?? '';
  return /(^|[{,])\s*$/.test(text.slice(0, start)) && /^\s*([,}]|$)/.test(text.slice(start + name.length));
}

/** scip-typescript names the properties of object literals and type literals with a meta descriptor (`value0:`). */
function isObjectLiteralProperty(symbol: string): boolean {
  try {
    return parseSymbol(symbol).descriptors.some((x) => x.suffix === 'meta');
  } catch {
    return false;
  }
}

function categorize(x: Disagreement): string {
  return DISAGREEMENTS.find((c) => c.matches(x))?.name ?? 'other';
}

function describe(x: Disagreement, answerer: Answerer): string {
  const text = d.lines(x.path)[x.line]!.trim();
  return (
    `${x.answer} of "${x.position.name}" at ${x.position.path}:${x.position.line + 1}:${x.position.character + 1}: ` +
    `only ${x.side === 'ours' ? answerer : 'tsserver'} has ${x.path}:${x.line + 1}:${x.character + 1} \`${text.length > 90 ? text.slice(0, 89) + '…' : text}\``
  );
}

type Place = { path: string; line: number; character: number };
/** Locations by path and start, the match key of the comparison. */
const places = (ls: Place[]) => new Map(ls.map((l) => [`${l.path}:${l.line}:${l.character}`, l]));
const rawPlace = (o: RawOccurrence): Place => ({ path: o.path, line: o.range[0], character: o.range[1] });

/** One side of the comparison: its scores and its disagreements by kind. */
interface Tally {
  definitions: Score[];
  references: Score[];
  kinds: Map<string, { ours: number; tsserver: number; positions: Set<Position>; example: string }>;
}

test('sextant agrees with typescript-language-server on definitions and references, better than the raw index', async (t) => {
  const tallies: Record<Answerer, Tally> = {
    'raw SCIP': { definitions: [], references: [], kinds: new Map() },
    sextant: { definitions: [], references: [], kinds: new Map() },
  };
  let outside = 0;
  for (const p of positions) {
    const { definition: def, references: refs } = await askSextant(p);
    const raw = rawAnswer(d.raw, p);
    const serverDefinitions = await d.server.definition(p.path, p.line, p.character);
    const serverReferences = await d.server.references(p.path, p.line, p.character, true);
    // The server also answers with declarations in lib.d.ts and the like, which no index of this repository holds.
    const inside = (ls: LspLocation[]) => places(ls.filter((l) => !isAbsolute(l.path)));
    outside += [...serverDefinitions, ...serverReferences].filter((l) => isAbsolute(l.path)).length;
    const server = { definition: inside(serverDefinitions), references: inside(serverReferences) };
    const answers: Record<
      Answerer,
      { symbols: readonly string[]; definitionLines: readonly string[]; definition: Map<string, Place>; references: Map<string, Place> }
    > = {
      'raw SCIP': {
        symbols: raw.symbols,
        definitionLines: raw.definitions.map((o) => d.lines(o.path)[o.range[0]]!.trimEnd()),
        definition: places(raw.definitions.map(rawPlace)),
        references: places(raw.references.map(rawPlace)),
      },
      sextant: {
        symbols: def.symbols,
        definitionLines: def.definitions.map((x) => x.preview ?? ''),
        definition: places(def.definitions.map((x) => ({ path: x.path, line: x.line - 1, character: x.column - 1 }))),
        references: places(refs.references.map((r) => ({ path: r.path, line: r.line - 1, character: r.column - 1 }))),
      },
    };
    for (const answerer of ['raw SCIP', 'sextant'] as const) {
      const ours = answers[answerer];
      const tally = tallies[answerer];
      tally.definitions.push(score(ours.definition, server.definition));
      tally.references.push(score(ours.references, server.references));
      for (const answer of ['definition', 'references'] as const) {
        for (const [side, mine, theirs] of [
          ['ours', ours[answer], server[answer]],
          ['tsserver', server[answer], ours[answer]],
        ] as const) {
          for (const [k, place] of mine) {
            if (theirs.has(k)) continue;
            const x: Disagreement = { position: p, symbols: ours.symbols, definitionLines: ours.definitionLines, answer, side, ...place };
            const name = categorize(x);
            if (VERBOSE) console.log(`disagreement ${answerer} [${name.slice(0, 30)}] ${describe(x, answerer)}`);
            const kind = tally.kinds.get(name) ?? { ours: 0, tsserver: 0, positions: new Set(), example: describe(x, answerer) };
            kind[side]++;
            kind.positions.add(p);
            tally.kinds.set(name, kind);
          }
        }
      }
    }
  }
  const summary = {
    'raw SCIP': { definitions: summarize(tallies['raw SCIP'].definitions), references: summarize(tallies['raw SCIP'].references) },
    sextant: { definitions: summarize(tallies.sextant.definitions), references: summarize(tallies.sextant.references) },
  };
  const sum = (ss: Score[], f: (s: Score) => number) => ss.reduce((n, s) => n + f(s), 0);
  const sizes = (ss: Score[]) =>
    `${sum(ss, (s) => s.sextant)} answered, ${sum(ss, (s) => s.both)} of them in tsserver's ${sum(ss, (s) => s.server)}`;
  const report = [
    `differential vs typescript-language-server (TypeScript ${d.server.typescript.version}), ${positions.length} positions; ` +
      `${outside} server locations outside the repository (lib.d.ts) ignored`,
    ...(['definitions', 'references'] as const).flatMap((answer) =>
      (['raw SCIP', 'sextant'] as const).map(
        (answerer) =>
          `${answer}, ${answerer === 'raw SCIP' ? 'before (raw SCIP)' : 'after (sextant)'}: ${formatSummary(summary[answerer][answer])} (${sizes(tallies[answerer][answer])})`,
      ),
    ),
    'disagreements by kind, before (raw SCIP) -> after (sextant); "ours" is the answer held against tsserver (hurts precision), "tsserver" what it lacks (hurts recall):',
    ...[...new Set([...tallies['raw SCIP'].kinds.keys(), ...tallies.sextant.kinds.keys()])]
      .map((name) => {
        const none = { ours: 0, tsserver: 0, positions: new Set<Position>(), example: '' };
        const b = tallies['raw SCIP'].kinds.get(name) ?? none;
        const a = tallies.sextant.kinds.get(name) ?? none;
        return { name, b, a };
      })
      .sort((x, y) => y.b.ours + y.b.tsserver + y.a.ours + y.a.tsserver - (x.b.ours + x.b.tsserver + x.a.ours + x.a.tsserver))
      .map(
        ({ name, b, a }) =>
          `ours ${b.ours} -> ${a.ours}, tsserver ${b.tsserver} -> ${a.tsserver} locations, at ${b.positions.size} -> ${a.positions.size} positions — ${name}; ` +
          `e.g. ${a.example ? `after: ${a.example}` : `before: ${b.example}`}`,
      ),
  ];
  for (const line of report) {
    t.diagnostic(line);
    console.log(line);
  }
  const { definitions, references } = summary.sextant;
  // Floors a little under what sextant measured on rxjs (definitions: precision 0.930 micro / 0.959 macro, recall 1.000 / 1.000;
  // references: precision 0.962 / 0.908, recall 0.976 / 0.945), well over the raw index (definitions: precision 0.769 / 0.922,
  // recall 0.960 / 0.978; references: precision 0.962 / 0.905, recall 0.870 / 0.875), so that losing one of sextant's
  // additions, or a kind of answer, fails.
  const floors: [string, number, number][] = [
    ['definition precision (micro)', definitions.microPrecision, 0.9],
    ['definition precision (macro)', definitions.macroPrecision, 0.93],
    ['definition recall (micro)', definitions.microRecall, 0.98],
    ['definition recall (macro)', definitions.macroRecall, 0.98],
    ['reference precision (micro)', references.microPrecision, 0.94],
    ['reference precision (macro)', references.macroPrecision, 0.88],
    ['reference recall (micro)', references.microRecall, 0.95],
    ['reference recall (macro)', references.macroRecall, 0.92],
  ];
  const below = floors.filter(([, value, floor]) => !(value >= floor)).map(([name, value, floor]) => `${name} ${fmt(value)} < ${floor}`);
  assert.deepEqual(below, [], 'sextant fell under its floors');
  // Better than the raw index, as the title says: on every measure, sextant's figure is at least the raw index's.
  const raw = summary['raw SCIP'];
  const measures: [string, (s: typeof raw) => number][] = [
    ['definition precision (micro)', (s) => s.definitions.microPrecision],
    ['definition precision (macro)', (s) => s.definitions.macroPrecision],
    ['definition recall (micro)', (s) => s.definitions.microRecall],
    ['definition recall (macro)', (s) => s.definitions.macroRecall],
    ['reference precision (micro)', (s) => s.references.microPrecision],
    ['reference precision (macro)', (s) => s.references.macroPrecision],
    ['reference recall (micro)', (s) => s.references.microRecall],
    ['reference recall (macro)', (s) => s.references.macroRecall],
  ];
  const worse = measures
    .filter(([, of]) => !(of(summary.sextant) >= of(raw)))
    .map(([name, of]) => `${name}: sextant ${fmt(of(summary.sextant))} < raw index ${fmt(of(raw))}`);
  assert.deepEqual(worse, [], 'sextant is below the raw index on some measure');
});

test('a language server that dies fails its pending requests with the reason', async () => {
  const doomed = await TypeScriptLanguageServer.start(d.repo);
  try {
    await doomed.open('src/internal/Observable.ts');
    // The first request loads the whole project, so it is still pending when the server is killed.
    const pending = doomed.references('src/internal/Observable.ts', 14, 14, true);
    // Killed once the request is on the wire: a write still queued in the connection when the pipe is torn
    // down fails inside vscode-jsonrpc, where no caller can catch it. Loading rxjs takes seconds, so it is still pending.
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.kill(-doomed.pid, 'SIGKILL');
    await assert.rejects(pending, /typescript-language-server \(pid \d+\) was killed by SIGKILL/);
    await assert.rejects(doomed.definition('src/internal/Observable.ts', 14, 14), /was killed by SIGKILL/);
  } finally {
    await doomed.stop();
  }
});
