// Answers of the lsp tier: a language with a live language server but no
// precise index (C and C++ through clangd), and a file edited since the index
// in a language with a server (TypeScript, Python), are answered by the
// server, from the worktree's current text. Every location says `source: "lsp"`; an answer
// the server gave while still loading its project says `partial: true` and
// why, never an empty, unflagged "nothing found". The servers themselves
// (starting, bounds, faults) are the adapter's pool (src/lsp/pool.ts), given
// to the query layer as LiveServers.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MethodNotImplemented, UserError } from '../errors.js';
import type { IndexFileRow, Lookups } from '../registry/lookups.js';
import { SyntaxLookups, type SyntaxDefinitionRow } from '../registry/syntactic.js';
import type { Range as Range0 } from '../scip/range.js';
import type { SymbolItem } from '../protocol/common.js';
import type * as CallHierarchy from '../protocol/call-hierarchy.js';
import { CAP as CALLS_CAP } from '../protocol/call-hierarchy.js';
import type * as Definition from '../protocol/definition.js';
import type * as DocumentSymbols from '../protocol/document-symbols.js';
import type { LanguageServerStatus, LanguageTier, Result as StatusResult } from '../protocol/index-status.js';
import type * as References from '../protocol/references.js';
import { navigationCapability } from './status.js';
import { CAP as REFERENCES_CAP } from '../protocol/references.js';
import { readRepoFile } from '../freshness/worktree.js';
import type { ChangedFiles } from '../freshness/worktree-changes.js';
import { changedMentioning, unsearchedNote } from './changed-elsewhere.js';
import { normalizeQueryPath, type RepoContext } from './context.js';
import { asSymbolKind, location, range1 } from './locations.js';
import type { SymbolKind } from '../scip/kind.js';
import { splitLines } from '../lines.js';

/** What the query layer needs of the pool of language servers. */
export interface LiveServers {
  /** The installed server of a language, if any. */
  serverFor(language: string): { name: string } | undefined;
  /** A file's language by its name (for a file the index does not list). */
  languageOf(path: string): string | undefined;
  /** The installed server that answers a language no SCIP indexer covers (the lsp tier); undefined otherwise. */
  tierServer(language: string): { name: string } | undefined;
  status(slug: string, languages: string[]): LanguageServerStatus[];
  ask<R>(
    repo: { slug: string; root: string },
    language: string,
    path: string,
    method: string,
    build: (uri: string) => unknown,
  ): Promise<{ value: R; server: string; loadingSeconds: number | null }>;
  /** Starts the server of a language ahead of the questions and shows it files, so that it loads their projects. */
  warm(repo: { slug: string; root: string }, language: string, paths: readonly string[]): void;
}

/** A file the lsp tier answers for. */
export interface LiveFile {
  path: string;
  language: string;
  root: string;
  /** The file was edited since the index (its language is precise): the index's positions no longer hold there. */
  edited: boolean;
}

interface LspPosition {
  line: number;
  character: number;
}
interface LspRange {
  start: LspPosition;
  end: LspPosition;
}
type LspLocation = { uri: string; range: LspRange } | { targetUri: string; targetSelectionRange: LspRange; targetRange: LspRange };

/** Languages whose servers see only the code the preprocessor keeps: a name under a false #if is none to them. */
const PREPROCESSED = new Set(['c', 'cpp']);

/** What has no definition, as a message says it for a language. */
const NAMELESS = (language: string) =>
  PREPROCESSED.has(language)
    ? 'a keyword, a literal, a macro-generated name or code an #if leaves out'
    : 'a keyword, literal or macro-generated name';

/** The worktree of a repository on this machine, if it has one. */
function worktree(ctx: RepoContext): string | undefined {
  const root = ctx.repo.root_path;
  return root && existsSync(root) ? root : undefined;
}

/** Whether a language of a repository is in the lsp tier: no precise index, a server installed, a worktree to run it on. */
export function isLive(ctx: RepoContext, live: LiveServers | undefined, language: string): boolean {
  const tier = ctx.languages[language];
  return Boolean(live && tier && tier.tier !== 'precise' && live.tierServer(language) && worktree(ctx));
}

/** The file a request names, when its language is in the lsp tier; undefined otherwise. */
export async function liveFile(
  lookups: Lookups,
  ctx: RepoContext,
  live: LiveServers | undefined,
  rawPath: string | undefined,
  onChangedLine: (path: string) => Promise<boolean>,
): Promise<LiveFile | undefined> {
  if (!live || rawPath === undefined) return undefined;
  const path = normalizeQueryPath(rawPath);
  const row = await lookups.file(ctx.index.id, path);
  const root = worktree(ctx);
  if (!row) {
    // A file the index does not list (untracked, or created since): its server answers from the worktree's text.
    const language = live.languageOf(path);
    const exists = root !== undefined && readRepoFile(root, path) !== undefined;
    return exists && language && live.serverFor(language) ? { path, language, root, edited: true } : undefined;
  }
  const language = row.language;
  if (!language) return undefined;
  if (isLive(ctx, live, language)) return { path, language, root: root!, edited: false };
  if (root && live.serverFor(language) && (await onChangedLine(path))) return { path, language, root, edited: true };
  return undefined;
}

