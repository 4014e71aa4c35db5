// findReferences at `module` or `exports` of `module.exports` in a JavaScript
// module, as TypeScript answers it. scip-typescript names `exports` there the
// module itself (or a local, or sextant's `default.` for an anonymous default
// export), so the answer was every name importers bind the module to and
// their uses (`defaults.binary`), where TypeScript lists the module's own
// `module.exports` and, at an assignment of a whole value, the specifiers
// that import it:
// - at `module.exports = value`: the assignment, at `module`, and every
//   specifier that imports the module (`require('./defaults')`); where the
//   value is an export list (`module.exports = { a, b }`), which TypeScript
//   binds as the module's exports by name, the name asked at alone;
// - at another `module.exports` (`module.exports.timeout = timeout`, a read):
//   the file's other such names of the same spelling (`module` or `exports`)
//   and, at `exports`, the assignment of a whole value;
// - at `exports` of `exports.name = value`: that statement's `exports` and
//   `name`.
import { languageOf } from '../languages.js';
import { SymbolRole } from '../scip/schema.js';
import { fileNamespaceOf } from '../scip/symbol.js';
import type { Range } from '../scip/range.js';
import { MODULE_SPECIFIER, RANGE_INTS_PER_RECORD, refKindOf } from '../registry/payload.js';
import type { Lookups } from '../registry/lookups.js';
import type { Params, Reference, Result } from '../protocol/references.js';
import type { FileContext, RepoContext } from './context.js';
import { definitionsOf, toSymbolItem } from './definitions.js';
import { location, quotedNameText } from './locations.js';
import { moved } from './adjust.js';
import { exportByNameAt, type ExportByName } from './export-statement.js';

/** One `module.exports` of a line: where `module` and `exports` are. */
interface ModuleExports {
  line: number;
  module: number;
  exports: number;
  /** `module.exports = value`, a statement of its own. */
  whole: boolean;
  /** The value assigned whole is an object literal (`{ a, b }`). */
  literal: boolean;
  /** The index defines something there (the anonymous default export sextant names `default`). */
  defined: boolean;
}

/** A reference of the answer, before it is a location. */
interface Found {
  repo: string;
  path: string;
  blob: string;
  range: Range;
  kind: Reference['kind'];
  /** The file's lines, when read already. */
  lines?: readonly string[] | null;
}

const MODULE_EXPORTS = /\bmodule(\s*\.\s*)exports\b/g;
const ASSIGNED = /^\s*=(?![=>])\s*/;

/**
 * The references TypeScript gives at `module` or `exports` of `module.exports`
 * at [line, character] (of the indexed text) of a JavaScript file, or
 * undefined elsewhere. Places in files edited since the index move with their
 * lines, or are dropped (and counted) with them, as every answer's are.
 */
export async function moduleExportsReferences(
  lookups: Lookups,
  ctx: RepoContext,
  file: FileContext,
  [line, character]: [number, number],
  params: Params,
  limit: number,
): Promise<Pick<Result, 'symbols' | 'references' | 'total' | 'truncated'> | undefined> {
  const lines = file.lines;
  if (!lines || languageOf(file.file.path) !== 'javascript') return undefined;
  const text = lines[line] ?? '';
  const named = exportByNameAt(text, character);
  if (named) return exportByName(lookups, ctx, file, line, named, params, limit);
  // Most questions are not at `module.exports`: the line says so before the file's occurrences are read.
  const near = [...text.matchAll(MODULE_EXPORTS)];
  if (!near.some((m) => m.index <= character && character < m.index + m[0].length)) return undefined;
  const all = spansOf(file, lines);
  const asked = all.find((s) => s.line === line && s.module <= character && character < s.exports + 'exports'.length);
  if (!asked) return undefined;
  const atModule = character < asked.exports;
  // An export list (no default export is defined at it: see syntax/typescript.ts moduleExportsValue).
  const exportList = (s: ModuleExports | undefined) => s !== undefined && s.literal && !s.defined;
  // Each assignment of a whole value declares the export (debug's entry point assigns it in both branches of an `if`).
  const wholes = all.filter((s) => s.whole && !exportList(s));
  const found: Found[] = [];
  const here = (s: ModuleExports, atModule: boolean) => {
    const start = atModule ? s.module : s.exports;
    const kind: Reference['kind'] = s.whole ? (s.defined ? 'definition' : 'write') : 'identifier';
    const range: Range = [s.line, start, s.line, start + (atModule ? 'module' : 'exports').length];
    found.push({ repo: ctx.repo.slug, path: file.file.path, blob: file.file.blob_sha, range, kind, lines });
  };
  if (asked.whole && exportList(asked)) here(asked, atModule);
  else if (asked.whole) {
    for (const s of wholes) here(s, true);
    found.push(...(await importingSpecifiers(lookups, ctx, file)));
  } else {
    for (const s of all) if (!s.whole) here(s, atModule);
    if (!atModule) for (const s of wholes) here(s, true);
  }
  return answer(lookups, ctx, file, asked.line, [asked.module, asked.exports + 'exports'.length], found, params, limit);
}

