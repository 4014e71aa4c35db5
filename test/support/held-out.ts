// Checks on corpora of shapes the rest of the suite never saw (see corpus.ts:
// a library built from object-literal factories, a monorepo of packages with
// their own tsconfigs), each against what a user would compare sextant with:
//  - every tracked TypeScript and JavaScript file answers goToDefinition;
//  - getIndexStatus lists each project with its files;
//  - at sampled positions, goToDefinition and findReferences against a live
//    typescript-language-server, side by side with the raw SCIP index of the
//    same projects (run here, decoded without sextant): sextant is not below
//    the raw index, per project;
//  - callHierarchy against the same server on sampled callables, a share of
//    them object-literal members: precision and recall of callers and callees.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import ts from 'typescript';
import { SymbolKind, type CallHierarchyItem } from 'vscode-languageserver-protocol';
import { Navigation } from '../../src/navigation/index.js';
import { loadManifests } from '../../src/orchestrator/manifests.js';
import { planProjects, type ProjectPlan } from '../../src/orchestrator/projects.js';
import type * as CallHierarchy from '../../src/protocol/call-hierarchy.js';
import type * as IndexStatus from '../../src/protocol/index-status.js';
import { openRegistry } from '../../src/registry/open.js';
import type { Engine } from '../../src/registry/engine.js';
import { SymbolRole } from '../../src/scip/schema.js';
import { PROJECT_ROOT } from './paths.js';
import { trackedFiles } from './positions.js';
import { isEmpty, isLocal, rawOccurrences, rawSymbolsAt, readRawIndex, type RawIndex, type RawOccurrence } from './raw-scip.js';
import { removeDir, tempDir } from './repos.js';
import { indexOrThrow, registryFile, testHome } from './sextant.js';
import { drawStratified, fmt, formatSummary, prng, shuffle, summarize, type Score } from './stats.js';
import { isCallHierarchyDeclaration } from './ts-call-hierarchy.js';
import { TypeScriptLanguageServer, type LspLocation } from './typescript-language-server.js';

export const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

export interface HeldOut {
  repo: string;
  slug: string;
  engine: Engine;
  navigation: Navigation;
  server: TypeScriptLanguageServer;
  raw: RawIndex;
  plan: ProjectPlan;
  /** The project (config, or '(inferred)') owning each tracked source file. */
  ownerOf: Map<string, string>;
  files: string[];
  lines(path: string): string[];
  source(path: string): ts.SourceFile;
  stop(): Promise<void>;
}

export const INFERRED = '(inferred)';
/** Set to print every disagreement. */
const VERBOSE = process.env.SEXTANT_DIFFERENTIAL_VERBOSE === '1';

