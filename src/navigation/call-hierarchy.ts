// Call hierarchies from the index: incoming calls are the references of a
// callable, grouped by the innermost callable definition around each; outgoing
// calls are the references inside the definition's extent. A reference is a
// call when the syntax around it says so (see src/syntax); definitions carry
// their extent from the indexer (SCIP enclosing_range) or, where it gave none,
// from a parse, and every item says which.
import { posix } from 'node:path';
import { UserError } from '../errors.js';
import { SymbolRole } from '../scip/schema.js';
import { isLocalSymbol, isNamedOnlyInItsFile, isParameterSymbol, isStandardLibrarySymbol } from '../scip/symbol.js';
import { comparePositions, rangeContains, type Range as Range0 } from '../scip/range.js';
import { decodeRanges, DESTRUCTURED, kindInBindingFile, RefKindCode } from '../registry/payload.js';
import type { DefinitionRow, Lookups, SymbolRefsRow } from '../registry/lookups.js';
import type { IndexRow } from '../registry/schema.js';
import { CAP, MAX_DEPTH, type Call, type CallItem, type CallRange, type Params, type Result } from '../protocol/call-hierarchy.js';
import type { RepoContext } from './context.js';
import { calledThroughExports, definitionsForHierarchy, definitionsOfGroups, whatItIs } from './definitions.js';
import { memberDeclaredElsewhere, resolvedByNameNote, usesByNameNote, usesElsewhere, type MemberUseFile } from './unnamed-members.js';
import { classOfConstructorCall, constructorsOf, isStaticMember, namespaceMergedWith, referenceFamilies } from './related.js';
import { definitionRange, enclosingRange, location } from './locations.js';
import { definedOutside, definitionItem, externalItem, rootItem } from './items.js';
import { projectsOf } from './status.js';
import { moved, type IndexedFile, type Placement } from './adjust.js';
import type { FileEdit } from '../freshness/worktree-files.js';

export async function callHierarchy(lookups: Lookups, ctx: RepoContext, params: Params): Promise<Result> {
  const { definitions, foundByName, external } = await definitionsForHierarchy(lookups, ctx, params, 'call hierarchy');
  const depth = Math.min(params.depth, MAX_DEPTH);
  const limit = Math.min(params.limit, CAP);
  const sided = sameSide(definitions, params);
  const target = external
    ? externalRoot(ctx, external.symbols[0]!, external.path)
    : ((await askedAccessor(lookups, sided, params)) ?? pickCallable(sided));
  if (!target) {
    const d = definitions[0]!;
    // Only a member JavaScript declares by assignment is a method that is not callable (prepare.ts).
    if (d.kind === 'method') {
      throw new UserError(
        `${d.name} is a method JavaScript declares by assigning a function to it (on ${d.container ?? 'an object'} or its prototype), ` +
          "which TypeScript's call hierarchy does not list either: findReferences lists its uses",
      );
    }
    throw new UserError(`${whatItIs(d)}, not a function, method or constructor: ask for the call hierarchy of something callable`);
  }

  const item = external ? externalItem(target.symbol) : await rootItem(ctx, target);
  const walker = new CallWalker(lookups, ctx, limit, params.include_references, foundByName?.askedIn);
  if (foundByName) walker.notes.add(resolvedByNameNote(foundByName.member));
  const outside = definedOutside(item);
  const where = isStandardLibrarySymbol(target.symbol) ? 'in the project asked in' : 'in the indexed repositories';
  if (external)
    walker.notes.add(
      params.direction === 'incoming' ? `${outside}: its callers are the calls of it ${where}` : `${outside}: what it calls is in no index`,
    );
  const ancestry = new Set([target.symbol]);
  const calls =
    params.direction === 'incoming'
      ? await walker.incoming(target, depth, ancestry)
      : external
        ? []
        : await walker.outgoing(target, depth, ancestry);
  return {
    repo: ctx.repo.slug,
    commit: ctx.index.commit_sha,
    source: 'precise',
    ...ctx.adjust.fields(),
    item,
    direction: params.direction,
    depth,
    ...(params.depth > MAX_DEPTH ? { depth_clamped: true } : {}),
    calls,
    total: walker.count,
    truncated: walker.truncated,
    limit,
    ...(params.limit > CAP ? { limit_clamped: true } : {}),
    references_omitted: walker.omitted,
    notes: [...walker.notes],
  };
}

/** The document of an external root (see externalRoot): none. */
const EXTERNAL_ROOT = -1;

