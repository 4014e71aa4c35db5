// Code search's index on SQLite: an FTS5 table with the trigram tokenizer over
// blob texts. It is contentless (the text stays in `blobs`, stored once) and
// keyed by `search_blobs`, which gives each indexed blob a stable integer id
// (a blob's implicit rowid may change on VACUUM). Entries are added with their
// blobs and collected with them.
import type SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { TextIndex } from '../../engine.js';
import type { TextQuery } from '../../text-query.js';

/** Creates the index and fills it from the blobs already stored (a registry from before search). */
export async function createTextIndex(db: Kysely<unknown>): Promise<void> {
  await sql`create table search_blobs (id integer primary key, sha text not null unique)`.execute(db);
  await sql`create virtual table search_trigrams using fts5(content, content='', contentless_delete=1, tokenize='trigram')`.execute(db);
  await sql`insert into search_blobs (sha) select sha from blobs where content is not null`.execute(db);
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
      return `"${query.text.replaceAll('"', '""')}"`;
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
