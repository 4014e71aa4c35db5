// Members of unnamed types, across files. scip-typescript names a member whose
// owner has no name (a method of an object literal a factory returns,
// `return { getState() {...} }`, or of a type literal in an intersection,
// `SafePromise<T> & { unwrap(): ... }`) with a local symbol, and gives each
// file that uses it a new local symbol of its own: a use in another file has
// no declaration there, and the declaration has no uses outside its file. A
// member of the class a CommonJS module assigns to `module.exports` is named
// so too outside its file, though `default#m().` in it (isNamedOnlyInItsFile).
// They are related by their receivers, else by name. A use (`x.m`, a local
// symbol its file does not declare) stands for member M when its receiver is
// a variable holding the object literal that declares M (`methods.set`, with
// `const methods = { set() {...} }`), or a new instance of M's class (a name
// assigned one: `this._refs.register`, with `this._refs = new Ref.Manager()`
// and `exports.Manager = class {...}`; or `new Ref.Manager().register`); else
// when M is the only such method or property of that name the index declares
// outside the use's file, or, of several, the only one whose file the use's
// file refers to (it imports M's class or factory): a name is no type, so
// where that leaves several, none is taken (nor where more than RIVAL_FILES
// files declare the name). From M, its uses are searched in the files that
// refer to something M's file declares globally (they import its factory,
// say), which is where the object comes from as far as names can tell, and
// which bounds the search; and in the file asked about, when the question
// started at a use.
import { isLocalSymbol, isNamedOnlyInItsFile } from '../scip/symbol.js';
import { SymbolRole } from '../scip/schema.js';
import type { Range } from '../scip/range.js';
import type { DefinitionRow, Lookups, StoredDocument } from '../registry/lookups.js';
import { Lru } from '../lru.js';
import type { FileContext } from './context.js';

/** A file that may use a member declared elsewhere. */
export type MemberUseFile = Pick<DefinitionRow, 'repo' | 'index_id' | 'path' | 'blob_sha' | 'document_id'>;

/** An opened file of a request, as a file that may use a member declared elsewhere. */
export function useFile(file: FileContext): MemberUseFile {
  return {
    repo: file.repo.slug,
    index_id: file.index.id,
    path: file.file.path,
    blob_sha: file.file.blob_sha,
    document_id: file.document.id,
  };
}

/** A use in another file of a member of an unnamed type. */
export interface MemberUse {
  file: MemberUseFile;
  range: Range;
  roles: number;
  refKind: number;
}

/**
 * Files searched for the uses of one member at most: the files that refer to
 * its file's declarations. A module every file imports is searched this far.
 */
const SEARCHED_FILES = 2_000;
/**
 * Files declaring members of one name past which the name resolves nothing:
 * telling them apart reads what refers to each (`get`, `value` and `push` are
 * members of dozens of literals in a large repository).
 */
const RIVAL_FILES = 8;
/** Uses elsewhere remembered, of members of any index (an index never changes once published). */
const REMEMBERED_USES = 100_000;

/** Per Lookups (one per server), as its own caches are. */
const remembered = new WeakMap<Lookups, Lru<string, MemberUse[]>>();

/**
 * The member a local symbol named in a member access at `range` of `file`
 * (`res.unwrap()`) stands for, declared in another file; undefined when
 * none is, or several could be.
 */
export async function memberDeclaredElsewhere(
  lookups: Lookups,
  file: Pick<DefinitionRow, 'index_id' | 'document_id' | 'blob_sha'>,
  range: Range,
): Promise<DefinitionRow | undefined> {
  if (range[0] !== range[2]) return undefined;
  const line = (await lookups.lines(file.blob_sha))?.[range[0]];
  const name = line?.slice(range[1], range[3]);
  if (!name) return undefined;
  if (line![range[1] - 1] === '.') {
    const exported = await exportThroughNamespace(lookups, file, range, name);
    if (exported) return exported;
    const held = await memberOfReceiver(lookups, file, range, name);
    if (held) return held;
    const classes = (await constructedReceivers(lookups, file)).get(receiverKey(range));
    const constructs = classes && (await memberOfClasses(lookups, file.index_id, classes, name));
    if (constructs) return constructs;
  }
  const outside = (await lookups.membersNamedOnlyInTheirFiles(file.index_id, name)).filter((d) => d.document_id !== file.document_id);
  const sole = soleMember(outside);
  if (sole || new Set(outside.map((d) => d.document_id)).size > RIVAL_FILES) return sole;
  // Several: the one whose file this file refers to, if only one's is.
  const refers = new Set((await lookups.document(file.document_id)).symbols);
  const imported: DefinitionRow[] = [];
  for (const d of outside) if ([...(await exportsOf(lookups, d))].some((s) => refers.has(s))) imported.push(d);
  return soleMember(imported);
}