/**
 * The root of a call hierarchy at a function no index defines: a row with its
 * symbol, which the walk reads its uses by, and the file asked in. A standard
 * library function's uses are read in that file's project, as a language
 * server lists them in its program (every repository calls `JSON.stringify`);
 * a package's, in every repository, as its references are.
 */
function externalRoot(ctx: RepoContext, symbol: string, askedIn: string): DefinitionRow {
  return {
    repo: ctx.repo.slug,
    index_id: ctx.index.id,
    commit_sha: ctx.index.commit_sha,
    path: askedIn,
    blob_sha: '',
    document_id: EXTERNAL_ROOT,
    symbol,
    name: externalItem(symbol).name,
    kind: 'method',
    callable: 1,
    container: null,
    start_line: -1,
    start_char: -1,
    end_line: -1,
    end_char: -1,
    enclosing_start_line: null,
    enclosing_start_char: null,
    enclosing_end_line: null,
    enclosing_end_char: null,
    enclosing_source: null,
    min_arguments: null,
    max_arguments: null,
    signature: null,
  };
}

/**
 * The definitions on the side of the class of the one asked at: a static
 * method and an instance method of one name in a class are two functions to
 * TypeScript (chevrotain's deprecated `static performSelfAnalysis` beside the
 * instance one), but scip-typescript gives them one symbol, and pickCallable
 * would take one for the other's overload. Asked at a use, either may be meant:
 * all are kept.
 */
function sameSide(definitions: readonly DefinitionRow[], params: Params): readonly DefinitionRow[] {
  const asked = definitions.find((d) => isAt(d, params));
  if (!asked) return definitions;
  return definitions.filter((d) => isStaticMember(d) === isStaticMember(asked));
}

/**
 * The accessor asked at, of an object literal's getter and setter: one
 * symbol with two definitions (`get url () {...}`, `set url (val) {...}`,
 * koa's request), each with a body, and TypeScript's call hierarchy is rooted
 * at the one asked at (where of an overload's signatures it takes the
 * implementation, as pickCallable does).
 */
async function askedAccessor(lookups: Lookups, definitions: readonly DefinitionRow[], params: Params): Promise<DefinitionRow | undefined> {
  if (definitions.length < 2) return undefined;
  const asked = definitions.find((d) => d.callable && isAt(d, params));
  const line = asked && (await lookups.lines(asked.blob_sha))?.[asked.start_line];
  return line && ACCESSOR_KEYWORD.test(line.slice(0, asked.start_char)) ? asked : undefined;
}

/** What a getter's or a setter's name follows. */
const ACCESSOR_KEYWORD = /\b[gs]et\s+$/;

/** Whether a definition's name is at the position asked. */
function isAt(d: DefinitionRow, params: Params): boolean {
  const line = params.line - 1;
  const column = params.column - 1;
  return d.path === posix.normalize(params.path) && d.start_line === line && d.start_char <= column && column <= d.end_char;
}

/**
 * Among a symbol's definitions, the one with a body: an overload's
 * implementation, not its signatures. The implementation's extent may be no
 * larger than a signature's (`concat(...arr: any[]) { return ... }` after
 * signatures with long types), but TypeScript requires it to follow them: it
 * is the last definition in its file. The file is the one holding the largest.
 */
function pickCallable(definitions: readonly DefinitionRow[]): DefinitionRow | undefined {
  const candidates = definitions.filter((d) => d.callable || d.kind === 'class');
  const largest = candidates.sort((a, b) => extentSize(b) - extentSize(a))[0];
  if (!largest) return undefined;
  let last = largest;
  for (const d of candidates) {
    if (
      d.repo === largest.repo &&
      d.path === largest.path &&
      comparePositions(d.start_line, d.start_char, last.start_line, last.start_char) > 0
    )
      last = d;
  }
  return last;
}

function extentSize(d: DefinitionRow): number {
  const e = enclosingRange(d);
  return e ? (e[2] - e[0]) * 1e6 + (e[3] - e[1]) : -1;
}

/** Top-level code calls on behalf of its file. */
function moduleItem(repo: string, path: string, moduleDefinition: DefinitionRow | undefined): CallItem {
  return {
    name: posix.basename(path),
    kind: 'module',
    symbol: moduleDefinition?.symbol ?? `file ${path}`,
    container: null,
    repo,
    path,
    line: 1,
    column: 1,
    end_line: 1,
    end_column: 1,
    range: null,
    range_source: null,
    detail: null,
  };
}