/** Indexes the corpus with the CLI into a private registry, runs scip-typescript on the same projects for the raw index, starts the server. */
export async function startHeldOut(makeRepo: () => string): Promise<HeldOut> {
  const repo = makeRepo();
  const registry = testHome();
  const scipDir = tempDir('sextant-held-out-');
  const cleanup = [dirname(repo), registry.home, scipDir];
  let engine: Engine | undefined;
  let starting: Promise<TypeScriptLanguageServer> | undefined;
  let indexing: Promise<unknown> | undefined;
  const stop = async () => {
    await indexing?.catch(() => {});
    await (await starting?.catch(() => undefined))?.stop();
    await engine?.close();
    for (const dir of cleanup) removeDir(dir);
  };
  try {
    const files = trackedFiles(repo).filter((f) => SOURCE.test(f));
    const manifest = loadManifests().find((m) => m.name === 'scip-typescript')!;
    const plan = planProjects(manifest, repo, trackedFiles(repo), files);
    const projects = [...plan.projects];
    for (const generated of plan.generatedConfigs) {
      const config = join(scipDir, generated.fileName);
      await import('node:fs/promises').then((fs) => fs.writeFile(config, generated.content));
      projects.push(config);
    }
    const scipFile = join(scipDir, 'index.scip');
    indexing = promisify(execFile)(
      join(PROJECT_ROOT, 'node_modules', '.bin', 'scip-typescript'),
      ['index', '--cwd', repo, '--output', scipFile, '--no-progress-bar', ...projects],
      { cwd: repo, maxBuffer: 64 << 20 },
    );
    starting = TypeScriptLanguageServer.start(repo);
    const slug = indexOrThrow(repo, registry.env).repo as string;
    const [server] = await Promise.all([starting, indexing]);
    // Opened as a client working across the repository would: a file of each configured project, so the server
    // searches every project, and every file no config includes, so its inferred project is sextant's.
    for (const p of plan.planned) for (const f of p.config === null ? p.files : p.files.slice(0, 1)) await server.open(f);
    const raw = await readRawIndex(scipFile);
    engine = await openRegistry({ registry: registryFile(registry.home) });
    const ownerOf = new Map<string, string>();
    for (const p of plan.planned) for (const f of p.files) ownerOf.set(f, p.config ?? INFERRED);
    const fileLines = new Map<string, string[]>();
    const lines = (path: string) => {
      if (!fileLines.has(path)) fileLines.set(path, readFileSync(join(repo, path), 'utf8').split(/\r\n|\r|\n/));
      return fileLines.get(path)!;
    };
    const sources = new Map<string, ts.SourceFile>();
    const source = (path: string) => {
      if (!sources.has(path)) sources.set(path, ts.createSourceFile(path, lines(path).join('\n'), ts.ScriptTarget.Latest, true, scriptKind(path)));
      return sources.get(path)!;
    };
    return { repo, slug, engine, navigation: new Navigation(engine), server, raw, plan, ownerOf, files, lines, source, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function scriptKind(path: string): ts.ScriptKind {
  if (path.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (path.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (/\.[mc]?js$/.test(path)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

// ---------------------------------------------------------------- syntax

/** The innermost node at a 0-based position. */
export function nodeAt(h: HeldOut, path: string, line: number, character: number): ts.Node {
  const file = h.source(path);
  const offset = file.getPositionOfLineAndCharacter(line, Math.min(character, h.lines(path)[line]!.length));
  let node: ts.Node = file;
  for (;;) {
    const child: ts.Node | undefined = node.getChildren(file).find((c) => c.getStart(file) <= offset && offset < c.getEnd());
    if (!child) return node;
    node = child;
  }
}

/** Identifiers of a file outside comments, in order. */
function identifiers(h: HeldOut, path: string): ts.Identifier[] {
  const out: ts.Identifier[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isIdentifier(n)) out.push(n);
    ts.forEachChild(n, visit);
  };
  visit(h.source(path));
  return out;
}

/** A name used as a call target: `f()`, `new F()`, `o.f()`. */
function isCalled(name: ts.Node): boolean {
  let expression: ts.Node = name;
  if (ts.isPropertyAccessExpression(name.parent) && name.parent.name === name) expression = name.parent;
  while (ts.isParenthesizedExpression(expression.parent) || ts.isNonNullExpression(expression.parent)) expression = expression.parent;
  const p = expression.parent;
  return ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression === expression) || (ts.isTaggedTemplateExpression(p) && p.tag === expression);
}

/** Where TypeScript's call hierarchy counts a reference as a call: a call or `new` target, a tag, a decorator, a JSX tag, a member name (`a.name`, `a['name']`). */
function isCallSite(name: ts.Node): boolean {
  const p = name.parent;
  return (
    isCalled(name) ||
    (ts.isPropertyAccessExpression(p) && p.name === name) ||
    (ts.isElementAccessExpression(p) && p.argumentExpression === name) ||
    (ts.isDecorator(p) && p.expression === name) ||
    ((ts.isJsxOpeningElement(p) || ts.isJsxSelfClosingElement(p)) && p.tagName === name)
  );
}

/** Where `m` of `X.m = function m() {...}` is at `p`: the place of the function's own name. */
function assignedFunctionName(h: HeldOut, p: Place): string | undefined {
  const name = nodeAt(h, p.path, p.line, p.character);
  const access = name.parent;
  if (!ts.isIdentifier(name) || !access || !ts.isPropertyAccessExpression(access) || access.name !== name) return undefined;
  const assignment = access.parent;
  if (!assignment || !ts.isBinaryExpression(assignment) || assignment.left !== access) return undefined;
  let value = assignment.right;
  while (ts.isParenthesizedExpression(value)) value = value.expression;
  if (!ts.isFunctionExpression(value) || !value.name) return undefined;
  const file = h.source(p.path);
  const at = file.getLineAndCharacterOfPosition(value.name.getStart(file));
  return pointKey(p.path, at.line, at.character);
}

/** A name an import binds: `f` in `import { f }`, `import f`, `import * as f`. */
function isImportBinding(n: ts.Node): boolean {
  return ts.isImportSpecifier(n) || ts.isImportClause(n) || ts.isNamespaceImport(n);
}

/** An object-literal member holding code: a method, accessor, or property holding a function. */
function isLiteralMember(n: ts.Node): boolean {
  if ((ts.isMethodDeclaration(n) || ts.isGetAccessorDeclaration(n) || ts.isSetAccessorDeclaration(n)) && ts.isObjectLiteralExpression(n.parent)) return true;
  return ts.isPropertyAssignment(n) && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer));
}

/** The declaration whose name starts at a place. */
function declarationNamedAt(h: HeldOut, p: Place): ts.Node {
  const n = nodeAt(h, p.path, p.line, p.character);
  return ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) ? n.parent : n;
}

// ---------------------------------------------------------------- every file answers

/**
 * For each tracked source file, goToDefinition at up to `perFile` identifiers
 * spread over it: at least one must find a definition, and none may fail.
 * Returns the figures to print.
 */
export async function everyFileAnswers(h: HeldOut, perFile = 3): Promise<string> {
  const silent: string[] = [];
  const failures: string[] = [];
  let asked = 0;
  let found = 0;
  let empty = 0;
  let outside = 0;
  for (const path of h.files) {
    const names = identifiers(h, path);
    // A module of types only compiles to `export {};`: there is nothing to ask about.
    if (names.length === 0) {
      empty++;
      continue;
    }
    // The file's first declared name, and names spread over the rest (an unresolved import answers nothing).
    const declared = names.find(
      (n) =>
        (n.parent as { name?: ts.Node }).name === n &&
        !ts.isImportSpecifier(n.parent) &&
        !ts.isImportClause(n.parent) &&
        !ts.isNamespaceImport(n.parent) &&
        !ts.isImportEqualsDeclaration(n.parent),
    );
    const step = Math.max(1, Math.floor(names.length / perFile));
    const sample = [...new Set([...(declared ? [declared] : []), ...names.filter((_, i) => i % step === 0)])].slice(0, perFile);
    let answered = 0;
    const askedHere: ts.Identifier[] = [];
    const ask = async (name: ts.Identifier) => {
      askedHere.push(name);
      const { line, character } = h.source(path).getLineAndCharacterOfPosition(name.getStart(h.source(path)));
      asked++;
      try {
        const result = await h.navigation.goToDefinition({ repo: h.slug, path, line: line + 1, column: character + 1 });
        // From the index: a name it resolved to nothing answers by its spelling (source "search"), which does not count.
        if (result.found && result.source !== 'search') answered++;
      } catch (error) {
        failures.push(`${path}:${line + 1}:${character + 1} ${name.text}: ${(error as Error).message}`);
      }
    };
    for (const name of sample) await ask(name);
    // The sample may hold only names nothing in the repository declares (a test file's `describe`, `test` and its
    // import from an uninstalled 'vitest'): the file is silent only when no identifier of it answers.
    let more = 0;
    for (const name of names) {
      if (answered > 0) break;
      if (sample.includes(name)) continue;
      more++;
      await ask(name);
    }
    found += answered;
    if (answered === 0 && (await definedOnlyOutside(h, path, askedHere))) outside++;
    else if (answered === 0) silent.push(`${path} (${sample.length + more} identifiers asked)`);
  }
  assert.deepEqual(failures, [], 'goToDefinition failed');
  assert.deepEqual(silent, [], 'files where no identifier has a definition');
  return `goToDefinition in every tracked source file: ${h.files.length} files (${empty} without identifiers, ${outside} naming only what the repository does not define), ${found} of ${asked} sampled identifiers answered, no file without an answer`;
}

/**
 * Whether the server, too, finds no definition in the repository for any of
 * these names: a generated module of `export default new Set([...])` names
 * only a global of TypeScript's lib, and there is nothing in the repository to go to.
 */
async function definedOnlyOutside(h: HeldOut, path: string, names: ts.Identifier[]): Promise<boolean> {
  const realRoot = realpathSync(h.repo);
  for (const name of names) {
    const { line, character } = h.source(path).getLineAndCharacterOfPosition(name.getStart(h.source(path)));
    const found = await h.server.definition(path, line, character);
    if (found.some((l) => !l.path.startsWith('/') || l.path.startsWith(`${realRoot}/`))) return false;
  }
  return true;
}

// ---------------------------------------------------------------- symbols

/**
 * Symbols of the corpus's own package (one the index defines something of)
 * that its documents use and no document defines: at each such use,
 * goToDefinition answers "defined outside the indexed code" about a name the
 * corpus declares. Read from the registry, each once.
 */
export async function ownSymbolsWithoutDefinition(h: HeldOut): Promise<string[]> {
  const packageOf = (symbol: string) => symbol.split(' ', 4).join(' ');
  const defined = await sql<{ symbol: string }>`
    select distinct s.symbol from symbols s join definitions d on d.symbol_id = s.id`.execute(h.engine.db);
  const own = new Set(defined.rows.map((r) => packageOf(r.symbol)));
  const undefinedUsed = await sql<{ symbol: string }>`
    select s.symbol from symbols s
    where exists (select 1 from symbol_refs r where r.symbol_id = s.id)
      and not exists (select 1 from definitions d where d.symbol_id = s.id)`.execute(h.engine.db);
  return undefinedUsed.rows.map((r) => r.symbol).filter((symbol) => !isLocal(symbol) && own.has(packageOf(symbol)));
}

// ---------------------------------------------------------------- status

/** getIndexStatus lists each project of the plan with its files, all indexed, and the files add up. */
export async function statusListsProjects(h: HeldOut, expected: (string | null)[]): Promise<IndexStatus.Result> {
  const status = await h.navigation.getIndexStatus({ repo: h.slug });
  const projects = status.projects.filter((p) => p.indexer === 'scip-typescript');
  assert.deepEqual(projects.map((p) => p.config).sort(), [...expected].sort(), 'the projects listed');
  for (const p of projects) {
    assert.ok(p.files > 0, `${p.config}: no files`);
    assert.equal(p.indexed_files, p.files, `${p.config}: ${p.indexed_files} of ${p.files} files indexed`);
    const owned = [...h.ownerOf.values()].filter((o) => o === (p.config ?? INFERRED)).length;
    assert.equal(p.files, owned, `${p.config}: files`);
  }
  assert.equal(
    projects.reduce((n, p) => n + p.files, 0),
    h.files.length,
    'every tracked source file is in one project',
  );
  for (const [language, tier] of Object.entries(status.language_tiers)) {
    if (language !== 'typescript' && language !== 'javascript') continue;
    assert.equal(tier.tier, 'precise', language);
    assert.equal(tier.indexed_files, tier.files, `${language}: every file indexed`);
  }
  return status;
}

// ---------------------------------------------------------------- definitions and references

interface Position {
  path: string;
  line: number;
  character: number;
  project: string;
}

const pointKey = (path: string, line: number, character: number) => `${path}:${line}:${character}`;

/**
 * Positions from the raw index's occurrences, over files in turn, with a
 * share for every project so that files outside the root project are asked
 * about; plus the names of object-literal members, which the raw index does
 * not define.
 */
function samplePositions(h: HeldOut, total: number, seed: number): Position[] {
  const random = prng(seed);
  const byProject = new Map<string, Map<string, RawOccurrence[]>>();
  for (const [path, occurrences] of h.raw.documents) {
    const project = h.ownerOf.get(path);
    if (!project) continue;
    for (const o of occurrences) {
      if (isEmpty(o.range) || o.range[0] !== o.range[2]) continue;
      if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(h.lines(path)[o.range[0]]!.slice(o.range[1], o.range[3]))) continue;
      if (!byProject.has(project)) byProject.set(project, new Map());
      const byFile = byProject.get(project)!;
      if (!byFile.has(path)) byFile.set(path, []);
      byFile.get(path)!.push(o);
    }
  }
  const projects = [...byProject.keys()].sort();
  const counts = projects.map((p) => [...byProject.get(p)!.values()].reduce((n, l) => n + l.length, 0));
  const all = counts.reduce((a, b) => a + b, 0);
  const positions: Position[] = [];
  projects.forEach((project, i) => {
    const quota = Math.max(12, Math.round((total * counts[i]!) / all));
    const byFile = byProject.get(project)!;
    const files = shuffle([...byFile.keys()].sort(), random);
    const taken = new Set<RawOccurrence>();
    for (let k = 0; taken.size < quota && k < quota * files.length; k++) {
      const left = byFile.get(files[k % files.length]!)!.filter((o) => !taken.has(o));
      if (left.length === 0) continue;
      const o = left[Math.floor(random() * left.length)]!;
      taken.add(o);
      positions.push({ path: o.path, line: o.range[0], character: o.range[1], project });
    }
  });
  return positions;
}

interface Measures {
  definitions: { raw: Score[]; sextant: Score[] };
  references: { raw: Score[]; sextant: Score[] };
}

function scoreOf(mine: Set<string>, theirs: Set<string>): Score {
  let both = 0;
  for (const k of mine) if (theirs.has(k)) both++;
  return { both, sextant: mine.size, server: theirs.size };
}

/**
 * goToDefinition and findReferences at sampled positions against the server,
 * for sextant and for the raw index, per project. Places are compared by
 * their start. A definition sextant adds that the server leaves out counts as
 * right only when it is an object-literal member of the name asked about (the
 * implementation of a declared member, which the server does not link).
 */
export async function definitionsAndReferences(h: HeldOut, total: number, seed: number): Promise<string[]> {
  const positions = samplePositions(h, total, seed);
  assert.ok(positions.length >= 150, `only ${positions.length} positions`);
  const perProject = new Map<string, Measures>();
  const failures: string[] = [];
  let implementations = 0;
  let throughImports = 0;
  let withinSpan = 0;
  let functionNames = 0;
  let sameName = 0;
  let overCap = 0;
  const realRoot = realpathSync(h.repo);
  const inside = (l: LspLocation) => !l.path.startsWith('/') || l.path.startsWith(`${realRoot}/`);
  const lspPath = (l: LspLocation) => (l.path.startsWith('/') ? l.path.slice(realRoot.length + 1) : l.path);
  const lspKey = (l: LspLocation) => pointKey(lspPath(l), l.line, l.character);
  for (const p of positions) {
    const m = perProject.get(p.project) ?? { definitions: { raw: [], sextant: [] }, references: { raw: [], sextant: [] } };
    perProject.set(p.project, m);
    const name = h.lines(p.path)[p.line]!.slice(p.character).match(/^[\p{L}\p{N}_$]+/u)?.[0] ?? '';
    const serverFound = (await h.server.definition(p.path, p.line, p.character)).filter(inside);
    const serverDefinitions = new Set<string>();
    /** Where the import bindings the server gave lead: spans, as its own definitions are. */
    const followedSpans: LspLocation[] = [];
    for (const l of serverFound) {
      // At a shorthand property (`{ f }`) TypeScript stops at the import that binds `f`, where any other use of `f`
      // goes on to what it imports: an import binding counts as what the server's goToDefinition there gives.
      const path = lspPath(l);
      if (!isImportBinding(declarationNamedAt(h, { path, line: l.line, character: l.character }))) {
        serverDefinitions.add(lspKey(l));
        continue;
      }
      // An import of what the server cannot resolve (a package not installed) stays its own definition.
      const followed = (await h.server.definition(path, l.line, l.character)).filter(inside);
      followedSpans.push(...followed);
      const imported = followed.map(lspKey);
      const targets = imported.length > 0 ? imported : [lspKey(l)];
      for (const target of targets) serverDefinitions.add(target);
      if (targets.some((k) => k !== lspKey(l))) {
        throughImports++;
        if (VERBOSE) console.log(`defs at ${p.path}:${p.line + 1}:${p.character + 1} ${name}: import binding ${lspKey(l)} followed to ${targets.join(' ')}`);
      }
    }
    const serverReferences = new Set((await h.server.references(p.path, p.line, p.character, true)).filter(inside).map(lspKey));
    const symbols = rawSymbolsAt(h.raw, p.path, p.line, p.character);
    const rawDefinitions = new Set(
      rawOccurrences(h.raw, p.path, symbols)
        .filter((o) => o.roles & SymbolRole.Definition)
        .map((o) => pointKey(o.path, o.range[0], o.range[1])),
    );
    const related = symbols.filter((s) => !isLocal(s)).flatMap((s) => [...(h.raw.referenceRelated.get(s) ?? [])]);
    const rawReferences = new Set(rawOccurrences(h.raw, p.path, [...new Set([...symbols, ...related])]).map((o) => pointKey(o.path, o.range[0], o.range[1])));
    let definitions: Set<string>;
    let references: Set<string>;
    let truncated: boolean;
    try {
      const at = { repo: h.slug, path: p.path, line: p.line + 1, column: p.character + 1 };
      const d = await h.navigation.goToDefinition(at);
      definitions = new Set(d.definitions.filter((x) => x.path !== null).map((x) => pointKey(x.path!, x.line! - 1, x.column! - 1)));
      const r = await h.navigation.findReferences({ ...at, include_declaration: true, limit: 5000 });
      references = new Set(r.references.filter((x) => x.path !== null).map((x) => pointKey(x.path, x.line - 1, x.column - 1)));
      truncated = r.truncated;
    } catch (error) {
      failures.push(`${p.path}:${p.line + 1}:${p.character + 1}: ${(error as Error).message}`);
      continue;
    }
    // The server's references miss files its project has not loaded (an inferred project holds the files the opened
    // one imports): a place either side gives beyond it counts as right when the name asked about is written there.
    for (const k of [...references, ...rawReferences]) {
      if (serverReferences.has(k)) continue;
      const [, path, line, character] = /^(.*):(\d+):(\d+)$/.exec(k)!;
      const text = h.lines(path!)[Number(line)]?.slice(Number(character)) ?? '';
      // `default` in `{ default as name }`, which the server lists asked at the export and not asked at an importer's name.
      const defaultAs = new RegExp(`^default\\s+as\\s+${name.replace(/\$/g, '\\$')}(?![\\p{L}\\p{N}_$])`, 'u');
      if (name && (text.startsWith(name) || text.startsWith('super') || defaultAs.test(text))) {
        serverReferences.add(k);
        sameName++;
      }
    }
    // The server's location is a name's span, the index's a point: `module.exports = ...` is declared at `module`
    // for TypeScript (its name is the whole `module.exports`), at `exports` for sextant. Inside the span is the same name.
    for (const found of [definitions, rawDefinitions]) {
      for (const k of [...found]) {
        const [, path, line, character] = /^(.*):(\d+):(\d+)$/.exec(k)!;
        const at = Number(character);
        // An anonymous default export (`export default {...}`) has no name: the server spans the whole statement,
        // sextant names its `default` keyword, on the statement's first line.
        const anonymousDefault = (h.lines(path!)[Number(line)] ?? '').startsWith('default', at);
        const spanning = [...serverFound, ...followedSpans].find(
          (l) => lspPath(l) === path && l.line === Number(line) && l.character < at && (l.endLine === l.line ? at < l.endCharacter : anonymousDefault),
        );
        if (spanning) {
          found.delete(k);
          found.add(lspKey(spanning));
          if (found === definitions) withinSpan++;
          continue;
        }
        // `X.m = function m() {...}` binds both names to one function: TypeScript goes to the function's, sextant to
        // the member's.
        const named = assignedFunctionName(h, { path: path!, line: Number(line), character: at });
        if (named && serverDefinitions.has(named)) {
          found.delete(k);
          found.add(named);
          if (found === definitions) functionNames++;
        }
      }
    }
    for (const k of definitions) {
      if (serverDefinitions.has(k)) continue;
      const [, path, line, character] = /^(.*):(\d+):(\d+)$/.exec(k)!;
      const declaration = declarationNamedAt(h, { path: path!, line: Number(line), character: Number(character) });
      if (isLiteralMember(declaration) && h.lines(path!)[Number(line)]!.slice(Number(character)).startsWith(name)) {
        serverDefinitions.add(k);
        implementations++;
      }
    }
    if (VERBOSE) {
      for (const k of rawReferences) if (!references.has(k)) console.log(`refs at ${p.path}:${p.line + 1}:${p.character + 1} ${name}: only raw: ${k}`);
      for (const k of references) if (!serverReferences.has(k)) console.log(`refs at ${p.path}:${p.line + 1}:${p.character + 1} ${name}: only sextant${rawReferences.has(k) ? ' and raw' : ''}: ${k}`);
      for (const k of serverReferences) if (!references.has(k)) console.log(`refs at ${p.path}:${p.line + 1}:${p.character + 1} ${name}: only the server${rawReferences.has(k) ? ' and raw' : ''}: ${k}`);
      for (const k of definitions) if (!serverDefinitions.has(k)) console.log(`defs at ${p.path}:${p.line + 1}:${p.character + 1} ${name}: only sextant${rawDefinitions.has(k) ? ' and raw' : ''}: ${k}`);
      for (const k of serverDefinitions) if (!definitions.has(k)) console.log(`defs at ${p.path}:${p.line + 1}:${p.character + 1} ${name}: only the server${rawDefinitions.has(k) ? ' and raw' : ''}: ${k}`);
    }
    m.definitions.raw.push(scoreOf(rawDefinitions, serverDefinitions));
    m.definitions.sextant.push(scoreOf(definitions, serverDefinitions));
    // Past findReferences' cap (2000) an answer is truncated by design: no measure of its recall means anything.
    if (truncated) {
      overCap++;
      continue;
    }
    m.references.raw.push(scoreOf(rawReferences, serverReferences));
    m.references.sextant.push(scoreOf(references, serverReferences));
  }
  assert.deepEqual(failures, [], 'no position errs');
  const report = [
    `definitions and references vs typescript-language-server at ${positions.length} positions in ${new Set(positions.map((p) => p.path)).size} files; ${implementations} definitions were object-literal implementations the server does not link; ${throughImports} of the server's definitions were import bindings, followed; ${withinSpan} of sextant's were inside the name the server spans; ${functionNames} were a member's name where the server gives the name of the function assigned to it; ${sameName} references beyond the server's were places of the same name; ${overCap} positions had more references than findReferences' cap, left out of the references measures`,
  ];
  const below: string[] = [];
  for (const [project, m] of [...perProject].sort()) {
    const n = m.definitions.raw.length;
    for (const kind of ['definitions', 'references'] as const) {
      const raw = summarize(m[kind].raw);
      const mine = summarize(m[kind].sextant);
      const counted = m[kind].raw.length === n ? '' : ` (${m[kind].raw.length} positions)`;
      report.push(`${project} (${n} positions) ${kind}${counted}: raw index ${formatSummary(raw)}; sextant ${formatSummary(mine)}`);
      for (const measure of ['microPrecision', 'microRecall'] as const) {
        const r = Number.isNaN(raw[measure]) ? 0 : raw[measure];
        if (!(mine[measure] >= r)) below.push(`${project} ${kind} ${measure}: sextant ${fmt(mine[measure])} < raw ${fmt(r)}`);
      }
    }
  }
  for (const line of report) console.log(line);
  assert.deepEqual(below, [], 'sextant is not below the raw index');
  return report;
}

// ---------------------------------------------------------------- call hierarchy

type Stratum = 'object-literal member' | 'function' | 'method' | 'arrow function in a const';

interface Target extends Place {
  name: string;
  stratum: Stratum;
  /** For a member of a literal held by a const: the const's name. */
  owner?: string;
}

interface Place {
  path: string;
  line: number;
  character: number;
}

/** The const an object literal initializes, through wrapping calls (`const X = freeze({...})`). */
function literalOwner(literal: ts.Node): string | undefined {
  let node = literal;
  while (ts.isParenthesizedExpression(node.parent) || (ts.isCallExpression(node.parent) && node.parent.arguments.length === 1 && node.parent.arguments[0] === node)) {
    node = node.parent;
  }
  return ts.isVariableDeclaration(node.parent) && node.parent.initializer === node && ts.isIdentifier(node.parent.name) ? node.parent.name.text : undefined;
}

function sampleTargets(h: HeldOut, quotas: Record<Stratum, number>, seed: number): Target[] {
  const random = prng(seed);
  const candidates = new Map<Stratum, Map<string, Target[]>>();
  const add = (t: Target) => {
    if (!candidates.has(t.stratum)) candidates.set(t.stratum, new Map());
    const byFile = candidates.get(t.stratum)!;
    if (!byFile.has(t.path)) byFile.set(t.path, []);
    byFile.get(t.path)!.push(t);
  };
  for (const path of h.files) {
    if (/\.d\.[mc]?ts$/.test(path)) continue;
    const file = h.source(path);
    const visit = (n: ts.Node) => {
      let name: ts.Node | undefined;
      let stratum: Stratum | undefined;
      let owner: string | undefined;
      if ((ts.isMethodDeclaration(n) || ts.isGetAccessorDeclaration(n)) && n.body && ts.isIdentifier(n.name)) {
        name = n.name;
        if (ts.isObjectLiteralExpression(n.parent)) {
          stratum = 'object-literal member';
          owner = literalOwner(n.parent);
        } else if (ts.isClassLike(n.parent)) stratum = 'method';
      } else if (ts.isFunctionDeclaration(n) && n.body && n.name) {
        name = n.name;
        stratum = 'function';
      } else if (
        ts.isVariableDeclaration(n) &&
        ts.isIdentifier(n.name) &&
        n.initializer &&
        (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer)) &&
        ts.getCombinedNodeFlags(n) & ts.NodeFlags.Const
      ) {
        name = n.name;
        stratum = 'arrow function in a const';
      }
      if (name && stratum) {
        const at = file.getLineAndCharacterOfPosition(name.getStart(file));
        add({ path, line: at.line, character: at.character, name: name.getText(file), stratum, ...(owner ? { owner } : {}) });
      }
      ts.forEachChild(n, visit);
    };
    visit(file);
  }
  return drawStratified(candidates, quotas, random);
}

