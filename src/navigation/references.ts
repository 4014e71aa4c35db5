// References of symbols: by position or by exact name, with their kinds.
import { quote, UserError } from '../errors.js';
import { languageOf } from '../languages.js';
import { isLocalSymbol, isModuleSymbol } from '../scip/symbol.js';
import { SymbolRole } from '../scip/schema.js';
import {
  DERIVED_ROLE,
  MODULE_SPECIFIER,
  NAMING_ONLY,
  RANGE_INTS_PER_RECORD,
  RefKindCode,
  refKindName,
  RENAMED_CALL,
  RENAMED_USE,
  refKindOf,
  rolesOf,
} from '../registry/payload.js';
import type { DefinitionRow, Lookups, RefRowInOrder } from '../registry/lookups.js';
import { CAP, type Params, type Reference, type Result } from '../protocol/references.js';
import { openFile, requirePrecise, type FileContext, type RepoContext } from './context.js';
import { moved, type Placement } from './adjust.js';
import type { FileEdit } from '../freshness/worktree-files.js';
import {
  definitionsOf,
  definitionsSpelled,
  exportAssignment,
  modulesAssigningWhole,
  symbolsAtPosition,
  toSymbolItem,
  UNRESOLVED_CAUSES,
  type UnresolvedName,
} from './definitions.js';
import { scanCut, textReferences } from './text-references.js';
import { moduleExportsReferences } from './module-exports.js';
import {
  memberDeclaredElsewhere,
  oneRowPerMember,
  resolvedByNameNote,
  useFile,
  usesByNameNote,
  usesElsewhere,
  type MemberUseFile,
} from './unnamed-members.js';
import { calledAsMethod, inheritedMemberNote, inheritedThisMember, subclassUses, subclassUsesNote } from './inherited-members.js';
import { accessorSibling, classOfConstructorCall, referenceFamily, type ReferenceFamily } from './related.js';
import { location, quotedNameText } from './locations.js';
import { importerBindingAt } from './importer-bindings.js';
import { exportedUnderAt, renamedExportAt } from './renamed-exports.js';
import type { Range } from '../scip/range.js';

