// Expected answers derived from the source text itself: where a name sits on
// a line, and where a declaration is, so end-to-end tests state facts a reader
// can check in the file rather than numbers copied from sextant's output.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Position {
  path: string;
  line: number;
  column: number;
}

/** A position or location as `path:line:column`, as assertions compare them. */
export function pathLineColumn(p: Position): string {
  return `${p.path}:${p.line}:${p.column}`;
}

export function linesOf(root: string, path: string): string[] {
  return readFileSync(join(root, path), 'utf8').split(/\r\n|\r|\n/);
}

/**
 * The 1-based position of `needle` on 1-based `line` of `path`, optionally
 * offset into the needle (to point at the name inside `export class Foo`).
 * Throws when the line does not contain it, so a drifting fixture fails loudly.
 */
export function at(root: string, path: string, line: number, needle: string, options: { nth?: number; offset?: number } = {}): Position {
  const text = linesOf(root, path)[line - 1];
  if (text === undefined) throw new Error(`${path} has no line ${line}`);
  let index = -1;
  for (let n = 0; n <= (options.nth ?? 0); n++) {
    index = text.indexOf(needle, index + 1);
    if (index < 0) throw new Error(`${path}:${line} does not contain "${needle}" (occurrence ${n + 1}): ${text}`);
  }
  return { path, line, column: index + 1 + (options.offset ?? 0) };
}

/**
 * The position of the first line of `path` matching `pattern`; the column is
 * where the pattern's first capture group starts (or the match, without one).
 */
export function find(root: string, path: string, pattern: RegExp): Position {
  const lines = linesOf(root, path);
  for (let i = 0; i < lines.length; i++) {
    const m = pattern.exec(lines[i]!);
    if (!m) continue;
    const column = m[1] === undefined ? m.index : m.index + m[0].indexOf(m[1]);
    return { path, line: i + 1, column: column + 1 };
  }
  throw new Error(`no line of ${path} matches ${pattern}`);
}

/** `{path, line, column}` of a location-like object, for deepEqual against a Position. */
export function where(l: { path: string; line: number; column: number }): Position {
  return { path: l.path, line: l.line, column: l.column };
}

export function byPosition(a: Position, b: Position): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column;
}

/** The files git tracks in `root`, repository-relative. */
export function trackedFiles(root: string): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean).sort();
}
