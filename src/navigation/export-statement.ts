// Import and export statements, read from their text. `exports.name = value`,
// a CommonJS module's export by its name, written as a statement of its own:
// where its `exports` and its `name` are on the line. goToDefinition and
// findReferences at that `exports` answer for the export.

/** [1] what precedes `exports`, [2] the dot, [3] the name. */
const EXPORT_BY_NAME = /^(\s*)exports(\s*\.\s*)([\p{L}\p{N}_$]+)\s*=(?![=>])/u;

export interface ExportByName {
  /** Where `exports` starts. */
  exports: number;
  /** Where the name starts and ends. */
  name: [number, number];
}

/** The export by name a line states, when `character` is in its `exports`; undefined otherwise. */
export function exportByNameAt(text: string, character: number): ExportByName | undefined {
  const m = EXPORT_BY_NAME.exec(text);
  if (!m) return undefined;
  const exports = m[1]!.length;
  if (character < exports || character >= exports + 'exports'.length) return undefined;
  const name = exports + 'exports'.length + m[2]!.length;
  return { exports, name: [name, name + m[3]!.length] };
}

/** The statement's keyword around a specifier at (line, column): its last `import` or `export` before it, a few lines up at most. */
export function lastKeyword(lines: string[], line: number, column: number): 'import' | 'export' | undefined {
  for (let l = line, text = lines[line]!.slice(0, column); l >= 0 && l > line - 30; text = lines[--l] ?? '') {
    const last = [...text.matchAll(/\b(import|export)\b/g)].at(-1);
    if (last) return last[1] as 'import' | 'export';
  }
  return undefined;
}