/** The file a use is in, as both a definition row and a reference row name it. */
type UseFile = Pick<DefinitionRow, 'repo' | 'index_id' | 'path' | 'blob_sha' | 'document_id'>;

interface Use {
  file: UseFile;
  range: Range0;
  isCall: boolean;
  /** A call only as a member access (`a.f` without a call): see useAt. */
  byAccess: boolean;
}

/**
 * A use of `symbol` at `range`. TypeScript's call hierarchy, which agents
 * and editors know, counts as a call of a function every member access that
 * names it, called or not (`immer.produce.bind(immer)`, `def.onStart`,
 * `x.handler = ...`): sextant counts them too, marked `byAccess` so that a
 * callee is listed for them only when it is a declared function (below).
 */
function useAt(file: UseFile, range: Range0, symbol: string, refKind: number, memberAccess: boolean): Use {
  const isCall = isCallOf(symbol, refKind);
  const byAccess = !isCall && memberAccess && (refKind === RefKindCode.identifier || refKind === RefKindCode.write);
  return { file, range, isCall: isCall || byAccess, byAccess };
}

/**
 * Whether a callee is called by naming it in a member access: what TypeScript
 * resolves such an access to a call hierarchy declaration for, a function,
 * method or class, or a const holding a function. A data property is only
 * read. Outside the index, a method's symbol says it is one.
 */
function calledByAccess(symbol: string, definition: DefinitionRow | undefined): boolean {
  // An accessor is called as isCallOf says: a read runs the getter, not the setter the same name also has.
  if (ACCESSOR.get.test(symbol) || ACCESSOR.set.test(symbol)) return false;
  if (!definition) return METHOD_SYMBOL.test(symbol);
  return definition.kind === 'class' || (definition.callable !== 0 && definition.kind !== 'property');
}

const METHOD_SYMBOL = /\)\.$/;

/**
 * Whether a function is declared by assigning it to a CommonJS export
 * (`exports.headers = function (request) {...}`): TypeScript's call hierarchy
 * resolves an access of it to no declaration, and so lists no callee for one
 * that only reads it (hapi's `this._cycle.push(Validation.headers)`). A call
 * of it stays a call.
 */
async function assignedToExport(lookups: Lookups, d: DefinitionRow): Promise<boolean> {
  if (d.kind !== 'function') return false;
  const line = (await lookups.lines(d.blob_sha))?.[d.start_line];
  return line !== undefined && EXPORT_ASSIGNMENT.test(line.slice(0, d.start_char));
}

/** What precedes an export's name where an assignment declares it: `exports.` or `module.exports.`. */
const EXPORT_ASSIGNMENT = /(?:^|[^\w$.])(?:module\.)?exports\.$/;

/** The directories (with a trailing slash, '' for the root) of the project configs an index records. */
function projectConfigs(index: IndexRow): string[] {
  return projectsOf(index).flatMap(({ config: c }) => (c === null ? [] : [c.includes('/') ? c.slice(0, c.lastIndexOf('/') + 1) : '']));
}

/**
 * The project a file belongs to: the config nearest above it, as the planner
 * assigns files (undefined: the project inferred for files no config covers).
 * A config that leaves a file out of its includes is not known here.
 */
function projectOf(directories: readonly string[], path: string): string | undefined {
  let best: string | undefined;
  for (const d of directories) if (path.startsWith(d) && (best === undefined || d.length > best.length)) best = d;
  return best;
}

/**
 * Whether a use of `symbol` runs it. Beside calls, reading a getter runs the
 * getter and assigning through a setter runs the setter, as TypeScript's own
 * call hierarchy counts them; scip-typescript names a class's accessors
 * `` `<get>name`(). `` and `` `<set>name`(). ``.
 */
function isCallOf(symbol: string, refKind: number): boolean {
  if (refKind === RefKindCode.call) return true;
  if (refKind === RefKindCode.identifier) return ACCESSOR.get.test(symbol);
  if (refKind === RefKindCode.write) return ACCESSOR.set.test(symbol);
  return false;
}

const ACCESSOR = { get: /`<get>[^`]+`\(\)\.$/, set: /`<set>[^`]+`\(\)\.$/ };

class CallWalker {
  count = 0;
  truncated = false;
  omitted = 0;
  readonly notes = new Set<string>();
  /** The uses of each target read so far (see usesKey). */
  private readonly uses = new Map<string, Promise<Use[]>>();
  /** The directories of the index's project configs, read when first needed (see sameProject). */
  private configs: string[] | undefined;

