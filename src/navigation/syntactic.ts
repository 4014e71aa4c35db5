// Answers of the syntactic tier: files whose language has no precise index
// but whose definitions universal-ctags found. Definitions and symbols come
// from the parser (`source: "syntactic"`); references are whole-word text
// matches (`source: "search"`) and say so; hierarchies need the precise tier
// and explain that instead of answering "not found". Like the precise tier's,
// every answer follows the edits made since the index (adjust.ts): a position
// is read in the current text, and a definition or match comes forward to its
// place there, or is dropped and counted when its line changed.
import { posix } from 'node:path';
import { UserError } from '../errors.js';
import type { IndexFileRow, Lookups } from '../registry/lookups.js';
import { SyntaxLookups, type SyntaxDefinitionRow } from '../registry/syntactic.js';
import type { Range as Range0 } from '../scip/range.js';
import type { SymbolItem } from '../protocol/common.js';
import type * as Definition from '../protocol/definition.js';
import type * as DocumentSymbols from '../protocol/document-symbols.js';
import type * as References from '../protocol/references.js';
import { CAP as REFERENCES_CAP } from '../protocol/references.js';
import { readRepoFile } from '../freshness/worktree.js';
import { moved, type Placement } from './adjust.js';
import { scanCut, textReferences } from './text-references.js';
import { nameAt } from './words.js';
import { normalizeQueryPath, type RepoContext } from './context.js';
import { asSymbolKind, location, range1 } from './locations.js';
import { splitLines } from '../lines.js';

/** Definitions one name returns at most (a name like `init` or `String` is defined in hundreds of Go files). */
const DEFINITIONS_CAP = 200;

export function syntacticLanguages(ctx: Pick<RepoContext, 'repo' | 'languages'>): string[] {
  return Object.entries(ctx.languages)
    .filter(([, t]) => t.tier === 'syntactic')
    .map(([language]) => language);
}

export function hasPrecise(ctx: Pick<RepoContext, 'repo' | 'languages'>): boolean {
  return Object.values(ctx.languages).some((t) => t.tier === 'precise');
}

/** What navigation can do in a repository whose languages are at best syntactic (getIndexStatus says it). */
export function syntacticCapability(ctx: Pick<RepoContext, 'repo' | 'languages'>): string {
  const languages = syntacticLanguages(ctx);
  const parser = ctx.languages[languages[0]!]?.indexer ?? 'a parser';
  return (
    `${ctx.repo.slug} has no precise index: ${languages.join(', ')} ${languages.length > 1 ? 'are' : 'is'} syntactic, with definitions found by ${parser} ` +
    '(real symbols, no navigable reference positions). goToDefinition, documentSymbols and workspaceSymbols answer from them (source "syntactic"), ' +
    'findReferences answers whole-word text matches (source "search"), and call and type hierarchies need a precise index.'
  );
}

/** A lookup by name goes to the syntactic tier when the repository has nothing precise but something syntactic. */
export function namesAreSyntactic(ctx: Pick<RepoContext, 'repo' | 'languages'>): boolean {
  return !hasPrecise(ctx) && syntacticLanguages(ctx).length > 0;
}

/** The file a request names, when its language is in the syntactic tier; undefined otherwise (the precise tier answers, or explains). */
export async function syntacticFile(lookups: Lookups, ctx: RepoContext, rawPath: string | undefined): Promise<IndexFileRow | undefined> {
  if (rawPath === undefined || syntacticLanguages(ctx).length === 0) return undefined;
  const file = await lookups.file(ctx.index.id, normalizeQueryPath(rawPath));
  if (!file?.language || ctx.languages[file.language]?.tier !== 'syntactic') return undefined;
  if (file.syntax_id === null) {
    throw new UserError(
      `${file.path} was not parsed (its text is not kept: binary or larger than 1 MiB), so it has no definitions: use another file of ${ctx.repo.slug}`,
    );
  }
  return file;
}