/**
 * The key of a caller or callee: the start of its name, moved through the raw
 * index to the first definition of its symbol that has a body (an overload's
 * implementation), a constructor to its class.
 */
function definitionKey(h: HeldOut, p: Place): string {
  p = classOfConstructor(h, p) ?? p;
  for (const symbol of rawSymbolsAt(h.raw, p.path, p.line, p.character)) {
    let s = symbol;
    if (s.endsWith('`<constructor>`().')) s = s.slice(0, -'`<constructor>`().'.length);
    const definitions = rawOccurrences(h.raw, p.path, [s]).filter((o) => o.roles & SymbolRole.Definition);
    if (definitions.length === 0) continue;
    const withBody = definitions.filter((o) => o.enclosing && o.enclosing[2] > o.enclosing[0]);
    const first = (withBody.length ? withBody : definitions).sort((a, b) => a.path.localeCompare(b.path) || a.range[0] - b.range[0])[0]!;
    return pointKey(first.path, first.range[0], first.range[1]);
  }
  return pointKey(p.path, p.line, p.character);
}

/**
 * The name of the class a constructor at `p` builds, where TypeScript's call
 * hierarchy names the class (`module.exports = class File {...}`, `const A =
 * class {...}`, a class declared in a function): scip-typescript gives such a
 * class and its constructor locals of their own, which the raw index cannot
 * relate as it relates `C#<constructor>().` to `C#`.
 */