/**
 * `NS.name` where `import * as NS` names a module that exports `name` by an
 * export list (`function name() {...}; export { name }`): scip-typescript
 * records NS as the module and, for name, a local symbol of this file. The
 * module's declaration of that name is what it means.
 */
async function exportThroughNamespace(
  lookups: Lookups,
  file: Pick<DefinitionRow, 'index_id' | 'document_id'>,
  range: Range,
  name: string,
): Promise<DefinitionRow | undefined> {
  if (!/^[\p{L}\p{N}_$]+$/u.test(name)) return undefined;
  const receivers = receiversOf(await lookups.document(file.document_id)).get(receiverKey(range)) ?? [];
  const module = receivers.findLast((s) => s.endsWith('/'));
  if (module) return soleExport(lookups, file, module, name);
  // `mod.name` where `import mod from` a CommonJS module (koa's dist/koa.mjs): mod is its `module.exports`, so the
  // name is what an `exports.name = ...` of the module assigns, and only that (an ES module's default export is
  // some value of its own, whose members its other exports are not).
  const assigned = receivers.findLast((s) => s.endsWith('/default.'));
  const found = assigned && (await soleExport(lookups, file, assigned.slice(0, -'default.'.length), name));
  const line = found && (await lookups.lines(found.blob_sha))?.[found.start_line];
  return line && /\bexports\s*\.\s*$/.test(line.slice(0, found.start_char)) ? found : undefined;
}

/** A module's one declaration of `name`: a function, a variable or a class, what a member access of a module can name. */
async function soleExport(
  lookups: Lookups,
  file: Pick<DefinitionRow, 'index_id'>,
  module: string,
  name: string,
): Promise<DefinitionRow | undefined> {
  const found = await lookups.definitionsOf([file.index_id], [`${module}${name}().`, `${module}${name}.`, `${module}${name}#`]);
  return found.length === 1 ? found[0] : undefined;
}

/**
 * `V.name` where V is a variable that holds an object literal declaring
 * `name` (`const methods = { set() {...} }` and `module.exports = methods`,
 * used as `require('./methods').set`): scip-typescript names the receiver V,
 * and the member a local of each file. The literal's member is what it means,
 * however many other members share its name.
 */
async function memberOfReceiver(
  lookups: Lookups,
  file: Pick<DefinitionRow, 'index_id' | 'document_id'>,
  range: Range,
  name: string,
): Promise<DefinitionRow | undefined> {
  const receiver = receiversOf(await lookups.document(file.document_id))
    .get(receiverKey(range))
    ?.find(isVariable);
  if (!receiver) return undefined;
  const holders = await lookups.definitionsOf([file.index_id], [receiver]);
  if (holders.length === 0) return undefined;
  const members = await lookups.membersNamedOnlyInTheirFiles(file.index_id, name);
  return soleMember(members.filter((m) => holders.some((h) => holds(h, m))));
}

/**
 * `x.name` where x is assigned a new instance of a class of another module
 * (`this._refs = new Ref.Manager()`, `const ids = new Ids()`, the class
 * `exports.Manager = class {...}`, whose members scip-typescript names locals
 * of its file): the class's member of that name is what it means, however
 * many other members share the name, as TypeScript infers x's type from the
 * assignment. The class's member is the one its extent holds, or, where the
 * index gives the class none, the only member of that name its module declares.
 */
async function memberOfClasses(
  lookups: Lookups,
  indexId: number,
  classes: readonly string[],
  name: string,
): Promise<DefinitionRow | undefined> {
  const definitions = await lookups.definitionsOf([indexId], classes);
  const modules = new Set(definitions.map((d) => d.document_id));
  const members = (await lookups.membersNamedOnlyInTheirFiles(indexId, name)).filter((m) => modules.has(m.document_id));
  const held = members.filter((m) => definitions.some((d) => holds(d, m)));
  return soleMember(held.length > 0 ? held : members);
}