/**
 * At `exports` of `exports.name = value`, a CommonJS module's export by its
 * name: that statement's `exports` and `name`, as TypeScript lists them (the
 * index may name `exports` there what the value is, a class with all its uses).
 */
async function exportByName(
  lookups: Lookups,
  ctx: RepoContext,
  file: FileContext,
  line: number,
  { exports, name: [name, end] }: ExportByName,
  params: Params,
  limit: number,
): Promise<Pick<Result, 'symbols' | 'references' | 'total' | 'truncated'>> {
  const occ = file.document.occurrences;
  let defined = false;
  for (let i = 0; i < occ.length && occ.startLine(i) <= line; i++) {
    const r = occ.range(i);
    if (r[0] === line && r[1] === name && occ.roles(i) & SymbolRole.Definition) defined = true;
  }
  const at = (start: number, length: number, kind: Reference['kind']): Found => ({
    repo: ctx.repo.slug,
    path: file.file.path,
    blob: file.file.blob_sha,
    range: [line, start, line, start + length],
    kind,
    lines: file.lines,
  });
  const found = [at(exports, 'exports'.length, 'identifier'), at(name, end - name, defined ? 'definition' : 'write')];
  return answer(lookups, ctx, file, line, [name, end], found, params, limit);
}

/** The answer of `found`, with the definitions of the symbols the index has at [from, to) of `line`. */
async function answer(
  lookups: Lookups,
  ctx: RepoContext,
  file: FileContext,
  line: number,
  [from, to]: [number, number],
  found: Found[],
  params: Params,
  limit: number,
): Promise<Pick<Result, 'symbols' | 'references' | 'total' | 'truncated'>> {
  const wanted = found.filter((f) => (params.include_declaration || f.kind !== 'definition') && (!params.kind || f.kind === params.kind));
  // This repository first, then the others, files in path order, as every answer lists them.
  const order = (f: Found) => (f.repo === ctx.repo.slug ? '' : f.repo);
  wanted.sort((a, b) => {
    const x = `${order(a)}\0${a.path}`;
    const y = `${order(b)}\0${b.path}`;
    return x < y ? -1 : x > y ? 1 : a.range[0] - b.range[0] || a.range[1] - b.range[1];
  });
  const references: Reference[] = [];
  let total = 0;
  for (const f of wanted) {
    // Counted past the limit without reading the file: a module many files import has as many specifiers.
    const place = await ctx.adjust.place({ repo: f.repo, path: f.path, blob: f.blob }, f.range);
    if (!place || total++ >= limit) continue;
    const lines = f.lines ?? (await lookups.lines(f.blob));
    const range = quotedNameText(lines, f.range);
    const reference = location(f.repo, f.path, range, lines) as Reference;
    reference.kind = f.kind;
    reference.is_definition = f.kind === 'definition';
    // A specifier's quotes are not in the answer: the place moves as the literal does.
    references.push(range === f.range ? moved(reference, place) : moved(reference, { ...place, range: trimmed(place.range) }));
  }
  const symbols = new Set<string>();
  const occ = file.document.occurrences;
  for (let i = 0; i < occ.length; i++) {
    const r = occ.range(i);
    if (r[0] === line && r[1] >= from && r[3] <= to) symbols.add(file.document.symbols[occ.symbol(i)]!);
  }
  const definitions = await definitionsOf(lookups, ctx, [...symbols], file);
  const items = (await Promise.all(definitions.map((d) => ctx.adjust.row(d)))).filter((d) => d !== undefined);
  return { symbols: items.map(toSymbolItem), references, total, truncated: total > limit };
}

