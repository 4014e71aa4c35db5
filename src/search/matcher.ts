// Finding matches in one file's text. Literals go through JavaScript's
// RegExp (an escaped literal cannot backtrack); regular expressions through
// re2js, RE2's linear-time engine, so no pattern can hang the server. Matches
// are per line, as grep's are: a match never spans a newline.
import { RE2JS, RE2JSException } from 're2js';
import { UserError } from '../errors.js';
import { literal, satisfies, type TextQuery } from '../registry/text-query.js';
import { requiredLiterals } from './regex-literals.js';

/** A match as offsets into the file's text. */
export interface Span {
  start: number;
  end: number;
}

export interface Matcher {
  /** What a file must contain to match, for the substring index. */
  readonly required: TextQuery;
  /**
   * Calls `onMatch` for each match in `text`, in order, until it returns false
   * or `expired()` says the time budget is spent (checked every few lines).
   * Returns false when it stopped early.
   */
  scan(text: string, onMatch: (span: Span) => boolean, expired: () => boolean): boolean;
}

export function createMatcher(query: string, options: { regex: boolean; caseSensitive: boolean }): Matcher {
  return options.regex ? regexMatcher(query, options.caseSensitive) : literalMatcher(query, options.caseSensitive);
}

function literalMatcher(query: string, caseSensitive: boolean): Matcher {
  const pattern = new RegExp(query.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), caseSensitive ? 'gu' : 'giu');
  return {
    required: literal(query),
    scan(text, onMatch) {
      pattern.lastIndex = 0;
      for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
        if (!onMatch({ start: m.index, end: m.index + m[0].length })) return false;
      }
      return true;
    },
  };
}

/** Lines between time checks while a regex runs line by line. */
const LINES_PER_CHECK = 256;

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
  // Lines that cannot hold the required literals are skipped without running the engine;
  // lines holding one of the anchors are found with indexOf instead of visiting every line.
  const prefilter = required.op !== 'all';
  const anchors = anchorsOf(required)?.map((a) => (caseSensitive ? a : a.toLowerCase())) ?? null;
  return {
    required,
    scan(text, onMatch, expired) {
      if (text.length === 0) return true;
      const folded = prefilter && !caseSensitive ? text.toLowerCase() : text;
      // toLowerCase keeps '\n' where it was but may change lengths: fold line by line then.
      const sameLength = folded.length === text.length;
      /** Runs the engine on the line [start, end); false when onMatch asked to stop. */
      const matchLine = (start: number, end: number): boolean => {
        const line = text.slice(start, end);
        if (
          prefilter &&
          !satisfies(required, sameLength ? folded.slice(start, end) : caseSensitive ? line : line.toLowerCase(), !caseSensitive)
        )
          return true;
        const m = re.matcher(line);
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
      if (anchors && sameLength) {
        const starts = new Set<number>();
        for (const anchor of anchors) {
          for (let i = folded.indexOf(anchor); i >= 0;) {
            starts.add(folded.lastIndexOf('\n', i - 1) + 1);
            const next = folded.indexOf('\n', i);
            if (next < 0) break;
            i = folded.indexOf(anchor, next + 1);
          }
        }
        let n = 0;
        for (const start of [...starts].sort((a, b) => a - b)) {
          if (++n % LINES_PER_CHECK === 0 && expired()) return false;
          const end = text.indexOf('\n', start);
          if (!matchLine(start, end < 0 ? text.length : end)) return false;
        }
        return true;
      }
      let start = 0;
      for (let n = 0; start <= text.length; n++) {
        if (n % LINES_PER_CHECK === LINES_PER_CHECK - 1 && expired()) return false;
        let end = text.indexOf('\n', start);
        if (end < 0) end = text.length;
        if (end === text.length && start === end && start > 0) break; // after the final newline: no line
        if (!matchLine(start, end)) return false;
        start = end + 1;
      }
      return true;
    },
  };
}

/** Literals of which every matching line holds at least one, or null when the query has none. */
function anchorsOf(query: TextQuery): string[] | null {
  switch (query.op) {
    case 'all':
      return null;
    case 'literal':
      return [query.text];
    case 'and':
      for (const item of query.items) {
        const found = anchorsOf(item);
        if (found) return found;
      }
      return null;
    case 'or': {
      const all = query.items.map(anchorsOf);
      return all.every((a) => a !== null) ? (all.flat() as string[]) : null;
    }
  }
}