function classOfConstructor(h: HeldOut, p: Place): Place | undefined {
  const named = declarationNamedAt(h, p);
  const constructor = named.kind === ts.SyntaxKind.ConstructorKeyword ? named.parent : named;
  if (!ts.isConstructorDeclaration(constructor) || !isCallHierarchyDeclaration(constructor.parent)) return undefined;
  const cls = constructor.parent;
  const name = cls.name ?? (ts.isClassExpression(cls) ? (cls.parent as ts.VariableDeclaration).name : undefined);
  if (!name) return undefined;
  const at = h.source(p.path).getLineAndCharacterOfPosition(name.getStart(h.source(p.path)));
  return { path: p.path, line: at.line, character: at.character };
}

/**
 * The key of a callee: as definitionKey, except that an accessor with a
 * partner (`get x` and `set x`) is keyed as the one declared first, which
 * TypeScript's call hierarchy names for every use of the property, where
 * sextant names the accessor a use runs (the setter, for an assignment).
 */
function calleeKey(h: HeldOut, p: Place): string {
  const declaration = declarationNamedAt(h, p);
  if (!ts.isGetAccessorDeclaration(declaration) && !ts.isSetAccessorDeclaration(declaration)) return definitionKey(h, p);
  const source = h.source(p.path);
  const owner = declaration.parent;
  const members: readonly ts.Node[] = ts.isObjectLiteralExpression(owner) ? owner.properties : ts.isClassLike(owner) ? owner.members : [];
  const name = declaration.name.getText(source);
  const first = members.find(
    (m): m is ts.AccessorDeclaration => (ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m)) && m.name.getText(source) === name,
  );
  if (!first || first === declaration) return definitionKey(h, p);
  conventions.accessorPair++;
  const at = source.getLineAndCharacterOfPosition(first.name.getStart(source));
  return definitionKey(h, { path: p.path, line: at.line, character: at.character });
}

