// `this.client` in a JavaScript subclass, for a member its base class
// declares in another file: a property by assignment (`this.client = client`
// in the base's constructor: knex's compilers, undici's handlers), or a method
// of a class a module assigns whole (`this.skip` read, not called). scip-
// typescript gives such a use in a subclass's file a local of its own that
// nothing defines, and prepare-assigned-class.ts makes a call `this.run()`
// the base's method `run().`, which a base assigning `this.run = fn` declares
// nowhere: goToDefinition there found nothing, where TypeScript goes to the
// base's member. The subclass's supertypes are in the index (its class relates
// to its base's), so the member is looked for in each base class in turn,
// nearest first, among what the base's file declares inside the class. From
// the member, its uses are the same accesses in each subclass, found through
// the index's subtypes of its class.
import type { Range } from '../scip/range.js';
import { rangeContains } from '../scip/range.js';
import { descriptorName, isLocalSymbol } from '../scip/symbol.js';
import { languageOf } from '../languages.js';
import type { DefinitionRow, Lookups } from '../registry/lookups.js';
import type { RepoContext } from './context.js';
import { enclosingRange } from './locations.js';
import { usesIn, type MemberUse } from './unnamed-members.js';

/** Levels of base classes or subclasses walked at most: inheritance chains are shallow. */
const MAX_ANCESTORS = 8;
/** Files of subclasses searched for a member's uses at most, as unnamed-members.ts bounds its search. */
const SEARCHED_FILES = 2_000;
/** `this.` right before the name. */
const THIS_MEMBER = /(?<![\w$.])this\s*\.\s*$/;

/**
 * The members named as the use at `range` of `file` (`this.name`, whose
 * symbol the index defines nowhere) that the nearest base class declaring one
 * declares; none where the use is not `this.name` inside a class.
 */
export async function inheritedThisMember(
  lookups: Lookups,
  ctx: RepoContext,
  file: Pick<DefinitionRow, 'index_id' | 'document_id' | 'path' | 'blob_sha'>,
  range: Range,
): Promise<DefinitionRow[]> {
  if (range[0] !== range[2] || file.index_id !== ctx.index.id) return [];
  const line = (await lookups.lines(file.blob_sha))?.[range[0]] ?? '';
  const name = line.slice(range[1], range[3]);
  if (!name || !THIS_MEMBER.test(line.slice(0, range[1]))) return [];
  const inFile = await lookups.definitionsInFile(file.index_id, file.document_id, file.path);
  const owner = innermostClass(inFile, range);
  if (!owner || isLocalSymbol(owner.symbol)) return [];

  for await (const supertypes of classLevels(owner.symbol, (symbols) => lookups.supertypesOf([file.index_id], symbols))) {
    const found: DefinitionRow[] = [];
    for (const base of (await lookups.definitionsOf([file.index_id], supertypes)).filter((d) => d.kind === 'class')) {
      const declared = await lookups.definitionsInFile(base.index_id, base.document_id, base.path);
      found.push(...declared.filter((m) => m.name === name && MEMBER_KINDS.has(m.kind) && declaredIn(m, base)));
    }
    if (found.length > 0) return found;
  }
  return [];
}

const MEMBER_KINDS = new Set(['method', 'property']);

/**
 * The classes `related` gives for `start`, then for those, and so on: one
 * level at a time, nearest first, each class once, at most MAX_ANCESTORS deep.
 */
async function* classLevels(start: string, related: (symbols: string[]) => Promise<string[]>): AsyncGenerator<string[]> {
  const seen = new Set([start]);
  let level = [start];
  for (let depth = 0; depth < MAX_ANCESTORS; depth++) {
    level = (await related(level)).filter((s) => !seen.has(s) && s.endsWith('#'));
    if (level.length === 0) return;
    for (const s of level) seen.add(s);
    yield level;
  }
}

/** The innermost class whose extent holds `range`. */
function innermostClass(definitions: readonly DefinitionRow[], range: Range): DefinitionRow | undefined {
  let best: { d: DefinitionRow; extent: Range } | undefined;
  for (const d of definitions) {
    const extent = enclosingRange(d);
    if (d.kind !== 'class' || !extent || !rangeContains(extent, range)) continue;
    if (!best || rangeContains(best.extent, extent)) best = { d, extent };
  }
  return best?.d;
}

