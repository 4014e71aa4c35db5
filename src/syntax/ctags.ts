// Definitions from universal-ctags, for the syntactic tier (languages with no
// SCIP indexer, or whose indexer failed). ctags reads copies of the files'
// stored texts in a temporary directory, never the worktree: it can then only
// see what sextant stores, its line numbers match the text sextant serves,
// and nothing outside a repository's root is ever read.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { watchGroup } from '../process-group.js';
import type { SymbolKind } from '../scip/kind.js';

/** Bumped when what is derived from ctags' output changes, so stored syntax documents are derived again. */
export const CTAGS_DERIVATION = 2;

/** A file to parse: where ctags should think it is (its extension picks the parser). */
export interface SyntaxFile {
  path: string;
}

/** A definition as stored: 0-based lines, UTF-16 columns. */
export interface SyntaxDefinition {
  name: string;
  kind: SymbolKind;
  /** The parser's scope, qualified ("logrus.Entry", "inner::Point"). */
  container: string | null;
  /** Index of the definition it nests in, within the same file. */
  parent: number | null;
  line: number;
  startChar: number;
  endChar: number;
  spanEndLine: number;
  spanEndChar: number;
  /** The definition's first line, trimmed of its opening brace. */
  signature: string | null;
}

export interface CtagsTag {
  name: string;
  line: number;
  kind: string;
  scope?: string;
  scopeKind?: string;
  end?: number;
  roles?: string;
}

export interface CtagsOutcome {
  status: 'ok' | 'failed' | 'timeout';
  reason: string | null;
  durationMs: number;
}

/** "Universal Ctags 5.9.0" from `ctags --version`, or undefined when the program is not universal-ctags. */
export async function ctagsVersion(command: string): Promise<string | undefined> {
  const out = await new Promise<string>((resolve) => {
    const child = spawn(command, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString('utf8')));
    child.once('error', () => resolve(''));
    child.once('close', () => resolve(text));
  });
  const m = /^Universal Ctags ([^\s,(]+)/m.exec(out);
  return m ? m[1] : undefined;
}

/**
 * Runs ctags over `files` and hands each file's tags to `onFile`, in the
 * order of `files`, files without definitions included (with no tags), as
 * ctags produces them: its output is streamed, not collected.
 */