export async function findReferences(lookups: Lookups, ctx: RepoContext, params: Params): Promise<Result> {
  requirePrecise(ctx);
  const limit = Math.min(params.limit, CAP);
  const base = {
    repo: ctx.repo.slug,
    commit: ctx.index.commit_sha,
    source: 'precise' as const,
    limit,
    ...(params.limit > CAP ? { limit_clamped: true } : {}),
  };

  let symbols: string[];
  let file: FileContext | undefined;
  /** What the answer's message says of references related by name (see unnamed-members.ts). */
  const notes: string[] = [];
  /** The file of the use asked about, when its member was found by name. */
  let askedIn: MemberUseFile | undefined;
  /** A base class's member `this.name` stands for (see inheritedThisMember). */
  let inherited: DefinitionRow | undefined;
  /** Asked at a name that stands for a module: the name, and the files of the module, whose own uses of it are not the name's. */
  let alias: { name: string; moduleFiles: Set<string> } | undefined;
  /** Modules whose `require` bindings are references too (those alone, not their specifiers): see modulesAssigningWhole. */
  let bindingsOf = new Set<string>();
  /** Asked at a name a file binds of its own (`greet as hello`): its occurrences in the file (see importerBindingAt). */
  let ownBinding: number[] | undefined;
  /** Asked at a name something is exported under (`export { greet as salute }`): the places spelled so (see renamedExportAt). */
  let exportName: string | undefined;
  if (params.symbol !== undefined) {
    const named = await lookups.definitionsNamed(ctx.index.id, params.symbol);
    symbols = [...new Set(named.map((d) => d.symbol))];
    if (symbols.length === 0) {
      return {
        ...base,
        ...ctx.adjust.fields(),
        symbols: [],
        references: [],
        total: 0,
        truncated: false,
        message: `no definition named exactly ${quote(params.symbol)} in ${ctx.repo.slug}: names are case-sensitive and unqualified; try workspaceSymbols for a substring search`,
      };
    }
  } else {
    const at = await symbolsAtPosition(lookups, ctx, { path: params.path!, line: params.line!, column: params.column! });
    const moduleExports = at.line >= 0 ? await moduleExportsReferences(lookups, ctx, at.file, [at.line, params.column! - 1], params, limit) : undefined;
    if (moduleExports) return { ...base, ...ctx.adjust.fields(), ...moduleExports };
    if (at.symbols.length === 0) {
      if (at.name) return referencesBySpelling(lookups, ctx, params, at.file, at.name, base);
      return { ...base, ...ctx.adjust.fields(), symbols: [], references: [], total: 0, truncated: false, message: at.message! };
    }
    // At `new X()` the index names X's constructor; the person means the class.
    symbols = [...new Set([...at.symbols, ...at.symbols.flatMap((s) => (at.declared.has(s) ? [] : classOfConstructorCall(s)))])];
    file = at.file;
    ownBinding = importerBindingAt(file, symbols, at.range);
    const name = ownBinding ? undefined : moduleAliasAt(file, symbols, at.range);
    exportName =
      ownBinding || name
        ? undefined
        : (renamedExportAt(file, symbols, at.range) ??
          (await exportedUnderAt(file, symbols, at.range, () => definitionsOf(lookups, ctx, symbols, file))));
    if (ownBinding) {
      // The name's own occurrences, below: nothing the original relates to.
    } else if (name) {
      const modules = await definitionsOf(lookups, ctx, symbols, file);
      alias = { name, moduleFiles: new Set(modules.map((d) => `${d.index_id}:${d.path}`)) };
      // A module that assigns a name whole (`module.exports = fn`): the uses of its name here are `fn`'s in the index.
      for (const module of modules.filter((d) => languageOf(d.path) === 'javascript')) {
        for (const assigned of await exportAssignment(lookups, ctx, module)) {
          if (!isLocalSymbol(assigned.symbol) && !symbols.includes(assigned.symbol)) symbols.push(assigned.symbol);
        }
      }
    } else if (exportName) {
      // The places of what is exported that are spelled as the name, below.
    } else if (file && languageOf(file.file.path) === 'javascript') {
      // At that `fn` (its declaration, a use): the names bound to its module, as TypeScript lists them.
      const assigning = await modulesAssigningWhole(lookups, ctx, await definitionsOf(lookups, ctx, symbols, file));
      bindingsOf = new Set(assigning.filter((m) => !symbols.includes(m)));
    }
    // At a use of a member of an unnamed type declared in another file: that member's references, as from its declaration.
    if (!ownBinding && at.access && (await definitionsOf(lookups, ctx, symbols, file)).length === 0) {
      const asked = useFile(file);
      const member =
        at.memberAccess && symbols.every(isLocalSymbol) ? await memberDeclaredElsewhere(lookups, asked, at.memberAccess) : undefined;
      const [base, ...others] = member ? [] : await inheritedThisMember(lookups, ctx, asked, at.access);
      if (base && others.length === 0) inherited = base;
      if (member) {
        symbols = [member.symbol];
        file = await openFile(lookups, ctx, member.path);
        askedIn = asked;
        notes.push(resolvedByNameNote(member));
      } else if (inherited) {
        // `this.client` of a base class's `this.client = client`: its uses there and in every class extending it (below).
        symbols = [inherited.symbol];
        file = await openFile(lookups, ctx, inherited.path);
        askedIn = asked;
        notes.push(inheritedMemberNote(inherited));
      }
    }
  }

  // Whether a reference is asked for, and as what.
  const wanted = (roles: number, refKind: number, symbol: string): Reference['kind'] | undefined => {
    const isDefinition = (roles & SymbolRole.Definition) !== 0;
    if (refKind === NAMING_ONLY) return undefined;
    // A use of a name another file binds renamed is that name's, not what it imports (see RENAMED_USE).
    if (!ownBinding && (refKind === RENAMED_CALL || refKind === RENAMED_USE)) return undefined;
    // At a name for a module, the names for it, not its declaration or the specifiers that import it.
    if (alias && (isDefinition || refKind === MODULE_SPECIFIER)) return undefined;
    if (bindingsOf.has(symbol) && (isDefinition || refKind !== RefKindCode.import)) return undefined;
    if (isDefinition && (family.usesOnly.has(symbol) || !params.include_declaration)) return undefined;
    // A CommonJS module standing for what it exports (see related.ts): its importers' names, not their specifiers.
    if (refKind === MODULE_SPECIFIER && family.usesOnly.has(symbol)) return undefined;
    const kind = isDefinition ? 'definition' : (refKindName(refKind) ?? 'identifier');
    if (family.callsOnly.has(symbol) && kind !== 'call') return undefined;
    return params.kind && kind !== params.kind ? undefined : kind;
  };
  let family: ReferenceFamily = { symbols: [], usesOnly: new Set(), callsOnly: new Set() };
  let total = 0;
  const picked: { group: Group; found: Found; place: Placement | undefined }[] = [];
  // Counts a group's references and keeps those the answer returns.
  const take = (group: Group, edit: FileEdit | undefined): void => {
    // The module's own file names it only as itself (`exports`).
    if (alias?.moduleFiles.has(`${group.index}:${group.path}`)) return;
    const unmoved = !edit || edit.state === 'unchanged';
    const single = group.rows.length + (group.records.length ? 1 : 0) <= 1;
    if (unmoved && picked.length >= limit) {
      // Nothing more will be returned: count without building an object per reference.
      if (!single) {
        total += countDistinct(group, wanted);
        return;
      }
      total += group.records.length;
      for (const row of group.rows) {
        const ints = row.ints;
        const symbol = row.symbol;
        for (let i = 0; i < ints.length; i += RANGE_INTS_PER_RECORD) {
          const flags = ints[i + 4]!;
          if (wanted(rolesOf(flags), refKindOf(flags), symbol)) total++;
        }
      }
      return;
    }
    const records = [...group.records];
    for (const row of group.rows) {
      const ints = row.ints;
      const symbol = row.symbol;
      for (let i = 0; i < ints.length; i += RANGE_INTS_PER_RECORD) {
        const flags = ints[i + 4]!;
        const kind = wanted(rolesOf(flags), refKindOf(flags), symbol);
        if (kind)
          records.push({
            range: [ints[i]!, ints[i + 1]!, ints[i + 2]!, ints[i + 3]!],
            kind,
            symbol,
            derived: (rolesOf(flags) & DERIVED_ROLE) !== 0,
          });
      }
    }
    const unique = single ? records : dedupeByRange(records);
    for (const found of unique) {
      const place = unmoved ? undefined : ctx.adjust.placeIn(group, edit, found.range);
      if (!unmoved && !place) continue;
      total++;
      if (picked.length < limit) picked.push({ group, found, place });
    }
  };

  let local: Group | undefined;
  const locals = symbols.filter(isLocalSymbol);
  if ((ownBinding || locals.length) && file) {
    // Local symbols live in one document: their references are its occurrences. So are an importer's own binding's.
    local = { repo: ctx.repo.slug, path: file.file.path, blob: file.file.blob_sha, index: ctx.index.id, rows: [], records: [] };
    const occ = file.document.occurrences;
    const own = ownBinding && new Set(ownBinding);
    for (let i = 0; i < occ.length; i++) {
      const symbol = file.document.symbols[occ.symbol(i)]!;
      const kind = (own ? own.has(i) : locals.includes(symbol)) ? wanted(occ.roles(i), occ.refKind(i), symbol) : undefined;
      if (kind) local.records.push({ range: occ.range(i), kind, symbol, derived: (occ.roles(i) & DERIVED_ROLE) !== 0 });
    }
  }
  // A member of an unnamed type (a method of the object a factory returns) is used from other files by name; a
  // JavaScript class's member, by the classes that extend it.
  const elsewhere: Group[] = [];
  if (file && !ownBinding && (local || languageOf(file.file.path) === 'javascript')) {
    // A member once, whatever its number of declarations (a JavaScript class's property assigned in several methods).
    for (const member of oneRowPerMember(await definitionsOf(lookups, ctx, symbols, file))) {
      const byName = await usesElsewhere(lookups, member, askedIn);
      const called = await calledAsMethod(lookups, member);
      if (called && !symbols.includes(called)) symbols.push(called);
      const bySubclass = (await subclassUses(lookups, member)).filter(
        (u) => !byName.some((n) => n.file.document_id === u.file.document_id && n.range.join() === u.range.join()),
      );
      const uses = [...byName, ...bySubclass].sort((a, b) => (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0));
      for (const use of uses) {
        const kind = wanted(use.roles, use.refKind, member.symbol);
        if (!kind) continue;
        // Uses come in path order: a file's are together.
        let group = elsewhere.at(-1);
        if (!group || group.path !== use.file.path) {
          group = { repo: use.file.repo, path: use.file.path, blob: use.file.blob_sha, index: use.file.index_id, rows: [], records: [] };
          elsewhere.push(group);
        }
        group.records.push({ range: use.range, kind, symbol: member.symbol, derived: false });
      }
      // An inherited member's uses here are by its class, not by its name: its own note says so.
      if (byName.length > 0 && !inherited) notes.push(usesByNameNote(member, byName));
      if (bySubclass.length > 0 && !inherited) notes.push(subclassUsesNote(member, bySubclass));
    }
  }
  // References are walked group by group (a file of a repository), in the
  // order they are returned: this repository first, then the others, files
  // in path order, positions in order. Only what is returned becomes an
  // object with a preview; the rest is counted in place, so a symbol with
  // thousands of references costs little more than one with two hundred.
  const globals = ownBinding ? [] : symbols.filter((s) => !isLocalSymbol(s));
  const groups: Group[] = local ? [local, ...elsewhere] : elsewhere;
  if (globals.length) {
    // The same global symbol is the same entity in every repository of the registry.
    const indexes = [ctx.index.id, ...ctx.others];
    // A getter's setter and a setter's getter: one property, whose declarations are both references of it.
    const siblings = globals.map(accessorSibling).filter((s) => s !== undefined);
    family = await referenceFamily(lookups, indexes, [...new Set([...globals, ...siblings])]);
    // The modules alone, not what relates to them (their exports' names).
    if (bindingsOf.size) family = { ...family, symbols: [...new Set([...family.symbols, ...bindingsOf])] };
    const rows = await lookups.symbolRefsInOrder(indexes, family.symbols);
    if (groups.length === 0 && !ctx.adjust.followsEdits && !alias && !exportName) {
      // Rows come in answer order: each file's group is taken when the next
      // begins, and a counted one is dropped; without edits to follow, a
      // group needs nothing more from the registry (no await per file).
      let group: Group | undefined;
      for (const row of rows) {
        if (!group || row.index_id !== group.index || row.path !== group.path) {
          if (group) take(group, undefined);
          group = { repo: row.repo, path: row.path, blob: row.blob_sha, index: row.index_id, rows: [], records: [] };
        }
        group.rows.push(row);
      }
      if (group) take(group, undefined);
    } else {
      // The files of the local symbols and of the uses found in subclasses join
      // their places among the others', and each file's edits are looked up:
      // all rows first, then the groups.
      const byFile = new Map(groups.map((g) => [`${g.index}:${g.path}`, g]));
      for (const row of rows) {
        const key = `${row.index_id}:${row.path}`;
        const group = byFile.get(key);
        if (group) group.rows.push(row);
        else {
          const added = { repo: row.repo, path: row.path, blob: row.blob_sha, index: row.index_id, rows: [row], records: [] };
          groups.push(added);
          byFile.set(key, added);
        }
      }
    }
  }
  if (groups.length) {
    const here = (g: Group) => (g.repo === ctx.repo.slug ? 0 : 1);
    groups.sort(
      (x, y) => here(x) - here(y) || (x.repo < y.repo ? -1 : x.repo > y.repo ? 1 : x.path < y.path ? -1 : x.path > y.path ? 1 : 0),
    );
    // A name for a module, or one something is exported under, is kept where each file spells it so: their lines are
    // read in batches first.
    const spelledAs = alias?.name ?? exportName;
    if (spelledAs) await lookups.preloadLines(groups.map((g) => g.blob));
    for (const group of groups) {
      if (spelledAs) await keepSpelled(lookups, group, spelledAs);
      take(group, await ctx.adjust.file(group));
    }
  }

  const definitions = await definitionsOf(lookups, ctx, symbols, file);
  const items = (await Promise.all(definitions.map((d) => ctx.adjust.row(d)))).filter((d) => d !== undefined);
  // References all of one symbol that `symbols` names need not each repeat it: a fifth of a large answer's bytes.
  const first = picked[0]?.found.symbol;
  const implied = first !== undefined && picked.every((p) => p.found.symbol === first) && items.some((d) => d.symbol === first);
  const references: Reference[] = [];
  await lookups.preloadLines(picked.map((p) => p.group.blob));
  // Picked references come grouped by file: its lines are asked for once.
  let linesOf: Group | undefined;
  let lines: string[] | null = null;
  let quotedNames = false;
  for (const { group, found, place } of picked) {
    if (group !== linesOf) {
      lines = await lookups.lines(group.blob);
      linesOf = group;
      const language = languageOf(group.path);
      quotedNames = language === 'typescript' || language === 'javascript';
    }
    const range = quotedNames ? quotedNameText(lines, found.range) : found.range;
    // Fields assigned in the order the answer lists them, not spread: there may be hundreds.
    const reference = location(group.repo, group.path, range, lines, implied ? undefined : { symbol: found.symbol }) as Reference;
    reference.kind = found.kind;
    reference.is_definition = found.kind === 'definition';
    if (found.derived) reference.from_source = true;
    if (!place) references.push(reference);
    // A place moved with its line, whose text is the same: the same quotes.
    else if (range === found.range) references.push(moved(reference, place));
    else references.push(moved(reference, { ...place, range: [place.range[0], place.range[1] + 1, place.range[2], place.range[3] - 1] }));
  }

  return {
    ...base,
    ...ctx.adjust.fields(),
    symbols: items.map(toSymbolItem),
    references,
    total,
    truncated: total > limit,
    ...(notes.length ? { message: notes.join('; ') } : {}),
  };
}