/** getIndexStatus with the lsp tier: languages a server answers for, and the servers' states. */
export function withLiveTiers(status: StatusResult, ctx: RepoContext | undefined, live: LiveServers | undefined): StatusResult {
  if (!live || !ctx || !worktree(ctx)) return { ...status, language_servers: [] };
  // Every server that may answer here: for a language of the lsp tier, or for files edited since the index.
  const servers = live.status(
    ctx.repo.slug,
    Object.keys(status.language_tiers).filter((l) => live.serverFor(l)),
  );
  const languages = Object.keys(status.language_tiers).filter((l) => isLive(ctx, live, l));
  if (languages.length === 0) return { ...status, language_servers: servers };
  const tiers: Record<string, LanguageTier> = { ...status.language_tiers };
  for (const language of languages) {
    const before = tiers[language]!;
    const server = live.tierServer(language)!.name;
    tiers[language] = {
      ...before,
      tier: 'lsp',
      indexer: server,
      indexed_files: before.files,
      reason:
        `no SCIP indexer for ${language}: ${server} answers goToDefinition, findReferences and callHierarchy at a position, live from the worktree` +
        (before.tier === 'syntactic'
          ? `; lookups by name, documentSymbols and workspaceSymbols come from ${before.indexer ?? 'a parser'} (syntactic)`
          : '') +
        '; typeHierarchy needs a precise index',
      recovery: null,
    };
  }
  // Told again from the tiers as they answer now: the index's own reason (c syntactic, hierarchies refused) is no longer true.
  return {
    ...status,
    language_tiers: tiers,
    ...(status.capabilities
      ? {
          capabilities: {
            ...status.capabilities,
            navigation: navigationCapability(ctx.repo, tiers),
          },
        }
      : {}),
    language_servers: servers,
  };
}

/** What a partial answer says: the server is still loading, for how long so far. */
function partial(server: string, slug: string, seconds: number | null, missing: string): { partial?: true; partial_reason?: string } {
  if (seconds === null) return {};
  return {
    partial: true,
    partial_reason: `${server} is still loading ${slug} (${seconds.toFixed(1)} s so far): ${missing} may be missing; ask again shortly`,
  };
}

/** Reads the worktree's files a server's answer points into, once each, never outside the root. */
class WorktreeLines {
  private readonly cache = new Map<string, string[] | null>();
  private readonly realRoot: string;
  constructor(root: string) {
    this.realRoot = realpathSync(root);
  }

  /** The repository-relative path of a server's URI, or undefined outside the repository. */
  pathOf(uri: string): string | undefined {
    if (!uri.startsWith('file:')) return undefined;
    const rel = relative(this.realRoot, fileURLToPath(uri));
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
    return rel.split(sep).join('/');
  }

  lines(path: string): string[] | null {
    if (!this.cache.has(path)) {
      let text: string | null = null;
      try {
        text = readFileSync(join(this.realRoot, path), 'utf8');
      } catch {
        text = null;
      }
      this.cache.set(path, text === null ? null : splitLines(text));
    }
    return this.cache.get(path)!;
  }
}

function toRange0(r: LspRange): Range0 {
  return [r.start.line, r.start.character, r.end.line, r.end.character];
}

/** The name a range covers in the worktree's text. */
function nameAt(lines: string[] | null, r: Range0): string {
  const line = lines?.[r[0]];
  if (line === undefined) return '';
  return r[2] === r[0] ? line.slice(r[1], r[3]) : line.slice(r[1]);
}

interface Placed {
  path: string;
  range: Range0;
}

/** The locations a server answered, inside the repository, and how many fell outside it (system headers, libraries). */
function place(answer: LspLocation | LspLocation[] | null, files: WorktreeLines): { inside: Placed[]; outside: number } {
  const list = answer === null ? [] : Array.isArray(answer) ? answer : [answer];
  const inside: Placed[] = [];
  let outside = 0;
  for (const l of list) {
    const uri = 'targetUri' in l ? l.targetUri : l.uri;
    const range = 'targetUri' in l ? l.targetSelectionRange : l.range;
    const path = files.pathOf(uri);
    if (path === undefined) outside++;
    else inside.push({ path, range: toRange0(range) });
  }
  return { inside, outside };
}

function lspSymbol(server: string, p: Placed, name: string): string {
  return `lsp ${server} ${p.path}:${p.range[0] + 1} ${name}`;
}

