// Differential test on real code (rxjs 7.8.2). At sampled positions sextant's
// goToDefinition and findReferences are held against
//  - the raw SCIP index, decoded here and read by the rules of a precise answer
//    (the definitions of the symbol at the position; its occurrences and those
//    of symbols linked to it by is_reference): they must be equal, since the
//    service may lose nothing between the indexer's data and its answer;
//  - a live typescript-language-server on the same pinned TypeScript: precision
//    and recall are measured, printed with the kinds of disagreement seen, and
//    held to floors the measured data clears.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { Navigation } from '../src/navigation/index.js';
import { openRegistry } from '../src/registry/open.js';
import type { Engine } from '../src/registry/engine.js';
import type * as Definition from '../src/protocol/definition.js';
import type * as References from '../src/protocol/references.js';
import { readIndexFields } from '../src/scip/stream.js';
import { decodeDocument, IndexField, PositionEncoding, SymbolRole } from '../src/scip/schema.js';
import { normalizeRange, type Range } from '../src/scip/range.js';
import { parseSymbol } from '../src/scip/symbol.js';
import { rxjsRepo } from './support/corpus.js';
import { PROJECT_ROOT } from './support/paths.js';
import { removeDir, tempDir } from './support/repos.js';
import { indexOrThrow, registryFile, testHome } from './support/sextant.js';
import { pinnedTypeScriptVersion, TypeScriptLanguageServer, type LspLocation } from './support/typescript-language-server.js';

const SEED = 0x5e47a7;

// ---------------------------------------------------------------- raw SCIP

interface RawOccurrence {
  path: string;
  range: Range;
  symbol: string;
  roles: number;
}

interface RawIndex {
  /** Occurrences of each document, by path. */
  documents: Map<string, RawOccurrence[]>;
  /** Occurrences of each global symbol across the index. */
  bySymbol: Map<string, RawOccurrence[]>;
  /** Symbols linked by an is_reference relationship, both directions. */
  referenceRelated: Map<string, Set<string>>;
}

async function readRawIndex(file: string): Promise<RawIndex> {
  const raw: RawIndex = { documents: new Map(), bySymbol: new Map(), referenceRelated: new Map() };
  const relate = (a: string, b: string) => {
    if (!raw.referenceRelated.has(a)) raw.referenceRelated.set(a, new Set());
    raw.referenceRelated.get(a)!.add(b);
  };
  for await (const field of readIndexFields(file)) {
    if (field.field !== IndexField.documents) continue;
    const doc = decodeDocument(field.bytes);
    // Ranges are compared as they are: that holds only while the indexer counts UTF-16 units as sextant does.
    assert.ok(
      doc.positionEncoding === PositionEncoding.Unspecified || doc.positionEncoding === PositionEncoding.Utf16,
      `${doc.relativePath}: position encoding ${doc.positionEncoding}`,
    );
    const occurrences: RawOccurrence[] = [];
    for (const o of doc.occurrences) {
      const range = normalizeRange(o.range);
      assert.ok(range && o.symbol, `${doc.relativePath}: occurrence without a symbol or a valid range: ${JSON.stringify(o)}`);
      const occurrence = { path: doc.relativePath, range, symbol: o.symbol, roles: o.symbolRoles };
      occurrences.push(occurrence);
      if (isLocal(o.symbol)) continue;
      if (!raw.bySymbol.has(o.symbol)) raw.bySymbol.set(o.symbol, []);
      raw.bySymbol.get(o.symbol)!.push(occurrence);
    }
    raw.documents.set(doc.relativePath, occurrences);
    for (const info of doc.symbols) {
      for (const r of info.relationships) {
        if (!r.isReference) continue;
        relate(info.symbol, r.symbol);
        relate(r.symbol, info.symbol);
      }
    }
  }
  return raw;
}

function isLocal(symbol: string): boolean {
  return symbol.startsWith('local ');
}

/** The symbols of the narrowest non-empty occurrences containing a 0-based position. */
function rawSymbolsAt(raw: RawIndex, path: string, line: number, character: number): string[] {
  const containing = (raw.documents.get(path) ?? []).filter(
    (o) =>
      !isEmpty(o.range) &&
      (line > o.range[0] || (line === o.range[0] && character >= o.range[1])) &&
      (line < o.range[2] || (line === o.range[2] && character < o.range[3])),
  );
  const size = (r: Range) => (r[2] - r[0]) * 1e6 + (r[3] - r[1]);
  const smallest = Math.min(...containing.map((o) => size(o.range)));
  return [...new Set(containing.filter((o) => size(o.range) === smallest).map((o) => o.symbol))];
}