export async function runCtags<F extends SyntaxFile>(
  command: string,
  files: readonly F[],
  options: { timeoutMs: number; read: (file: F) => Promise<string>; onFile: (file: F, tags: CtagsTag[]) => Promise<void> },
): Promise<CtagsOutcome> {
  const started = performance.now();
  const outcome = (status: CtagsOutcome['status'], reason: string | null): CtagsOutcome => ({
    status,
    reason,
    durationMs: performance.now() - started,
  });
  if (files.length === 0) return outcome('ok', null);
  // Named like the indexers' work directories, so an abandoned one is swept the same way.
  const work = await mkdtemp(join(tmpdir(), `sextant-${process.pid}-ctags-`));
  try {
    // Copies are named by their position (f12.go): a repository path may hold anything, a newline or a leading dash.
    const names: string[] = [];
    for (let i = 0; i < files.length; i++) {
      const name = `f${i}${extname(files[i]!.path)}`;
      names.push(name);
      await writeFile(join(work, name), await options.read(files[i]!));
    }
    await writeFile(join(work, 'files.list'), names.map((n) => `./${n}\n`).join(''));
    const child = spawn(
      command,
      ['--options=NONE', '--output-format=json', '--fields=+nKzSer', '--sort=no', '--extras=-q', '-f', '-', '-L', 'files.list'],
      { cwd: work, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    // ctags skips a file it cannot open with a warning and still exits 0: that must not pass for a file without definitions.
    let lastError: string | undefined;
    let unreadable = 0;
    createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', (line) => {
      if (/cannot open input file/.test(line)) unreadable++;
      else if (line.trim() && !/^ctags: Notice/.test(line)) lastError = line.trim().slice(0, 300);
    });
    const { exited, kill, timedOut } = watchGroup(child, options.timeoutMs);

    let next = 0;
    let current = -1;
    let tags: CtagsTag[] = [];
    const finishUpTo = async (end: number) => {
      for (; next < end; next++) await options.onFile(files[next]!, next === current ? tags : []);
    };
    let parseError: Error | undefined;
    try {
      for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
        if (!line.startsWith('{')) continue;
        const tag = JSON.parse(line) as CtagsTag & { _type?: string; path?: string };
        if (tag._type !== 'tag' || typeof tag.path !== 'string') continue;
        const index = Number(/^\.\/f(\d+)/.exec(tag.path)?.[1] ?? -1);
        if (index < next || index >= files.length) continue;
        if (index !== current) {
          await finishUpTo(index);
          current = index;
          tags = [];
        }
        tags.push(tag);
      }
    } catch (error) {
      parseError = error as Error;
      kill();
    }
    const exit = await exited;
    if (exit.error) return outcome('failed', `universal-ctags could not start: ${exit.error.message}`);
    if (timedOut())
      return outcome('timeout', `universal-ctags did not finish within ${Math.round(options.timeoutMs / 1000)} s and was stopped`);
    if (parseError) return outcome('failed', `universal-ctags printed output sextant could not read: ${parseError.message}`);
    if (unreadable > 0)
      return outcome('failed', `universal-ctags could not open ${unreadable} of its ${files.length} input files (copies in ${work})`);
    if (exit.code !== 0) {
      const said = lastError;
      return outcome(
        'failed',
        `universal-ctags ${exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`}${said ? `: ${said}` : ''}`,
      );
    }
    await finishUpTo(files.length);
    return outcome('ok', null);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Tags that are not definitions of a name one navigates to: a file's own package clause, includes, imports. */
const NOT_DEFINITIONS: ReadonlySet<string> = new Set([
  'package',
  'packageName',
  'header',
  'import',
  'library',
  'script',
  'heredoc',
  'unknown',
]);

/** ctags' long kind names, across its parsers, as sextant's kind words. */
const KINDS: Record<string, SymbolKind> = {
  class: 'class',
  object: 'class',
  interface: 'interface',
  trait: 'trait',
  struct: 'struct',
  union: 'struct',
  enum: 'enum',
  enumerator: 'enum_member',
  enumConstant: 'enum_member',
  type: 'type',
  typedef: 'type',
  talias: 'type',
  typealias: 'type',
  alias: 'type',
  function: 'function',
  func: 'function',
  subroutine: 'function',
  generator: 'function',
  method: 'method',
  methodSpec: 'method',
  singletonMethod: 'method',
  getter: 'method',
  setter: 'method',
  member: 'field',
  anonMember: 'field',
  field: 'field',
  property: 'property',
  accessor: 'property',
  event: 'property',
  variable: 'variable',
  var: 'variable',
  externvar: 'variable',
  constant: 'constant',
  const: 'constant',
  define: 'constant',
  macro: 'macro',
  module: 'module',
  namespace: 'namespace',
  implementation: 'namespace',
  annotation: 'interface',
};

/** Where a language's parser uses a kind name differently from the rest. */
const LANGUAGE_KINDS: Record<string, Record<string, SymbolKind>> = {
  python: { member: 'method' },
  rust: { interface: 'trait' },
  ruby: { alias: 'method' },
};

const TYPE_SCOPES: ReadonlySet<string> = new Set([
  'class',
  'struct',
  'interface',
  'trait',
  'implementation',
  'object',
  'union',
  'enum',
  'type',
  'typedef',
  'talias',
  'unknown',
]);

/** The definitions of one file from its tags, nested by the parser's scopes; columns found in the file's text. */
export function definitionsFromTags(tags: readonly CtagsTag[], lines: readonly string[], language: string): SyntaxDefinition[] {
  const kept = tags.filter(
    (t) =>
      (t.roles === undefined || t.roles === 'def') &&
      !NOT_DEFINITIONS.has(t.kind) &&
      !t.name.startsWith('__anon') &&
      t.line >= 1 &&
      t.line <= lines.length,
  );
  // A scope names its owner qualified with '.' or '::', whichever the language uses.
  const byQualified = new Map<string, number[]>();
  kept.forEach((t, i) => {
    for (const sep of ['.', '::']) {
      const key = t.scope ? `${t.scope}${sep}${t.name}` : t.name;
      const list = byQualified.get(key);
      if (!list) byQualified.set(key, [i]);
      else if (!list.includes(i)) list.push(i);
    }
  });
  return kept.map((t, i) => {
    const line = t.line - 1;
    const text = lines[line]!;
    const at = nameColumn(text, t.name);
    const spanEnd = t.end !== undefined && t.end >= t.line && t.end <= lines.length ? t.end - 1 : line;
    const raw = (LANGUAGE_KINDS[language]?.[t.kind] ?? KINDS[t.kind]) || 'unknown';
    // Inside a type, a function is a method and a variable a field (a Go method's scope is its receiver's
    // type, of kind "unknown" when that type is declared in another file).
    const inType = t.scopeKind !== undefined && TYPE_SCOPES.has(t.scopeKind);
    const kind = inType && raw === 'function' ? 'method' : inType && raw === 'variable' ? 'field' : raw;
    // A Rust impl block is named for its type, but it does not define that name: it is listed by its header
    // ("impl Display for Version"), as rust-analyzer's outline does, so a lookup of the name finds the type.
    const header = t.kind === 'implementation' ? /\bimpl\b[^{]*/.exec(text) : null;
    const name = header ? header[0].trim() : t.name;
    const start = header ? header.index : at;
    return {
      name,
      kind,
      container: t.scope ?? null,
      parent: t.scope ? parentOf(kept, byQualified.get(t.scope), i) : null,
      line,
      startChar: start,
      endChar: text.startsWith(name, start) ? start + name.length : text.length,
      spanEndLine: spanEnd,
      spanEndChar: lines[spanEnd]!.length,
      signature: signatureOf(text),
    };
  });
}

/**
 * The owner among same-named candidates: the nearest one before the child
 * (an `impl Point` block rather than `struct Point`) whose kind is the
 * child's scope kind, preferring one whose known extent contains it.
 */
function parentOf(tags: readonly CtagsTag[], candidates: number[] | undefined, child: number): number | null {
  if (!candidates) return null;
  const c = tags[child]!;
  const usable = candidates.filter((i) => i !== child && (c.scopeKind === undefined || tags[i]!.kind === c.scopeKind));
  const pool = usable.length ? usable : candidates.filter((i) => i !== child);
  if (pool.length === 0) return null;
  const containing = pool.filter((i) => tags[i]!.line <= c.line && (tags[i]!.end ?? tags[i]!.line) >= c.line && tags[i]!.end !== undefined);
  const before = pool.filter((i) => tags[i]!.line <= c.line);
  const choose = containing.length ? containing : before.length ? before : pool;
  return choose.reduce((best, i) => (tags[i]!.line >= tags[best]!.line ? i : best));
}

/** Column of `name` on its line: as a whole word when it is one, else anywhere, else the first non-blank. */
function nameColumn(text: string, name: string): number {
  const first = text.indexOf(name);
  if (first < 0) return text.length - text.trimStart().length;
  for (let at = first; at >= 0; at = text.indexOf(name, at + 1)) {
    if (!isWordChar(text.charCodeAt(at - 1)) && !isWordChar(text.charCodeAt(at + name.length))) return at;
  }
  return first;
}

/** ASCII letters, digits, '_' and '$' (NaN, past either end of the line, is not). */
function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
}

function signatureOf(line: string): string | null {
  const s = line.trim().replace(/\s*\{\s*$/, '');
  if (!s) return null;
  // Cut with an ASCII mark, as answers cut lines (navigation/locations.ts: ELLIPSIS).
  return s.length > 200 ? s.slice(0, 197) + '...' : s;
}