/** Why a call or type hierarchy cannot be built for a file of the syntactic tier (or a repository with nothing precise). */
export async function refuseHierarchy(lookups: Lookups, ctx: RepoContext, path: string, tool: string): Promise<void> {
  const file = await syntacticFile(lookups, ctx, path);
  if (!file && !namesAreSyntactic(ctx)) return;
  const language = file?.language ?? syntacticLanguages(ctx)[0]!;
  const tier = ctx.languages[language]!;
  const subject = file
    ? `${file.path} is ${language}, which ${ctx.repo.slug} has indexed syntactic`
    : `${ctx.repo.slug} has no precise index (${language} is syntactic)`;
  throw new UserError(
    `${tool} needs the precise tier: ${subject} ` +
      `(definitions found by ${tier.indexer ?? 'a parser'}, which knows no calls, references or type relations). ` +
      'goToDefinition, documentSymbols and workspaceSymbols answer from its definitions, and findReferences with whole-word text matches.' +
      (tier.recovery ? ` For a ${tool}, index it precisely: ${tier.recovery}` : ''),
  );
}

export function syntacticSymbol(d: Pick<SyntaxDefinitionRow, 'path' | 'start_line' | 'name'>): string {
  return `syntactic ${d.path}:${d.start_line + 1} ${d.name}`;
}

function nameRange(d: SyntaxDefinitionRow): Range0 {
  return [d.start_line, d.start_char, d.start_line, d.end_char];
}

function spanRange(d: SyntaxDefinitionRow): Range0 {
  return [d.start_line, 0, d.span_end_line, d.span_end_char];
}

export function syntacticSymbolItem(repo: string, d: SyntaxDefinitionRow): SymbolItem {
  return {
    name: d.name,
    kind: asSymbolKind(d.kind),
    container: d.container,
    symbol: syntacticSymbol(d),
    repo,
    path: d.path,
    ...range1(nameRange(d)),
  };
}

/** Where a definition's name is in the current text; undefined (and counted in the answer) when its line changed or its file is gone. */
function placed(ctx: RepoContext, d: SyntaxDefinitionRow): Promise<Placement | undefined> {
  return ctx.adjust.place({ repo: ctx.repo.slug, path: d.path, blob: d.blob_sha }, nameRange(d));
}

async function toDefinition(lookups: Lookups, ctx: RepoContext, d: SyntaxDefinitionRow): Promise<Definition.Definition | undefined> {
  const place = await placed(ctx, d);
  if (!place) return undefined;
  // The preview is of the indexed line, which an edit above it moved but did not change.
  const lines = await lookups.lines(d.blob_sha);
  return {
    ...moved(location(ctx.repo.slug, d.path, nameRange(d), lines, { symbol: syntacticSymbol(d) }), place),
    name: d.name,
    kind: asSymbolKind(d.kind),
    container: d.container,
    signature: d.signature,
    enclosing_range: range1(place.span(spanRange(d))),
    enclosing_source: 'syntax',
  };
}

/** goToDefinition by exact name, from the definitions ctags found. */
export async function syntacticDefinitionsNamed(lookups: Lookups, ctx: RepoContext, name: string): Promise<Definition.Result> {
  const rows = await new SyntaxLookups(lookups.db).named(ctx.index.id, name);
  return definitionResult(lookups, ctx, rows, () => noDefinitionNamed(ctx, name));
}

/**
 * goToDefinition at a position of a syntactic file: the word under the
 * cursor, its definitions in files of the same language (any language when
 * none), ranked same file, same directory, then the rest.
 */
export async function syntacticDefinitionAt(
  lookups: Lookups,
  ctx: RepoContext,
  file: IndexFileRow,
  p: { line: number; column: number },
): Promise<Definition.Result> {
  const word = await wordAt(lookups, ctx, file, p.line - 1, p.column - 1);
  if (!word) {
    return {
      ...provenance(ctx, 'syntactic'),
      ...ctx.adjust.fields(),
      found: false,
      definitions: [],
      symbols: [],
      message: `no name at ${file.path}:${p.line}:${p.column} (whitespace, punctuation or a literal): place the position on a name`,
    };
  }
  const all = await new SyntaxLookups(lookups.db).named(ctx.index.id, word.text);
  const sameLanguage = all.filter((d) => d.language === file.language);
  const dir = posix.dirname(file.path);
  const rank = (d: SyntaxDefinitionRow) => (d.path === file.path ? 0 : posix.dirname(d.path) === dir ? 1 : 2);
  const rows = (sameLanguage.length ? sameLanguage : all)
    .map((d, i) => ({ d, i }))
    .sort((a, b) => rank(a.d) - rank(b.d) || a.i - b.i)
    .map((x) => x.d);
  return definitionResult(
    lookups,
    ctx,
    rows,
    () =>
      `no definition of "${word.text}" in ${ctx.repo.slug}'s syntactic index (universal-ctags found none: it may be defined outside the repository, ` +
      'or be a keyword or a local name ctags does not list)',
  );
}

