// A shared registry on a Postgres server through `pg`: for teams whose CI
// publishes indexes that every developer's agent reads.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Engine } from '../../engine.js';
import { Lru } from '../../../lru.js';
import type { Database } from '../../schema.js';
import { postgresTextIndex } from './text-index.js';
import { postgresWriters } from './writers.js';

/** Connections each process keeps at most: an MCP server answers one request at a time, ingest writes in one transaction. */
const POOL_SIZE = 4;
/** Hashes per statement when reading texts. */
const TEXT_READ_CHUNK = 256;

/** Counts and sums come back as int8/numeric, which `pg` leaves as strings: the registry's never exceed 2^53. */
const NUMERIC_OIDS = new Set([20, 1700]);
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    NUMERIC_OIDS.has(oid) && format !== 'binary' ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** The URL without user, password or parameters: what messages, status and logs show. */
export function displayLocation(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/** Times a statement's text is seen before it is prepared by name: one-off statements stay unnamed. */
const NAME_AFTER = 3;
/** Statements prepared by name on one connection at most: the server keeps each, with its plan, until the connection ends. */
const NAMED_PER_CONNECTION = 128;

/**
 * A client that prepares its frequent reads by name. An unnamed statement is
 * parsed and planned by the server on every run: for the joins a warm lookup
 * makes, planning takes several times as long as executing (0.8 ms against
 * 0.1 ms at a million occurrences). A named one is parsed once per connection
 * and, after a few runs, keeps a generic plan. Only reads with parameters
 * and an explicit column list are named: `select *` would fail once a
 * migration added a column ("cached plan must not change result type").
 */
class NamingClient extends pg.Client {
  private static readonly seen = new Lru<string, number>(1024);
  private readonly named = new Map<string, string>();

  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (
      args.length === 2 &&
      typeof text === 'string' &&
      Array.isArray(values) &&
      values.length > 0 &&
      /^select /.test(text) &&
      !text.includes('*')
    ) {
      let name = this.named.get(text);
      if (name === undefined && this.named.size < NAMED_PER_CONNECTION) {
        const count = (NamingClient.seen.get(text) ?? 0) + 1;
        NamingClient.seen.set(text, count);
        if (count >= NAME_AFTER) this.named.set(text, (name = `sextant_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
      }
      if (name !== undefined) return (super.query as unknown as (config: pg.QueryConfig) => never)({ name, text, values });
    }
    return (super.query as unknown as (...a: unknown[]) => never)(...args);
  }
}

export function openPostgres(url: string): Engine {
  const config: pg.PoolConfig = { connectionString: url, max: POOL_SIZE, types, application_name: 'sextant' };
  const pool = new pg.Pool({ ...config, Client: NamingClient });
  // An idle connection the server dropped must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const maxParameters = 65535;
  return {
    name: 'postgres',
    location: displayLocation(url),
    connection: url,
    capabilities: {
      binaryType: 'bytea',
      identityType: 'serial',
      identityAutoIncrement: false,
      maxParameters,
      textIndex: 'pg_trgm',
      textPosition: 'strpos',
    },
    db,
    textIndex: postgresTextIndex(),
    writers: postgresWriters(config),
    async sizeBytes() {
      const { rows } = await sql<{ bytes: number }>`select pg_database_size(current_database()) as bytes`.execute(db);
      return Number(rows[0]!.bytes);
    },
    // Multi-row inserts through kysely on the transaction's own connection, as
    // many rows per statement as the parameter limit allows. Rows that may
    // conflict are sorted by their key (the first column), so that writers
    // inserting overlapping rows take row locks in one order and never deadlock.
    async insertRows(trx, table, rows, options) {
      if (rows.length === 0) return;
      const columns = Object.keys(rows[0]!).length;
      const perStatement = Math.max(1, Math.floor(maxParameters / columns));
      let ordered = rows;
      if (options?.ignoreConflicts) {
        const key = Object.keys(rows[0]!)[0]!;
        const keyOf = (r: unknown) => String((r as Record<string, unknown>)[key]);
        ordered = [...rows].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
      }
      for (let i = 0; i < ordered.length; i += perStatement) {
        const chunk = ordered.slice(i, i + perStatement) as never[];
        const insert = trx.insertInto(table).values(chunk);
        await (options?.ignoreConflicts ? insert.onConflict((oc) => oc.doNothing()) : insert).execute();
      }
    },
    async blobBytes(shas) {
      const out = new Map<string, Buffer>();
      for (let i = 0; i < shas.length; i += TEXT_READ_CHUNK) {
        const chunk = shas.slice(i, i + TEXT_READ_CHUNK);
        // convert_to hands the text over as bytea, which `pg` returns as a Buffer without decoding it.
        const { rows } = await sql<{ sha: string; bytes: Buffer }>`select sha, convert_to(content, 'UTF8') as bytes from blobs
          where content is not null and sha = any(${chunk})`.execute(db);
        for (const r of rows) out.set(r.sha, r.bytes);
      }
      return out;
    },
    readSnapshot(read) {
      // Repeatable read: each statement of a read-committed transaction would see the latest commit.
      // this.db: an adapter may wrap the engine with plugins on its db.
      return this.db.transaction().setIsolationLevel('repeatable read').execute(read);
    },
    changeToken: () => null,
    async refreshStatistics() {
      // Only the tables ingest grows: ANALYZE of the whole database reads every table.
      await sql`analyze index_files, documents, symbols, symbol_refs, definitions, relationships, blobs`.execute(db);
    },
    close: () => db.destroy(),
  };
}