/**
 * The key of a caller: as definitionKey, except that a function held by an
 * object-literal property (`{ complete: () => observer.complete() }`), which
 * sextant names as the caller of the calls in it, is keyed as the server
 * names that caller: the declaration around it that owns calls by TypeScript's rule.
 */
function callerKey(h: HeldOut, p: Place): string {
  const named = declarationNamedAt(h, p);
  const declaration = named.kind === ts.SyntaxKind.ConstructorKeyword ? named.parent : named;
  const literalMember = ts.isPropertyAssignment(declaration) && isLiteralMember(declaration);
  const anonymousDefault = isAnonymousDefault(declaration);
  if (!literalMember && !anonymousDefault && !isAnonymousConstructor(declaration)) return definitionKey(h, p);
  if (literalMember) conventions.arrowProperty++;
  else if (anonymousDefault) conventions.anonymousDefault++;
  else conventions.anonymousConstructor++;
  let owner: ts.Node = declaration.parent;
  while (!isCallHierarchyDeclaration(owner)) owner = owner.parent;
  if (ts.isSourceFile(owner)) return fileKey(p.path);
  const name = ts.isArrowFunction(owner) || ts.isFunctionExpression(owner) || ts.isClassExpression(owner) ? (owner.parent as ts.VariableDeclaration).name : (owner as ts.NamedDeclaration).name!;
  const at = h.source(p.path).getLineAndCharacterOfPosition(name.getStart(h.source(p.path)));
  return definitionKey(h, { path: p.path, line: at.line, character: at.character });
}