function isEmpty(r: Range): boolean {
  return r[0] === r[2] && r[1] === r[3];
}

/** Occurrences of `symbols`: a local symbol's within its document, a global symbol's across the index. */
function rawOccurrences(raw: RawIndex, path: string, symbols: readonly string[]): RawOccurrence[] {
  return symbols.flatMap((s) => (isLocal(s) ? raw.documents.get(path)!.filter((o) => o.symbol === s) : (raw.bySymbol.get(s) ?? [])));
}

function rawDefinitions(raw: RawIndex, path: string, symbols: readonly string[]): string[] {
  return rawOccurrences(raw, path, symbols)
    .filter((o) => o.roles & SymbolRole.Definition)
    .map((o) => rangeKey(o.path, o.range));
}

function rawReferences(raw: RawIndex, path: string, symbols: readonly string[]): Set<string> {
  const globals = symbols.filter((s) => !isLocal(s));
  const related = globals.flatMap((s) => [...(raw.referenceRelated.get(s) ?? [])]);
  const all = [...new Set([...symbols, ...related])];
  return new Set(rawOccurrences(raw, path, all).map((o) => rangeKey(o.path, o.range)));
}

function rangeKey(path: string, r: Range): string {
  return `${path}:${r[0]}:${r[1]}-${r[2]}:${r[3]}`;
}

/** A 1-based contract location as the 0-based key of rangeKey. */
function locationKey(l: { path: string; line: number; column: number; end_line: number; end_column: number }): string {
  return rangeKey(l.path, [l.line - 1, l.column - 1, l.end_line - 1, l.end_column - 1]);
}

// ---------------------------------------------------------------- sampling

/** mulberry32: a small seeded generator, so the sample is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
      const role = o.roles & SymbolRole.Definition ? 'definition' : 'reference';
      const key = `${role}/${categoryOf(o.symbol, lines(path)[o.range[0]]!)}`;
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
        const name = lines(o.path)[o.range[0]]!.slice(o.range[1], o.range[3]);
        positions.push({ path: o.path, line: o.range[0], character, role, category, name });
      }
    }
  }
  return positions;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

// ---------------------------------------------------------------- scores

interface Score {
  /** In both. */
  both: number;
  /** sextant's answer size. */
  sextant: number;
  /** The language server's answer size, within the repository. */
  server: number;
}

function score(sextant: ReadonlyMap<string, unknown>, server: ReadonlyMap<string, unknown>): Score {
  let both = 0;
  for (const k of sextant.keys()) if (server.has(k)) both++;
  return { both, sextant: sextant.size, server: server.size };
}

/** Micro (pooled) and macro (mean over positions where defined) precision and recall. */
function summarize(scores: readonly Score[]) {
  const sum = (f: (s: Score) => number) => scores.reduce((n, s) => n + f(s), 0);
  const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN);
  return {
    microPrecision: sum((s) => s.both) / sum((s) => s.sextant),
    microRecall: sum((s) => s.both) / sum((s) => s.server),
    macroPrecision: mean(scores.filter((s) => s.sextant > 0).map((s) => s.both / s.sextant)),
    macroRecall: mean(scores.filter((s) => s.server > 0).map((s) => s.both / s.server)),
  };
}

const fmt = (x: number) => x.toFixed(3);

// ---------------------------------------------------------------- setup

let repo: string;
/** The repository's name in the registry. */
let slug: string;
let home: string;
let scipDir: string;
let engine: Engine;
let navigation: Navigation;
let server: TypeScriptLanguageServer;
let raw: RawIndex;
let positions: Position[];
const fileLines = new Map<string, string[]>();
const lines = (path: string) => {
  if (!fileLines.has(path)) fileLines.set(path, readFileSync(join(repo, path), 'utf8').split(/\r\n|\r|\n/));
  return fileLines.get(path)!;
};

before(async () => {
  repo = rxjsRepo();
  const registry = testHome();
  home = registry.home;
  scipDir = tempDir('sextant-differential-');
  const scipFile = join(scipDir, 'index.scip');
  // The indexer is run the way sextant runs it, from the repository root: from elsewhere
  // TypeScript would also pick up the @types packages of the working directory.
  const indexing = promisify(execFile)(
    join(PROJECT_ROOT, 'node_modules', '.bin', 'scip-typescript'),
    ['index', '--cwd', repo, '--output', scipFile, '--no-progress-bar'],
    { cwd: repo },
  );
  const starting = TypeScriptLanguageServer.start(repo);
  slug = indexOrThrow(repo, registry.env).repo;
  [server] = await Promise.all([starting, indexing]);
  raw = await readRawIndex(scipFile);
  engine = await openRegistry({ registry: registryFile(home) });
  navigation = new Navigation(engine);
  positions = samplePositions(raw);
});