/** The file's `module.exports` the index has an occurrence in (none in a comment or a string), in order. */
function spansOf(file: FileContext, lines: readonly string[]): ModuleExports[] {
  const occ = file.document.occurrences;
  const out = new Map<number, ModuleExports>();
  for (let i = 0; i < occ.length; i++) {
    const r = occ.range(i);
    if (r[0] !== r[2]) continue;
    const text = lines[r[0]] ?? '';
    if (!text.includes('module')) continue;
    for (const m of text.matchAll(MODULE_EXPORTS)) {
      const module = m.index;
      const exports = module + 'module'.length + m[1]!.length;
      if (r[1] < module || r[3] > exports + 'exports'.length) continue;
      const key = r[0] * 0x100000 + module;
      const defined = (occ.roles(i) & SymbolRole.Definition) !== 0;
      const known = out.get(key);
      if (known) {
        known.defined ||= defined;
        continue;
      }
      const after = text.slice(exports + 'exports'.length);
      const assigned = ASSIGNED.exec(after);
      const whole = assigned !== null && text.slice(0, module).trim() === '';
      out.set(key, { line: r[0], module, exports, whole, literal: whole && after.slice(assigned[0].length).startsWith('{'), defined });
    }
  }
  return [...out.values()].sort((a, b) => a.line - b.line || a.module - b.module);
}

/** The specifiers in other files that import `file`'s module (`require('./defaults')`, `from './defaults'`). */
async function importingSpecifiers(lookups: Lookups, ctx: RepoContext, file: FileContext): Promise<Found[]> {
  const module = moduleSymbolOf(file);
  if (!module) return [];
  const out: Found[] = [];
  // The same global symbol is the same module in every repository of the registry.
  for (const row of await lookups.symbolRefsInOrder([ctx.index.id, ...ctx.others], [module])) {
    if (row.index_id === ctx.index.id && row.path === file.file.path) continue;
    for (let i = 0; i < row.ints.length; i += RANGE_INTS_PER_RECORD) {
      if (refKindOf(row.ints[i + 4]!) !== MODULE_SPECIFIER) continue;
      const range: Range = [row.ints[i]!, row.ints[i + 1]!, row.ints[i + 2]!, row.ints[i + 3]!];
      out.push({ repo: row.repo, path: row.path, blob: row.blob_sha, range, kind: 'import' });
    }
  }
  return out;
}

/**
 * The file's own module symbol (`lib/util/\`noop.js\`/`), from the symbols its
 * document names: the module of another file of the same name (`index.js`)
 * has another folder.
 */
function moduleSymbolOf(file: FileContext): string | undefined {
  const path = file.file.path;
  for (const symbol of file.document.symbols) {
    const namespace = fileNamespaceOf(symbol, path);
    if (!namespace) continue;
    const written = namespace.slice(namespace.lastIndexOf(' ') + 1, -1).replace(/`/g, '');
    // The indexer writes the path from its project's root, which may lie below the repository's root or above it.
    if (path === written || path.endsWith(`/${written}`) || written.endsWith(`/${path}`)) return namespace;
  }
  return undefined;
}

/** A string literal's range without its quotes. */
function trimmed(r: Range): Range {
  return [r[0], r[1] + 1, r[2], r[3] - 1];
}