/** The parser's definition at a place, when the index has one (for the kind, container, signature and span the server does not give). */
async function parsedAt(lookups: Lookups, ctx: RepoContext, p: Placed, name: string): Promise<SyntaxDefinitionRow | undefined> {
  const rows = await new SyntaxLookups(lookups.db).named(ctx.index.id, name);
  return rows.find((d) => d.path === p.path && d.start_line === p.range[0]);
}

async function toDefinition(
  lookups: Lookups,
  ctx: RepoContext,
  server: string,
  files: WorktreeLines,
  p: Placed,
): Promise<Definition.Definition> {
  const lines = files.lines(p.path);
  const name = nameAt(lines, p.range);
  const parsed = name ? await parsedAt(lookups, ctx, p, name) : undefined;
  return {
    ...location(ctx.repo.slug, p.path, p.range, lines, { symbol: lspSymbol(server, p, name), source: 'lsp' }),
    name,
    kind: parsed ? asSymbolKind(parsed.kind) : 'unknown',
    container: parsed?.container ?? null,
    signature: parsed?.signature ?? null,
    enclosing_range: parsed ? range1([parsed.start_line, 0, parsed.span_end_line, parsed.span_end_char]) : null,
    enclosing_source: parsed ? 'syntax' : null,
  };
}

function outsideNote(outside: number): string {
  return outside
    ? `${outside} location${outside > 1 ? 's' : ''} outside the repository (system headers, libraries) ${outside > 1 ? 'are' : 'is'} not listed`
    : '';
}

function position(params: { line?: number | undefined; column?: number | undefined }): LspPosition {
  return { line: params.line! - 1, character: params.column! - 1 };
}

/** A textDocument/references request at `at`, for the document's URI. */
function referencesAt(at: LspPosition, includeDeclaration: boolean) {
  return (uri: string) => ({ textDocument: { uri }, position: at, context: { includeDeclaration } });
}

async function definitionsAt(
  lookups: Lookups,
  ctx: RepoContext,
  live: LiveServers,
  file: LiveFile,
  at: LspPosition,
): Promise<{ definitions: Definition.Definition[]; outside: number; server: string; loadingSeconds: number | null; files: WorktreeLines }> {
  const answer = await live.ask<LspLocation | LspLocation[] | null>(
    { slug: ctx.repo.slug, root: file.root },
    file.language,
    file.path,
    'textDocument/definition',
    (uri) => ({ textDocument: { uri }, position: at }),
  );
  const files = new WorktreeLines(file.root);
  const { inside, outside } = place(answer.value, files);
  const definitions = await Promise.all(inside.map((p) => toDefinition(lookups, ctx, answer.server, files, p)));
  return { definitions, outside, server: answer.server, loadingSeconds: answer.loadingSeconds, files };
}

/** goToDefinition at a position of a file in the lsp tier. */
export async function liveDefinition(
  lookups: Lookups,
  ctx: RepoContext,
  live: LiveServers,
  file: LiveFile,
  params: Definition.Params,
): Promise<Definition.Result> {
  const { definitions, outside, server, loadingSeconds } = await definitionsAt(lookups, ctx, live, file, position(params));
  const note = outsideNote(outside);
  return {
    repo: ctx.repo.slug,
    commit: ctx.index.commit_sha,
    source: 'lsp',
    found: definitions.length > 0,
    definitions,
    symbols: definitions.map((d) => d.symbol!),
    ...partial(server, ctx.repo.slug, loadingSeconds, 'definitions in files it has not reached'),
    ...(definitions.length === 0
      ? {
          message:
            `${server} found no definition at ${file.path}:${params.line}:${params.column} in the worktree` +
            (note ? ` (${note})` : ` (place the position on a name; ${NAMELESS(file.language)} has none)`),
        }
      : note
        ? { message: note }
        : {}),
  };
}

/** LSP's SymbolKind numbers, in sextant's words. */
const LSP_SYMBOL_KINDS: Record<number, SymbolKind> = {
  2: 'module',
  3: 'namespace',
  4: 'namespace',
  5: 'class',
  6: 'method',
  7: 'property',
  8: 'field',
  9: 'constructor',
  10: 'enum',
  11: 'interface',
  12: 'function',
  13: 'variable',
  14: 'constant',
  22: 'enum_member',
  23: 'struct',
  26: 'type_parameter',
};

/** LSP's method, constructor and function kinds, and the kinds (class, interface, enum, function) an outline lists inside them. */
const FUNCTION_KINDS: ReadonlySet<number> = new Set([6, 9, 12]);
const LOCALS_SHOWN: ReadonlySet<number> = new Set([5, 10, 11, 12]);

interface LspDocumentSymbol {
  name: string;
  detail?: string;
  kind: number;
  range: LspRange;
  selectionRange: LspRange;
  children?: LspDocumentSymbol[];
}

