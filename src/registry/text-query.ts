// What a search requires of a file's text, as literal substrings combined with
// AND and OR: the part of a query a substring index can answer. Engine-neutral;
// each engine's text index turns it into its own syntax.
export type TextQuery =
  { op: 'all' } | { op: 'literal'; text: string } | { op: 'and'; items: TextQuery[] } | { op: 'or'; items: TextQuery[] };

export const ALL: TextQuery = { op: 'all' };

/** Trigram indexes can only narrow by literals of at least this many characters. */
export const MIN_INDEXED_LITERAL = 3;

export function literal(text: string): TextQuery {
  // Counted in code points: a trigram index never matches a shorter phrase.
  return [...text].length >= MIN_INDEXED_LITERAL ? { op: 'literal', text } : ALL;
}

/** AND of the parts, dropping those that require nothing. */
export function and(items: TextQuery[]): TextQuery {
  const flat = items.flatMap((q) => (q.op === 'and' ? q.items : q.op === 'all' ? [] : [q]));
  return flat.length === 0 ? ALL : flat.length === 1 ? flat[0]! : { op: 'and', items: flat };
}

/** OR of the parts: requires nothing as soon as one part requires nothing. */
export function or(items: TextQuery[]): TextQuery {
  if (items.length === 0 || items.some((q) => q.op === 'all')) return ALL;
  const flat = items.flatMap((q) => (q.op === 'or' ? q.items : [q]));
  return flat.length === 1 ? flat[0]! : { op: 'or', items: flat };
}

/** Whether `text` (lower-cased already when `fold`) satisfies the query. */
export function satisfies(query: TextQuery, text: string, fold: boolean): boolean {
  switch (query.op) {
    case 'all':
      return true;
    case 'literal':
      return text.includes(fold ? query.text.toLowerCase() : query.text);
    case 'and':
      return query.items.every((q) => satisfies(q, text, fold));
    case 'or':
      return query.items.some((q) => satisfies(q, text, fold));
  }
}