interface Found {
  range: Range;
  kind: Reference['kind'];
  symbol: string;
  derived: boolean;
}

/** References in one file of one repository. */
interface Group {
  repo: string;
  path: string;
  blob: string;
  index: number;
  rows: RefRowInOrder[];
  records: Found[];
}

/** Several symbols (an override family, a shorthand's two meanings) can share a range: list it once, in position order. */
function dedupeByRange(records: Found[]): Found[] {
  records.sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1] || a.range[2] - b.range[2] || a.range[3] - b.range[3]);
  return records.filter((r, i) => {
    const p = records[i - 1]?.range;
    return !p || p[0] !== r.range[0] || p[1] !== r.range[1] || p[2] !== r.range[2] || p[3] !== r.range[3];
  });
}

/**
 * How many references of a file `dedupeByRange` would keep: its distinct
 * ranges among those wanted. A file where several symbols of a family meet
 * (Array's declarations merged from TypeScript's lib files) has a row per
 * symbol with the same ranges; counted here as ints, not as objects.
 */
function countDistinct(group: Group, wanted: (roles: number, refKind: number, symbol: string) => unknown): number {
  const ranges: number[] = [];
  for (const f of group.records) ranges.push(f.range[0], f.range[1], f.range[2], f.range[3]);
  for (const row of group.rows) {
    const ints = row.ints;
    for (let i = 0; i < ints.length; i += RANGE_INTS_PER_RECORD) {
      const flags = ints[i + 4]!;
      if (wanted(rolesOf(flags), refKindOf(flags), row.symbol)) ranges.push(ints[i]!, ints[i + 1]!, ints[i + 2]!, ints[i + 3]!);
    }
  }
  const starts: number[] = [];
  for (let i = 0; i < ranges.length; i += 4) starts.push(i);
  const compare = (a: number, b: number) =>
    ranges[a]! - ranges[b]! || ranges[a + 1]! - ranges[b + 1]! || ranges[a + 2]! - ranges[b + 2]! || ranges[a + 3]! - ranges[b + 3]!;
  starts.sort(compare);
  let distinct = 0;
  for (let i = 0; i < starts.length; i++) if (i === 0 || compare(starts[i - 1]!, starts[i]!) !== 0) distinct++;
  return distinct;
}