/**
 * documentSymbols of a file the index does not list (created since it was
 * built): the outline its language server gives of the worktree's text, as
 * goToDefinition in that file is answered live.
 */
export async function liveDocumentSymbols(ctx: RepoContext, live: LiveServers, file: LiveFile): Promise<DocumentSymbols.Result> {
  const answer = await live.ask<LspDocumentSymbol[] | { name: string; kind: number; location: { range: LspRange } }[] | null>(
    { slug: ctx.repo.slug, root: file.root },
    file.language,
    file.path,
    'textDocument/documentSymbol',
    (uri) => ({ textDocument: { uri } }),
  );
  // A server may answer the flat SymbolInformation list instead of the nested outline: each entry is then its own range.
  const list: LspDocumentSymbol[] = (answer.value ?? []).map((s) =>
    'location' in s ? { name: s.name, kind: s.kind, range: s.location.range, selectionRange: s.location.range } : s,
  );
  // In the file's order, as the index's outline is (typescript-language-server sorts by name).
  const inOrder = (symbols: LspDocumentSymbol[]) =>
    [...symbols].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  // Inside a function, only functions and classes, as the index's outline has it: pyright lists parameters and locals too.
  const inFunction = (s: LspDocumentSymbol) => FUNCTION_KINDS.has(s.kind);
  const shown = (parent: LspDocumentSymbol, s: LspDocumentSymbol) => !inFunction(parent) || LOCALS_SHOWN.has(s.kind);
  const outline = (s: LspDocumentSymbol): DocumentSymbols.DocumentSymbol => ({
    name: s.name,
    kind: LSP_SYMBOL_KINDS[s.kind] ?? 'unknown',
    symbol: `lsp ${answer.server} ${file.path}:${s.selectionRange.start.line + 1} ${s.name}`,
    detail: s.detail || null,
    range: range1(toRange0(s.range)),
    selection_range: range1(toRange0(s.selectionRange)),
    children: inOrder((s.children ?? []).filter((c) => shown(s, c))).map(outline),
  });
  return {
    repo: ctx.repo.slug,
    commit: ctx.index.commit_sha,
    source: 'lsp',
    path: file.path,
    symbols: inOrder(list).map(outline),
    ...partial(answer.server, ctx.repo.slug, answer.loadingSeconds, 'symbols'),
  };
}

/** findReferences at a position of a file in the lsp tier; definitions the server gives are marked. */
export async function liveReferences(
  lookups: Lookups,
  ctx: RepoContext,
  live: LiveServers,
  file: LiveFile,
  params: References.Params,
): Promise<References.Result> {
  if (params.kind !== undefined) {
    throw new UserError(
      `kind "${params.kind}" cannot be told in ${file.path}: ${file.language} is answered by a live language server, whose references have no kinds; omit kind`,
    );
  }
  const limit = Math.min(params.limit, REFERENCES_CAP);
  const at = position(params);
  const [defs, refs] = await Promise.all([
    definitionsAt(lookups, ctx, live, file, at),
    live.ask<LspLocation[] | null>(
      { slug: ctx.repo.slug, root: file.root },
      file.language,
      file.path,
      'textDocument/references',
      referencesAt(at, params.include_declaration),
    ),
  ]);
  const files = defs.files;
  const { inside, outside } = place(refs.value, files);
  const isDefinition = (p: Placed) =>
    defs.definitions.some((d) => d.path === p.path && d.line === p.range[0] + 1 && d.column === p.range[1] + 1);
  const seen = new Set<string>();
  const all = inside
    .filter((p) => {
      const k = `${p.path}\0${p.range.join(',')}`;
      return !seen.has(k) && seen.add(k);
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.range[0] - b.range[0] || a.range[1] - b.range[1]));
  const shown = all.slice(0, limit);
  const references: References.Reference[] = shown.map((p) => {
    const definition = isDefinition(p);
    return {
      ...location(ctx.repo.slug, p.path, p.range, files.lines(p.path), { source: 'lsp' }),
      kind: definition ? 'definition' : 'identifier',
      is_definition: definition,
    };
  });
  const symbols: SymbolItem[] = defs.definitions.map((d) => ({
    name: d.name,
    kind: d.kind,
    container: d.container,
    symbol: d.symbol!,
    repo: d.repo,
    path: d.path,
    line: d.line,
    column: d.column,
    end_line: d.end_line,
    end_column: d.end_column,
  }));
  const loading = refs.loadingSeconds ?? defs.loadingSeconds;
  const note = outsideNote(outside);
  return {
    repo: ctx.repo.slug,
    commit: ctx.index.commit_sha,
    source: 'lsp',
    symbols,
    references,
    total: all.length,
    truncated: all.length > shown.length,
    limit,
    ...(params.limit > REFERENCES_CAP ? { limit_clamped: true } : {}),
    ...partial(refs.server, ctx.repo.slug, loading, 'references in files it has not indexed yet'),
    ...(all.length === 0
      ? {
          message: `${refs.server} found no references at ${file.path}:${params.line}:${params.column} in the worktree${note ? ` (${note})` : ''}`,
        }
      : note
        ? { message: note }
        : {}),
  };
}

