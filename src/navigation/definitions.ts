// Definitions of symbols: by position, by exact name, across repositories.
import { posix } from 'node:path';
import { quote, UserError } from '../errors.js';
import { languageOf } from '../languages.js';
import {
  descriptorName,
  fileNamespaceOf,
  isLocalSymbol,
  isModuleSymbol,
  isParameterSymbol,
  isTypeParameterSymbol,
  parseSymbol,
  type ParsedSymbol,
} from '../scip/symbol.js';
import { SymbolRole } from '../scip/schema.js';
import { FUNCTION_KINDS, unresolvedImportModule } from '../scip/kind.js';
import { kindInBindingFile, MODULE_SPECIFIER, RefKindCode } from '../registry/payload.js';
import { exportByNameAt } from './export-statement.js';
import { rangeTouches, type Range } from '../scip/range.js';
import type { DefinitionRow, Lookups } from '../registry/lookups.js';
import type { Definition, Params, Result } from '../protocol/definition.js';
import type { SymbolItem } from '../protocol/common.js';
import { checkPosition, namesOnLine, occurrencesAt, openFile, requirePrecise, type FileContext, type RepoContext } from './context.js';
import { definitionPartners, withoutConstructedNamespaces } from './related.js';
import { memberDeclaredElsewhere, resolvedByNameNote, useFile, type MemberUseFile } from './unnamed-members.js';
import { inheritedThisMember } from './inherited-members.js';
import { withAssignments } from './assignments.js';
import { asSymbolKind, definitionRange, enclosingRange, location, preview, range1 } from './locations.js';
import { isReservedWord, nameAt, type NameSyntax } from './words.js';

/** The symbols at a 1-based position of a request, with the file they were found in. */
export async function symbolsAtPosition(
  lookups: Lookups,
  ctx: RepoContext,
  p: { path: string; line: number; column: number },
): Promise<{
  file: FileContext;
  /** The 0-based line asked about, in the indexed text. */
  line: number;
  symbols: string[];
  declared: Set<string>;
  argumentCounts: Map<string, number>;
  /** The range of a local symbol's use named in a member access there (`res.unwrap`), for memberDeclaredElsewhere. */
  memberAccess?: Range;
  /** The range of a use named in a member access there, whatever its symbol, for inheritedThisMember. */
  access?: Range;
  /** The range of the name there, when the index has symbols for it. */
  range?: Range;
  /** The name there is called (`f()`, `new C()`). */
  called?: boolean;
  /** The position is a module's specifier (`'./m'` of an import or a require). */
  specifier?: boolean;
  /** With no symbols: the name written at the position, which the index resolved to nothing (see unresolvedName). */
  name?: UnresolvedName;
  message?: string;
}> {
  const file = await openFile(lookups, ctx, p.path);
  const column = p.column - 1;
  // The position is in the file as it is now: it goes back to the indexed text first.
  const line = await indexedLine(ctx, file, p.line - 1);
  if (typeof line === 'string') return { file, line: -1, symbols: [], declared: new Set(), argumentCounts: new Map(), message: line };
  checkPosition(file, line, column);
  const hits = occurrencesAt(file.document, line, column);
  const symbols = [...new Set(hits.map((o) => file.document.symbols[o.symbol]!))];
  const declared = new Set(hits.filter((o) => o.roles & SymbolRole.Definition).map((o) => file.document.symbols[o.symbol]!));
  const argumentCounts = new Map(hits.filter((o) => o.argumentCount >= 0).map((o) => [file.document.symbols[o.symbol]!, o.argumentCount]));
  if (symbols.length === 0) {
    const at = `${file.file.path}:${p.line}:${p.column}`;
    const name = unresolvedName(file, line, column, at);
    return {
      file,
      line,
      symbols,
      declared,
      argumentCounts,
      ...(name ? { name } : {}),
      message: name
        ? `no symbol at ${at}: the index resolved "${name.text}" there to nothing (${UNRESOLVED_CAUSES})${namesOnLine(file, line, p.line)}`
        : `no symbol at ${at} (whitespace, a keyword, a literal or a comment)${namesOnLine(file, line, p.line)}`,
    };
  }
  const accesses = hits.filter((o) => o.memberAccess && !(o.roles & SymbolRole.Definition));
  const access = accesses.find((o) => isLocalSymbol(file.document.symbols[o.symbol]!));
  const called = hits.some((o) => kindInBindingFile(o.refKind) === RefKindCode.call);
  return {
    file,
    line,
    symbols,
    declared,
    argumentCounts,
    called,
    specifier: hits.some((o) => o.refKind === MODULE_SPECIFIER),
    range: hits[0]!.range,
    ...(access ? { memberAccess: access.range } : {}),
    ...(accesses.length ? { access: accesses[0]!.range } : {}),
  };
}

/** A name written where the index has no symbol. */
export interface UnresolvedName {
  text: string;
  /** The position asked about, `path:line:column` as given. */
  at: string;
  /** Written as a member (`req.app`, `a?.b`): its candidate definitions are members first. */
  member: boolean;
  syntax: NameSyntax;
}

/** Why an indexer leaves a name unresolved; said wherever sextant answers for such a name by its spelling. */
export const UNRESOLVED_CAUSES =
  'a property of a value whose type is unknown, a name from a module or global the indexer could not resolve, or a word in a comment or string';

/**
 * The name written at a 0-based position of the indexed text, when the index
 * has no symbol there: a word, not a number or a reserved word (`this`,
 * `return`), which could name something.
 */
function unresolvedName(file: FileContext, line: number, column: number, at: string): UnresolvedName | undefined {
  const text = file.lines?.[line];
  if (text === undefined) return undefined;
  const syntax: NameSyntax = file.file.language === 'typescript' || file.file.language === 'javascript' ? 'javascript' : 'plain';
  const word = nameAt(text, column, syntax);
  if (!word || isReservedWord(word.text, file.file.language)) return undefined;
  return { text: word.text, at, member: /\??\.\s*$/.test(text.slice(0, word.start)), syntax };
}

/**
 * A 0-based line of a file as it is now, as a line of the indexed text; a
 * message saying why the index cannot answer there when it changed since.
 */
async function indexedLine(ctx: RepoContext, file: FileContext, line: number): Promise<number | string> {
  const edit = await ctx.adjust.file({ repo: ctx.repo.slug, path: file.file.path, blob: file.file.blob_sha });
  if (!edit || edit.state === 'unchanged') return line;
  const at = `${ctx.repo.slug}@${ctx.index.commit_sha.slice(0, 12)}`;
  if (edit.state === 'deleted') {
    throw new UserError(`${file.file.path} was deleted from the worktree since the index (${at}): pass a file that exists`);
  }
  if (edit.state === 'unmappable') {
    return `${file.file.path} changed since the index (${at}), whose copy of its text was not kept, so no position in it maps: reindex (\`sextant reindex\`) to navigate it`;
  }
  if (line >= edit.map.newLength) {
    throw new UserError(
      `line ${line + 1} is past the end of ${file.file.path} (${edit.map.newLength} lines): pass a line between 1 and ${edit.map.newLength}`,
    );
  }
  const old = edit.map.toOld(line);
  if (old !== undefined) return old;
  return (
    `line ${line + 1} of ${file.file.path} changed since the index (${at}), so the index cannot answer there: ` +
    'ask at unchanged code, or reindex (`sextant reindex`) and ask again'
  );
}

/**
 * Definitions of `symbols`: local ones in the file they belong to, global
 * ones in this index first, then in the current index of every other
 * repository (the same global symbol string is the same entity anywhere).
 */
export async function definitionsOf(
  lookups: Lookups,
  ctx: RepoContext,
  symbols: readonly string[],
  file?: FileContext,
): Promise<DefinitionRow[]> {
  return (await definitionsOfGroups(lookups, ctx, [symbols], file)).flat();
}