async function definitionResult(
  lookups: Lookups,
  ctx: RepoContext,
  rows: SyntaxDefinitionRow[],
  whyNone: () => string,
): Promise<Definition.Result> {
  const shown = rows.slice(0, DEFINITIONS_CAP);
  const placedRows = await Promise.all(shown.map(async (d) => ({ d, definition: await toDefinition(lookups, ctx, d) })));
  const kept = placedRows.filter((x) => x.definition !== undefined);
  const definitions = kept.map((x) => x.definition!);
  const more = rows.length - shown.length;
  return {
    ...provenance(ctx, 'syntactic'),
    ...ctx.adjust.fields(),
    found: definitions.length > 0,
    definitions,
    symbols: kept.map((x) => syntacticSymbol(x.d)),
    ...(definitions.length === 0
      ? { message: whyNone() }
      : more > 0
        ? { message: `${rows.length} definitions have this name; the first ${DEFINITIONS_CAP} are listed (best ranked first)` }
        : {}),
  };
}

/** Symbol items of definitions, in the current text; one whose line changed since the index is left out (and counted). */
async function placedItems(ctx: RepoContext, rows: readonly SyntaxDefinitionRow[]): Promise<SymbolItem[]> {
  const out: SymbolItem[] = [];
  for (const d of rows) {
    const place = await placed(ctx, d);
    if (!place) continue;
    const item = syntacticSymbolItem(ctx.repo.slug, d);
    out.push(place.adjusted ? { ...item, ...range1(place.range), adjusted: true } : item);
  }
  return out;
}

function noDefinitionNamed(ctx: RepoContext, name: string): string {
  return `no definition named exactly "${name}" in ${ctx.repo.slug}: names are case-sensitive and unqualified; try workspaceSymbols for a substring search`;
}

/** documentSymbols of a syntactic file, nested by the parser's scopes. */
export async function syntacticDocumentSymbols(lookups: Lookups, ctx: RepoContext, file: IndexFileRow): Promise<DocumentSymbols.Result> {
  const rows = await new SyntaxLookups(lookups.db).inFile(ctx.index.id, file.path);
  const nodes = new Map<number, DocumentSymbols.DocumentSymbol>();
  const roots: DocumentSymbols.DocumentSymbol[] = [];
  for (const d of rows) {
    // In the file as it is now: a symbol whose name is on a line changed since the index is left out (and counted).
    const place = await placed(ctx, d);
    if (!place) continue;
    const node: DocumentSymbols.DocumentSymbol = {
      name: d.name,
      kind: asSymbolKind(d.kind),
      symbol: syntacticSymbol(d),
      detail: d.signature,
      range: range1(place.span(spanRange(d))),
      selection_range: range1(place.range),
      children: [],
    };
    nodes.set(d.ordinal, node);
    // Parents come first in a parser's output; a scope it closed later (rare) puts its child at the top.
    const parent = d.parent_ordinal === null ? undefined : nodes.get(d.parent_ordinal);
    (parent ? parent.children : roots).push(node);
  }
  return { ...provenance(ctx, 'syntactic'), ...ctx.adjust.fields(), path: file.path, symbols: roots };
}

/**
 * findReferences in the syntactic tier: whole-word matches of the name in the
 * stored text of the files of its language, in path order, definitions marked.
 * A parser knows no references, so these are text matches, and say so.
 */