interface LspCallItem {
  name: string;
  kind: number;
  uri: string;
  range: LspRange;
  selectionRange: LspRange;
  detail?: string;
}

const CALLABLE_KINDS: Record<number, CallHierarchy.CallItem['kind']> = { 6: 'method', 9: 'constructor', 12: 'function' };

function callItem(ctx: RepoContext, server: string, files: WorktreeLines, item: LspCallItem): CallHierarchy.CallItem {
  const path = files.pathOf(item.uri);
  const at = toRange0(item.selectionRange);
  const inside = path !== undefined;
  return {
    name: item.name,
    kind: CALLABLE_KINDS[item.kind] ?? 'function',
    symbol: inside ? lspSymbol(server, { path, range: at }, item.name) : `lsp ${server} ${item.uri} ${item.name}`,
    container: null,
    repo: inside ? ctx.repo.slug : null,
    path: path ?? null,
    ...(inside ? range1(at) : { line: null, column: null, end_line: null, end_column: null }),
    range: inside ? range1(toRange0(item.range)) : null,
    range_source: inside ? 'lsp' : null,
    detail: item.detail ?? null,
  };
}

/**
 * Places the ranges of a server's incoming calls. The LSP puts every range
 * of an incoming call in its caller's file, but clangd
 * groups the calls made from same-named functions of different files (each
 * program's `main`) under one of them, with the others' ranges: read in that
 * file they point at other text, or past its end. A range that does not
 * read the called name (a call spelled inside a macro is reported at the
 * macro's name; a constructor is called by its class's) is left out, and
 * counted, when it belongs to another file (see `elsewhere`).
 */
class CallRangePlacer {
  /** Where the server lists references to the function: by `line:character`, the files. */
  private references: Promise<Map<string, Set<string>>> | undefined;
  private misplaced = 0;

  constructor(
    private readonly slug: string,
    private readonly files: WorktreeLines,
    private readonly askReferences: () => Promise<{ value: LspLocation[] | null }>,
  ) {}

  async place(path: string, ranges: LspRange[], callee: string, incoming: boolean): Promise<CallHierarchy.CallRange[]> {
    const lines = this.files.lines(path);
    const out: CallHierarchy.CallRange[] = [];
    for (const r of ranges) {
      const at = toRange0(r);
      // Outgoing calls lie in the body of the function asked about, in its own file: taken as they are.
      if (incoming && !(at[0] === at[2] && nameAt(lines, at) === callee) && (await this.elsewhere(path, at, lines))) {
        this.misplaced++;
        continue;
      }
      out.push({ ...location(this.slug, path, at, lines, { source: 'lsp' as const }), kind: 'call' as const });
    }
    return out;
  }

  /** What the answer says of the ranges it left out. */
  notes(server: string): string[] {
    if (this.misplaced === 0) return [];
    return [
      `${this.misplaced} call range${this.misplaced > 1 ? 's' : ''} ${server} gave under a caller in another file (same-named functions of different files, as each program's main) left out: findReferences lists every call site with its file`,
    ];
  }

  /**
   * Whether a range that does not read the called name belongs to another
   * file: it lies past the end of this one's line, or the server lists a
   * reference to the function there and none here. A range with no evidence
   * either way (a constructor called by its class's name) stays.
   */
  private async elsewhere(path: string, at: Range0, lines: string[] | null): Promise<boolean> {
    const line = lines?.[at[0]];
    if (line === undefined || at[1] > line.length || (at[2] === at[0] && at[3] > line.length)) return true;
    this.references ??= this.askReferences().then(({ value }) => {
      const byPlace = new Map<string, Set<string>>();
      for (const l of value ?? []) {
        const where = 'targetUri' in l ? { uri: l.targetUri, range: l.targetSelectionRange } : l;
        const p = this.files.pathOf(where.uri);
        if (p === undefined) continue;
        const place = `${where.range.start.line}:${where.range.start.character}`;
        (byPlace.get(place) ?? byPlace.set(place, new Set()).get(place)!).add(p);
      }
      return byPlace;
    });
    const paths = (await this.references).get(`${at[0]}:${at[1]}`);
    return paths !== undefined && !paths.has(path);
  }
}

