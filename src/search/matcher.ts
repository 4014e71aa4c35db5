// Finding matches in one file's text, read as UTF-8 bytes: decoding whole
// files into strings costs more than searching them. Literals are found with
// Buffer#indexOf (case-insensitive ones in an ASCII-folded copy); regular
// expressions run in re2js, RE2's linear-time engine, on the bytes of the lines
// that hold a literal they require, so no pattern can hang the server. Matches
// are per line, as grep's are: a match never spans a newline.
import { RE2JS, RE2JSException } from 're2js';
import { UserError } from '../errors.js';
import { literal, type TextQuery } from '../registry/text-query.js';
import { requiredLiterals } from './regex-literals.js';

/** A match as byte offsets into the file's text. */
export interface Span {
  start: number;
  end: number;
}

export interface Matcher {
  /** What a file must contain to match, for the substring index. */
  readonly required: TextQuery;
  /**
   * Calls `onMatch` for each match in `text` (UTF-8), in order, until it
   * returns false or `expired()` says the time budget is spent (checked every
   * few lines). Returns false when it stopped early.
   */
  scan(text: Buffer, onMatch: (span: Span) => boolean, expired: () => boolean): boolean;
}

export function createMatcher(query: string, options: { regex: boolean; caseSensitive: boolean }): Matcher {
  return options.regex ? regexMatcher(query, options.caseSensitive) : literalMatcher(query, options.caseSensitive);
}

/** Lines (or literal hits) between time checks. */
const LINES_PER_CHECK = 256;

const NEWLINE = 0x0a;

function literalMatcher(query: string, caseSensitive: boolean): Matcher {
  const finder = bytesFinder([query], !caseSensitive && hasCase(query));
  // Case-insensitive matching of text the ASCII fold cannot find: line by line in JavaScript's RegExp.
  const pattern = new RegExp(query.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), caseSensitive ? 'gu' : 'giu');
  return {
    required: literal(query),
    scan(text, onMatch, expired) {
      const hay = finder?.haystack(text);
      if (!finder || !hay) {
        return eachLine(text, expired, (start, end) => {
          const line = text.toString('utf8', start, end);
          pattern.lastIndex = 0;
          for (let m = pattern.exec(line); m; m = pattern.exec(line)) {
            const from = start + byteOffset(line, m.index);
            if (!onMatch({ start: from, end: from + Buffer.byteLength(m[0]) })) return false;
          }
          return true;
        });
      }
      const needle = finder.needles[0]!;
      let n = 0;
      for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + needle.length)) {
        if (++n % LINES_PER_CHECK === 0 && expired()) return false;
        if (!onMatch({ start: i, end: i + needle.length })) return false;
      }
      return true;
    },
  };
}

