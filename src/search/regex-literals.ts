// The literals a regular expression (RE2 syntax) requires of any text it
// matches, for the substring index to narrow the files and lines worth running
// the real engine on. Conservative by construction: whatever this small parser
// does not understand requires nothing (ALL), so a missed literal only costs
// speed, never a match.
import { ALL, and, literal, or, type TextQuery } from '../registry/text-query.js';

/** Literal sets larger than this are not expanded further (they become one requirement). */
const MAX_EXACT = 16;

interface Info {
  /** Every string the expression can match, when that is a small finite set. */
  exact: string[] | null;
  /** What any match requires, beyond `exact`. */
  required: TextQuery;
  /** `exact` is only what every match starts with; more (unknown) text follows. */
  open?: boolean;
}

const UNKNOWN: Info = { exact: null, required: ALL };
const EMPTY: Info = { exact: [''], required: ALL };

export function requiredLiterals(pattern: string): TextQuery {
  try {
    const parser = new Parser(pattern);
    const info = parser.alternation();
    if (parser.pos !== pattern.length) return ALL;
    return finish(info);
  } catch {
    return ALL;
  }
}

function finish(info: Info): TextQuery {
  return info.exact ? and([or(info.exact.map(literal)), info.required]) : info.required;
}

class GiveUp extends Error {}

class Parser {
  pos = 0;
  constructor(private readonly src: string) {}

  alternation(): Info {
    const branches = [this.concatenation()];
    while (this.src[this.pos] === '|') {
      this.pos++;
      branches.push(this.concatenation());
    }
    if (branches.length === 1) return branches[0]!;
    if (branches.every((b) => b.exact && !b.open)) {
      const all = [...new Set(branches.flatMap((b) => b.exact!))];
      if (all.length <= MAX_EXACT) return { exact: all, required: ALL };
    }
    return { exact: null, required: or(branches.map(finish)) };
  }

  concatenation(): Info {
    let exact: string[] | null = [''];
    const required: TextQuery[] = [];
    // Once broken by a part that is not a small set of strings, the whole is no longer one.
    let broken = false;
    const flush = () => {
      if (exact) required.push(or(exact.map(literal)));
      exact = null;
      broken = true;
    };
    while (this.pos < this.src.length && this.src[this.pos] !== '|' && this.src[this.pos] !== ')') {
      const atom = this.quantified(this.atom());
      required.push(atom.required);
      if (atom.exact && exact && exact.length * atom.exact.length <= MAX_EXACT) {
        exact = exact.flatMap((a) => atom.exact!.map((b) => a + b));
      } else {
        flush();
        exact = atom.exact;
      }
      if (atom.open) flush();
    }
    if (broken) flush();
    return { exact, required: and(required) };
  }

  quantified(atom: Info): Info {
    const c = this.src[this.pos];
    let min: number;
    if (c === '*' || c === '?') {
      this.pos++;
      min = 0;
    } else if (c === '+') {
      this.pos++;
      min = 1;
    } else if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.src.slice(this.pos))) {
      const m = /^\{(\d+)(,\d*)?\}/.exec(this.src.slice(this.pos))!;
      this.pos += m[0].length;
      min = Number(m[1]);
    } else {
      return atom;
    }
    if (this.src[this.pos] === '?') this.pos++; // non-greedy: same language
    // One repetition or more starts with one occurrence; none requires nothing.
    return min === 0 ? UNKNOWN : { exact: atom.exact, required: atom.required, open: true };
  }

  atom(): Info {
    const c = this.src[this.pos]!;
    switch (c) {
      case '(':
        return this.group();
      case '[':
        this.skipClass();
        return UNKNOWN;
      case '.':
        this.pos++;
        return UNKNOWN;
      case '^':
      case '$':
        this.pos++;
        return EMPTY;
      case '\\':
        return this.escape();
      case '*':
      case '+':
      case '?':
        throw new GiveUp();
      default: {
        const cp = this.src.codePointAt(this.pos)!;
        const ch = String.fromCodePoint(cp);
        this.pos += ch.length;
        return { exact: [ch], required: ALL };
      }
    }
  }

  group(): Info {
    this.pos++;
    if (this.src[this.pos] === '?') {
      // Non-capturing and named groups match as their body; flags ((?i) ...) change what literals mean.
      const named = /^\?(P?<[A-Za-z_][A-Za-z0-9_]*>|:)/.exec(this.src.slice(this.pos));
      if (!named) throw new GiveUp();
      this.pos += named[0].length;
    }
    const inner = this.alternation();
    if (this.src[this.pos] !== ')') throw new GiveUp();
    this.pos++;
    return inner;
  }

  escape(): Info {
    const next = this.src[this.pos + 1];
    if (next === undefined) throw new GiveUp();
    this.pos += 2;
    // Punctuation escaped is itself.
    if (/[\\.+*?()|[\]{}^$\-/#&~ !"%',:;<=>@`]/.test(next)) return { exact: [next], required: ALL };
    if (next === 'n') return { exact: ['\n'], required: ALL };
    if (next === 't') return { exact: ['\t'], required: ALL };
    if ('bBAz'.includes(next)) return EMPTY;
    if ('dDsSwW'.includes(next)) return UNKNOWN;
    if (next === 'p' || next === 'P') {
      if (this.src[this.pos] === '{') {
        const end = this.src.indexOf('}', this.pos);
        if (end < 0) throw new GiveUp();
        this.pos = end + 1;
      } else this.pos++;
      return UNKNOWN;
    }
    throw new GiveUp();
  }

  skipClass(): void {
    let i = this.pos + 1;
    if (this.src[i] === '^') i++;
    if (this.src[i] === ']') i++;
    while (i < this.src.length && this.src[i] !== ']') {
      if (this.src[i] === '\\') i += 2;
      else if (this.src.startsWith('[:', i)) {
        const end = this.src.indexOf(':]', i + 2);
        if (end < 0) throw new GiveUp();
        i = end + 2;
      } else i++;
    }
    if (i >= this.src.length) throw new GiveUp();
    this.pos = i + 1;
  }
}