/**
 * findReferences at a name the index resolved to nothing (UNRESOLVED_CAUSES):
 * its whole-word text matches in the files the same indexer covers
 * (`source: "search"`), the index's definitions of that spelling marked.
 */
async function referencesBySpelling(
  lookups: Lookups,
  ctx: RepoContext,
  params: Params,
  file: FileContext,
  name: UnresolvedName,
  /** The answer's fields every findReferences sets (repository, commit, limit). */
  base: Pick<Result, 'repo' | 'commit' | 'limit' | 'limit_clamped'>,
): Promise<Result> {
  if (params.kind !== undefined) {
    throw new UserError(
      `kind "${params.kind}" cannot be told at ${name.at}: the index resolved "${name.text}" there to nothing, so its references are text matches without kinds; omit kind`,
    );
  }
  const limit = base.limit;
  const indexer = file.file.language ? ctx.languages[file.file.language]?.indexer : undefined;
  const languages = Object.entries(ctx.languages)
    .filter(([language, tier]) => language === file.file.language || (indexer !== undefined && tier.indexer === indexer))
    .map(([language]) => language);
  const definitions = await definitionsSpelled(lookups, ctx, name);
  const scan = await textReferences(lookups, ctx, {
    word: name.text,
    languages,
    syntax: name.syntax,
    declared: new Set(definitions.map((d) => `${d.path}\0${d.start_line}\0${d.start_char}`)),
    includeDeclaration: params.include_declaration,
    limit,
  });
  return {
    ...base,
    source: 'search',
    ...ctx.adjust.fields(),
    symbols: [],
    references: scan.references,
    total: scan.total,
    truncated: scan.total > limit || scan.stopped,
    message:
      `text matches, not resolved references: the index resolved "${name.text}" at ${name.at} to nothing (${UNRESOLVED_CAUSES}); ` +
      `these are its whole-word occurrences in the ${languages.join(' and ')} files of ${ctx.repo.slug}, comments, strings and ` +
      `other names spelled the same included, the index's definitions of that name marked.${scanCut(scan)}`,
  };
}

