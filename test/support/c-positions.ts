// Positions in tree-sitter's C runtime read from its text, for the tests that
// hold sextant's C answers against clangd asked directly.
import type { Place } from './clangd.js';
import { linesOf, trackedFiles } from './positions.js';

/** Uses of tree-sitter's own names (`ts_...`) in the .c files, as 1-based positions. */
export function identifierUses(root: string): Place[] {
  const out: Place[] = [];
  for (const path of trackedFiles(root).filter((p) => p.endsWith('.c'))) {
    linesOf(root, path).forEach((text, i) => {
      for (const m of text.matchAll(/\bts_[a-z0-9_]+\b/g)) out.push({ path, line: i + 1, column: m.index + 1 });
    });
  }
  return out;
}

/** Functions defined at the start of a line (`void ts_x(` / `static inline T *ts_x(`), as positions of their names. */
export function functionDefinitions(root: string): Place[] {
  const out: Place[] = [];
  for (const path of trackedFiles(root).filter((p) => p.endsWith('.c') && p !== 'src/lib.c')) {
    linesOf(root, path).forEach((text, i) => {
      const m = /^(?:static )?(?:inline )?[A-Za-z_][\w ]*?\**\s*\**(ts_[a-z0-9_]+)\(/.exec(text);
      if (m && !text.trimEnd().endsWith(';')) out.push({ path, line: i + 1, column: text.indexOf(m[1]!, m.index) + 1 });
    });
  }
  return out;
}