/** The class `member` is declared inside, where the index names it (a class of a function's has a local). */
async function namedClassOf(lookups: Lookups, member: DefinitionRow): Promise<DefinitionRow | undefined> {
  const inFile = await lookups.definitionsInFile(member.index_id, member.document_id, member.path);
  const owner = innermostClass(inFile, [member.start_line, member.start_char, member.end_line, member.end_char]);
  return owner && !isLocalSymbol(owner.symbol) ? owner : undefined;
}

/** Whether `member` is declared inside the class `base`. */
function declaredIn(member: DefinitionRow, base: DefinitionRow): boolean {
  const extent = enclosingRange(base);
  return (
    member.document_id === base.document_id &&
    extent !== undefined &&
    rangeContains(extent, [member.start_line, member.start_char, member.end_line, member.end_char])
  );
}

/**
 * The uses of `member`, a property or method a JavaScript class declares
 * (`this.client = client`, `skip(n) {...}`), in the classes that extend that
 * class, however far down: `this.client` where such a class, which declares no
 * `client` of its own, reads it (a local its file defines nowhere).
 */
export async function subclassUses(lookups: Lookups, member: DefinitionRow): Promise<MemberUse[]> {
  if (!MEMBER_KINDS.has(member.kind) || languageOf(member.path) !== 'javascript') return [];
  const owner = await namedClassOf(lookups, member);
  if (!owner) return [];
  const subclasses: string[] = [];
  for await (const level of classLevels(owner.symbol, (symbols) => lookups.subtypesOf([member.index_id], symbols)))
    subclasses.push(...level);
  const classes = (await lookups.definitionsOf([member.index_id], subclasses)).filter(
    (d) => d.kind === 'class' && d.document_id !== member.document_id,
  );
  const uses: MemberUse[] = [];
  const read = new Map<number, Promise<MemberUse[]>>();
  for (const c of classes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const extent = enclosingRange(c);
    if (!extent) continue;
    if (!read.has(c.document_id)) {
      if (read.size >= SEARCHED_FILES) break;
      read.set(c.document_id, usesIn(lookups, c, member.name));
    }
    const lines = await lookups.lines(c.blob_sha);
    for (const use of await read.get(c.document_id)!) {
      if (!rangeContains(extent, use.range) || !THIS_MEMBER.test(lines?.[use.range[0]]?.slice(0, use.range[1]) ?? '')) continue;
      if (!uses.some((u) => u.file.document_id === use.file.document_id && u.range.join() === use.range.join())) uses.push(use);
    }
  }
  return uses;
}

/**
 * The method a call `this.name()` in a subclass names (prepare-assigned-class.ts
 * makes such a call its base's method) where `member` is a property its class
 * assigns (`this.tick = () => 1`), not a method the class declares: such calls
 * are the property's. None where the class declares a method of that name.
 */
export async function calledAsMethod(lookups: Lookups, member: DefinitionRow): Promise<string | undefined> {
  if (!isLocalSymbol(member.symbol) || member.kind !== 'property' || languageOf(member.path) !== 'javascript') return undefined;
  const owner = await namedClassOf(lookups, member);
  if (!owner) return undefined;
  const method = `${owner.symbol}${descriptorName(member.name)}().`;
  return (await lookups.definitionsOf([member.index_id], [method])).length === 0 ? method : undefined;
}

/** What findReferences says of the uses it lists of an inherited member. */
export function inheritedMemberNote(member: DefinitionRow): string {
  return `${member.name} is declared by ${member.path}:${member.start_line + 1}, in a base class of this one: its uses in the classes that extend that one are listed with it`;
}

/** What findReferences says of a member's uses it found in the classes that extend the member's class. */
export function subclassUsesNote(member: DefinitionRow, uses: readonly MemberUse[]): string {
  const files = new Set(uses.map((u) => u.file.path)).size;
  return (
    `${member.name}'s uses in ${files} other file${files === 1 ? '' : 's'} were found in the classes that extend its class ` +
    '(the index gives each file a symbol of its own for it)'
  );
}
