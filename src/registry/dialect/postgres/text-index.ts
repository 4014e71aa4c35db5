// Code search's index on Postgres: pg_trgm's GIN index over blob texts. The
// index is on the `blobs` table itself, so Postgres keeps it as blobs are
// added and collected; candidates are the blobs whose text contains every
// literal, ignoring case (ILIKE, which the trigram index answers).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { TextIndex } from '../../engine.js';
import type { TextQuery } from '../../text-query.js';

/** Creates the extension and the index (filled from the blobs already stored). */
export async function createTextIndex(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index blobs_text_trigrams on blobs using gin (content gin_trgm_ops)`.execute(db);
}

export function postgresTextIndex(): TextIndex {
  return {
    // The GIN index follows the table.
    async add() {},
    async collect() {},
    candidates(query) {
      const condition = likeCondition(query);
      if (condition === null) return null;
      return sql<{ sha: string }>`select sha from blobs where content is not null and ${condition}`;
    },
  };
}

/**
 * The condition every satisfying text meets, or null when the query has no
 * literal to narrow by. ILIKE folds only what the database's locale folds,
 * while searches that ignore case fold all of Unicode: a literal with
 * characters outside ASCII narrows nothing, so that candidates stay a superset.
 */
function likeCondition(query: TextQuery): RawBuilder<boolean> | null {
  switch (query.op) {
    case 'all':
      return null;
    case 'literal':
      // (Nor does one with NUL, which Postgres text cannot hold: no stored text contains it.)
      // eslint-disable-next-line no-control-regex
      if (/[^\x01-\x7f]/.test(query.text)) return null;
      return sql<boolean>`content ilike ${'%' + query.text.replace(/[\\%_]/g, (c) => '\\' + c) + '%'}`;
    case 'and':
    case 'or': {
      const parts = query.items.map(likeCondition);
      if (query.op === 'or' && parts.some((p) => p === null)) return null;
      const usable = parts.filter((p): p is RawBuilder<boolean> => p !== null);
      if (usable.length === 0) return null;
      return sql<boolean>`(${sql.join(usable, sql.raw(query.op === 'and' ? ' and ' : ' or '))})`;
    }
  }
}