  constructor(
    private readonly lookups: Lookups,
    private readonly ctx: RepoContext,
    private readonly limit: number,
    private readonly includeReferences: boolean,
    /** The file of the use the question started at, when its member was found by name (see usesElsewhere). */
    private readonly askedIn?: MemberUseFile,
  ) {}

  async incoming(target: DefinitionRow, depth: number, ancestry: ReadonlySet<string>): Promise<Call[]> {
    const groups = new Map<string, Group>();
    // Uses come file by file: a file's definitions and worktree state are asked for once per run of its uses.
    let file: UseFile | undefined;
    let definitions: readonly DefinitionRow[] = [];
    let edit: FileEdit | undefined;
    for (const use of await this.usesOf(target)) {
      if (!use.isCall && !this.includeReferences) {
        this.omitted++;
        continue;
      }
      if (use.file !== file) {
        file = use.file;
        definitions = await this.lookups.callersInFile(file.index_id, file.document_id, file.path);
        edit = await this.ctx.adjust.file(indexedFile(file));
      }
      const { repo, path } = file;
      const caller = innermostCaller(definitions, use.range);
      // One caller per definition: a function defined in each branch of an `if` is two callers, as for a language server.
      const key = caller
        ? `${caller.repo}\0${caller.symbol}\0${caller.path}\0${caller.start_line}:${caller.start_char}`
        : `${repo}\0\0${path}`;
      let group = groups.get(key);
      if (!group) {
        // A caller whose name is on a line changed since the index is left out (adjust.ts counts it), with its calls.
        const moved = caller ? this.ctx.adjust.rowIn(caller, edit) : undefined;
        const item = moved
          ? definitionItem(moved)
          : caller
            ? undefined
            : moduleItem(
                repo,
                path,
                definitions.find((d) => d.kind === 'module'),
              );
        groups.set(key, (group = { caller: item, definition: caller, placed: [] }));
      }
      if (!group.caller) continue;
      // Every use is placed (a use on a line changed since the index is dropped and counted), but only the
      // callers the answer lists have their ranges built: a popular function has more callers than the limit.
      const place = this.ctx.adjust.placeIn(indexedFile(file), edit, use.range);
      if (place) group.placed.push({ use, place });
    }
    const kept = [...groups.values()].filter((g): g is Group & { caller: CallItem } => g.caller !== undefined && g.placed.length > 0);
    const sorted = sortGroups(kept, (g) => g.caller);
    // The callers of the next level, in the order they are walked: their uses are read a batch at a time.
    const next = depth > 1 ? sorted.filter((g) => g.definition && !ancestry.has(g.definition.symbol)) : [];
    const ahead = new ReadAhead(next.map((g) => g.definition!));
    const calls: Call[] = [];
    for (const group of sorted) {
      if (!this.take()) break;
      const call: Call = { from: group.caller, ranges: await this.rangesOf(group.placed) };
      if (depth > 1 && group.definition) {
        if (ancestry.has(group.definition.symbol)) call.cycle = true;
        else {
          // This caller and at most as many after it as the limit leaves room for can still be listed.
          this.readUses(ahead.next(group.definition, 1 + this.limit - this.count));
          call.calls = await this.incoming(group.definition, depth - 1, new Set([...ancestry, group.definition.symbol]));
        }
      }
      calls.push(call);
    }
    return calls;
  }