function regexMatcher(query: string, caseSensitive: boolean): Matcher {
  let re: RE2JS;
  try {
    re = RE2JS.compile(query, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    const reason = error instanceof RE2JSException ? error.message : String(error);
    throw new UserError(
      `query is not a valid RE2 regular expression (${reason}): fix it, or pass regex: false to search for the text as is`,
    );
  }
  const required = requiredLiterals(query);
  // Lines holding one of the anchors are found with indexOf instead of visiting every line,
  // and run through the engine only when they hold all the required literals. When the
  // query requires several literals, each file is searched for its rarest one.
  const choices = anchorChoices(required)
    .map((anchors) => bytesFinder(anchors, !caseSensitive, literalsOf(required)))
    .filter((f): f is BytesFinder => f !== null);
  const requiredBytes = toBytes(required, !caseSensitive);
  /** Runs the engine on the line [start, end); false when onMatch asked to stop. */
  const matchLine = (text: Buffer, start: number, end: number, onMatch: (span: Span) => boolean): boolean => {
    const m = re.matcher(text.subarray(start, end));
    let matchedNonEmpty = false;
    let emptyAt = -1;
    while (m.find()) {
      if (m.end() > m.start()) {
        matchedNonEmpty = true;
        if (!onMatch({ start: start + m.start(), end: start + m.end() })) return false;
      } else if (emptyAt < 0) emptyAt = m.start();
    }
    // A pattern that matches the empty string matches the line once (as grep counts it).
    return matchedNonEmpty || emptyAt < 0 || onMatch({ start: start + emptyAt, end: start + emptyAt });
  };
  return {
    required,
    scan(text, onMatch, expired) {
      // Every choice folds the same way: one haystack serves them all.
      const hay = choices[0]?.haystack(text);
      if (!hay) return eachLine(text, expired, (start, end) => matchLine(text, start, end, onMatch));
      const starts = new Set<number>();
      for (const needle of rarest(hay, choices)) {
        for (let i = hay.indexOf(needle); i >= 0;) {
          starts.add(i === 0 ? 0 : hay.lastIndexOf(NEWLINE, i - 1) + 1);
          const next = hay.indexOf(NEWLINE, i);
          if (next < 0) break;
          i = hay.indexOf(needle, next + 1);
        }
      }
      let n = 0;
      for (const start of [...starts].sort((a, b) => a - b)) {
        if (++n % LINES_PER_CHECK === 0 && expired()) return false;
        let end = hay.indexOf(NEWLINE, start);
        if (end < 0) end = hay.length;
        if (requiredBytes && !holds(requiredBytes, hay.subarray(start, end))) continue;
        if (!matchLine(text, start, end, onMatch)) return false;
      }
      return true;
    },
  };
}

/** Calls `visit` with each line's [start, end) (without its newline); false when it stopped early. */
function eachLine(text: Buffer, expired: () => boolean, visit: (start: number, end: number) => boolean): boolean {
  if (text.length === 0) return true;
  let start = 0;
  for (let n = 0; start <= text.length; n++) {
    if (n % LINES_PER_CHECK === LINES_PER_CHECK - 1 && expired()) return false;
    let end = text.indexOf(NEWLINE, start);
    if (end < 0) end = text.length;
    if (end === text.length && start === end && start > 0) break; // after the final newline: no line
    if (!visit(start, end)) return false;
    start = end + 1;
  }
  return true;
}

/** Whether `text` has letters whose case a case-insensitive search ignores. */
function hasCase(text: string): boolean {
  return text.toLowerCase() !== text || text.toUpperCase() !== text;
}

/** The two non-ASCII characters whose case folds onto ASCII letters: KELVIN SIGN (k) and LATIN SMALL LETTER LONG S (s). */
const FOLDS_TO_ASCII = [
  { letter: 'k', bytes: Buffer.from('\u212a') },
  { letter: 's', bytes: Buffer.from('\u017f') },
];

interface BytesFinder {
  needles: Buffer[];
  /**
   * The bytes to look for the needles in: the text itself, or its ASCII-folded
   * copy when case is ignored; undefined when folding ASCII is not enough for
   * this text (it holds a character whose case folds onto a letter of a needle).
   */
  haystack(text: Buffer): Buffer | undefined;
}

/**
 * Finds the literals in bytes; null when case is ignored and one is not ASCII
 * (folding bytes cannot find it). `alsoFolded` are further literals looked for
 * in the folded bytes.
 */
function bytesFinder(texts: string[], fold: boolean, alsoFolded: string[] = []): BytesFinder | null {
  if (!fold) return { needles: texts.map((t) => Buffer.from(t)), haystack: (text) => text };
  if (!texts.every(isAscii)) return null;
  const needles = texts.map((t) => Buffer.from(t.toLowerCase()));
  const lowered = [...texts, ...alsoFolded].map((t) => t.toLowerCase());
  const hazards = FOLDS_TO_ASCII.filter((f) => lowered.some((t) => t.includes(f.letter))).map((f) => f.bytes);
  return {
    needles,
    haystack: (text) => (hazards.some((h) => text.includes(h)) ? undefined : foldAscii(text)),
  };
}

function isAscii(text: string): boolean {
  return /^[\x00-\x7f]*$/.test(text);
}

/** Reused across files (stored texts are at most a few MiB): allocating fresh memory per file costs more than folding. */
let folded = new Uint32Array(0);

/** `text` with ASCII letters lower-cased, in a buffer valid until the next call. */
function foldAscii(text: Buffer): Buffer {
  const words = (text.length + 3) >> 2;
  if (folded.length < words) folded = new Uint32Array(Math.max(words, 2 * folded.length, 1 << 18));
  const out = Buffer.from(folded.buffer, 0, text.length);
  text.copy(out);
  // Four bytes at a time: a byte is flagged when it is ASCII, >= 'A' and <= 'Z'
  // (no addition carries into the next byte: each is at most 0x7f + 0x3f).
  const w = folded;
  for (let i = 0; i < words; i++) {
    const x = w[i]!;
    const low = x & 0x7f7f7f7f;
    const upper = (low + 0x3f3f3f3f) & ~(low + 0x25252525) & ~x & 0x80808080;
    w[i] = x | (upper >>> 2);
  }
  return out;
}

type BytesQuery = { op: 'all' } | { op: 'literal'; bytes: Buffer } | { op: 'and' | 'or'; items: BytesQuery[] };

/** `query` with its literals as the bytes to find (lower-cased when folding); null when one is not ASCII and case is ignored. */
function toBytes(query: TextQuery, fold: boolean): BytesQuery | null {
  switch (query.op) {
    case 'all':
      return query;
    case 'literal':
      if (fold && !isAscii(query.text)) return null;
      return { op: 'literal', bytes: Buffer.from(fold ? query.text.toLowerCase() : query.text) };
    case 'and':
    case 'or': {
      const items = query.items.map((q) => toBytes(q, fold));
      return items.every((i) => i !== null) ? { op: query.op, items: items as BytesQuery[] } : null;
    }
  }
}

function holds(query: BytesQuery, line: Buffer): boolean {
  switch (query.op) {
    case 'all':
      return true;
    case 'literal':
      return line.includes(query.bytes);
    case 'and':
      return query.items.every((q) => holds(q, line));
    case 'or':
      return query.items.some((q) => holds(q, line));
  }
}

/** The UTF-8 length of `text`'s first `index` UTF-16 units. */
function byteOffset(text: string, index: number): number {
  return Buffer.byteLength(text.slice(0, index));
}

/**
 * Sets of literals of which every matching line holds at least one: one per
 * literal an AND requires, none when the query requires nothing.
 */
function anchorChoices(query: TextQuery): string[][] {
  switch (query.op) {
    case 'all':
      return [];
    case 'literal':
      return [[query.text]];
    case 'and':
      return query.items.flatMap(anchorChoices);
    case 'or': {
      const all = query.items.map(anchorChoices);
      return all.every((c) => c.length > 0) ? [all.flatMap((c) => c[0]!)] : [];
    }
  }
}

/** The needles of the choice found the fewest times in `hay`. */
function rarest(hay: Buffer, choices: BytesFinder[]): Buffer[] {
  if (choices.length === 1) return choices[0]!.needles;
  let best = choices[0]!.needles;
  let fewest = Infinity;
  for (const { needles } of choices) {
    let found = 0;
    for (const needle of needles)
      for (let i = hay.indexOf(needle); i >= 0 && found < fewest; i = hay.indexOf(needle, i + needle.length)) found++;
    if (found < fewest) {
      fewest = found;
      best = needles;
    }
  }
  return best;
}

/** Every literal of a query. */
function literalsOf(query: TextQuery): string[] {
  return query.op === 'literal' ? [query.text] : query.op === 'all' ? [] : query.items.flatMap(literalsOf);
}