/** `= new A.B(` or `= new B(` after a name its assignment defines: the class's name is the last group. */
const ASSIGNED_NEW = /^\s*=\s*new\s+(?:[\p{L}\p{N}_$]+\s*\.\s*)*([\p{L}\p{N}_$]+)\s*[(;]/du;

/** `new A.B(...).` or `new B(...).` (arguments without parentheses of their own): the class's name is the group. */
const NEW_THEN_MEMBER = /\bnew\s+(?:[\p{L}\p{N}_$]+\s*\.\s*)*([\p{L}\p{N}_$]+)\s*\([^()]*\)\s*\./dgu;

/** Remembered per document, as receiversOf. */
const constructed = new WeakMap<StoredDocument, Map<string, string[]>>();

/**
 * The receivers of a document that are a `new` instance of a class the index
 * names globally, by where each ends (receiverKey): the names assigned one
 * (`this._refs = new Ref.Manager()`) at each of their occurrences, and `new`
 * expressions whose member is accessed at once. Each stands for the class
 * symbols it is assigned; a name assigned in several places for all of them.
 */
async function constructedReceivers(
  lookups: Lookups,
  file: Pick<DefinitionRow, 'document_id' | 'blob_sha'>,
): Promise<Map<string, string[]>> {
  const document = await lookups.document(file.document_id);
  let found = constructed.get(document);
  if (found) return found;
  found = new Map();
  constructed.set(document, found);
  const lines = await lookups.lines(file.blob_sha);
  if (!lines) return found;
  const occ = document.occurrences;
  const globals = receiversOf(document);
  // The class symbols named by the occurrence ending at a line's column (a variable's or a class's).
  const classesAt = (line: number, end: number) => globals.get(`${line}:${end}`)?.filter((s) => s.endsWith('.') || s.endsWith('#')) ?? [];
  const add = (key: string, classes: Iterable<string>) => found.set(key, [...new Set([...(found.get(key) ?? []), ...classes])]);
  const classesOf = new Map<number, Set<string>>();
  for (let i = 0; i < occ.length; i++) {
    if (!(occ.roles(i) & SymbolRole.Definition)) continue;
    const r = occ.range(i);
    if (r[0] !== r[2]) continue;
    const m = ASSIGNED_NEW.exec(lines[r[0]]?.slice(r[3]) ?? '');
    if (!m) continue;
    const classes = classesAt(r[0], r[3] + m.indices![1]![1]);
    if (classes.length === 0) continue;
    const set = classesOf.get(occ.symbol(i)) ?? new Set<string>();
    for (const c of classes) set.add(c);
    classesOf.set(occ.symbol(i), set);
  }
  for (let i = 0; i < occ.length && classesOf.size > 0; i++) {
    const classes = classesOf.get(occ.symbol(i));
    const r = occ.range(i);
    if (classes && r[0] === r[2]) add(`${r[2]}:${r[3]}`, classes);
  }
  // A new instance's member, accessed at once (`new Ref.Manager().register(...)`): the receiver ends at its dot.
  for (const [line, text] of lines.entries()) {
    if (!text.includes('new')) continue;
    for (const m of text.matchAll(NEW_THEN_MEMBER)) {
      const classes = classesAt(line, m.indices![1]![1]);
      if (classes.length > 0) add(`${line}:${m.indices![0]![1] - 1}`, classes);
    }
  }
  return found;
}

/** Whether a definition's extent (a variable's declaration, its initializer with it) holds another definition of its file. */
function holds(holder: DefinitionRow, member: DefinitionRow): boolean {
  if (holder.document_id !== member.document_id || holder.enclosing_start_line === null || holder.enclosing_end_line === null) return false;
  const after = (l: number, c: number, line: number, char: number) => l > line || (l === line && c >= char);
  return (
    after(member.start_line, member.start_char, holder.enclosing_start_line, holder.enclosing_start_char!) &&
    after(holder.enclosing_end_line, holder.enclosing_end_char!, member.end_line, member.end_char)
  );
}

/** A global symbol that may be a variable's (`V.`): not a local, a function's (`f().`), a type's or a module's. */
const isVariable = (symbol: string) => !isLocalSymbol(symbol) && symbol.endsWith('.') && !symbol.endsWith('().');

/** Where the receiver of a member access at `range` ends: the character before its dot. */
const receiverKey = (range: Range) => `${range[0]}:${range[1] - 1}`;

/** Remembered per document: a member's uses in one file ask for the receivers of all its accesses. */
const receivers = new WeakMap<StoredDocument, Map<string, string[]>>();

/** The global symbols a document names, by where each occurrence ends (receiverKey), in the document's order. */
function receiversOf(document: StoredDocument): Map<string, string[]> {
  let found = receivers.get(document);
  if (found) return found;
  found = new Map();
  const occ = document.occurrences;
  for (let i = 0; i < occ.length; i++) {
    const symbol = document.symbols[occ.symbol(i)]!;
    const r = occ.range(i);
    if (isLocalSymbol(symbol) || r[0] !== r[2]) continue;
    const key = `${r[2]}:${r[3]}`;
    const list = found.get(key);
    if (list) list.push(symbol);
    else found.set(key, [symbol]);
  }
  receivers.set(document, found);
  return found;
}

/**
 * The uses of `member` in other files (see the top of this file), in path
 * order; none unless it is a method or property named only in its file.
 * `askedIn` is the file of the use a question started at, whose uses are
 * found whether it refers to the member's file or not.
 */
export async function usesElsewhere(lookups: Lookups, member: DefinitionRow, askedIn?: MemberUseFile): Promise<MemberUse[]> {
  if (!isNamedOnlyInItsFile(member.symbol) || (member.kind !== 'method' && member.kind !== 'property')) return [];
  let cache = remembered.get(lookups);
  if (!cache) remembered.set(lookups, (cache = new Lru<string, MemberUse[]>(REMEMBERED_USES, (uses) => uses.length + 1)));
  const key = `${member.index_id}\0${member.document_id}\0${member.symbol}`;
  let uses = cache.get(key);
  if (!uses) cache.set(key, (uses = await findUses(lookups, member)));
  if (!askedIn || askedIn.document_id === member.document_id || uses.some((u) => u.file.document_id === askedIn.document_id)) return uses;
  const asked = await usesIn(lookups, askedIn, member.name);
  return [...uses, ...asked].sort((a, b) => (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0));
}

async function findUses(lookups: Lookups, member: DefinitionRow): Promise<MemberUse[]> {
  const members = await lookups.membersNamedOnlyInTheirFiles(member.index_id, member.name);
  // A file resolves a use to this member when the members of that name outside it are this one alone, or when this
  // one's file is the only one of theirs it refers to (as memberDeclaredElsewhere).
  const rivals = new Map<number, DefinitionRow>();
  for (const d of members) if (!sameMember(d, member) && !rivals.has(d.document_id)) rivals.set(d.document_id, d);
  // The variables holding the member's literal: an access through one of them is the member's, rivals or not.
  const declared = await lookups.definitionsInFile(member.index_id, member.document_id, member.path);
  const holders = new Set(declared.filter((d) => isVariable(d.symbol) && holds(d, member)).map((d) => d.symbol));
  const byName = rivals.size <= RIVAL_FILES;
  if (!byName && holders.size === 0) return [];
  const referringToRival: [number, Set<number>][] = [];
  if (byName) {
    for (const [document, rival] of rivals) {
      referringToRival.push([document, await lookups.documentsReferringTo(member.index_id, [...(await exportsOf(lookups, rival))])]);
    }
  }
  const exports = new Set(declared.map((d) => d.symbol).filter((s) => !isLocalSymbol(s)));
  // Only a file whose text has the name can use it (a file without stored text has no line to check it on).
  const named = await lookups.blobsContaining(member.name);
  const files = new Map<number, { file: MemberUseFile; byName: boolean }>();
  for (const row of await lookups.symbolRefs([member.index_id], [...exports])) {
    if (row.document_id === member.document_id) continue;
    if (named && !named.has(row.blob_sha)) continue;
    if (files.size >= SEARCHED_FILES) break;
    const referringElsewhere = referringToRival.some(
      ([document, referring]) => document !== row.document_id && referring.has(row.document_id),
    );
    files.set(row.document_id, { file: row, byName: byName && !referringElsewhere });
  }
  const uses: MemberUse[] = [];
  for (const { file, byName } of [...files.values()].sort((a, b) => (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0))) {
    const found = await usesIn(lookups, file, member.name);
    if (byName) uses.push(...found);
    else if (found.length > 0) {
      const through = receiversOf(await lookups.document(file.document_id));
      const constructs = await constructedReceivers(lookups, file);
      for (const use of found) {
        const key = receiverKey(use.range);
        const classes = constructs.get(key);
        const of = classes && (await memberOfClasses(lookups, member.index_id, classes, member.name));
        if (of ? sameMember(of, member) : through.get(key)?.some((s) => holders.has(s))) uses.push(use);
      }
    }
  }
  return uses;
}

/** The member accesses named `name` in a file, to local symbols it does not declare. */
export async function usesIn(lookups: Lookups, file: MemberUseFile, name: string): Promise<MemberUse[]> {
  const found = orphanAccesses(await lookups.document(file.document_id), name.length);
  if (found.length === 0) return [];
  const lines = await lookups.lines(file.blob_sha);
  return found.filter((use) => lines?.[use.range[0]]?.slice(use.range[1], use.range[3]) === name).map((use) => ({ file, ...use }));
}

/** Member accesses of a document, `length` characters long on one line, to local symbols it does not declare. */
function orphanAccesses(document: StoredDocument, length: number): Omit<MemberUse, 'file'>[] {
  const occ = document.occurrences;
  const declared = new Set<number>();
  for (let i = 0; i < occ.length; i++) if (occ.roles(i) & SymbolRole.Definition) declared.add(occ.symbol(i));
  const out: Omit<MemberUse, 'file'>[] = [];
  for (let i = 0; i < occ.length; i++) {
    if (!occ.memberAccess(i) || declared.has(occ.symbol(i)) || !isLocalSymbol(document.symbols[occ.symbol(i)]!)) continue;
    const range = occ.range(i);
    if (range[0] !== range[2] || range[3] - range[1] !== length) continue;
    // A name with several locals at one place (scip-typescript gives one per declaration of a JavaScript property) is one use.
    const last = out.at(-1)?.range;
    if (last && last[0] === range[0] && last[1] === range[1]) continue;
    out.push({ range, roles: occ.roles(i), refKind: occ.refKind(i) });
  }
  return out;
}

/** The one member `rows` are of, if they are of one (a getter and its setter are one member). */
function soleMember(rows: readonly DefinitionRow[]): DefinitionRow | undefined {
  return rows.length > 0 && rows.every((d) => sameMember(d, rows[0]!)) ? rows[0] : undefined;
}

/** The first row of each member among `rows`, in their order. */
export function oneRowPerMember(rows: readonly DefinitionRow[]): DefinitionRow[] {
  return rows.filter((d, i) => rows.findIndex((e) => sameMember(d, e)) === i);
}

function sameMember(a: DefinitionRow, b: DefinitionRow): boolean {
  return a.document_id === b.document_id && a.symbol === b.symbol;
}

/** The global symbols declared in a member's file. */
async function exportsOf(lookups: Lookups, member: DefinitionRow): Promise<Set<string>> {
  return new Set(await lookups.globalSymbolsDefinedIn(member.document_id));
}

/** What an answer says of a member found from a use by its name. */
export function resolvedByNameNote(member: DefinitionRow): string {
  if (!isNamedOnlyInItsFile(member.symbol)) {
    return (
      `${member.name} was found through its module: the index gives this file a symbol of its own for a name the module ` +
      `exports by an export list or by assigning it to \`exports\`, and ${member.path}:${member.start_line + 1} declares it`
    );
  }
  return (
    `${member.name} was found by its name: the index gives this file a symbol of its own for a ${namedOnlyThere(member)}, ` +
    `and ${member.path}:${member.start_line + 1} declares the only such member of that name outside it, or in the files it refers to, ` +
    `or in the object literal its receiver holds or the class its receiver is an instance of`
  );
}

/** What kind of member `member` is, of those the index names only in their files. */
function namedOnlyThere(member: DefinitionRow): string {
  return isLocalSymbol(member.symbol) ? 'member of an unnamed type' : `member of the class ${member.path} assigns to module.exports`;
}

/** What an answer says of a member's uses in other files, found by its name. */
export function usesByNameNote(member: DefinitionRow, uses: readonly MemberUse[]): string {
  const files = new Set(uses.map((u) => u.file.path)).size;
  return (
    `${member.name}'s uses in ${files} other file${files === 1 ? '' : 's'} were found by its name, in the files that refer to ` +
    `${member.path}: it is the only ${namedOnlyThere(member)} so named outside them, or in the files they refer to, or the receiver ` +
    `there holds its object literal or is an instance of its class`
  );
}
