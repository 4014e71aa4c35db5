// A SCIP index built by driving a language server, for a language without a
// SCIP indexer (C and C++ through clangd): the definitions of each file from
// documentSymbol (each resolved to where it is defined, so a prototype in a
// header and its definition are one symbol), then the references of each
// definition. It runs within a time budget; what it did not reach is counted,
// and the language's tier says so.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import type { LspIndexer, LspIndexRequest, LspIndexResult } from '../orchestrator/index-repository.js';
import { SymbolRole, type ScipDocument, type ScipOccurrence, type ScipSymbolInformation } from '../scip/schema.js';
import { LspPool, poolOptions } from './pool.js';

interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
interface DocumentSymbol {
  name: string;
  kind: number;
  range: LspRange;
  selectionRange: LspRange;
  children?: DocumentSymbol[];
}
type Located = { uri: string; range: LspRange } | { targetUri: string; targetSelectionRange: LspRange };

/** Languages whose files have C preprocessor macros. */
const PREPROCESSED = new Set(['c', 'cpp']);
/** A kind of our own for macros, beyond LSP's SymbolKind values. */
const MACRO = 1000;

/** LSP SymbolKind -> SCIP SymbolInformation.Kind, and the descriptor suffix of the symbol's name. */
const KINDS: Record<number, { scip: number; suffix: string }> = {
  5: { scip: 7, suffix: '#' }, // class
  6: { scip: 26, suffix: '().' }, // method
  8: { scip: 15, suffix: '.' }, // field
  9: { scip: 9, suffix: '().' }, // constructor
  10: { scip: 11, suffix: '#' }, // enum
  12: { scip: 17, suffix: '().' }, // function
  13: { scip: 61, suffix: '.' }, // variable
  14: { scip: 8, suffix: '.' }, // constant
  22: { scip: 12, suffix: '.' }, // enum member
  23: { scip: 49, suffix: '#' }, // struct
  26: { scip: 58, suffix: '#' }, // type parameter
  3: { scip: 30, suffix: '/' }, // namespace
  [MACRO]: { scip: 0, suffix: '!' },
};

/**
 * The macros a file defines (`#define NAME`), as document symbols: clangd's
 * documentSymbol does not list them, but it resolves and finds references of them.
 */
function macros(text: string): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  text.split('\n').forEach((line, i) => {
    const m = /^(\s*#\s*define\s+)([A-Za-z_]\w*)/.exec(line);
    if (!m) return;
    const start = m[1]!.length;
    const name = { start: { line: i, character: start }, end: { line: i, character: start + m[2]!.length } };
    out.push({
      name: m[2]!,
      kind: MACRO,
      range: { start: { line: i, character: 0 }, end: { line: i, character: line.length } },
      selectionRange: name,
    });
  });
  return out;
}

/** A descriptor name, backquoted when it holds characters the SCIP grammar does not allow bare. */
function escape(name: string): string {
  return /^[\w+$-]+$/.test(name) ? name : `\`${name.replaceAll('`', '``')}\``;
}

function key(path: string, r: LspRange): string {
  return `${path}:${r.start.line}:${r.start.character}`;
}

const HEADER = /\.(h|hh|hpp|hxx)$/;

/** Of a declaration and a definition of one symbol, whether `a` is the definition. */
function definitionFirst(a: { path: string; selection: LspRange }, b: { path: string; selection: LspRange }): boolean {
  const aHeader = HEADER.test(a.path);
  if (aHeader !== HEADER.test(b.path)) return !aHeader;
  if (a.path === b.path) return a.selection.start.line > b.selection.start.line;
  return a.path < b.path;
}

function range(r: LspRange): number[] {
  return r.start.line === r.end.line
    ? [r.start.line, r.start.character, r.end.character]
    : [r.start.line, r.start.character, r.end.line, r.end.character];
}

/** Builds the index of the repository's files of one language through its language server. */
export function lspIndexer(env: NodeJS.ProcessEnv = process.env): LspIndexer {
  const pool = new LspPool({ ...poolOptions(env), idleMs: 60 * 60_000 }, env);
  return {
    serverFor: (language) => pool.tierServer(language)?.name,
    build: (request) =>
      build(pool, { ...request, callHierarchy: pool.tierServer(request.language)?.capabilities.includes('callHierarchy') ?? false }),
    close: () => pool.close(),
  };
}