  async outgoing(target: DefinitionRow, depth: number, ancestry: ReadonlySet<string>): Promise<Call[]> {
    const extent = enclosingRange(target);
    if (!extent) {
      this.notes.add(
        `${target.name} has no extent of its own: the indexer gave none, and no parse found one or it is a function assigned ` +
          "to a member or an export, whose calls TypeScript's call hierarchy counts as the enclosing function's or module's: " +
          'its outgoing calls are not listed',
      );
      return [];
    }
    const document = await this.lookups.document(target.document_id);
    const name = definitionRange(target);
    const inFile = await this.lookups.definitionsInFile(target.index_id, target.document_id, target.path);
    const groups = new Map<string, Use[]>();
    // Local symbols named in a member access (`res.unwrap()`): see memberDeclaredElsewhere.
    const accessed = new Set<string>();
    const occ = document.occurrences;
    for (let i = 0; i < occ.length; i++) {
      // Lines first: the extent is a few lines of a file of thousands of occurrences.
      if (occ.endLine(i) < extent[0] || occ.startLine(i) > extent[2]) continue;
      // A call through a name the file binds renamed is a call of what it imports, on this side (see RENAMED_CALL).
      const refKind = kindInBindingFile(occ.refKind(i));
      if (occ.roles(i) & SymbolRole.Definition || !isCallOrMention(refKind)) continue;
      const o = occ.at(i);
      if (!rangeContains(extent, o.range)) continue;
      // Decorators come before the name: they are applied by the code around the definition.
      if (comparePositions(o.range[0], o.range[1], name[0], name[1]) <= 0) continue;
      // A call inside a nested function is that function's, as its incoming side says.
      const caller = innermostCaller(inFile, o.range);
      if (
        caller &&
        (caller.symbol !== target.symbol || caller.start_line !== target.start_line || caller.start_char !== target.start_char)
      ) {
        continue;
      }
      const symbol = document.symbols[o.symbol]!;
      let uses = groups.get(symbol);
      if (!uses) groups.set(symbol, (uses = []));
      uses.push(useAt(target, o.range, symbol, refKind, o.memberAccess));
      if (o.memberAccess && isLocalSymbol(symbol)) accessed.add(symbol);
    }
    const callees = await this.resolveCallees(target, [...groups.keys()]);
    for (const symbol of mergedAway(groups, callees)) groups.delete(symbol);
    for (const symbol of accessed) {
      if (callees.has(symbol)) continue;
      const member = await memberDeclaredElsewhere(this.lookups, target, groups.get(symbol)![0]!.range);
      if (!member) continue;
      callees.set(symbol, member);
      this.notes.add(resolvedByNameNote(member));
    }
    const resolved: { callee: CallItem; definition: DefinitionRow | undefined; uses: Use[]; ranges: CallRange[] }[] = [];
    // TypeScript declares one global in several lib files (`Set` in lib.es2015.collection.d.ts, lib.es2015.iterable.d.ts
    // and more), and scip-typescript gives each declaration a symbol, all at each call: one callee outside the index.
    const externals = new Set<string>();
    for (const [symbol, all] of groups) {
      const definition = callees.get(symbol);
      // A callee is something declared to be called: a function, method,
      // constructor or class, or a const holding a function. Calling a
      // parameter or a property that merely holds one is not a call hierarchy
      // edge (a language server does not list it either); what is defined
      // outside the index (library functions) is taken at its word.
      const callable = definition
        ? definition.callable || definition.kind === 'class'
        : !isLocalSymbol(symbol) && !isParameterSymbol(symbol);
      if (!callable) continue;
      const byAccess = calledByAccess(symbol, definition) && !(definition && (await assignedToExport(this.lookups, definition)));
      const uses = this.includeReferences ? all : all.filter((u) => u.isCall && (byAccess || !u.byAccess));
      this.omitted += all.length - uses.length;
      if (uses.length === 0) continue;
      const first = uses[0]!.range;
      const fallbackName = (await this.lookups.lines(target.blob_sha))?.[first[0]]?.slice(first[1], first[3]) || symbol;
      // A callee whose name is on a line changed since the index is left out (adjust.ts counts it).
      const moved = definition ? await this.ctx.adjust.row(definition) : undefined;
      if (definition && !moved) continue;
      const ranges = (await Promise.all(uses.map((u) => this.callRange(u)))).filter((r): r is CallRange => r !== undefined);
      if (ranges.length === 0) continue;
      const callee = moved ? definitionItem(moved) : externalItem(symbol, fallbackName);
      if (!definition) {
        const key = `${callee.name}\0${callee.detail}\0${uses.map((u) => u.range.join(':')).join(',')}`;
        if (externals.has(key)) continue;
        externals.add(key);
      }
      resolved.push({ callee, definition, uses, ranges });
    }
    const calls: Call[] = [];
    for (const entry of sortGroups(resolved, (r) => r.callee)) {
      if (!this.take()) break;
      const call: Call = { to: entry.callee, ranges: entry.ranges };
      if (depth > 1 && entry.definition?.callable) {
        if (ancestry.has(entry.definition.symbol)) call.cycle = true;
        else call.calls = await this.outgoing(entry.definition, depth - 1, new Set([...ancestry, entry.definition.symbol]));
      }
      calls.push(call);
    }
    return calls;
  }