/** callHierarchy at a position of a file in the lsp tier: one level, from the server's own call hierarchy. */
export async function liveCallHierarchy(
  ctx: RepoContext,
  live: LiveServers,
  file: LiveFile,
  params: CallHierarchy.Params,
): Promise<CallHierarchy.Result> {
  const repo = { slug: ctx.repo.slug, root: file.root };
  const prepared = await live.ask<LspCallItem[] | null>(repo, file.language, file.path, 'textDocument/prepareCallHierarchy', (uri) => ({
    textDocument: { uri },
    position: position(params),
  }));
  const item = prepared.value?.[0];
  if (!item) {
    throw new UserError(
      `${prepared.server} finds no function at ${file.path}:${params.line}:${params.column}: place the position on a function's name` +
        (PREPROCESSED.has(file.language) ? ' (code an #if leaves out has none)' : ''),
    );
  }
  const method = params.direction === 'incoming' ? 'callHierarchy/incomingCalls' : 'callHierarchy/outgoingCalls';
  const answer = await live
    .ask<{ from?: LspCallItem; to?: LspCallItem; fromRanges: LspRange[] }[] | null>(repo, file.language, file.path, method, () => ({
      item,
    }))
    .catch((error: unknown) => {
      if (!(error instanceof MethodNotImplemented) || params.direction !== 'outgoing') throw error;
      throw new UserError(
        `${error.server} (the version installed here) does not answer outgoing calls: ask direction "incoming" at each callee, ` +
          `install a newer ${error.server}, or build a precise index of ${file.language} with \`sextant index --lsp\`, whose call hierarchy answers both directions`,
      );
    });
  const files = new WorktreeLines(file.root);
  const limit = Math.min(params.limit, CALLS_CAP);
  const all = answer.value ?? [];
  const placing = new CallRangePlacer(ctx.repo.slug, files, () =>
    live.ask<LspLocation[] | null>(repo, file.language, file.path, 'textDocument/references', referencesAt(position(params), true)),
  );
  const calls: CallHierarchy.Call[] = [];
  let misplaced = 0;
  for (const c of all.slice(0, limit)) {
    const other = (c.from ?? c.to)!;
    // Incoming: the ranges are in the caller, on the item's name; outgoing: in the item's own file, the one asked about.
    const rangesIn = files.pathOf(c.from ? c.from.uri : item.uri);
    const ranges = rangesIn === undefined ? [] : await placing.place(rangesIn, c.fromRanges, item.name, Boolean(c.from));
    // Not one of its ranges in the caller's file: not a call from it.
    if (rangesIn !== undefined && c.fromRanges.length > 0 && ranges.length === 0) {
      misplaced++;
      continue;
    }
    const end = callItem(ctx, answer.server, files, other);
    calls.push({ ...(c.from ? { from: end } : { to: end }), ranges });
  }
  const notes = [
    ...(params.depth > 1 ? [`${answer.server} answers one level at a time: ask again at a caller for the next`] : []),
    ...(params.include_references ? [`${answer.server}'s call hierarchy lists calls only`] : []),
    ...placing.notes(answer.server),
  ];
  const loading = answer.loadingSeconds ?? prepared.loadingSeconds;
  return {
    repo: ctx.repo.slug,
    commit: ctx.index.commit_sha,
    source: 'lsp',
    item: callItem(ctx, answer.server, files, item),
    direction: params.direction,
    depth: 1,
    ...(params.depth > 1 ? { depth_clamped: true } : {}),
    calls,
    total: all.length - misplaced,
    truncated: all.length > limit,
    limit,
    ...(params.limit > CALLS_CAP ? { limit_clamped: true } : {}),
    references_omitted: 0,
    notes,
    ...partial(answer.server, ctx.repo.slug, loading, 'calls from files it has not indexed yet'),
  };
}

/**
 * Whether a file of the answer's repository holds other text in the worktree
 * than the index has: edited (mappable or not), or not in the index but
 * there. A file gone counts as unchanged: no server can say anything of it.
 * Asked through the answer's adjuster, which has already placed the index's
 * locations in these files: a stat each (./adjust.ts), the text read and
 * hashed only when the stat moved.
 */
async function changedSinceIndex(ctx: RepoContext, root: string, path: string, row: IndexFileRow | undefined): Promise<boolean> {
  if (!row) return readRepoFile(root, path) !== undefined;
  const edit = await ctx.adjust.file({ repo: ctx.repo.slug, path, blob: row.blob_sha });
  return edit?.state === 'edited' || edit?.state === 'unmappable';
}

/** The names a references answer is of: its symbols', else the text at its first references (a symbol defined outside the index). */
function referenceNames(precise: References.Result): string[] {
  const names = new Set(precise.symbols.map((s) => s.name));
  for (const r of precise.references) {
    if (names.size > 0) break;
    if (r.preview !== undefined && r.line === r.end_line) names.add(r.preview.slice(r.column - 1, r.end_column - 1));
  }
  return [...names].filter(Boolean);
}