/**
 * `definitionsOf` for several groups of symbols at once, one list per group:
 * the global symbols of every group are looked up in one query, in this
 * index and every other repository's current one, and each group keeps the
 * other repositories' definitions only of its symbols this index lacks.
 */
export async function definitionsOfGroups(
  lookups: Lookups,
  ctx: RepoContext,
  groups: readonly (readonly string[])[],
  file?: FileContext,
): Promise<DefinitionRow[][]> {
  const locals = [...new Set(groups.flat().filter(isLocalSymbol))];
  const inFile = locals.length && file ? await lookups.localDefinitions(ctx.index.id, file.document.id, file.file.path, locals) : [];
  const globals = [...new Set(groups.flat().filter((s) => !isLocalSymbol(s)))];
  const indexes = [ctx.index.id, ...ctx.others];
  // Rows come ordered by path and position; here and elsewhere keep that order.
  const rows = await lookups.definitionsOf(indexes, globals);
  // A name a module exports under (`ns.a`, `import { en }`) has no definition of its own: it is defined as what it exports.
  const undefinedNames = globals.filter((s) => EXPORTED_NAME.test(s) && !rows.some((d) => d.symbol === s));
  const exported = undefinedNames.length ? await lookups.definedAs(indexes, undefinedNames) : [];
  if (exported.length) rows.push(...(await lookups.definitionsOf(indexes, [...new Set(exported.map((e) => e.symbol))])));
  const here = rows.filter((d) => d.index_id === ctx.index.id);
  const elsewhere = rows.filter((d) => d.index_id !== ctx.index.id);
  const definedHere = new Set(here.map((d) => d.symbol));
  return groups.map((group) => {
    const symbols = new Set(group);
    for (const e of exported) if (symbols.has(e.from)) symbols.add(e.symbol);
    return [
      ...inFile.filter((d) => isLocalSymbol(d.symbol) && symbols.has(d.symbol)),
      ...here.filter((d) => symbols.has(d.symbol)),
      ...elsewhere.filter((d) => symbols.has(d.symbol) && !definedHere.has(d.symbol)),
    ];
  });
}

/** A term directly in a module (`src/\`m.ts\`/a.`): the shape of the names prepare gives what modules export. */
const EXPORTED_NAME = /\/(?:[\w$+-]+|`(?:[^`]|``)+`)\.$/;

/** Whether a symbol has the shape of a name a module exports under (see EXPORTED_NAME). */
export function isExportedName(symbol: string): boolean {
  return EXPORTED_NAME.test(symbol);
}

/** A definition as an answer gives it, in the current text; undefined when its line changed since the index (counted by ctx.adjust). */
export async function toDefinition(lookups: Lookups, ctx: RepoContext, indexed: DefinitionRow): Promise<Definition | undefined> {
  const d = await ctx.adjust.row(indexed);
  if (!d) return undefined;
  // The preview is the indexed line, which is the current one unchanged.
  const lines = await lookups.lines(d.blob_sha);
  const enclosing = enclosingRange(d);
  return {
    ...location(d.repo, d.path, definitionRange(d), null, { symbol: d.symbol }),
    ...previewOf(lines, indexed.start_line, indexed.start_char),
    ...(d.adjusted ? { adjusted: true } : {}),
    name: d.name,
    kind: asSymbolKind(d.kind),
    container: d.container,
    signature: d.signature,
    enclosing_range: enclosing ? range1(enclosing) : null,
    enclosing_source: (d.enclosing_source as Definition['enclosing_source']) ?? null,
  };
}

export function toSymbolItem(d: DefinitionRow & { adjusted?: true }): SymbolItem {
  return {
    ...(d.adjusted ? { adjusted: true } : {}),
    name: d.name,
    kind: d.kind,
    container: d.container,
    symbol: d.symbol,
    repo: d.repo,
    path: d.path,
    ...range1(definitionRange(d)),
  };
}

function previewOf(lines: readonly string[] | null, line: number, column: number): { preview?: string } {
  const p = preview(lines, line, column);
  return p === undefined ? {} : { preview: p };
}

/** A TypeScript declaration file, whose overloads are all signatures. */
const DECLARATION_FILE = /\.d\.[mc]?ts$/;

/**
 * One symbol declared several times in one file is an overload group (its
 * signatures, then the implementation; scip-typescript also gives the
 * same-named parameters of all signatures one symbol). A language server
 * answers by TypeScript's rules, and so does sextant:
 * - at a function's or method's name in one of its declarations, the
 *   implementation, or the last signature where none has a body (a
 *   declaration file's, an interface's), as TypeScript goes from a signature
 *   to its implementation; at another declaration, that declaration and the
 *   last (a declaration file's: that declaration); at a parameter's or type
 *   parameter's own declaration, that declaration alone (each signature's
 *   are its own: another's, or the implementation's, are other names that
 *   happen to be spelled alike);
 * - at a use of a parameter or type parameter, the one of the signature the
 *   use is in: the last declared before the use (the implementation's, for a
 *   use in its body; a signature's own, for a use in that signature's types,
 *   where scip-typescript gives a parameter's name the parameter's symbol
 *   beside the same-named type parameter's); a parameter used in another
 *   file, the implementation's;
 * - at a call, the signatures its argument count fits (TypeScript resolves
 *   one overload with types; the count is what syntax knows), or all of them
 *   when none fits; in a declaration file the last is a signature too.
 */
function narrowOverloads(
  rows: DefinitionRow[],
  at: { path: string; line: number; column: number; declared: ReadonlySet<string>; argumentCounts: ReadonlyMap<string, number> },
): DefinitionRow[] {
  const groups = new Map<string, DefinitionRow[]>();
  for (const d of rows) {
    const key = `${d.symbol}\0${d.repo}\0${d.path}`;
    const group = groups.get(key);
    if (group) group.push(d);
    else groups.set(key, [d]);
  }
  const kept = new Set<DefinitionRow>(rows);
  for (const group of groups.values()) {
    const symbol = group[0]!.symbol;
    // Only signatures and their parameters are overloads: a JavaScript property assigned in several methods is declared at each.
    if (group.length < 2 || !(group.some((d) => d.callable) || isParameterSymbol(symbol) || isTypeParameterSymbol(symbol))) continue;
    // A type's type parameter, declared again by each declaration merged into it (`interface TupleSchema<TContext>` beside
    // `declare class TupleSchema<TContext>`), is one: TypeScript lists every declaration.
    if (isTypeParameterSymbol(symbol) && symbol.slice(0, symbol.lastIndexOf('[')).endsWith('#')) continue;
    // A declaration file's overloads are all signatures: none is an implementation.
    const ambient = DECLARATION_FILE.test(group[0]!.path);
    const signatures = ambient ? group : group.slice(0, -1);
    let chosen: DefinitionRow[] | undefined;
    if (at.declared.has(symbol)) {
      const here = group.find((d) => d.path === at.path && rangeTouches(definitionRange(d), at.line, at.column));
      const last = group[group.length - 1]!;
      if (!here) chosen = undefined;
      else if (isParameterSymbol(symbol) || isTypeParameterSymbol(symbol)) chosen = [here];
      else if (group.every((d) => FUNCTION_KINDS.has(d.kind))) chosen = [last];
      else chosen = [...new Set(ambient ? [here] : [here, last])];
    } else if (isParameterSymbol(symbol) || isTypeParameterSymbol(symbol)) {
      const before = group.filter(
        (d) => d.path === at.path && (d.start_line < at.line || (d.start_line === at.line && d.start_char <= at.column)),
      );
      const last = (rows: DefinitionRow[]) =>
        rows.reduce((a, b) => (b.start_line > a.start_line || (b.start_line === a.start_line && b.start_char > a.start_char) ? b : a));
      chosen = before.length ? [last(before)] : isParameterSymbol(symbol) ? [group[group.length - 1]!] : undefined;
    } else {
      const count = at.argumentCounts.get(symbol);
      if (count !== undefined && group.every((d) => d.min_arguments !== null)) {
        const fitting = signatures.filter((d) => count >= d.min_arguments! && (d.max_arguments === null || count <= d.max_arguments));
        chosen = fitting.length ? fitting : undefined;
      }
    }
    if (chosen) for (const d of group) if (!chosen.includes(d)) kept.delete(d);
  }
  return rows.filter((d) => kept.has(d));
}

function rowKey(d: DefinitionRow): string {
  return `${d.repo}\0${d.path}\0${d.start_line}:${d.start_char}\0${d.symbol}`;
}

function dedupe(rows: DefinitionRow[]): DefinitionRow[] {
  const seen = new Set<string>();
  return rows.filter((d) => {
    const key = rowKey(d);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The definitions of what is at a request's position, for a hierarchy rooted
 * there; a clear error when the position names nothing or nothing defined.
 */
export async function definitionsForHierarchy(
  lookups: Lookups,
  ctx: RepoContext,
  params: { repo: string; path: string; line: number; column: number },
  hierarchy: 'call hierarchy' | 'type hierarchy',
): Promise<{
  definitions: DefinitionRow[];
  foundByName?: { member: DefinitionRow; askedIn: MemberUseFile };
  /**
   * What no repository defines but a hierarchy can still be rooted at, and the
   * file asked in: for a call hierarchy a library's function or method
   * (`JSON.parse`, `arr.push`), for a type hierarchy its type (`Error`, each
   * declaration merged into it).
   */
  external?: { symbols: string[]; path: string };
}> {
  requirePrecise(ctx);
  const at = await symbolsAtPosition(lookups, ctx, params);
  if (at.symbols.length === 0) throw new UserError(at.message!);
  const definitions = await definitionsOf(lookups, ctx, at.symbols, at.file);
  const modules = definitions.map(unresolvedImportModule);
  if (modules.length > 0 && modules.every((m) => m !== undefined)) {
    throw new UserError(
      `cannot build a ${hierarchy}: ${definitions[0]!.name} is imported from ${modules[0]}, a module the indexer could not resolve ` +
        '(a package not installed), so what it is is unknown: install it, then run `sextant index` again',
    );
  }
  if (definitions.length > 0) return { definitions };
  // At a use of a member of an unnamed type declared in another file, as goToDefinition finds it.
  const askedIn = useFile(at.file);
  const member =
    hierarchy === 'call hierarchy' && at.memberAccess ? await memberDeclaredElsewhere(lookups, askedIn, at.memberAccess) : undefined;
  if (member) return { definitions: [member], foundByName: { member, askedIn } };
  const inherited = at.access ? await inheritedThisMember(lookups, ctx, askedIn, at.access) : [];
  if (inherited.length) return { definitions: inherited };
  const external = externalOfSuffix(at.symbols, hierarchy === 'call hierarchy' ? 'method' : 'type');
  if (external.length) return { definitions: [], external: { symbols: external, path: at.file.file.path } };
  throw new UserError(`cannot build a ${hierarchy}: ${undefinedSymbolMessage(at.symbols)}`);
}

/** "countDown is a function", "Red is an enum_member": what a hierarchy's root turned out to be. */
export function whatItIs(d: DefinitionRow): string {
  return `${d.name} is ${/^[aeiou]/.test(d.kind) ? 'an' : 'a'} ${d.kind}`;
}

/** Says where an undefined symbol comes from: an external package, usually. */
export function undefinedSymbolMessage(symbols: readonly string[]): string {
  if (symbols.every(isLocalSymbol)) {
    return (
      'the index records no declaration for this local name: an import from a module the indexer could not resolve ' +
      '(a package not installed), or a member whose declaration the indexer gave another symbol (a method of an object ' +
      'literal, used from another file)'
    );
  }
  // Unparseable symbols say nothing about their package.
  const parsed = symbols.flatMap((s) => {
    try {
      const p = parseSymbol(s);
      return p.local ? [] : [p];
    } catch {
      return [];
    }
  });
  const file = parsed.map(unindexedModuleFile).find((f) => f !== undefined);
  if (file) {
    return (
      `the symbol is the module ${file.path} (package ${file.pkg}), a file the indexer does not index (not TypeScript or ` +
      'JavaScript): read the file itself (findFiles, searchCode)'
    );
  }
  const packages = new Set(parsed.map(packageOf));
  const where = packages.size ? ` (package ${[...packages].join(', ')})` : '';
  return `the symbol is defined outside the indexed code${where}, and no repository in the registry defines it: index that package's source to navigate into it`;
}