  /**
   * The definition each symbol called from `target` resolves to, in one query
   * for all of them. A class called (`super(...)`, Python's `Circle(...)`)
   * resolves to its constructor when it declares one, as `new C()` does.
   */
  private async resolveCallees(target: DefinitionRow, symbols: readonly string[]): Promise<Map<string, DefinitionRow>> {
    const inFile = await this.lookups.definitionsInFile(target.index_id, target.document_id, target.path);
    const globals = symbols.filter((s) => !isLocalSymbol(s));
    const asked = [...globals, ...globals.flatMap(constructorsOf)];
    // One group per symbol: a name a module exports under is answered with what it exports (see definitionsOfGroups).
    const found = await definitionsOfGroups(
      this.lookups,
      this.ctx,
      asked.map((s) => [s]),
    );
    const bySymbol = new Map<string, DefinitionRow[]>(asked.map((s, i) => [s, found[i]!]));
    for (const d of inFile) {
      if (!isLocalSymbol(d.symbol)) continue;
      const list = bySymbol.get(d.symbol);
      if (list) list.push(d);
      else bySymbol.set(d.symbol, [d]);
    }
    const out = new Map<string, DefinitionRow>();
    for (const symbol of symbols) {
      const own = bySymbol.get(symbol) ?? [];
      // An export that names a function (`Utils.isConnectionError(err)`) is called as it; its callers list this call too.
      const held = own.length > 0 && own.every((d) => d.kind === 'property') ? await calledThroughExports(this.lookups, this.ctx, own) : [];
      const definition = pickCallable(own) ?? held[0] ?? own[0];
      const constructor =
        definition?.kind === 'class'
          ? constructorsOf(symbol)
              .map((c) => bySymbol.get(c)?.[0])
              .find(Boolean)
          : undefined;
      const chosen = constructor ?? definition;
      if (chosen) out.set(symbol, chosen);
    }
    return out;
  }

  private take(): boolean {
    if (this.count >= this.limit) {
      this.truncated = true;
      return false;
    }
    this.count++;
    return true;
  }

  /**
   * Where a definition is called or mentioned as a value, in every repository
   * of the registry (not its declarations, imports or uses as a type: those
   * neither call it nor hand it to a caller). Read once per walk, and with
   * the other targets readUses was given.
   */
  private usesOf(target: DefinitionRow): Promise<Use[]> {
    const key = usesKey(target);
    if (!this.uses.has(key)) this.readUses([target]);
    return this.uses.get(key)!;
  }

  /** Reads the uses of the targets not read yet, in one query for all of them (and one per round of their families). */
  private readUses(targets: readonly DefinitionRow[]): void {
    const todo = new Map<string, DefinitionRow>();
    for (const t of targets) if (!this.uses.has(usesKey(t))) todo.set(usesKey(t), t);
    if (todo.size === 0) return;
    const read = this.usesOfAll([...todo.values()]);
    [...todo.keys()].forEach((key, i) => {
      const uses = read.then((all) => all[i]!);
      // Awaited by whoever asks for these uses; a failure is theirs to report, not an unhandled rejection.
      uses.catch(() => {});
      this.uses.set(key, uses);
    });
  }