async function build(pool: LspPool, request: LspIndexRequest & { callHierarchy: boolean }): Promise<LspIndexResult> {
  const started = Date.now();
  const deadline = started + request.timeoutMs;
  const repo = { slug: request.slug, root: request.root };
  const ask = <R>(path: string, method: string, params: (uri: string) => unknown) =>
    pool.ask<R>(repo, request.language, path, method, params);
  const pathOf = (uri: string): string | undefined => {
    const prefix = `file://${request.realRoot}/`;
    if (!uri.startsWith(prefix)) return undefined;
    const path = decodeURIComponent(uri.slice(prefix.length));
    return request.paths.includes(path) ? path : undefined;
  };
  const overBudget = () => Date.now() > deadline || request.signal?.aborted === true;

  // The first request starts the server; its background index must be complete before references are asked.
  const paths = [...request.paths].sort();
  if (paths.length === 0) throw new UserError('no files to index');
  for (;;) {
    const answer = await ask<unknown>(paths[0]!, 'textDocument/documentSymbol', (uri) => ({ textDocument: { uri } }));
    if (answer.loadingSeconds === null) break;
    if (overBudget()) break;
  }

  interface Definition {
    symbol: string;
    path: string;
    selection: LspRange;
    range: LspRange;
    info: ScipSymbolInformation;
  }
  const definitions = new Map<string, Definition>();
  const occurrences = new Map<string, Map<string, ScipOccurrence>>(paths.map((p) => [p, new Map()]));
  /** The files where a symbol has an occurrence starting at a place, by `line:character\0symbol`. */
  const starts = new Map<string, Set<string>>();
  const add = (path: string, o: ScipOccurrence) => {
    const at = `${o.range.join(',')}\0${o.symbol}`;
    const existing = occurrences.get(path)!.get(at);
    if (existing) existing.symbolRoles |= o.symbolRoles;
    else occurrences.get(path)!.set(at, o);
    const place = `${o.range[0]}:${o.range[1]}\0${o.symbol}`;
    (starts.get(place) ?? starts.set(place, new Set()).get(place)!).add(path);
  };
  let filesWithSymbols = 0;
  let filesReached = 0;

  // Definitions: each symbol a file declares, resolved to where it is defined.
  for (const path of paths) {
    if (overBudget()) break;
    filesReached++;
    const { value } = await ask<DocumentSymbol[] | null>(path, 'textDocument/documentSymbol', (uri) => ({ textDocument: { uri } }));
    const symbols: { s: DocumentSymbol; parent: string | undefined }[] = [];
    const walk = (list: DocumentSymbol[], parent: string | undefined) => {
      for (const s of list) {
        symbols.push({ s, parent });
        if (s.children?.length) walk(s.children, s.name);
      }
    };
    walk(Array.isArray(value) && value.length && 'selectionRange' in value[0]! ? value : [], undefined);
    if (PREPROCESSED.has(request.language))
      symbols.push(...macros(readFileSync(join(request.realRoot, path), 'utf8')).map((s) => ({ s, parent: undefined })));
    if (symbols.length) filesWithSymbols++;
    for (const { s, parent } of symbols) {
      if (overBudget()) break;
      const kind = KINDS[s.kind] ?? { scip: 0, suffix: '.' };
      const { value: where } = await ask<Located | Located[] | null>(path, 'textDocument/definition', (uri) => ({
        textDocument: { uri },
        position: s.selectionRange.start,
      }));
      const first = (Array.isArray(where) ? where : where ? [where] : [])[0];
      const target = first ? ('targetUri' in first ? { uri: first.targetUri, range: first.targetSelectionRange } : first) : undefined;
      const definedIn = target ? pathOf(target.uri) : undefined;
      // A server asked at a definition may answer its declaration (clangd toggles between the two): of the pair, the
      // definition is the one outside a header, else the later one in the same file (a prototype comes first).
      const self = { path, selection: s.selectionRange };
      const other = definedIn !== undefined && target ? { path: definedIn, selection: target.range } : undefined;
      const home = other && definitionFirst(other, self) ? other : self;
      const k = key(home.path, home.selection);
      let definition = definitions.get(k);
      if (!definition) {
        const namespaces = home.path.split('/').map((segment) => `${escape(segment)}/`);
        const owner = parent ? `${escape(parent)}#` : '';
        const symbol = `lsp . . . ${namespaces.join('')}${owner}${escape(s.name)}${kind.suffix}`;
        definition = {
          symbol,
          path: home.path,
          selection: home.selection,
          range: home.path === path ? s.range : home.selection,
          info: { symbol, documentation: [], relationships: [], kind: kind.scip, displayName: s.name, enclosingSymbol: '' },
        };
        definitions.set(k, definition);
      }
      if (home.path === path && key(path, s.selectionRange) === k) definition.range = s.range;
      // A declaration elsewhere than the definition (a prototype in a header) is a reference to it, as clangd has it.
      if (key(path, s.selectionRange) !== k) {
        add(path, { range: range(s.selectionRange), symbol: definition.symbol, symbolRoles: 0, syntaxKind: 0, enclosingRange: [] });
      }
    }
  }

  const lines = new Map<string, string[]>();
  const textAt = (path: string, r: LspRange): string => {
    let text = lines.get(path);
    if (!text) lines.set(path, (text = readFileSync(join(request.realRoot, path), 'utf8').split('\n')));
    return r.start.line === r.end.line ? (text[r.start.line] ?? '').slice(r.start.character, r.end.character) : '';
  };

  // References: every use of each definition, within the budget.
  let definitionsWithReferences = 0;
  for (const d of definitions.values()) {
    add(d.path, {
      range: range(d.selection),
      symbol: d.symbol,
      symbolRoles: SymbolRole.Definition,
      syntaxKind: 0,
      enclosingRange: range(d.range),
    });
    if (overBudget()) continue;
    const { value } = await ask<Located[] | null>(d.path, 'textDocument/references', (uri) => ({
      textDocument: { uri },
      position: d.selection.start,
      context: { includeDeclaration: false },
    }));
    definitionsWithReferences++;
    for (const l of value ?? []) {
      const uri = 'targetUri' in l ? l.targetUri : l.uri;
      const r = 'targetUri' in l ? l.targetSelectionRange : l.range;
      const path = pathOf(uri);
      if (path === undefined || key(path, r) === key(d.path, d.selection)) continue;
      // A use inside a macro's expansion is reported at the macro's name, which does not name this symbol: it is kept
      // as a reference (clangd lists it) with an empty range, so that a lookup at the macro's name finds the macro alone.
      const named = textAt(path, r) === d.info.displayName;
      const at = named ? range(r) : [r.start.line, r.start.character, r.start.character];
      add(path, { range: at, symbol: d.symbol, symbolRoles: 0, syntaxKind: 0, enclosingRange: [] });
    }
  }

  // Calls: where the server offers a call hierarchy, the references that are calls of each function.
  const callSites = new Map<string, [number, number][]>();
  let functionsAsked = 0;
  let calls = 0;
  const functions = request.callHierarchy ? [...definitions.values()].filter((d) => d.info.kind === 17) : [];
  for (const d of functions) {
    if (overBudget()) break;
    const position = { textDocument: { uri: '' }, position: d.selection.start };
    const { value: items } = await ask<unknown[] | null>(d.path, 'textDocument/prepareCallHierarchy', (uri) => ({
      ...position,
      textDocument: { uri },
    }));
    functionsAsked++;
    const item = items?.[0];
    if (!item) continue;
    const { value: incoming } = await ask<{ from: { uri: string }; fromRanges: LspRange[] }[] | null>(
      d.path,
      'callHierarchy/incomingCalls',
      () => ({ item }),
    );
    for (const call of incoming ?? []) {
      const caller = pathOf(call.from.uri);
      if (caller === undefined) continue;
      for (const r of call.fromRanges) {
        // clangd groups the calls made from same-named functions of different files (each program's main) under one
        // of them, with the others' ranges. A call lies where this function has a reference starting at its range:
        // in the caller's file, else in the one other file that has one there; taken at its word in the caller's
        // file it would make whatever occurrence stands at that place a call.
        const files = starts.get(`${r.start.line}:${r.start.character}\0${d.symbol}`);
        const path = files?.has(caller) ? caller : files?.size === 1 ? [...files][0]! : undefined;
        if (path === undefined) continue;
        (callSites.get(path) ?? callSites.set(path, []).get(path)!).push([r.start.line, r.start.character]);
        calls++;
      }
    }
  }

  const documents: ScipDocument[] = [];
  for (const path of paths) {
    const occ = [...occurrences.get(path)!.values()];
    if (occ.length === 0) continue;
    occ.sort((a, b) => a.range[0]! - b.range[0]! || a.range[1]! - b.range[1]!);
    documents.push({
      relativePath: path,
      occurrences: occ,
      symbols: [...definitions.values()].filter((d) => d.path === path).map((d) => d.info),
      language: request.language,
      text: '',
      positionEncoding: 2,
    });
  }
  const missedFiles = paths.length - filesReached;
  const missedDefinitions = definitions.size - definitionsWithReferences;
  const missedFunctions = functions.length - functionsAsked;
  const complete = missedFiles === 0 && missedDefinitions === 0 && missedFunctions === 0;
  return {
    documents,
    callSites,
    durationMs: Date.now() - started,
    coverage: {
      files: paths.length,
      files_reached: filesReached,
      files_with_definitions: filesWithSymbols,
      definitions: definitions.size,
      definitions_with_references: definitionsWithReferences,
      functions: functions.length,
      functions_with_calls_asked: functionsAsked,
      call_sites: calls,
    },
    reason: complete
      ? null
      : `built through ${request.server} within the ${Math.round(request.timeoutMs / 1000)} s budget: ` +
        `${missedFiles} of ${paths.length} files not reached, references of ${missedDefinitions} of ${definitions.size} definitions ` +
        `and callers of ${missedFunctions} of ${functions.length} functions not asked`,
  };
}
