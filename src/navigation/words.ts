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

/**
 * Where the next whole-word occurrence of `word` in `text` starts, at or
 * after `from`; -1 when there is none. A text search counts every occurrence
 * in every file that holds the word: a search for the word and a look at the
 * characters on either side, where a regular expression with lookarounds
 * over Unicode classes cost a popular name's scan several times as much.
 */
export function nextWholeWord(text: string, word: string, from: number, syntax: NameSyntax = 'plain'): number {
  for (let at = text.indexOf(word, from); at !== -1; at = text.indexOf(word, at + 1)) {
    if (!isNameChar(codePointBefore(text, at), syntax) && !isNameChar(text.codePointAt(at + word.length), syntax)) return at;
  }
  return -1;
}

/** Name characters of ASCII, by code: the test for nearly every character beside a match. */
const ASCII_NAME: Record<NameSyntax, Uint8Array> = { plain: asciiNameChars('plain'), javascript: asciiNameChars('javascript') };

function asciiNameChars(syntax: NameSyntax): Uint8Array {
  const table = new Uint8Array(128);
  for (let code = 0; code < 128; code++) table[code] = CHAR[syntax].test(String.fromCharCode(code)) ? 1 : 0;
  return table;
}

function isNameChar(code: number | undefined, syntax: NameSyntax): boolean {
  if (code === undefined) return false;
  return code < 128 ? ASCII_NAME[syntax][code] === 1 : CHAR[syntax].test(String.fromCodePoint(code));
}

/** The code point that ends just before `at` (a surrogate pair read whole); undefined at the start. */
function codePointBefore(text: string, at: number): number | undefined {
  if (at === 0) return undefined;
  const low = text.charCodeAt(at - 1);
  if (low >= 0xdc00 && low <= 0xdfff && at >= 2) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(at - 2);
  }
  return low;
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