/**
 * Of symbols defined in no index, the global ones of a kind: functions and
 * methods (SCIP's `name().`), as a library declares `JSON.parse`, or types
 * (`Name#`), as it declares `Error`.
 */
function externalOfSuffix(symbols: readonly string[], suffix: 'method' | 'type'): string[] {
  return symbols.filter((s) => {
    if (isLocalSymbol(s)) return false;
    try {
      return parseSymbol(s).descriptors.at(-1)?.suffix === suffix;
    } catch {
      return false;
    }
  });
}

/** `name@version` of a symbol's package, or its scheme when it names none. */
function packageOf(p: ParsedSymbol): string {
  return [p.packageName, p.version].filter(Boolean).join('@') || p.scheme;
}

/** Extensions of the modules scip-typescript indexes: a module symbol of another file (`x.json`) has no definition. */
const INDEXED_MODULE = /\.(?:[cm]?[jt]sx?)$/;

/** The path and package of a module symbol naming a file of another kind (`require('./meta/applicator.json')`). */
function unindexedModuleFile(p: ParsedSymbol): { path: string; pkg: string } | undefined {
  const last = p.descriptors[p.descriptors.length - 1];
  if (!last || !p.descriptors.every((d) => d.suffix === 'namespace')) return undefined;
  if (!/\.\w+$/.test(last.name) || INDEXED_MODULE.test(last.name)) return undefined;
  return { path: p.descriptors.map((d) => d.name).join('/'), pkg: packageOf(p) };
}

