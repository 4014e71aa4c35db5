// The embedded default: one SQLite file through better-sqlite3.
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Engine } from '../../engine.js';
import { Lru } from '../../../lru.js';
import type { Database } from '../../schema.js';
import { sqliteTextIndex } from './text-index.js';
import { sqliteWriters } from './writers.js';

/** Hashes per statement when reading texts: few distinct statements for the prepared-statement cache. */
const TEXT_READ_CHUNK = 64;

/** SQLite's own cap on a memory map. */
const MMAP_BYTES = 2147418112;

export function openSqlite(file: string, options: { mapped?: boolean } = {}): Engine {
  mkdirSync(dirname(file), { recursive: true });
  // SQLite takes a file shorter than its header for an empty database and overwrites it: refuse anything but a database.
  if (existsSync(file) && statSync(file).size > 0 && !hasSqliteHeader(file)) throw new Error('file is not a database');
  const sqlite = new SqliteDatabase(file);
  // WAL lets an MCP server keep reading while `sextant index` writes;
  // busy_timeout makes a second writer wait instead of failing at once: writers
  // queue behind each other's publishing transaction, and four of them on a
  // loaded two-core machine waited past 10 s.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 60000');
  sqlite.pragma('cache_size = -16384');
  // kysely prepares every query it runs; a query's SQL repeats from one
  // request to the next, so prepared statements are kept and reused.
  const prepared = new Lru<string, SqliteDatabase.Statement>(512);
  const database = {
    close: () => sqlite.close(),
    prepare(query: string) {
      // Transactions take the write lock when they begin: a deferred one that
      // reads, then writes after another process committed, fails at once
      // with "database is locked" (its snapshot is stale, so waiting cannot
      // help) instead of waiting its turn.
      const sql = query === 'begin' ? 'begin immediate' : query;
      let statement = prepared.get(sql);
      if (!statement) prepared.set(sql, (statement = sqlite.prepare(sql)));
      return statement;
    },
  };
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  const statements = new Map<string, SqliteDatabase.Statement>();
  const changes = sqlite.prepare('select data_version, total_changes() from pragma_data_version').raw();
  let mapped = false;
  // A first answer in a file reads its document, its text and its
  // definitions' rows, pages SQLite does not hold yet. Through the map they
  // are copied out of the OS's cache without a read call per page (held-out
  // corpora, alternating servers: first answers 0-0.35 ms faster at the median).
  const map = () => {
    if (mapped) return;
    sqlite.pragma(`mmap_size = ${MMAP_BYTES}`);
    mapped = true;
  };
  if (options.mapped) map();
  return {
    name: 'sqlite',
    location: file,
    connection: file,
    capabilities: {
      binaryType: 'blob',
      identityType: 'integer',
      identityAutoIncrement: true,
      maxParameters: 32766,
      textIndex: 'fts5-trigram',
      textPosition: 'instr',
    },
    db,
    textIndex: sqliteTextIndex(sqlite),
    writers: sqliteWriters(),
    async sizeBytes() {
      let total = 0;
      for (const suffix of ['', '-wal']) {
        try {
          total += statSync(file + suffix).size;
        } catch {
          // No WAL file while nothing is being written.
        }
      }
      return total;
    },
    // One prepared statement per table and column list, run once per row: the
    // transaction is the connection's, which kysely holds for `trx`.
    async insertRows(_trx, table, rows, options) {
      if (rows.length === 0) return;
      const columns = Object.keys(rows[0]!);
      const key = `${table}\0${columns.join(',')}\0${options?.ignoreConflicts ? 1 : 0}`;
      let statement = statements.get(key);
      if (!statement) {
        const verb = options?.ignoreConflicts ? 'insert or ignore' : 'insert';
        statement = sqlite.prepare(
          `${verb} into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
        );
        statements.set(key, statement);
      }
      for (const row of rows) statement.run(...columns.map((c) => (row as Record<string, unknown>)[c]));
    },
    async blobBytes(shas) {
      // Whole blob texts span chains of overflow pages: through a memory map
      // SQLite copies them out of the OS page cache directly, several times
      // faster than reading page by page into its own cache. Mapped only once a
      // search reads texts, so that indexing's resident memory does not count
      // the registry pages it touches. (SQLite caps the map at 2 GB by default.)
      map();
      const out = new Map<string, Buffer>();
      for (let i = 0; i < shas.length; i += TEXT_READ_CHUNK) {
        const chunk = shas.slice(i, i + TEXT_READ_CHUNK);
        const sql = `select sha, cast(content as blob) from blobs where content is not null and sha in (${chunk.map(() => '?').join(', ')})`;
        for (const [sha, bytes] of database.prepare(sql).raw().all(...chunk) as [string, Buffer | null][]) out.set(sha, bytes ?? Buffer.alloc(0));
      }
      return out;
    },
    async readSnapshot(read) {
      // `begin deferred`, not `begin` (which prepare() makes immediate): a reader never waits for a writer.
      // this.db: an adapter may wrap the engine with plugins on its db.
      return this.db.connection().execute(async (connection) => {
        await sql`begin deferred`.execute(connection);
        try {
          const out = await read(connection);
          await sql`commit`.execute(connection);
          return out;
        } catch (error) {
          await sql`rollback`.execute(connection);
          throw error;
        }
      });
    },
    // data_version moves when another connection commits, total_changes() when this one writes.
    changeToken() {
      const [version, total] = changes.get() as [number, number];
      return `${version}:${total}`;
    },
    async refreshStatistics() {
      // A sampled ANALYZE: milliseconds even on a large registry.
      sqlite.pragma('analysis_limit = 1000');
      sqlite.exec('ANALYZE');
    },
    close: () => db.destroy(),
  };
}

function hasSqliteHeader(file: string): boolean {
  const header = Buffer.alloc(16);
  const fd = openSync(file, 'r');
  try {
    return readSync(fd, header, 0, 16, 0) === 16 && header.equals(Buffer.from('SQLite format 3\0', 'latin1'));
  } finally {
    closeSync(fd);
  }
}