  private async usesOfAll(targets: readonly DefinitionRow[]): Promise<Use[][]> {
    const out: Use[][] = targets.map(() => []);
    const keep = (roles: number, refKind: number) => (roles & SymbolRole.Definition) === 0 && isCallOrMention(refKind);
    // For each target, the global symbols whose references are its uses: its own, and for a local, those of what
    // it overrides (`set` of a class declared in a function, extending Map: every `map.set(...)`, as TypeScript counts).
    const shared: { i: number; symbols: string[]; local?: true }[] = [];
    for (const [i, target] of targets.entries()) {
      if (isLocalSymbol(target.symbol)) {
        const document = await this.lookups.document(target.document_id);
        const occ = document.occurrences;
        for (let n = 0; n < occ.length; n++) {
          if (document.symbols[occ.symbol(n)] !== target.symbol || !keep(occ.roles(n), occ.refKind(n))) continue;
          out[i]!.push(useAt(target, occ.range(n), target.symbol, occ.refKind(n), occ.memberAccess(n)));
        }
      } else shared.push({ i, symbols: [target.symbol] });
      // A member of an unnamed type (a method of the object a factory returns), or of a class assigned to
      // module.exports, is used from other files by name.
      const elsewhere = isNamedOnlyInItsFile(target.symbol) ? await usesElsewhere(this.lookups, target, this.askedIn) : [];
      for (const use of elsewhere)
        if (keep(use.roles, use.refKind)) out[i]!.push(useAt(use.file, use.range, target.symbol, use.refKind, true));
      if (elsewhere.length > 0) this.notes.add(usesByNameNote(target, elsewhere));
      if (!isLocalSymbol(target.symbol)) continue;
      const overridden = await this.lookups.localReferenceTargets(target.document_id, target.symbol);
      if (overridden.length > 0) shared.push({ i, symbols: overridden, local: true });
    }
    if (shared.length === 0) return out;
    const indexes = this.allIndexes();
    const families = await referenceFamilies(
      this.lookups,
      indexes,
      shared.map((s) => s.symbols),
    );
    // One query for every family: each takes its own rows, in the order the query gave them (a symbol's rows
    // come together), without every family scanning every row.
    const bySymbol = new Map<string, SymbolRefsRow[]>();
    for (const row of await this.lookups.symbolRefs(indexes, [...new Set(families.flatMap((f) => f.symbols))])) {
      const list = bySymbol.get(row.symbol);
      if (list) list.push(row);
      else bySymbol.set(row.symbol, [row]);
    }
    shared.forEach(({ i, local }, k) => {
      const family = families[k]!;
      const members = new Set(family.symbols);
      for (const [symbol, symbolRows] of bySymbol) {
        if (!members.has(symbol)) continue;
        const callsOnly = family.callsOnly.has(symbol);
        // Every Map's `set` in the repository is not a call of the override in one function's class: for a local,
        // a standard-library member's uses count in its own project, the program a language server answers from.
        // (A global override's count everywhere, as its own references do: the projects that import it see them.)
        // A standard-library function no index defines (`JSON.stringify`, an external root) counts there too:
        // every repository calls it.
        const ownProjectOnly = (local === true || targets[i]!.document_id === EXTERNAL_ROOT) && isStandardLibrarySymbol(symbol);
        for (const row of symbolRows) {
          if (ownProjectOnly && !this.sameProject(row, targets[i]!)) continue;
          for (const r of decodeRanges(row.ranges)) {
            if (!keep(r.roles, r.refKind)) continue;
            // Reading a property the getter implements or overrides reads through it: it is the target's use.
            const use = useAt(row, r.range, targets[i]!.symbol, r.refKind, r.memberAccess);
            if (callsOnly && !use.isCall) continue;
            out[i]!.push(use);
          }
        }
      }
    });
    return out;
  }

  /** Whether two files are of one project of this repository's index (see projectOf). */
  private sameProject(a: UseFile, b: UseFile): boolean {
    if (a.index_id !== this.ctx.index.id || b.index_id !== this.ctx.index.id) return false;
    this.configs ??= projectConfigs(this.ctx.index);
    return projectOf(this.configs, a.path) === projectOf(this.configs, b.path);
  }

  /** This repository's index and every other repository's current one. */
  private allIndexes(): number[] {
    return [this.ctx.index.id, ...this.ctx.others];
  }

  /** A use as a range of the answer, in the current text; undefined (and counted) when its line changed since the index. */
  private async callRange(use: Use): Promise<CallRange | undefined> {
    const place = await this.ctx.adjust.place(indexedFile(use.file), use.range);
    return place ? this.rangeAt(use, place) : undefined;
  }

  private async rangesOf(placed: readonly PlacedUse[]): Promise<CallRange[]> {
    const out: CallRange[] = [];
    for (const { use, place } of placed) out.push(await this.rangeAt(use, place));
    return out;
  }

  /** A placed use as a range of the answer. */
  private async rangeAt(use: Use, place: Placement): Promise<CallRange> {
    const lines = await this.lookups.lines(use.file.blob_sha);
    const range: CallRange = { ...location(use.file.repo, use.file.path, use.range, lines), kind: use.isCall ? 'call' : 'reference' };
    return moved(range, place);
  }
}

/** A use with its place in the current text. */
interface PlacedUse {
  use: Use;
  place: Placement;
}

/** The calls from one caller (undefined when it is left out), as incoming gathers them. */
interface Group {
  caller: CallItem | undefined;
  definition: DefinitionRow | undefined;
  placed: PlacedUse[];
}

function indexedFile(file: UseFile): IndexedFile {
  return { repo: file.repo, path: file.path, blob: file.blob_sha };
}

/** What a target's uses are cached under: a global symbol means the same everywhere, a local one only in its file. */
function usesKey(target: DefinitionRow): string {
  return isLocalSymbol(target.symbol) ? `${target.document_id}\0${target.symbol}` : target.symbol;
}