export async function goToDefinition(lookups: Lookups, ctx: RepoContext, params: Params): Promise<Result> {
  requirePrecise(ctx);
  const base = { repo: ctx.repo.slug, commit: ctx.index.commit_sha, source: 'precise' as const };
  if (params.symbol !== undefined) {
    const rows = await lookups.definitionsNamed(ctx.index.id, params.symbol);
    const definitions = await toDefinitions(lookups, ctx, rows);
    return {
      ...base,
      ...ctx.adjust.fields(),
      found: definitions.length > 0,
      definitions,
      symbols: [...new Set(rows.map((r) => r.symbol))],
      ...(definitions.length
        ? {}
        : {
            message: rows.length
              ? changedDefinitionMessage(rows.length)
              : `no definition named exactly ${quote(params.symbol)} in ${ctx.repo.slug}: names are case-sensitive and unqualified; try workspaceSymbols for a substring search`,
          }),
    };
  }
  const at = await symbolsAtPosition(lookups, ctx, { path: params.path!, line: params.line!, column: params.column! });
  if (at.symbols.length === 0) {
    if (at.name) return definitionsBySpelling(lookups, ctx, at.file, at.name, base);
    return { ...base, ...ctx.adjust.fields(), found: false, definitions: [], symbols: [], message: at.message! };
  }
  const asked = withoutConstructedNamespaces(at.symbols);
  // At a use of a declared member, the object-literal member implementing it is a definition too (see orchestrator/prepare.ts).
  const used = asked.filter((s) => !at.declared.has(s));
  const implementations = used.length ? await lookups.definitionRelated([ctx.index.id], used) : [];
  const partners = [
    ...new Set([...asked.flatMap((s) => definitionPartners(s, at.declared.has(s), at.called === true)), ...implementations]),
  ].filter((s) => !asked.includes(s));
  // The symbols' definitions first, then their partners': one query for both. A partner is taken for its own
  // declarations: a function's merged name `f.` declares nothing, and what it is defined as, where it is the name the
  // module exports (a shorthand `{ f }` of `module.exports`), is no declaration of the function.
  const [own, partnered] = await definitionsOfGroups(lookups, ctx, [asked, partners], at.file);
  const implemented = await implementedAtLiteral(lookups, ctx, at, own!);
  const { rows, note } = await byDiscriminant(
    lookups,
    at,
    await byLiteralTags(
      lookups,
      at,
      usedNotDeclared(
        at,
        used,
        narrowOverloads(
          dedupe(
            exportedClasses(
              exportedVariables(at.file, at.called === true, [
                ...own!,
                ...partnered!.filter((d) => !isLocalSymbol(d.symbol) && partners.includes(d.symbol)),
                ...implemented,
              ]),
            ),
          ),
          {
            ...at,
            path: at.file.file.path,
            column: params.column! - 1,
          },
        ),
      ),
    ),
  );
  if (rows.some((d) => isModuleSymbol(d.symbol)))
    await answerExportAssignments(lookups, ctx, rows, { index: ctx.index.id, path: at.file.file.path });
  if (rows.some((d) => unresolvedImportModule(d) !== undefined)) answerOwnImportBindings(at.file, rows, at.range);
  if (at.called && rows.some((d) => d.kind === 'property')) rows.push(...(await calledThroughProperties(lookups, ctx, rows)));
  if (rows.length === 0 && at.range && languageOf(at.file.file.path) === 'javascript')
    rows.push(...(await exportAssignmentAt(lookups, ctx, at.file, at.range)));
  if (rows.length === 0 && at.access) rows.push(...(await inheritedThisMember(lookups, ctx, useFile(at.file), at.access)));
  const member =
    rows.length === 0 && at.memberAccess
      ? await memberDeclaredElsewhere(
          lookups,
          { index_id: ctx.index.id, document_id: at.file.document.id, blob_sha: at.file.file.blob_sha },
          at.memberAccess,
        )
      : undefined;
  // Each of its declarations, as at the member itself (a JavaScript class's property, assigned in several methods).
  if (member)
    rows.push(
      ...(isLocalSymbol(member.symbol)
        ? await lookups.localDefinitions(member.index_id, member.document_id, member.path, [member.symbol])
        : [member]),
    );
  const answered = at.specifier
    ? rows.map(fileStart)
    : at.called
      ? await Promise.all(rows.map((d) => calledPropertyFunction(lookups, calledAssignedFunction(d))))
      : rows;
  const definitions = await toDefinitions(lookups, ctx, dedupe(await withAssignments(lookups, answered)));
  const fields = ctx.adjust.fields();
  const message = definitions.length
    ? member && resolvedByNameNote(member)
    : rows.length
      ? changedDefinitionMessage(rows.length)
      : (note ?? undefinedSymbolMessage(at.symbols));
  return {
    ...base,
    ...fields,
    found: definitions.length > 0,
    definitions,
    symbols: at.symbols,
    ...(message ? { message } : {}),
  };
}

/**
 * A JavaScript module's variable exported by a property of its name
 * (`module.exports = { TOKEN_INT: TOKEN_INT }`, nunjucks's lexer) is one
 * symbol to the index, `lexer.js/TOKEN_INT.`, which importers' names take too,
 * related to the property (`TOKEN_INT0:`) as its definition. TypeScript binds
 * two: in the module, the variable; through the module (`lexer.TOKEN_INT`),
 * the property, and the variable too where it is called (`lexer.tokenize()`).
 * So each answers where TypeScript's does.
 */
function exportedVariables(file: FileContext, called: boolean, rows: DefinitionRow[]): DefinitionRow[] {
  if (languageOf(file.file.path) !== 'javascript') return rows;
  const drop = new Set<DefinitionRow>();
  for (const variable of rows) {
    const symbol = variable.symbol;
    if (!symbol.endsWith('.') || symbol.endsWith('().')) continue;
    const name = symbol.slice(0, -1);
    const properties = rows.filter((d) => d.symbol.startsWith(name) && EXPORT_PROPERTY.test(d.symbol.slice(name.length)));
    if (properties.length === 0) continue;
    if (variable.path === file.file.path) for (const d of properties) drop.add(d);
    else if (!called) drop.add(variable);
  }
  return drop.size ? rows.filter((d) => !drop.has(d)) : rows;
}

/**
 * A JavaScript class exported by assignment (`exports.Server = Server`,
 * `module.exports.Server = Server`: socket.io's build) is two symbols to the
 * index, the class `Server#` and the export `Server.`, merged by their name;
 * TypeScript answers the class from either, never the assignments.
 */
function exportedClasses(rows: DefinitionRow[]): DefinitionRow[] {
  const classes = new Set(rows.filter((d) => d.kind === 'class' && d.symbol.endsWith('#')).map((d) => d.symbol.slice(0, -1)));
  if (classes.size === 0) return rows;
  const isExport = (d: DefinitionRow) =>
    d.symbol.endsWith('.') && !d.symbol.endsWith('().') && classes.has(d.symbol.slice(0, -1)) && languageOf(d.path) === 'javascript';
  return rows.filter((d) => !isExport(d));
}

/** What follows a variable's name in the symbol scip-typescript gives an object literal's property of that name: its counter. */
const EXPORT_PROPERTY = /^\d+:$/;

/**
 * At a module's specifier TypeScript's goToDefinition answers the file
 * itself, at its start; at a name for the module (`import * as m`), the
 * module, at its first token, where prepare defines it.
 */
function fileStart(d: DefinitionRow): DefinitionRow {
  return isModuleSymbol(d.symbol) ? { ...d, start_line: 0, start_char: 0, end_line: 0, end_char: 0 } : d;
}

/**
 * A name a file imports from a module of the repository that re-exports it
 * from a module the index does not cover (mongodb's `import type { Document }
 * from '../bson'`, where bson.ts has `export { Document } from 'bson'` and the
 * package is not installed): TypeScript cannot follow the alias past the file
 * asked in, and answers that file's own import binding; so does sextant. The
 * re-export stays the answer in its own file, and findReferences still spans
 * the files importing through it. Asked at the re-export's name itself (`export
 * type { Channel }` of lru-cache's declaration files, importing from
 * `node:diagnostics_channel` without @types/node), TypeScript answers that
 * name, not the binding it cannot follow.
 */
function answerOwnImportBindings(file: FileContext, rows: DefinitionRow[], asked: Range | undefined): void {
  if (languageOf(file.file.path) !== 'typescript' && languageOf(file.file.path) !== 'javascript') return;
  const { occurrences, symbols } = file.document;
  if (asked && asked[0] === asked[2] && file.lines && inExportList(file.lines, asked)) {
    rows.forEach((d, at) => {
      if (d.path === file.file.path && unresolvedImportModule(d) !== undefined)
        rows[at] = { ...d, start_line: asked[0], start_char: asked[1], end_line: asked[2], end_char: asked[3] };
    });
  }
  rows.forEach((d, at) => {
    if (d.path === file.file.path || unresolvedImportModule(d) === undefined) return;
    for (let i = 0; i < occurrences.length; i++) {
      if (occurrences.refKind(i) !== RefKindCode.import || symbols[occurrences.symbol(i)] !== d.symbol) continue;
      const [start_line, start_char, end_line, end_char] = occurrences.range(i);
      rows[at] = {
        ...d,
        path: file.file.path,
        blob_sha: file.file.blob_sha,
        document_id: file.document.id,
        start_line,
        start_char,
        end_line,
        end_char,
        // The re-export's extent is not the binding's.
        enclosing_start_line: null,
        enclosing_start_char: null,
        enclosing_end_line: null,
        enclosing_end_char: null,
        enclosing_source: null,
      };
      return;
    }
  });
}