const sextantAnswers = new Map<Position, Promise<{ definition: Definition.Result; references: References.Result }>>();

/** goToDefinition and findReferences (declarations included, as many as allowed) at a position, asked once. */
function askSextant(p: Position) {
  if (!sextantAnswers.has(p)) {
    const q = { repo: slug, path: p.path, line: p.line + 1, column: p.character + 1 };
    sextantAnswers.set(
      p,
      Promise.all([navigation.goToDefinition(q), navigation.findReferences({ ...q, include_declaration: true, limit: 2000 })]).then(
        ([definition, references]) => ({ definition, references }),
      ),
    );
  }
  return sextantAnswers.get(p)!;
}

after(async () => {
  await server?.stop();
  await engine?.close();
  // The repository sits in a temporary directory of its own.
  for (const dir of [repo && dirname(repo), home, scipDir]) if (dir) removeDir(dir);
});

// ---------------------------------------------------------------- tests

test('the language server runs the pinned TypeScript', () => {
  assert.deepEqual(server.typescript, { version: pinnedTypeScriptVersion(), source: 'user-setting' });
});

test('sextant answers exactly what the raw SCIP index says, at every sampled position', async (t) => {
  assert.ok(positions.length >= 120, `only ${positions.length} positions sampled`);
  assert.ok(new Set(positions.map((p) => p.path)).size >= 60, 'the sample should spread over many files');
  const mismatches: string[] = [];
  for (const p of positions) {
    const at = `${p.path}:${p.line + 1}:${p.character + 1} (${p.role} of ${p.category} "${p.name}")`;
    const symbols = rawSymbolsAt(raw, p.path, p.line, p.character);
    const { definition: def, references: refs } = await askSextant(p);
    const diff = differences(new Set(symbols), new Set(def.symbols));
    if (diff) mismatches.push(`${at}: symbols ${diff}`);
    const rawDefs = rawDefinitions(raw, p.path, symbols).sort();
    const defs = def.definitions.map(locationKey).sort();
    if (JSON.stringify(rawDefs) !== JSON.stringify(defs)) {
      mismatches.push(`${at}: definitions: raw SCIP ${JSON.stringify(rawDefs)}, sextant ${JSON.stringify(defs)}`);
    }
    const rawRefs = rawReferences(raw, p.path, symbols);
    const got = new Set(refs.references.map(locationKey));
    if (refs.total !== rawRefs.size) mismatches.push(`${at}: references total ${refs.total}, raw SCIP has ${rawRefs.size}`);
    const refDiff = differences(rawRefs, got);
    if (refDiff) mismatches.push(`${at}: references ${refDiff}`);
  }
  const strata = new Map<string, number>();
  for (const p of positions) strata.set(`${p.role}s of ${p.category}`, (strata.get(`${p.role}s of ${p.category}`) ?? 0) + 1);
  t.diagnostic(
    `${positions.length} positions in ${new Set(positions.map((p) => p.path)).size} files compared with the raw SCIP index: ` +
      [...strata].map(([k, n]) => `${n} ${k}`).join(', '),
  );
  assert.equal(mismatches.length, 0, `sextant differs from the raw SCIP index at ${mismatches.length} place(s):\n${mismatches.join('\n')}`);
});

/** "-missing +extra" between an expected and an actual set, or '' when equal. */
function differences(expected: ReadonlySet<string>, actual: ReadonlySet<string>): string {
  const missing = [...expected].filter((k) => !actual.has(k));
  const extra = [...actual].filter((k) => !expected.has(k));
  return [...missing.map((k) => `-${k}`), ...extra.map((k) => `+${k}`)].join(' ');
}

// ---------------------------------------------------------------- disagreements

interface Disagreement {
  position: Position;
  /** What sextant answered with at the position. */
  symbols: readonly string[];
  /** The previews of sextant's definitions. */
  definitionLines: readonly string[];
  answer: 'definition' | 'references';
  /** Who alone has the location. */
  side: 'sextant' | 'tsserver';
  path: string;
  line: number;
  character: number;
}

interface DisagreementKind {
  name: string;
  matches(d: Disagreement): boolean;
}

