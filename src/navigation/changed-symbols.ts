// Lookups by name over files changed since the index: workspaceSymbols and
// goToDefinition by `symbol`. The index knows nothing an edit declared (a new
// function, a new file's class). Of the files that differ from the index and
// hold the name asked for, each is outlined by its language server from its
// text now, and what it declares that matches joins the index's answer, in
// place of what the index had in that file (`source: "lsp"`). A file no
// server outlines (none installed, or more than MAX_OUTLINED of them) makes
// the answer stale, and is named.
import type { ChangedFiles } from '../freshness/worktree-changes.js';
import { languageOf } from '../languages.js';
import type { DocumentSymbol } from '../protocol/document-symbols.js';
import type { SymbolItem } from '../protocol/common.js';
import type * as Definition from '../protocol/definition.js';
import type * as WorkspaceSymbols from '../protocol/workspace-symbols.js';
import type { RepoContext } from './context.js';
import { holding, spells, unsearchedNote } from './changed-elsewhere.js';
import { liveDocumentSymbols, type LiveServers } from './live.js';

/** Changed files outlined by their servers per answer: each is a request. */
const MAX_OUTLINED = 20;

type Item = SymbolItem & { kind: DocumentSymbol['kind'] };

interface Declared {
  /** The matching declarations, each of a changed file, as the server outlines it. */
  items: Item[];
  /** The files outlined: what the index had in them is replaced. */
  outlined: Set<string>;
  /** Changed files that hold the name but that no server outlined, and why (one line). */
  unsearched: string[];
  why: string | undefined;
  partial: { partial?: true; partial_reason?: string };
}

/**
 * The declarations in files changed since the index (of languages it
 * indexes precisely) whose text passes `holds` and whose name passes `named`.
 */
async function declaredInChanged(
  ctx: RepoContext,
  live: LiveServers | undefined,
  root: string,
  changed: ChangedFiles,
  holds: (text: string) => boolean,
  named: (name: string) => boolean,
): Promise<Declared> {
  const declared: Declared = { items: [], outlined: new Set(), unsearched: [], why: undefined, partial: {} };
  const indexed = (p: string) => {
    const language = languageOf(p);
    return language !== undefined && ctx.languages[language]?.tier === 'precise';
  };
  for (const path of holding(changed.paths.filter(indexed), root, holds)) {
    const language = languageOf(path)!;
    if (!live?.serverFor(language)) {
      declared.unsearched.push(path);
      declared.why ??= `no language server for ${language}`;
      continue;
    }
    if (declared.outlined.size >= MAX_OUTLINED) {
      declared.unsearched.push(path);
      declared.why ??= `more than ${MAX_OUTLINED} changed files hold the name: each is a request to a language server`;
      continue;
    }
    declared.outlined.add(path);
    const outline = await liveDocumentSymbols(ctx, live, { path, language, root, edited: true });
    if (outline.partial)
      declared.partial = { partial: true, ...(outline.partial_reason ? { partial_reason: outline.partial_reason } : {}) };
    const visit = (s: DocumentSymbol, container: string | null) => {
      if (named(s.name)) declared.items.push(itemOf(ctx, path, s, container));
      for (const child of s.children) visit(child, s.name);
    };
    for (const s of outline.symbols) visit(s, null);
  }
  return declared;
}

function itemOf(ctx: RepoContext, path: string, s: DocumentSymbol, container: string | null): Item {
  const at = s.selection_range;
  return {
    name: s.name,
    kind: s.kind,
    container,
    symbol: s.symbol,
    repo: ctx.repo.slug,
    path,
    line: at.line,
    column: at.column,
    end_line: at.end_line,
    end_column: at.end_column,
  };
}

/** What the files not outlined do, in the note that names them. */
const HOLD = ['holds the name', 'hold the name'] as const;

const RANKS = { exact: 0, prefix: 1, substring: 2 } as const;

/** workspaceSymbols, with what changed files declare that matches the query. */
export async function withChangedSymbols(
  ctx: RepoContext,
  live: LiveServers | undefined,
  params: WorkspaceSymbols.Params,
  precise: WorkspaceSymbols.Result,
  changed: Promise<ChangedFiles> | undefined,
): Promise<WorkspaceSymbols.Result> {
  const root = ctx.adjust.root;
  if (!root || !changed) return precise;
  const lower = params.query.toLowerCase();
  const declared = await declaredInChanged(
    ctx,
    live,
    root,
    await changed,
    (text) => text.toLowerCase().includes(lower),
    (name) => name.toLowerCase().includes(lower),
  );
  const fromServer = declared.items
    .filter((item) => params.kind === undefined || item.kind === params.kind)
    .map((item) => ({ ...item, match: matchOf(item.name, params.query), source: 'lsp' as const }));
  if (declared.outlined.size === 0 && declared.unsearched.length === 0) return precise;
  const kept = precise.symbols.filter((s) => !declared.outlined.has(s.path));
  // The index's order within a rank (source before tests, short names first), the server's after it.
  const merged = [...kept, ...fromServer].sort((a, b) => RANKS[a.match] - RANKS[b.match]);
  const total = precise.total - (precise.symbols.length - kept.length) + fromServer.length;
  const limit = precise.limit;
  return {
    ...precise,
    symbols: merged.slice(0, limit),
    total,
    truncated: total > limit,
    ...declared.partial,
    ...(declared.why
      ? { index_freshness: 'stale' as const, stale: true, message: unsearchedNote(declared.unsearched, declared.why, HOLD) }
      : {}),
  };
}

/** goToDefinition by exact name, with what changed files declare of that name. */
export async function withChangedDefinitions(
  ctx: RepoContext,
  live: LiveServers | undefined,
  name: string,
  precise: Definition.Result,
  changed: Promise<ChangedFiles> | undefined,
): Promise<Definition.Result> {
  const root = ctx.adjust.root;
  if (!root || !changed) return precise;
  const declared = await declaredInChanged(
    ctx,
    live,
    root,
    await changed,
    (text) => spells(text, name),
    (n) => n === name,
  );
  if (declared.outlined.size === 0 && declared.unsearched.length === 0) return precise;
  const kept = precise.definitions.filter((d) => !declared.outlined.has(d.path));
  const fromServer = declared.items.map((item): Definition.Definition => ({
    repo: item.repo,
    path: item.path,
    line: item.line,
    column: item.column,
    end_line: item.end_line,
    end_column: item.end_column,
    symbol: item.symbol,
    source: 'lsp',
    name: item.name,
    kind: item.kind,
    container: item.container,
    signature: null,
    enclosing_range: null,
    enclosing_source: null,
  }));
  const definitions = [...kept, ...fromServer];
  // Why the index found none holds only when none was found here either.
  const notes = [
    ...(definitions.length === 0 && precise.message !== undefined ? [precise.message] : []),
    ...(declared.why ? [unsearchedNote(declared.unsearched, declared.why, HOLD)] : []),
  ];
  const { message: _, ...rest } = precise;
  return {
    ...rest,
    found: definitions.length > 0,
    definitions,
    symbols: [...new Set([...precise.symbols, ...declared.items.map((i) => i.symbol)])],
    ...declared.partial,
    ...(declared.why ? { index_freshness: 'stale' as const, stale: true } : {}),
    ...(notes.length ? { message: notes.join('; ') } : {}),
  };
}

function matchOf(name: string, query: string): 'exact' | 'prefix' | 'substring' {
  const lower = name.toLowerCase();
  const q = query.toLowerCase();
  return lower === q ? 'exact' : lower.startsWith(q) ? 'prefix' : 'substring';
}