/** Whether `range` is a name of an `export { ... }` list, exported as itself (no `as` after it). */
function inExportList(lines: readonly string[], range: Range): boolean {
  const text = lines[range[0]]!;
  if (/^\s+as\b/.test(text.slice(range[3]))) return false;
  // The list's opening, a few lines up at most, with no closing brace between.
  const before = [...lines.slice(Math.max(0, range[0] - EXPORT_LIST_LINES), range[0]), text.slice(0, range[1])].join('\n');
  return EXPORT_LIST_OPEN.test(before);
}
/** Lines an export list spans at most, as inExportList looks for its opening. */
const EXPORT_LIST_LINES = 30;
/** `export {` or `export type {`, then names and commas alone to the end. */
const EXPORT_LIST_OPEN = /\bexport\s+(?:type\s+)?\{[^{}]*$/;

/**
 * At a call of the function a CommonJS module assigns whole (`module.exports =
 * (Constructor, request) => {...}`, webpack's makeSerializable, called in 250
 * files), TypeScript's goToDefinition answers the function, which it names by
 * the assignment's `exports`; elsewhere (the name an importer binds, `m.call`)
 * it answers the assignment, from `module`, where prepare-exports.ts defines it.
 */
function calledAssignedFunction(d: DefinitionRow): DefinitionRow {
  const assignedWhole =
    d.callable === 1 &&
    d.symbol.endsWith('/default.') &&
    d.start_line === d.end_line &&
    d.end_char - d.start_char === MODULE_EXPORTS.length;
  return assignedWhole ? { ...d, start_char: d.end_char - 'exports'.length } : d;
}

const MODULE_EXPORTS = 'module.exports';

/**
 * At the name of an object literal's method or arrow property (a function to
 * sextant, see orchestrator/prepare.ts defineLiteralMembers), TypeScript's
 * goToDefinition answers the property of the literal's contextual type that
 * it implements (prosemirror's `{ tag: 'a', getAttrs(dom) {...} }` answers
 * `TagParseRule`'s `getAttrs`): those are added to the member itself, and a
 * union's are narrowed by the literal's tags with the rest (byLiteralTags). A
 * class's method is not: TypeScript answers it alone, not what it overrides.
 */
async function implementedAtLiteral(
  lookups: Lookups,
  ctx: RepoContext,
  at: { file: FileContext; declared: Set<string> },
  own: readonly DefinitionRow[],
): Promise<DefinitionRow[]> {
  const members = own.filter((d) => d.kind === 'function' && at.declared.has(d.symbol)).map((d) => d.symbol);
  if (members.length === 0) return [];
  const implemented = await lookups.implementedBy([ctx.index.id], members);
  if (implemented.length === 0) return [];
  const [rows] = await definitionsOfGroups(lookups, ctx, [implemented], at.file);
  return rows!;
}

/**
 * At a call of a class field initialised with a function (`getName = <T>(field: T) => {...}`, TanStack Form's
 * methods), TypeScript's goToDefinition answers the function the call resolves to, not the field: a function
 * expression by its name when it has one, else the whole function, from its first token (the field is not the
 * function's name to TypeScript, as a variable's or an object literal property's is). The parse marks such a field
 * callable (syntax/typescript.ts): not one with a type of its own (`f: Handler = ...`, whose call resolves through
 * that type), nor `this.f = () => ...`, a member assigned, whose function TypeScript names `f`.
 */
async function calledPropertyFunction(lookups: Lookups, d: DefinitionRow): Promise<DefinitionRow> {
  if (d.kind !== 'property' || d.callable !== 1 || d.enclosing_end_line === null || d.enclosing_end_char === null) return d;
  const lines = await lookups.lines(d.blob_sha);
  const assigned = FIELD_INITIALISER.exec(lines?.[d.start_line]?.slice(d.end_char) ?? '');
  if (!assigned) return d;
  const start = d.end_char + assigned[0].length;
  const initialiser = lines![d.start_line]!.slice(start);
  const named = NAMED_FUNCTION.exec(initialiser);
  if (named) {
    const at = start + named[0].length - named[1]!.length;
    return { ...d, start_char: at, end_line: d.start_line, end_char: at + named[1]!.length };
  }
  // A class expression is callable too, and no call's answer.
  if (!FUNCTION_START.test(initialiser)) return d;
  // To the field's end, but for the semicolon that ends the field.
  const last = lines![d.enclosing_end_line]?.slice(0, d.enclosing_end_char) ?? '';
  const end = last.trimEnd().endsWith(';') ? last.trimEnd().length - 1 : d.enclosing_end_char;
  return { ...d, start_char: start, end_line: d.enclosing_end_line, end_char: end };
}

/** ` = ` after a field's name (no type of its own), up to the initialiser. */
const FIELD_INITIALISER = /^\s*=(?![=>])\s*/;
const NAMED_FUNCTION = /^(?:async\s+)?function\s*\*?\s*([\p{L}_$][\p{L}\p{N}_$]*)/u;
/** An arrow function's or an anonymous function expression's first tokens. */
const FUNCTION_START = /^(?:async\b\s*)?(?:function\b|[<(]|[\p{L}_$][\p{L}\p{N}_$]*\s*=>)/u;

/**
 * A name that declares one symbol and uses another (a shorthand property
 * `{ f }`, a destructured `const { a } = o`) is, to TypeScript's
 * goToDefinition, what it uses: the value `f`, the property `a` of `o`'s type,
 * not the name itself. Kept when nothing else is known.
 */
function usedNotDeclared(
  at: { file: FileContext; declared: Set<string>; range?: Range },
  used: readonly string[],
  rows: DefinitionRow[],
): DefinitionRow[] {
  const language = languageOf(at.file.file.path);
  if (used.length === 0 || at.declared.size === 0 || !at.range || (language !== 'typescript' && language !== 'javascript')) return rows;
  const [line, character] = at.range;
  const elsewhere = rows.filter((d) => d.document_id !== at.file.document.id || d.start_line !== line || d.start_char !== character);
  return elsewhere.length ? elsewhere : rows;
}

/**
 * A property an object literal gives a literal (`{ type: "plus", expr }`),
 * where the members of a union declare the name each with a literal type of
 * its own (`{ type: "plus"; ... } | { type: "star"; ... }`): TypeScript's
 * goToDefinition answers the member the literal picks out, not all of them.
 * Rows that declare another literal are left out when one declares this one.
 * When every row declares another, none is that member: it is one the index
 * does not define, an anonymous type literal of the union (mobx's `| { type:
 * "scheduled-reaction"; name: string }`, whose named siblings the index
 * gives the object's `type`), and the note says so.
 */
async function byDiscriminant(
  lookups: Lookups,
  at: { file: FileContext; range?: Range },
  rows: DefinitionRow[],
): Promise<{ rows: DefinitionRow[]; note?: string }> {
  if (rows.length < 2 || !at.range || at.range[0] !== at.range[2]) return { rows };
  const value = literalAfter(at.file.lines?.[at.range[0]], at.range[3]) ?? (await constantAfter(lookups, at.file, at.range));
  if (value === undefined) return { rows };
  const declared = await Promise.all(rows.map(async (d) => literalAfter((await lookups.lines(d.blob_sha))?.[d.end_line], d.end_char)));
  if (declared.includes(value)) return { rows: rows.filter((_, i) => declared[i] === undefined || declared[i] === value) };
  // A row of no literal (`type: string`) may be the member.
  if (declared.includes(undefined)) return { rows };
  const others = [...new Set(declared.filter((d) => d !== undefined))];
  return {
    rows: [],
    note:
      `the literal ${boundedLiteral(value)} picks out a member of a union that the index does not define (an anonymous type ` +
      `literal of the union): the members of this name it defines declare ${others.slice(0, 3).map(boundedLiteral).join(', ')}` +
      `${others.length > 3 ? ` and ${others.length - 3} more` : ''}, and none of them is it`,
  };
}

/**
 * A property of an object literal that gives another of its properties a
 * literal (`notify({ mutation: this, type: 'updated' })`), where the members
 * of a union each declare the property and the other name with a literal type
 * of its own (`{ type: 'added'; mutation: M } | { type: 'updated'; mutation:
 * M }`, query-core's mutation events): TypeScript's goToDefinition answers the
 * member the literal's tags pick out, not every member's property. A row is
 * left out when its type declares another literal for the tag (`undefined`
 * among them: prosemirror's `tag?: undefined`); one that declares the tag
 * with no literal, or not at all, is kept, as TypeScript keeps it. Narrowed
 * only where some rows, not all, are kept.
 */
async function byLiteralTags(lookups: Lookups, at: { file: FileContext; range?: Range }, rows: DefinitionRow[]): Promise<DefinitionRow[]> {
  const lines = at.file.lines;
  if (rows.length < 2 || !at.range || at.range[0] !== at.range[2] || !lines) return rows;
  // Each row's type (`...NotifyEventMutationAdded#` of `...NotifyEventMutationAdded#mutation.`).
  // A shorthand (`{ tag: 'script', children }`) answers the value it uses too, which no tag narrows.
  const owners = rows.map((d) => propertyOwner(d.symbol));
  const types = [...new Set(owners.filter((o) => o !== undefined))];
  if (types.length < 2) return rows;
  const indexes = [...new Set(rows.map((d) => d.index_id))];
  for (const [key, value] of literalTags(lines, at.range[0], at.range[1])) {
    const tags = new Map<string, string | undefined>();
    for (const tag of await lookups.definitionsOf(
      indexes,
      types.map((o) => `${o}${descriptorName(key)}.`),
    ))
      tags.set(propertyOwner(tag.symbol)!, literalAfter((await lookups.lines(tag.blob_sha))?.[tag.end_line], tag.end_char));
    // As TypeScript discriminates a union: a member lacking the tag, or declaring it with no literal, may be it.
    const picked = (owner: string) => tags.get(owner) === undefined || tags.get(owner) === value;
    const kept = types.filter(picked);
    if (kept.length > 0 && kept.length < types.length) return rows.filter((_, i) => owners[i] === undefined || picked(owners[i]!));
  }
  return rows;
}

/**
 * The type a property belongs to, for a property of a type (`Owner#name.`), not a method's or a local's: an
 * interface's `Owner#`, or a type alias's object type, which scip-typescript names `Owner#typeLiteral22:`
 * (`type ScriptTag = { tag: 'script'; children?: string }`).
 */
function propertyOwner(symbol: string): string | undefined {
  return MEMBER_PROPERTY.exec(symbol)?.[1];
}

const MEMBER_PROPERTY = /^(.*#(?:typeLiteral\d+:)?)(?:[\w$]+|`(?:[^`]|``)+`)\.$/;

/** Lines looked through for the object literal around a property, each way. */
const LITERAL_LINES = 50;

/**
 * The `name: literal` properties at the top level of the object literal around
 * a position (its tags), literals as literalAfter gives them. Brackets are
 * counted as written (one in a string miscounts, and then nothing is found).
 */
function literalTags(lines: readonly string[], line: number, column: number): [string, string][] {
  let depth = 0;
  let open: [number, number] | undefined;
  back: for (let l = line; l >= Math.max(0, line - LITERAL_LINES); l--) {
    const text = lines[l] ?? '';
    for (let c = l === line ? column - 1 : text.length - 1; c >= 0; c--) {
      const ch = text[c]!;
      if (CLOSING.includes(ch)) depth++;
      else if (OPENING.includes(ch) && depth-- === 0) {
        if (ch !== '{') return [];
        open = [l, c];
        break back;
      }
    }
  }
  if (!open) return [];
  let top = '';
  depth = 0;
  for (let l = open[0]; l < Math.min(lines.length, open[0] + 2 * LITERAL_LINES); l++) {
    const text = lines[l] ?? '';
    for (let c = l === open[0] ? open[1] + 1 : 0; c < text.length; c++) {
      const ch = text[c]!;
      if (OPENING.includes(ch)) depth++;
      else if (CLOSING.includes(ch) && depth-- === 0) return [...top.matchAll(TAG)].map((m) => [m[1]!, doubleQuoted(m[2])!]);
      else if (depth === 0) top += ch;
    }
    top += '\n';
  }
  return [];
}

const OPENING = '{([';
const CLOSING = '})]';

/** A literal as a note quotes it: a long string's first characters. */
function boundedLiteral(literal: string): string {
  return literal.length > 40 ? `${literal.slice(0, 39)}…` : literal;
}

/**
 * A literal after a name and its colon (`: "plus",`, `?: 2;`), a string's in
 * double quotes; undefined when none ends the member there. A member declared
 * `undefined` or `null` alone has that literal too (prosemirror's `tag?:
 * undefined` in `StyleParseRule`, "to make TS see ParseRule as a tagged
 * union"): a literal giving the tag a string picks out the other members.
 */
function literalAfter(line: string | undefined, column: number): string | undefined {
  if (!line) return undefined;
  const rest = line.slice(column);
  return doubleQuoted(DISCRIMINANT.exec(rest)?.[1] ?? UNIT.exec(rest)?.[1]);
}

/** A string literal in double quotes (as literals are compared), other literals as they are written. */
function doubleQuoted(literal: string | undefined): string | undefined {
  return literal?.startsWith("'") ? `"${literal.slice(1, -1)}"` : literal;
}

/** A literal: a string in either quotes, a number, a boolean. */
const LITERAL = String.raw`("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|-?\d+(?:\.\d+)?|true|false)`;
const DISCRIMINANT = new RegExp(String.raw`^\s*\??\s*:\s*${LITERAL}\s*(?:[,;}|]|\/[/*]|$)`);
/** `undefined` or `null` as a member's whole type (not one of a union's: `?: undefined | string` declares no literal). */
const UNIT = /^\s*\??\s*:\s*(undefined|null)\s*(?:[,;}]|\/[/*]|$)/;
/** A `name: literal` property in the top-level text of an object literal. */
const TAG = new RegExp(String.raw`(?:^|[,\n])\s*([\p{L}_$][\p{L}\p{N}_$]*)\s*:\s*${LITERAL}\s*(?=[,\n]|$)`, 'gu');

/**
 * The literal of a constant given after a name and its colon (mobx's `{ type:
 * ADD }`, where `export const ADD = "add"`): the name is resolved through the
 * index, and its declarations must all assign one literal (`NAME = "add"`, a
 * const's or an enum member's). Undefined otherwise.
 */
async function constantAfter(lookups: Lookups, file: FileContext, range: Range): Promise<string | undefined> {
  const line = range[0];
  const named = CONSTANT.exec(file.lines?.[line]?.slice(range[3]) ?? '');
  if (!named) return undefined;
  const column = range[3] + named.indices![1]![0];
  const symbols = occurrencesAt(file.document, line, column)
    .filter((o) => !(o.roles & SymbolRole.Definition) && o.range[1] === column)
    .map((o) => file.document.symbols[o.symbol]!);
  if (symbols.length === 0) return undefined;
  const assigned = await Promise.all(
    (await definitionsOf(lookups, file, [...new Set(symbols)], file)).map(async (d) => {
      const text = (await lookups.lines(d.blob_sha))?.[d.end_line]?.slice(d.end_char);
      return doubleQuoted(text === undefined ? undefined : ASSIGNED_LITERAL.exec(text)?.[1]);
    }),
  );
  const literals = new Set(assigned);
  return assigned.length > 0 && literals.size === 1 ? assigned[0] : undefined;
}

const CONSTANT = /^\s*\??\s*:\s*([\p{L}_$][\p{L}\p{N}_$]*)\s*(?:[,;}]|\/[/*]|$)/du;
const ASSIGNED_LITERAL = new RegExp(String.raw`^\s*(?::[^=]*)?=\s*${LITERAL}\s*(?:[,;]|\/[/*]|$)`);

/**
 * At a call through a property that holds a function declared elsewhere
 * (`utils.isObject(x)` where `export default { isObject }`, or `{ isText:
 * isString }`), TypeScript's goToDefinition gives the function called as well
 * as the property: the declaration of the signature the call resolves to. The
 * index has the property; what it holds is the reference at its name
 * (shorthand) or the identifier that is its whole value. Only a call: at a
 * mere read (`const f = utils.isObject`) the property alone.
 */
async function calledThroughProperties(lookups: Lookups, ctx: RepoContext, rows: readonly DefinitionRow[]): Promise<DefinitionRow[]> {
  const found: DefinitionRow[] = [];
  const globals = new Set<string>();
  for (const d of rows) {
    if (d.kind !== 'property' || d.index_id !== ctx.index.id) continue;
    const document = await lookups.document(d.document_id);
    const held = occurrencesAt(document, d.start_line, d.start_char).filter(
      (o) => !(o.roles & SymbolRole.Definition) && o.range[2] === d.end_line && o.range[3] === d.end_char,
    );
    // `name: value`, the value a name alone.
    const text = (await lookups.lines(d.blob_sha))?.[d.end_line] ?? '';
    const value = /^\s*:\s*([\p{L}_$][\p{L}\p{N}_$]*)\s*(?:[,}]|$)/du.exec(text.slice(d.end_char));
    if (value) {
      const column = d.end_char + value.indices![1]![0];
      held.push(...occurrencesAt(document, d.end_line, column).filter((o) => !(o.roles & SymbolRole.Definition) && o.range[1] === column));
    }
    const symbols = [...new Set(held.map((o) => document.symbols[o.symbol]!))].filter((s) => s !== d.symbol);
    const locals = symbols.filter(isLocalSymbol);
    if (locals.length) found.push(...(await lookups.localDefinitions(d.index_id, d.document_id, d.path, locals)));
    for (const s of symbols) if (!isLocalSymbol(s)) globals.add(s);
  }
  if (globals.size) found.push(...(await definitionsOf(lookups, ctx, [...globals])));
  const known = new Set(rows.map(rowKey));
  return dedupe(found.filter((d) => (d.callable || d.kind === 'class') && !known.has(rowKey(d))));
}

/**
 * The functions called through `properties` that are the exports of a
 * CommonJS module (`module.exports = { isConnectionError }`), as TypeScript's
 * call hierarchy resolves a call through one (`Utils.isConnectionError(err)`):
 * it binds such a property as an alias of what it names. A property of any
 * other object literal (`export default { isObject }`) is called as itself,
 * which is no call hierarchy item.
 */
export async function calledThroughExports(
  lookups: Lookups,
  ctx: RepoContext,
  properties: readonly DefinitionRow[],
): Promise<DefinitionRow[]> {
  const exported: DefinitionRow[] = [];
  for (const d of properties) {
    if (languageOf(d.path) !== 'javascript') continue;
    const line = exportAssignmentLine(await lookups.lines(d.blob_sha));
    if (line >= 0 && line <= d.start_line) exported.push(d);
  }
  return exported.length > 0 ? calledThroughProperties(lookups, ctx, exported) : [];
}

/**
 * A JavaScript module that assigns its exports whole (`module.exports =
 * ...`) is, to TypeScript, what it assigns: goToDefinition at a name bound to
 * the module (`const m = require('./m')`) goes to the assignment (`= {...}`),
 * the class it names (`= class Cursor {...}`) or the declaration of the name
 * it assigns (`= req`), where it goes to the file's start for a module that
 * exports names one by one. prepare defines the first as the module's
 * `default.`, and that as the class in the second
 * (orchestrator/prepare-exports.ts defineAnonymousDefaults). Each such
 * module's definition in `rows` is replaced by those; not in the module's own
 * file (`Object.defineProperty(exports, ...)` there), where TypeScript answers
 * the file's start.
 */
async function answerExportAssignments(
  lookups: Lookups,
  ctx: RepoContext,
  rows: DefinitionRow[],
  askedIn: { index: number; path: string },
): Promise<void> {
  const own = (d: DefinitionRow) => d.index_id === askedIn.index && d.path === askedIn.path;
  for (const module of rows.filter((d) => isModuleSymbol(d.symbol) && !own(d))) {
    const language = languageOf(module.path);
    const assigned =
      language === 'javascript'
        ? await exportAssignment(lookups, ctx, module)
        : language === 'typescript'
          ? await exportEquals(lookups, ctx, module)
          : [];
    if (assigned.length > 0) rows.splice(rows.indexOf(module), 1, ...assigned);
  }
}

/**
 * A TypeScript module (a declaration file, mostly) that exports one entity
 * whole, `export = Container` (postcss's), is that entity to a name bound to
 * the module (`let Container = require('./container')`): the declarations of
 * what it names, each meaning a merged name has (the class and the namespace).
 */
async function exportEquals(lookups: Lookups, ctx: RepoContext, module: DefinitionRow): Promise<DefinitionRow[]> {
  const lines = await lookups.lines(module.blob_sha);
  const line = lines?.findIndex((text) => EXPORT_EQUALS.test(text)) ?? -1;
  if (line < 0) return [];
  const character = EXPORT_EQUALS.exec(lines![line]!)![1]!.length;
  const global = (await symbolsStartingAt(lookups, module.document_id, line, character)).filter((s) => !isLocalSymbol(s));
  return global.length ? dedupe(await lookups.definitionsOf([ctx.index.id], global)) : [];
}

export async function exportAssignment(lookups: Lookups, ctx: RepoContext, module: DefinitionRow): Promise<DefinitionRow[]> {
  const lines = await lookups.lines(module.blob_sha);
  const line = exportAssignmentLine(lines);
  if (line < 0) return [];
  // The export, or the class it is defined as.
  const [[declared]] = await definitionsOfGroups(lookups, ctx, [[`${module.symbol}default.`]]);
  if (declared?.document_id === module.document_id && declared.start_line === line) return [declared];
  return assignedNameDefinitions(lookups, ctx, module, lines![line]!, line);
}

/** The definitions of `name` in `module.exports = name` at `line` of a module's document (none for another assignment). */
async function assignedNameDefinitions(
  lookups: Lookups,
  ctx: RepoContext,
  module: { document_id: number; path: string },
  text: string,
  line: number,
): Promise<DefinitionRow[]> {
  const name = ASSIGNED_NAME.exec(text);
  if (!name) return [];
  const [symbol] = await symbolsStartingAt(lookups, module.document_id, line, name[1]!.length);
  if (symbol === undefined) return [];
  return isLocalSymbol(symbol)
    ? lookups.localDefinitions(ctx.index.id, module.document_id, module.path, [symbol])
    : lookups.definitionsOf([ctx.index.id], [symbol]);
}

/** The symbols of a document's occurrences that start at a position, in the document's order, each once. */
async function symbolsStartingAt(lookups: Lookups, documentId: number, line: number, character: number): Promise<string[]> {
  const document = await lookups.document(documentId);
  const occ = document.occurrences;
  const symbols = new Set<string>();
  for (let i = 0; i < occ.length && occ.startLine(i) <= line; i++) {
    const r = occ.range(i);
    if (r[0] === line && r[1] === character) symbols.add(document.symbols[occ.symbol(i)]!);
  }
  return [...symbols];
}

/**
 * At `module` or `exports` of `module.exports = name`, which the index leaves
 * a local nothing defines: TypeScript goes to the declaration of `name`. At
 * `exports` of `exports.name = value`, where the index has a local or
 * nothing: to the export `name` declares, as at `name`.
 */
async function exportAssignmentAt(lookups: Lookups, ctx: RepoContext, file: FileContext, range: Range): Promise<DefinitionRow[]> {
  const text = file.lines?.[range[0]] ?? '';
  const token = text.slice(range[1], range[3]);
  const before = text.slice(0, range[1]);
  const byName = token === 'exports' ? exportByNameAt(text, range[1]) : undefined;
  if (byName) {
    const symbols = await symbolsStartingAt(lookups, file.document.id, range[0], byName.name[0]);
    return lookups.definitionsOf(
      [ctx.index.id],
      symbols.filter((s) => !isLocalSymbol(s)),
    );
  }
  if (!((token === 'module' && before === '') || (token === 'exports' && /^module\s*\.\s*$/.test(before)))) return [];
  return assignedNameDefinitions(lookups, ctx, { document_id: file.document.id, path: file.file.path }, text, range[0]);
}

/**
 * The modules among `definitions`' files that assign the defined symbol whole
 * (`function fn() {...}; module.exports = fn`): to TypeScript the names bound
 * to such a module by `require` are names of `fn`, and its findReferences at
 * `fn` lists them (the index gives them the module's symbol).
 */
export async function modulesAssigningWhole(lookups: Lookups, ctx: RepoContext, definitions: readonly DefinitionRow[]): Promise<string[]> {
  const modules = new Set<string>();
  for (const d of definitions) {
    if (isModuleSymbol(d.symbol) || languageOf(d.path) !== 'javascript') continue;
    const module = fileNamespaceOf(d.symbol, d.path);
    if (!module) continue;
    const lines = await lookups.lines(d.blob_sha);
    const line = exportAssignmentLine(lines);
    // A name assigned whole is never the module's anonymous `default.` (exportAssignment's first answer): its own.
    if (line >= 0 && (await assignedNameDefinitions(lookups, ctx, d, lines![line]!, line)).some((a) => a.symbol === d.symbol))
      modules.add(module);
  }
  return [...modules];
}

/** The first `module.exports = ...` at the top level, as TypeScript binds it (prepare defines the first); -1 if none. */
function exportAssignmentLine(lines: readonly string[] | null): number {
  return lines?.findIndex((text) => EXPORT_ASSIGNMENT.test(text)) ?? -1;
}

/** `export = name` at the start of a line; group 1 runs to the name. */
const EXPORT_EQUALS = /^(export\s*=\s*)[\p{L}\p{N}_$]+\s*;?\s*$/u;
/** `module.exports = ...` at the start of a line (a statement at the top level, as written). */
const EXPORT_ASSIGNMENT = /^module\s*\.\s*exports\s*=(?!=)/;
/** `module.exports = name`, the name alone; group 1 runs to the name. */
const ASSIGNED_NAME = /^(module\s*\.\s*exports\s*=\s*)[\p{L}\p{N}_$]+\s*;?\s*$/u;

/**
 * The index's definitions of a name's spelling: global ones, and for a
 * member access the members with local symbols too (a JavaScript class's
 * `this.port = ...`, an object literal's methods), which are members as real.
 */
export async function definitionsSpelled(lookups: Lookups, ctx: RepoContext, name: UnresolvedName): Promise<DefinitionRow[]> {
  const [global, members] = await Promise.all([
    lookups.definitionsNamed(ctx.index.id, name.text),
    name.member ? lookups.membersNamedOnlyInTheirFiles(ctx.index.id, name.text) : [],
  ]);
  return [...global, ...members.filter((d) => isLocalSymbol(d.symbol))];
}

/** Definitions a name matched by its spelling lists at most (`get`, `value` and `name` are defined in hundreds of places). */
const BY_SPELLING_CAP = 50;
const MEMBER_KINDS: ReadonlySet<string> = new Set(['method', 'property', 'field', 'constructor', 'enum_member']);

/**
 * goToDefinition at a name the index resolved to nothing (UNRESOLVED_CAUSES):
 * the index's definitions spelled the same, as candidates (`source: "search"`),
 * ranked members first for a member access (`req.app`) and others first
 * otherwise, then the same file, the same directory, the rest.
 */
async function definitionsBySpelling(
  lookups: Lookups,
  ctx: RepoContext,
  file: FileContext,
  name: UnresolvedName,
  /** The answer's fields every goToDefinition sets (repository, commit). */
  base: Pick<Result, 'repo' | 'commit'>,
): Promise<Result> {
  const rows = await definitionsSpelled(lookups, ctx, name);
  const dir = posix.dirname(file.file.path);
  const rank = (d: DefinitionRow) =>
    (MEMBER_KINDS.has(d.kind) === name.member ? 0 : 3) + (d.path === file.file.path ? 0 : posix.dirname(d.path) === dir ? 1 : 2);
  const ranked = rows
    .map((d, i) => ({ d, i }))
    .sort((a, b) => rank(a.d) - rank(b.d) || a.i - b.i)
    .map((x) => x.d);
  const definitions = await toDefinitions(lookups, ctx, ranked.slice(0, BY_SPELLING_CAP));
  const unresolved = `the index resolved "${name.text}" at ${name.at} to nothing (${UNRESOLVED_CAUSES})`;
  const listed =
    rows.length > BY_SPELLING_CAP
      ? `the best ranked ${BY_SPELLING_CAP} of the ${rows.length} definitions named "${name.text}" in the index are listed`
      : definitions.length === 1
        ? `the one definition named "${name.text}" in the index is listed`
        : `the ${definitions.length} definitions named "${name.text}" in the index are listed`;
  return {
    ...base,
    source: 'search',
    ...ctx.adjust.fields(),
    found: definitions.length > 0,
    definitions,
    symbols: [...new Set(definitions.map((d) => d.symbol!))],
    message: definitions.length
      ? `${unresolved}: ${listed}, matched by spelling, not resolved (${name.member ? 'members' : 'non-members'} first, ` +
        'then the same file and directory); findReferences there lists its text matches'
      : rows.length
        ? `${unresolved}; ${changedDefinitionMessage(rows.length)}`
        : `${unresolved}, and nothing in the index is named "${name.text}": findReferences there lists its text matches`,
  };
}

async function toDefinitions(lookups: Lookups, ctx: RepoContext, rows: readonly DefinitionRow[]): Promise<Definition[]> {
  return (await Promise.all(rows.map((d) => toDefinition(lookups, ctx, d)))).filter((d): d is Definition => d !== undefined);
}

/** Why definitions the index has are not answered: their lines changed since. */
function changedDefinitionMessage(count: number): string {
  return (
    `the index has ${count === 1 ? 'a definition' : `${count} definitions`} for this, on lines changed (or in files deleted) since the index: ` +
    'reindex (`sextant reindex`) and ask again'
  );
}