const isMethodOrItsParameter = (s: string) => /\)\.(\([^)]*\))?$/.test(s);
const atLocation = (d: Disagreement) => rawSymbolsAt(raw, d.path, d.line, d.character);
const atPosition = (d: Disagreement) => rawSymbolsAt(raw, d.position.path, d.position.line, d.position.character);
/** A symbol with its kind suffix dropped: `X#` (interface) and `X.` (const) of one declaration-merged name become equal. */
const stem = (s: string) => s.replace(/(#|\.|\(\)\.)$/, '');

/** Kinds of disagreement seen on rxjs; the first that matches names a disagreement, 'other' when none does. */
const DISAGREEMENTS: DisagreementKind[] = [
  {
    name: 'tsserver counts names in comments (JSDoc {@link X}, @param x); SCIP indexes code only',
    matches: (d) => d.side === 'tsserver' && /^\s*(\*|\/\*|\/\/)/.test(lines(d.path)[d.line]!),
  },
  {
    name: "string literals that name a symbol (module specifiers, T['lift']): SCIP's range starts at the quote, tsserver's inside it, and only SCIP counts a module's own file as a reference",
    matches: (d) => /^['"`]/.test(d.position.name),
  },
  {
    name: '`new X(...)` and a class passed as a value: SCIP records the constructor X#<constructor>(), tsserver the class X',
    matches: (d) => [...d.symbols, ...atLocation(d)].some((s) => s.includes('<constructor>')),
  },
  {
    name: 'overloads: SCIP gives all signatures of a function, and their same-named parameters, one symbol, so each is a definition; tsserver answers with the signature at hand',
    matches: (d) => d.side === 'sextant' && d.definitionLines.length > 1 && d.symbols.some(isMethodOrItsParameter),
  },
  {
    name: 'static and instance members of one name share a SCIP symbol (Scheduler.now and scheduler.now), so their definitions and references mix',
    matches: (d) => d.definitionLines.some((l) => /\bstatic\b/.test(l)) && d.definitionLines.some((l) => !/\bstatic\b/.test(l)),
  },
  {
    name: 'declaration merging (an interface and a const of one name): tsserver answers for both, SCIP keeps two symbols',
    matches: (d) =>
      d.side === 'tsserver' && atLocation(d).some((s) => !d.symbols.includes(s) && d.symbols.some((q) => stem(q) === stem(s))),
  },
  {
    name: 'one range, two SCIP symbols (destructuring `const { length } = a`, a name that is an interface and a const): sextant answers for both, tsserver for one',
    matches: (d) => atPosition(d).length > 1 || atLocation(d).length > 1,
  },
  {
    name: 'shorthand property `{ x }`: SCIP records only the object-literal property, tsserver also the variable x',
    matches: (d) => d.side === 'tsserver' && [...atPosition(d), ...atLocation(d)].some(isObjectLiteralProperty),
  },
  {
    name: 'related members: tsserver follows overrides, implementations and structural matches transitively; SCIP links one is_reference hop',
    matches: (d) => d.side === 'tsserver' && /^(method|property|parameter)$/.test(d.position.category),
  },
];

/** scip-typescript names the properties of object literals and type literals with a meta descriptor (`value0:`). */
function isObjectLiteralProperty(symbol: string): boolean {
  try {
    return parseSymbol(symbol).descriptors.some((d) => d.suffix === 'meta');
  } catch {
    return false;
  }
}

function categorize(d: Disagreement): string {
  return DISAGREEMENTS.find((c) => c.matches(d))?.name ?? 'other';
}

function describe(d: Disagreement): string {
  const text = lines(d.path)[d.line]!.trim();
  return (
    `${d.answer} of "${d.position.name}" at ${d.position.path}:${d.position.line + 1}:${d.position.character + 1}: ` +
    `only ${d.side} has ${d.path}:${d.line + 1}:${d.character + 1} \`${text.length > 90 ? text.slice(0, 89) + '…' : text}\``
  );
}

test('sextant agrees with typescript-language-server on definitions and references', async (t) => {
  const definitionScores: Score[] = [];
  const referenceScores: Score[] = [];
  let outside = 0;
  const categories = new Map<string, { count: number; positions: Set<Position>; example: string }>();
  type Place = { path: string; line: number; character: number };
  /** Locations by path and start, the match key of the comparison. */
  const places = (ls: Place[]) => new Map(ls.map((l) => [`${l.path}:${l.line}:${l.character}`, l]));
  for (const p of positions) {
    const { definition: def, references: refs } = await askSextant(p);
    const serverDefinitions = await server.definition(p.path, p.line, p.character);
    const serverReferences = await server.references(p.path, p.line, p.character, true);
    // The server also answers with declarations in lib.d.ts and the like, which no index of this repository holds.
    const inside = (ls: LspLocation[]) => places(ls.filter((l) => !isAbsolute(l.path)));
    outside += [...serverDefinitions, ...serverReferences].filter((l) => isAbsolute(l.path)).length;
    const sextantAnswers = {
      definition: places(def.definitions.map((d) => ({ path: d.path, line: d.line - 1, character: d.column - 1 }))),
      references: places(refs.references.map((r) => ({ path: r.path, line: r.line - 1, character: r.column - 1 }))),
    };
    const serverAnswers = { definition: inside(serverDefinitions), references: inside(serverReferences) };
    definitionScores.push(score(sextantAnswers.definition, serverAnswers.definition));
    referenceScores.push(score(sextantAnswers.references, serverAnswers.references));
    for (const answer of ['definition', 'references'] as const) {
      for (const [side, mine, theirs] of [
        ['sextant', sextantAnswers[answer], serverAnswers[answer]],
        ['tsserver', serverAnswers[answer], sextantAnswers[answer]],
      ] as const) {
        for (const [k, place] of mine) {
          if (theirs.has(k)) continue;
          const d: Disagreement = {
            position: p,
            symbols: def.symbols,
            definitionLines: def.definitions.map((x) => x.preview ?? ''),
            answer,
            side,
            ...place,
          };
          const name = categorize(d);
          const c = categories.get(name) ?? { count: 0, positions: new Set(), example: describe(d) };
          c.count++;
          c.positions.add(p);
          categories.set(name, c);
        }
      }
    }
  }
  const definitions = summarize(definitionScores);
  const references = summarize(referenceScores);
  const summary =
    `differential vs typescript-language-server (TypeScript ${server.typescript.version}), ${positions.length} positions: ` +
    `definitions precision ${fmt(definitions.microPrecision)} micro / ${fmt(definitions.macroPrecision)} macro, ` +
    `recall ${fmt(definitions.microRecall)} micro / ${fmt(definitions.macroRecall)} macro; ` +
    `references precision ${fmt(references.microPrecision)} micro / ${fmt(references.macroPrecision)} macro, ` +
    `recall ${fmt(references.microRecall)} micro / ${fmt(references.macroRecall)} macro; ` +
    `${outside} server locations outside the repository (lib.d.ts) ignored`;
  const kinds = [...categories]
    .sort((a, b) => b[1].count - a[1].count)
    .map(([name, c]) => `${c.count} locations at ${c.positions.size} positions — ${name}; e.g. ${c.example}`);
  for (const line of [summary, 'disagreements, most common first:', ...kinds]) {
    t.diagnostic(line);
    console.log(line);
  }
  // Floors a little under what rxjs measured (definitions: precision 0.77 micro / 0.92 macro, recall 0.96 / 0.98;
  // references: precision 0.96 / 0.91, recall 0.87 / 0.88), so that losing a kind of answer fails.
  assert.ok(definitions.microRecall >= 0.9, `definition recall ${fmt(definitions.microRecall)} < 0.9`);
  assert.ok(definitions.macroPrecision >= 0.85, `definition precision (macro) ${fmt(definitions.macroPrecision)} < 0.85`);
  assert.ok(references.microPrecision >= 0.9, `reference precision ${fmt(references.microPrecision)} < 0.9`);
  assert.ok(references.microRecall >= 0.8, `reference recall ${fmt(references.microRecall)} < 0.8`);
  assert.ok(references.macroRecall >= 0.8, `reference recall (macro) ${fmt(references.macroRecall)} < 0.8`);
});

test('a language server that dies fails its pending requests with the reason', async () => {
  const doomed = await TypeScriptLanguageServer.start(repo);
  try {
    await doomed.open('src/internal/Observable.ts');
    // The first request loads the whole project, so it is still pending when the server is killed.
    const pending = doomed.references('src/internal/Observable.ts', 14, 14, true);
    process.kill(-doomed.pid, 'SIGKILL');
    await assert.rejects(pending, /typescript-language-server \(pid \d+\) was killed by SIGKILL/);
    await assert.rejects(doomed.definition('src/internal/Observable.ts', 14, 14), /was killed by SIGKILL/);
  } finally {
    await doomed.stop();
  }
});
