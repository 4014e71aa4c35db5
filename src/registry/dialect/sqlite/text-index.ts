// Code search's index on SQLite: an FTS5 table with the trigram tokenizer over
// blob texts. It is contentless (the text stays in `blobs`, stored once) and
// keyed by `search_blobs`, which gives each indexed blob a stable integer id
// (a blob's implicit rowid may change on VACUUM). Entries are added with their
// blobs and collected with them.
//
// It keeps no positions (detail=none): which blobs hold a trigram is all a
// search asks of it, since the search reads the candidates' text anyway. With
// positions the table was 11 times the size (4.4 MB against 0.4 MB over
// kysely's 1.6 MB of sources) and filling it took twice the CPU. Without them
// FTS5 answers no phrase, so a literal is asked as each of its trigrams.
import type SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { TextIndex } from '../../engine.js';
import { MIN_INDEXED_LITERAL, type TextQuery } from '../../text-query.js';

const CREATE_TRIGRAMS = sql`create virtual table search_trigrams using fts5(content, content='', contentless_delete=1, detail=none, tokenize='trigram')`;

/** Creates the index and fills it from the blobs already stored (a registry from before search). */
export async function createTextIndex(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_blobs (id integer primary key, sha text not null unique)`.execute(db);
  await CREATE_TRIGRAMS.execute(db);
  await sql`insert into search_blobs (sha) select sha from blobs where content is not null`.execute(db);
  await fillTrigrams(db);
}

/** Rebuilds an index made with positions (registry/migrations/0012) without them; one made without is left alone. */
export async function dropTrigramPositions(db: Kysely<unknown>): Promise<void> {
  const table = await sql<{ sql: string }>`select sql from sqlite_master where name = 'search_trigrams'`.execute(db);
  if (/detail\s*=\s*none/i.test(table.rows[0]?.sql ?? '')) return;
  await sql`drop table search_trigrams`.execute(db);
  await CREATE_TRIGRAMS.execute(db);
  await fillTrigrams(db);
}

async function fillTrigrams(db: Kysely<unknown>): Promise<void> {
  await sql`insert into search_trigrams (rowid, content) select s.id, b.content from search_blobs s join blobs b on b.sha = s.sha`.execute(
    db,
  );
}

export function sqliteTextIndex(sqlite: SqliteDatabase.Database): TextIndex {
  let claim: SqliteDatabase.Statement | undefined;
  let index: SqliteDatabase.Statement | undefined;
  return {
    // Runs on the connection kysely's transaction holds (better-sqlite3 has one).
    async add(_trx, blobs) {
      claim ??= sqlite.prepare('insert into search_blobs (sha) values (?) on conflict (sha) do nothing returning id');
      index ??= sqlite.prepare('insert into search_trigrams (rowid, content) values (?, ?)');
      for (const blob of blobs) {
        const row = claim.get(blob.sha) as { id: number } | undefined;
        if (row) index.run(row.id, blob.content);
      }
    },
    async collect(db) {
      const orphans = sql`select id from search_blobs where sha not in (select sha from blobs)`;
      await sql`delete from search_trigrams where rowid in (${orphans})`.execute(db);
      await sql`delete from search_blobs where sha not in (select sha from blobs)`.execute(db);
    },
    candidates(query) {
      const expression = ftsExpression(query);
      if (expression === null) return null;
      // Driven from the full-text match: only the matching blobs' ids are looked up.
      return sql<{
        sha: string;
      }>`select s.sha from search_trigrams t join search_blobs s on s.id = t.rowid where search_trigrams match ${expression}`;
    },
  };
}

/** The FTS5 query for `query`: each literal a quoted phrase (its trigrams, consecutive). */
function ftsExpression(query: TextQuery): string | null {
  switch (query.op) {
    case 'all':
      return null;
    case 'literal':
      return trigrams(query.text);
    case 'and':
    case 'or': {
      const parts = query.items.map(ftsExpression);
      if (query.op === 'or' && parts.some((p) => p === null)) return null;
      const usable = parts.filter((p): p is string => p !== null);
      if (usable.length === 0) return null;
      return `(${usable.join(query.op === 'and' ? ' AND ' : ' OR ')})`;
    }
  }
}

/** Trigrams a long literal is asked by: over the bench corpora, 2% more candidates than all of them, in two thirds of the time. */
const MAX_TRIGRAMS = 24;

/**
 * The trigrams of a literal, ANDed (null under three characters): every text
 * containing the literal has them all. Each is a one-token phrase, which an
 * index without positions answers. A long literal is asked by MAX_TRIGRAMS of
 * them, spread over it.
 */
function trigrams(text: string): string | null {
  const chars = [...text];
  const all = new Set<string>();
  for (let i = 0; i + MIN_INDEXED_LITERAL <= chars.length; i++) all.add(chars.slice(i, i + MIN_INDEXED_LITERAL).join(''));
  if (all.size === 0) return null;
  const distinct = [...all];
  const step = distinct.length / MAX_TRIGRAMS;
  const chosen = step <= 1 ? distinct : Array.from({ length: MAX_TRIGRAMS }, (_, k) => distinct[Math.floor(k * step)]!);
  const terms = chosen.map((t) => `"${t.replaceAll('"', '""')}"`);
  return terms.length === 1 ? terms[0]! : `(${terms.join(' AND ')})`;
}