export async function syntacticReferences(
  lookups: Lookups,
  ctx: RepoContext,
  params: References.Params,
  file: IndexFileRow | undefined,
): Promise<References.Result> {
  const limit = Math.min(params.limit, REFERENCES_CAP);
  const base = { ...provenance(ctx, 'search'), limit, ...(params.limit > REFERENCES_CAP ? { limit_clamped: true } : {}) };
  if (params.kind !== undefined) {
    throw new UserError(
      `kind "${params.kind}" cannot be told in ${file ? file.path : ctx.repo.slug}: its language is syntactic, whose references are text matches without kinds; omit kind`,
    );
  }
  const syntax = new SyntaxLookups(lookups.db);
  let word: string;
  let languages: string[];
  let definitions: SyntaxDefinitionRow[];
  if (file) {
    const at = await wordAt(lookups, ctx, file, params.line! - 1, params.column! - 1);
    if (!at) {
      return {
        ...base,
        ...ctx.adjust.fields(),
        symbols: [],
        references: [],
        total: 0,
        truncated: false,
        message: `no name at ${file.path}:${params.line}:${params.column} (whitespace, punctuation or a literal): place the position on a name`,
      };
    }
    word = at.text;
    languages = [file.language!];
    definitions = (await syntax.named(ctx.index.id, word)).filter((d) => d.language === file.language);
  } else {
    word = params.symbol!;
    definitions = await syntax.named(ctx.index.id, word);
    if (definitions.length === 0) {
      return { ...base, ...ctx.adjust.fields(), symbols: [], references: [], total: 0, truncated: false, message: noDefinitionNamed(ctx, word) };
    }
    languages = [...new Set(definitions.map((d) => d.language!))];
  }

  const declared = new Set(definitions.map((d) => `${d.path}\0${d.start_line}\0${d.start_char}`));
  const scan = await textReferences(lookups, ctx, {
    word,
    languages,
    syntax: 'plain',
    declared,
    includeDeclaration: params.include_declaration,
    limit,
  });
  const tiers = languages.map((l) => `${l} has no precise index`).join(', ');
  const where = `the ${languages.join(' and ')} files of ${ctx.repo.slug}`;
  const symbols = await placedItems(ctx, definitions.slice(0, DEFINITIONS_CAP));
  return {
    ...base,
    ...ctx.adjust.fields(),
    symbols,
    references: scan.references,
    total: scan.total,
    truncated: scan.total > limit || scan.stopped,
    message:
      `text matches, not resolved references: every whole-word occurrence of "${word}" in ${where}, comments, strings and ` +
      `other names spelled the same included (${tiers}; its definitions come from universal-ctags).${scanCut(scan)}`,
  };
}

/**
 * The name under a 0-based position of the file as it is now (or just before
 * it, a cursor after a name), with where it starts: the stored text when the
 * file is as indexed, else the worktree's.
 */
async function wordAt(
  lookups: Lookups,
  ctx: RepoContext,
  file: IndexFileRow,
  line: number,
  column: number,
): Promise<{ text: string; start: number } | undefined> {
  const lines = await currentLines(lookups, ctx, file);
  if (line >= lines.length) {
    throw new UserError(
      `line ${line + 1} is past the end of ${file.path} (${lines.length} lines): pass a line between 1 and ${lines.length}`,
    );
  }
  const text = lines[line]!;
  if (column > text.length) {
    throw new UserError(
      `column ${column + 1} is past the end of line ${line + 1} of ${file.path} (${text.length} columns): pass a column between 1 and ${text.length + 1}`,
    );
  }
  return nameAt(text, column);
}

async function currentLines(lookups: Lookups, ctx: RepoContext, file: IndexFileRow): Promise<readonly string[]> {
  const edit = await ctx.adjust.file({ repo: ctx.repo.slug, path: file.path, blob: file.blob_sha });
  if (edit?.state === 'deleted') {
    throw new UserError(`${file.path} is not in the worktree of ${ctx.repo.slug} (${ctx.adjust.root}): pass a file that exists there`);
  }
  if (edit && edit.state !== 'unchanged') {
    const now = readRepoFile(ctx.adjust.root!, file.path);
    if (now) return splitLines(now.toString('utf8'));
  }
  const lines = await lookups.lines(file.blob_sha);
  if (!lines) throw new UserError(`${file.path}'s text is not stored, so no position in it can be read: use another file`);
  return lines;
}

function provenance<S extends 'syntactic' | 'search'>(ctx: RepoContext, source: S) {
  return { repo: ctx.repo.slug, commit: ctx.index.commit_sha, source };
}