/** Whether `name` is bound in the file by a default import (`import parseHeaders from './parseHeaders.js'`): a call through it calls `default`. */
function isDefaultImport(h: HeldOut, path: string, name: string): boolean {
  return h.source(path).statements.some((s) => ts.isImportDeclaration(s) && s.importClause?.name?.text === name);
}

/**
 * An anonymous function or class a module exports as its default (`export
 * default (config) => {...}`, in parentheses too, as Babel writes it: `export
 * default (function (option, Dayjs) {...})`), which sextant names `default`
 * at the keyword; TypeScript's call hierarchy has no item for it, and counts
 * the calls in it as the module's.
 */
function isAnonymousDefault(n: ts.Node): boolean {
  const statement = n.kind === ts.SyntaxKind.DefaultKeyword ? n.parent : n;
  if (!ts.isExportAssignment(statement) || statement.isExportEquals) return false;
  let e = statement.expression;
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  return ts.isArrowFunction(e) || ((ts.isFunctionExpression(e) || ts.isClassExpression(e)) && e.name === undefined);
}

/**
 * The constructor of a class expression no name holds (`fromClass(class {
 * constructor() {...} })`), which sextant names as the caller of the calls in
 * it; TypeScript counts a constructor's calls as its class's, and a class
 * expression no name holds as the declaration's around it.
 */
function isAnonymousConstructor(n: ts.Node): n is ts.ConstructorDeclaration {
  return ts.isConstructorDeclaration(n) && ts.isClassExpression(n.parent) && !isCallHierarchyDeclaration(n.parent);
}

/** The anonymous class expression's constructor (see isAnonymousConstructor) a place lies in, below `target`. */
function inAnonymousConstructor(h: HeldOut, target: Place, p: Place): boolean {
  const declaration = declarationNamedAt(h, target);
  for (let n: ts.Node | undefined = nodeAt(h, p.path, p.line, p.character); n && n !== declaration && !ts.isSourceFile(n); n = n.parent) {
    if (isAnonymousConstructor(n)) return p.path === target.path;
  }
  return false;
}

const conventions = { arrowProperty: 0, anonymousConstructor: 0, anonymousDefault: 0, readNotCalled: 0, accessorPair: 0 };

interface Party {
  name: string;
  ranges: Place[];
}

const fileKey = (path: string) => `${path}:<file>`;