/** Batches read first of the callers a level walks: 4, then 8, 16... (never more than twice what is walked). */
const FIRST_BATCH = 4;

/** The callers of a level in walking order, handed out a batch at a time, each batch twice the last. */
class ReadAhead {
  private read = 0;
  private batch = FIRST_BATCH;

  constructor(private readonly targets: readonly DefinitionRow[]) {}

  /** The batch to read when `target` is reached and not yet read: it and at most `room - 1` after it. */
  next(target: DefinitionRow, room: number): DefinitionRow[] {
    const at = this.targets.indexOf(target, this.read);
    if (at < this.read) return [];
    const end = at + Math.min(this.batch, room);
    this.batch *= 2;
    this.read = end;
    return this.targets.slice(at, end);
  }
}

/** A file's possible callers, smallest extent first: [startLine, startChar, endLine, endChar, nameLine, nameChar]. */
interface Callers {
  definitions: DefinitionRow[];
  bounds: Int32Array;
}

const callersOfFile = new WeakMap<readonly DefinitionRow[], Callers>();

/**
 * The innermost definition holding code around a range: the caller. A class
 * is the caller of what its field initializers and static blocks call. A
 * file's definitions are many (every local and parameter), its possible
 * callers few: those are extracted once per file and kept smallest first, so
 * the first that contains the range is the innermost.
 */
function innermostCaller(definitions: readonly DefinitionRow[], range: Range0): DefinitionRow | undefined {
  let callers = callersOfFile.get(definitions);
  if (!callers) {
    const candidates = definitions
      .filter((d) => (d.callable || d.kind === 'class') && enclosingRange(d))
      .sort((a, b) => extentSize(a) - extentSize(b));
    const bounds = new Int32Array(candidates.length * 6);
    candidates.forEach((d, i) => {
      bounds.set([...enclosingRange(d)!, d.start_line, d.start_char], i * 6);
    });
    callersOfFile.set(definitions, (callers = { definitions: candidates, bounds }));
  }
  const b = callers.bounds;
  for (let i = 0; i < callers.definitions.length; i++) {
    const o = i * 6;
    if (comparePositions(range[0], range[1], b[o]!, b[o + 1]!) < 0 || comparePositions(range[2], range[3], b[o + 2]!, b[o + 3]!) > 0)
      continue;
    // A decorator, before the name, is applied by the code around the definition.
    if (comparePositions(range[0], range[1], b[o + 4]!, b[o + 5]!) < 0) continue;
    return callers.definitions[i];
  }
  return undefined;
}

function sortGroups<T>(items: T[], item: (t: T) => CallItem): T[] {
  return items.sort((a, b) => {
    const x = item(a);
    const y = item(b);
    const px = x.path ?? '\uffff';
    const py = y.path ?? '\uffff';
    return px < py ? -1 : px > py ? 1 : (x.line ?? 0) - (y.line ?? 0) || x.name.localeCompare(y.name);
  });
}

/** A call, or a mention as a value (`shapes.map(describe)`, `const { open } = box`): what a call hierarchy lists. */
function isCallOrMention(refKind: number): boolean {
  return refKind === RefKindCode.call || refKind === RefKindCode.identifier || refKind === RefKindCode.write || refKind === DESTRUCTURED;
}

/**
 * A class and a namespace merged into one (`declare namespace Scalar {...}`
 * beside `declare class Scalar {...}`, yaml's nodes): the index names both at
 * each use, where TypeScript's call hierarchy has one callee, the merged
 * symbol's first declaration. The other's symbols are returned.
 */
function mergedAway(groups: ReadonlyMap<string, readonly Use[]>, callees: ReadonlyMap<string, DefinitionRow>): string[] {
  const away: string[] = [];
  for (const symbol of groups.keys()) {
    // `new Scalar(...)` names the class's constructor, else the class.
    const type = symbol.endsWith('#') ? symbol : classOfConstructorCall(symbol)[0];
    if (type === undefined) continue;
    const namespace = namespaceMergedWith(type);
    // The class's row may be its constructor, which is inside the class: it comes after a namespace declared before.
    const [declared, cls] = [callees.get(namespace), callees.get(symbol)];
    if (!groups.has(namespace) || !declared || !cls || declared.path !== cls.path || declared.index_id !== cls.index_id) continue;
    away.push(comparePositions(declared.start_line, declared.start_char, cls.start_line, cls.start_char) < 0 ? symbol : namespace);
  }
  return away;
}
