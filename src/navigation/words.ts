// Names read from text, where no index says what is there: the word under a
// cursor, whether it can name anything, and the pattern of its whole-word uses.

/** What a name is made of: letters, digits and `_`; in JavaScript and TypeScript `$` too (`$ref`, `jQuery$`). */
export type NameSyntax = 'plain' | 'javascript';

const CHARS: Record<NameSyntax, string> = { plain: '\\p{L}\\p{N}_', javascript: '\\p{L}\\p{N}_$' };
const CHAR: Record<NameSyntax, RegExp> = {
  plain: new RegExp(`[${CHARS.plain}]`, 'u'),
  javascript: new RegExp(`[${CHARS.javascript}]`, 'u'),
};

/**
 * The name under a 0-based column of a line (or just before it: a cursor
 * placed after a name), with the column it starts at; undefined on
 * whitespace, punctuation or a number.
 */
export function nameAt(text: string, column: number, syntax: NameSyntax = 'plain'): { text: string; start: number } | undefined {
  const isChar = (c: string | undefined) => c !== undefined && CHAR[syntax].test(c);
  let at = column;
  if (!isChar(text[at]) && at > 0 && isChar(text[at - 1])) at--;
  if (!isChar(text[at])) return undefined;
  let start = at;
  let end = at + 1;
  while (start > 0 && isChar(text[start - 1])) start--;
  while (end < text.length && isChar(text[end])) end++;
  const word = text.slice(start, end);
  return /^\p{N}/u.test(word) ? undefined : { text: word, start };
}

/** Every whole-word occurrence of `word` (global, to iterate with exec). */
export function wholeWord(word: string, syntax: NameSyntax = 'plain'): RegExp {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![${CHARS[syntax]}])${escaped}(?![${CHARS[syntax]}])`, 'gu');
}

/**
 * Words a language reserves: written as a name they are the language's own
 * (`return`, `this`, `None`), never a symbol to look up. Contextual keywords
 * (`type`, `get`, `of`, `match`) are names too (`req.type`) and are not listed.
 */
const JAVASCRIPT_RESERVED =
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
  'import in instanceof new null return super switch this throw true try typeof var void while with yield let static ' +
  'implements interface package private protected public await';
const PYTHON_RESERVED =
  'False None True and as assert async await break class continue def del elif else except finally for from global if import ' +
  'in is lambda nonlocal not or pass raise return try while with yield';
const RESERVED: Record<string, ReadonlySet<string>> = {
  javascript: new Set(JAVASCRIPT_RESERVED.split(' ')),
  typescript: new Set(JAVASCRIPT_RESERVED.split(' ')),
  python: new Set(PYTHON_RESERVED.split(' ')),
};

/** Whether `word` is reserved in `language` (a language sextant has no list for reserves nothing). */
export function isReservedWord(word: string, language: string | null): boolean {
  return language !== null && (RESERVED[language]?.has(word) ?? false);
}