/** What the files not searched do, in the note that names them. */
const NAME = ['names it', 'name it'] as const;

/** The index's references, marked stale: changed files it did not search may hold more. */
function unsearched(precise: References.Result, paths: readonly string[], why: string): References.Result {
  const note = unsearchedNote(paths, why, NAME);
  return { ...precise, index_freshness: 'stale', stale: true, message: precise.message ? `${precise.message}; ${note}` : note };
}

/**
 * findReferences answered from the index, with the references in files edited
 * since the index taken from the server instead (the index's positions no
 * longer hold there): the index's references in unchanged files stay, the
 * server's in edited files (those the index listed, and any other the server
 * finds edited) replace them, without duplicates. Untouched when no file it
 * names was edited, so unchanged code costs no server.
 */
export async function withEditedReferences(
  lookups: Lookups,
  ctx: RepoContext,
  live: LiveServers | undefined,
  params: References.Params,
  precise: References.Result,
  changed?: Promise<ChangedFiles>,
): Promise<References.Result> {
  const root = worktree(ctx);
  if (!root || params.path === undefined || precise.references.length === 0) return precise;
  const path = normalizeQueryPath(params.path);
  const language = (await lookups.file(ctx.index.id, path))?.language;
  if (!language) return precise;
  // A kind filter cannot be applied to a server's references, which have no kinds.
  const unasked =
    params.kind !== undefined
      ? "a kind filter does not apply to a language server's references"
      : !live?.serverFor(language)
        ? `no language server for ${language}`
        : undefined;
  if (unasked && !changed) return precise;
  const asked = new Set<string>();
  const edited = async (p: string) => {
    asked.add(p);
    return changedSinceIndex(ctx, root, p, await lookups.file(ctx.index.id, p));
  };
  const ours = precise.references.filter((r) => r.repo === ctx.repo.slug);
  const editedPaths = new Set<string>();
  for (const p of new Set(ours.map((r) => r.path))) if (await edited(p)) editedPaths.add(p);
  // Files the answer did not go through may have gained uses since: those that spell the name.
  const elsewhere = changed ? changedMentioning(await changed, ctx, live, root, language, referenceNames(precise), asked) : [];
  if (!live || unasked !== undefined) {
    return elsewhere.length ? unsearched(precise, elsewhere, unasked ?? `no language server for ${language}`) : precise;
  }
  for (const p of elsewhere) editedPaths.add(p);
  if (editedPaths.size === 0) return precise;
  const answer = await live.ask<LspLocation[] | null>(
    { slug: ctx.repo.slug, root },
    language,
    path,
    'textDocument/references',
    referencesAt(position(params), params.include_declaration),
  );
  const files = new WorktreeLines(root);
  const fromServer: References.Reference[] = [];
  for (const p of place(answer.value, files).inside) {
    if (!editedPaths.has(p.path) && (asked.has(p.path) || !(await edited(p.path)))) continue;
    editedPaths.add(p.path);
    fromServer.push({
      ...location(ctx.repo.slug, p.path, p.range, files.lines(p.path), { source: 'lsp' }),
      kind: 'identifier',
      is_definition: false,
    });
  }
  // A mixed answer: every location says where it came from, the index's as the answer's own source.
  const kept = precise.references
    .filter((r) => r.repo !== ctx.repo.slug || !editedPaths.has(r.path))
    .map((r) => ({ ...r, source: r.source ?? precise.source }));
  const merged = [...kept, ...fromServer].sort((a, b) =>
    a.repo !== b.repo
      ? a.repo < b.repo
        ? -1
        : 1
      : a.path !== b.path
        ? a.path < b.path
          ? -1
          : 1
        : a.line - b.line || a.column - b.column,
  );
  const dropped = ours.length - kept.filter((r) => r.repo === ctx.repo.slug).length;
  const total = precise.total - dropped + fromServer.length;
  return {
    ...precise,
    references: merged.slice(0, precise.limit),
    total,
    truncated: precise.truncated || merged.length > precise.limit,
    ...partial(answer.server, ctx.repo.slug, answer.loadingSeconds, 'references in edited files'),
  };
}

/**
 * Call hierarchies answered from the index, with what edited files hold
 * taken from the server: outgoing calls of a function whose file was edited
 * are the server's (one level). Incoming calls: the callers in files edited
 * since the index taken from the server instead: the index's calls on changed
 * lines are dropped (adjust.ts), and a call changed or added there is only
 * the server's to know. Callers in unchanged files stay the index's (with
 * their deeper levels); the server's, one level, replace those in the edited
 * files the answer went through. Untouched when it went through none.
 */