/**
 * The name at a position when it stands for a module: `m` of `import * as m
 * from './m'` or of `const m = require('./m')`, and its uses, which the index
 * gives the module's symbol (not the specifier `'./m'`, a string).
 * TypeScript's references of such a name are the places that name the module
 * so, in every file: the uses of every alias of that spelling.
 */
function moduleAliasAt(file: FileContext, symbols: readonly string[], range: Range | undefined): string | undefined {
  if (!range || range[0] !== range[2] || symbols.length === 0 || !symbols.every(isModuleSymbol)) return undefined;
  const name = file.lines?.[range[0]]?.slice(range[1], range[3]) ?? '';
  // A CommonJS module's own `exports` (and `module`) is the module, not a name for it.
  return IDENTIFIER.test(name) && name !== 'exports' && name !== 'module' ? name : undefined;
}

/** Keeps of a group's references those spelled `name`, read from the file's text. */
async function keepSpelled(lookups: Lookups, group: Group, name: string): Promise<void> {
  const lines = await lookups.lines(group.blob);
  const spelled = (range: Range) => range[0] === range[2] && lines?.[range[0]]?.slice(range[1], range[3]) === name;
  group.records = group.records.filter((r) => spelled(r.range));
  const rows: RefRowInOrder[] = [];
  for (const row of group.rows) {
    const kept: number[] = [];
    for (let i = 0; i < row.ints.length; i += RANGE_INTS_PER_RECORD) {
      if (spelled([row.ints[i]!, row.ints[i + 1]!, row.ints[i + 2]!, row.ints[i + 3]!])) {
        for (let j = 0; j < RANGE_INTS_PER_RECORD; j++) kept.push(row.ints[i + j]!);
      }
    }
    // Only `ints` is read from here on; `ranges`, the packed form, stays the cached row's.
    if (kept.length) rows.push({ ...row, ints: Int32Array.from(kept) });
  }
  group.rows = rows;
}

/** A JavaScript name, as the rest of sextant spells one (unnamed-members.ts, words.ts). */
const IDENTIFIER = /^[\p{L}\p{N}_$]+$/u;