/**
 * callHierarchy (depth 1, calls only) against the server's call hierarchy at
 * the same positions. A caller or callee only sextant has counts as right
 * only when each of its call ranges really is a call of that name: for a
 * callee, of the callee's name; for a caller of an object-literal member, of
 * the member through its const (`X.create(...)`), which the server does not
 * link to the literal when a declaration file types X.
 */
export async function callHierarchies(h: HeldOut, quotas: Record<Stratum, number>, seed: number): Promise<{ report: string[]; targets: Target[] }> {
  const targets = sampleTargets(h, quotas, seed);
  const realRoot = realpathSync(h.repo);
  /** A server location's path, relative to the repository (undefined outside it). */
  const relativePath = (path: string) =>
    path.startsWith('/') ? (path.startsWith(`${realRoot}/`) ? path.slice(realRoot.length + 1) : undefined) : path;
  const relative = (uri: string) => relativePath(decodeURIComponent(new URL(uri).pathname));
  const scores = { callers: [] as Score[], callees: [] as Score[] };
  const byStratum = new Map<Stratum, { callers: Score[]; callees: Score[] }>();
  const failures: string[] = [];
  const unprepared: string[] = [];
  const itemMismatches: string[] = [];
  const verified = { callers: 0, callees: 0, otherProject: 0, serverDefinition: 0 };
  const disagreements: string[] = [];
  // The server's call hierarchy searches only the project of the target's file (tsserver asks that project's
  // language service alone), so it misses callers in a package whose tsconfig maps this one's sources in through
  // `paths`. Its findReferences searches every project: a caller only sextant has, in another project, is right when
  // each of its call ranges is a reference the server finds to the target, at a place TypeScript counts as a call.
  let referencesOf: { target: Target; keys: Set<string> } | undefined;
  const referencedFromAnotherProject = async (t: Target, ranges: Place[]) => {
    if (ranges.length === 0 || ranges.some((r) => h.ownerOf.get(r.path) === h.ownerOf.get(t.path))) return false;
    if (referencesOf?.target !== t) {
      const keys = new Set<string>();
      for (const l of await h.server.references(t.path, t.line, t.character, false)) {
        const path = relativePath(l.path);
        if (path !== undefined) keys.add(pointKey(path, l.line, l.character));
      }
      referencesOf = { target: t, keys };
    }
    const { keys } = referencesOf;
    return ranges.every((r) => keys.has(pointKey(r.path, r.line, r.character)) && isCallSite(nodeAt(h, r.path, r.line, r.character)));
  };
  // The server's call hierarchy also misses calls through CommonJS bindings (`const { f } = require('./m')`, where
  // m exports `module.exports = { f }`; `m.f` after `const m = require('./m')`), which its goToDefinition follows: a
  // caller only sextant has is right when each of its call ranges is a call, or a member access naming the target
  // (which TypeScript's call hierarchy counts as one), whose definition, asked of the server, is the target or the
  // shorthand exporting it.
  const calledAsTargetByServer = async (t: Target, ranges: Place[]) => {
    if (ranges.length === 0) return false;
    for (const r of ranges) {
      const n = nodeAt(h, r.path, r.line, r.character);
      if (!isCallSite(n) && !(ts.isPropertyAccessExpression(n.parent) && n.parent.name === n)) return false;
      // The target, or the shorthand that exports it from its own file (`module.exports = { f }`), where the server stops.
      const isTarget = (d: { path: string; line: number; character: number }) => {
        if (relativePath(d.path) !== t.path) return false;
        if (d.line === t.line && d.character === t.character) return true;
        const named = nodeAt(h, t.path, d.line, d.character);
        return ts.isIdentifier(named) && named.text === t.name && ts.isShorthandPropertyAssignment(named.parent);
      };
      if (!(await h.server.definition(r.path, r.line, r.character)).some(isTarget)) return false;
    }
    return true;
  };
  for (const t of targets) {
    const at = `${t.path}:${t.line + 1}:${t.character + 1} (${t.stratum} ${t.name})`;
    const items = await h.server.prepareCallHierarchy(t.path, t.line, t.character);
    if (items.length !== 1) {
      unprepared.push(`${at}: the server prepared ${items.length} items`);
      continue;
    }
    const item = items[0]!;
    if (!byStratum.has(t.stratum)) byStratum.set(t.stratum, { callers: [], callees: [] });
    for (const direction of ['incoming', 'outgoing'] as const) {
      let result: CallHierarchy.Result;
      try {
        result = await h.navigation.callHierarchy({
          repo: h.slug,
          path: t.path,
          line: t.line + 1,
          column: t.character + 1,
          direction,
          depth: 1,
          include_references: false,
          limit: 1000,
        });
      } catch (error) {
        failures.push(`${at} ${direction}: ${(error as Error).message}`);
        continue;
      }
      if (direction === 'incoming') {
        const mineItem = result.item.path === null ? undefined : pointKey(result.item.path, result.item.line! - 1, result.item.column! - 1);
        const theirs = pointKey(t.path, item.selectionRange.start.line, item.selectionRange.start.character);
        if (mineItem !== theirs) itemMismatches.push(`${at}: sextant's item ${mineItem}, the server's ${theirs}`);
      }
      const mine = new Map<string, Party>();
      for (const call of result.calls) {
        const party = direction === 'incoming' ? call.from! : call.to!;
        if (party.path === null || party.line === null || party.column === null) continue;
        const place = { path: party.path, line: party.line - 1, character: party.column - 1 };
        const key =
          party.kind === 'module'
            ? fileKey(party.path)
            : direction === 'incoming'
              ? callerKey(h, place)
              : calleeKey(h, place);
        const ranges = call.ranges.map((r) => ({ path: r.path, line: r.line - 1, character: r.column - 1 }));
        mine.set(key, { name: party.name, ranges: [...(mine.get(key)?.ranges ?? []), ...ranges] });
      }
      const theirs = new Map<string, Party>();
      const calls = direction === 'incoming' ? await h.server.incomingCalls(item) : await h.server.outgoingCalls(item);
      for (const call of calls) {
        const party: CallHierarchyItem = 'from' in call ? call.from : call.to;
        const path = relative(party.uri);
        if (path === undefined) continue;
        // A file's top-level code: a File item, or one named after the file, a module or (a CommonJS script's) at its start.
        const start = party.selectionRange.start;
        const atStart = start.line === 0 && start.character === 0;
        const namedAfterFile = party.name === path.split('/').pop();
        const isFile = party.kind === SymbolKind.File || (namedAfterFile && (party.kind === SymbolKind.Module || atStart));
        const key = isFile ? fileKey(path) : definitionKey(h, { path, line: party.selectionRange.start.line, character: party.selectionRange.start.character });
        // Incoming, where the caller refers to the target; outgoing, where the target calls the callee.
        const ranges = call.fromRanges.map((r) => ({ path: direction === 'incoming' ? path : t.path, line: r.start.line, character: r.start.character }));
        theirs.set(key, { name: party.name, ranges });
      }
      // What only sextant has is right only when its calls are calls of that name (see above).
      const kind = direction === 'incoming' ? 'callers' : 'callees';
      for (const [key, party] of mine) {
        if (theirs.has(key)) continue;
        const name = direction === 'incoming' ? t.name : party.name.split('.').pop()!;
        const callsOfName =
          (direction === 'outgoing' || t.stratum === 'object-literal member') &&
          party.ranges.length > 0 &&
          party.ranges.every((r) => {
            const n = nodeAt(h, r.path, r.line, r.character);
            if (!ts.isIdentifier(n) || !isCalled(n)) return false;
            if (n.text !== name && !(name === 'default' && isDefaultImport(h, r.path, n.text))) return false;
            if (direction === 'outgoing') return true;
            // Through the const holding the literal: `X.create(...)`.
            return ts.isPropertyAccessExpression(n.parent) && ts.isIdentifier(n.parent.expression) && n.parent.expression.text === t.owner;
          });
        if (callsOfName) {
          theirs.set(key, party);
          verified[kind]++;
        } else if (direction === 'incoming' && (await referencedFromAnotherProject(t, party.ranges))) {
          theirs.set(key, party);
          verified.otherProject++;
        } else if (direction === 'incoming' && (await calledAsTargetByServer(t, party.ranges))) {
          theirs.set(key, party);
          verified.serverDefinition++;
        } else disagreements.push(`${at}: ${kind} only sextant has: ${party.name} (${key})`);
      }
      const targetDeclaration = declarationNamedAt(h, t);
      for (const [key, party] of theirs) {
        if (mine.has(key)) continue;
        // TypeScript counts reading a method as calling it (`new Facet(config.combine)`): no call, where the target is no accessor.
        const readNotCalled =
          direction === 'incoming' &&
          !ts.isGetAccessorDeclaration(targetDeclaration) &&
          !ts.isSetAccessorDeclaration(targetDeclaration) &&
          party.ranges.length > 0 &&
          party.ranges.every((r) => {
            const n = nodeAt(h, r.path, r.line, r.character);
            return ts.isIdentifier(n) && ts.isPropertyAccessExpression(n.parent) && n.parent.name === n && !isCalled(n);
          });
        // The calls in an anonymous class expression's constructor, which sextant gives the constructor.
        const constructorCalls = direction === 'outgoing' && party.ranges.length > 0 && party.ranges.every((r) => inAnonymousConstructor(h, t, r));
        if (readNotCalled || constructorCalls) {
          theirs.delete(key);
          if (readNotCalled) conventions.readNotCalled++;
          else conventions.anonymousConstructor++;
        } else disagreements.push(`${at}: ${kind} only the server has: ${party.name} (${key})`);
      }
      const s = scoreOf(new Set(mine.keys()), new Set(theirs.keys()));
      scores[kind].push(s);
      byStratum.get(t.stratum)![kind].push(s);
    }
  }
  const callers = summarize(scores.callers);
  const callees = summarize(scores.callees);
  const strata = new Map<Stratum, number>();
  for (const t of targets) strata.set(t.stratum, (strata.get(t.stratum) ?? 0) + 1);
  const report = [
    `call hierarchy vs typescript-language-server: ${targets.length} targets in ${new Set(targets.map((t) => t.path)).size} files (${[...strata].map(([k, n]) => `${n} ${k}`).join(', ')}); sextant failed at ${failures.length}, the server prepared no item at ${unprepared.length}, items differ at ${itemMismatches.length}`,
    `callers: ${formatSummary(callers)}; ${verified.callers} only sextant has counted right as calls through the member's const; ${conventions.arrowProperty} callers that are functions held by object-literal properties keyed as the declaration around them; ${conventions.readNotCalled} callers only the server has that read the method without calling it, not counted`,
    `${conventions.anonymousConstructor} callers or callees in constructors of anonymous class expressions and ` +
      `${conventions.anonymousDefault} callers that are anonymous default exports keyed as TypeScript owns their calls; ` +
      `${conventions.accessorPair} callees that are the second of an accessor pair keyed as the first, which TypeScript names`,
    `callees: ${formatSummary(callees)}; ${verified.callees} only sextant has counted right as calls of that name; ${verified.otherProject} callers in another project counted right by the server's references; ` +
      `${verified.serverDefinition} callers counted right by the server's goToDefinition at each of their calls`,
    'by kind of target, micro: ' +
      [...byStratum]
        .map(([stratum, s]) => {
          const a = summarize(s.callers);
          const b = summarize(s.callees);
          return `${stratum} (${s.callers.length}): callers P ${fmt(a.microPrecision)} R ${fmt(a.microRecall)}, callees P ${fmt(b.microPrecision)} R ${fmt(b.microRecall)}`;
        })
        .join('; '),
    ...failures.map((f) => `sextant failed: ${f}`),
    ...unprepared.map((f) => `not compared: ${f}`),
    ...itemMismatches.map((f) => `item: ${f}`),
    ...disagreements.slice(0, VERBOSE ? undefined : 30).map((x) => `disagreement: ${x}`),
  ];
  for (const line of report) console.log(line);
  assert.deepEqual(failures, [], 'sextant has a call hierarchy for every sampled callable');
  assert.ok(unprepared.length <= targets.length * 0.05, `the server prepared no item at ${unprepared.length} targets`);
  assert.deepEqual(itemMismatches, [], "sextant's item is the declaration the server prepares");
  const floors: [string, number][] = [
    ['caller precision', callers.microPrecision],
    ['caller recall', callers.microRecall],
    ['callee precision', callees.microPrecision],
    ['callee recall', callees.microRecall],
  ];
  const below = floors.filter(([, v]) => !(v >= 0.95)).map(([name, v]) => `${name} ${fmt(v)} < 0.95`);
  assert.deepEqual(below, [], 'call hierarchies fell under 0.95');
  return { report, targets };
}