export async function withEditedCalls(
  lookups: Lookups,
  ctx: RepoContext,
  live: LiveServers | undefined,
  params: CallHierarchy.Params,
  precise: CallHierarchy.Result,
  changed?: Promise<ChangedFiles>,
): Promise<CallHierarchy.Result> {
  const root = worktree(ctx);
  if (!root || params.path === undefined) return precise;
  const path = normalizeQueryPath(params.path);
  const language = (await lookups.file(ctx.index.id, path))?.language;
  if (!language || (!live?.serverFor(language) && !changed)) return precise;
  const editedPaths = new Set<string>();
  for (const p of precise.adjusted_files ?? []) {
    // Only this repository's indexed files: the others' are listed as repo:path.
    const row = await lookups.file(ctx.index.id, p);
    if (row && (await changedSinceIndex(ctx, root, p, row))) editedPaths.add(p);
  }
  // Callers in files the answer did not go through may have been added since: in those that spell the name.
  const elsewhere = changed ? changedMentioning(await changed, ctx, live, root, language, [precise.item.name], editedPaths) : [];
  if (!live?.serverFor(language)) {
    if (elsewhere.length === 0) return precise;
    const note = unsearchedNote(elsewhere, `no language server for ${language}`, NAME);
    return { ...precise, index_freshness: 'stale', stale: true, notes: [...precise.notes, note] };
  }
  for (const p of elsewhere) editedPaths.add(p);
  // Outgoing calls all lie in the function's own file: when it was edited, its body may have been.
  const own = precise.item.repo === ctx.repo.slug && precise.item.path !== null && editedPaths.has(precise.item.path);
  if (params.direction === 'incoming' ? editedPaths.size === 0 : !own) return precise;
  const repo = { slug: ctx.repo.slug, root };
  const prepared = await live.ask<LspCallItem[] | null>(repo, language, path, 'textDocument/prepareCallHierarchy', (uri) => ({
    textDocument: { uri },
    position: position(params),
  }));
  const item = prepared.value?.[0];
  if (!item) return precise;
  if (params.direction === 'outgoing') {
    const live1 = await liveCallHierarchy(ctx, live, { path, language, root, edited: true }, { ...params, depth: 1 });
    return {
      ...precise,
      calls: live1.calls,
      total: live1.total,
      truncated: live1.truncated,
      notes: [
        ...precise.notes,
        ...(precise.depth > 1
          ? [`${precise.item.path} was edited since the index: its calls are its language server's, one level deep`]
          : []),
      ],
      ...(live1.partial ? { partial: live1.partial, partial_reason: live1.partial_reason } : {}),
    };
  }
  const answer = await live.ask<{ from: LspCallItem; fromRanges: LspRange[] }[] | null>(
    repo,
    language,
    path,
    'callHierarchy/incomingCalls',
    () => ({ item }),
  );
  const files = new WorktreeLines(root);
  const placing = new CallRangePlacer(ctx.repo.slug, files, () =>
    live.ask<LspLocation[] | null>(repo, language, path, 'textDocument/references', referencesAt(position(params), true)),
  );
  const fromServer: CallHierarchy.Call[] = [];
  for (const c of answer.value ?? []) {
    const callerPath = files.pathOf(c.from.uri);
    if (callerPath === undefined || !editedPaths.has(callerPath)) continue;
    const ranges = await placing.place(callerPath, c.fromRanges, item.name, true);
    // Not one of its ranges in the caller's file: not a call from it.
    if (c.fromRanges.length > 0 && ranges.length === 0) continue;
    fromServer.push({ from: callItem(ctx, answer.server, files, c.from), ranges });
  }
  const inEdited = (c: CallHierarchy.Call) => c.from?.repo === ctx.repo.slug && c.from.path !== null && editedPaths.has(c.from.path);
  // A mixed answer: every range says where it came from, the index's as the answer's own source.
  const kept = precise.calls
    .filter((c) => !inEdited(c))
    .map((c) => ({ ...c, ranges: c.ranges.map((r) => ({ ...r, source: r.source ?? precise.source })) }));
  const dropped = precise.calls.length - kept.length;
  const merged = [...kept, ...fromServer].sort((a, b) => {
    const x = a.from!;
    const y = b.from!;
    const px = x.path ?? '\uffff';
    const py = y.path ?? '\uffff';
    return px < py ? -1 : px > py ? 1 : (x.line ?? 0) - (y.line ?? 0) || x.name.localeCompare(y.name);
  });
  const calls = merged.slice(0, precise.limit);
  return {
    ...precise,
    calls,
    total: precise.total - dropped + fromServer.length,
    truncated: precise.truncated || merged.length > calls.length,
    notes: [
      ...precise.notes,
      ...(fromServer.length && precise.depth > 1 ? [`${answer.server}'s callers in edited files are listed one level deep`] : []),
      ...placing.notes(answer.server),
    ],
    ...partial(answer.server, ctx.repo.slug, answer.loadingSeconds ?? prepared.loadingSeconds, 'callers in edited files'),
  };
}
