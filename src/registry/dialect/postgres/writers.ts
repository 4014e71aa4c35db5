// Writers and garbage collection across processes and hosts: every run holds
// a shared advisory lock on a connection of its own from its start until its
// index is published; collection takes the same lock exclusively for its
// transaction, and skips when it cannot. Postgres releases a session's
// advisory locks when its connection ends, so a writer that was killed (or
// whose host went away) stops holding collection off without any cleanup.
import pg from 'pg';
import { sql } from 'kysely';
import type { WriterCoordination } from '../../engine.js';

/** The advisory lock's key: sextant's, in the two-int form. */
const KEY = sql`${0x5e47a47}::int, 1`;

export function postgresWriters(config: pg.PoolConfig): WriterCoordination {
  return {
    async hold() {
      const client = new pg.Client({ ...config, application_name: 'sextant writer' });
      client.on('error', () => undefined);
      await client.connect();
      try {
        // Waits while a collection runs: the run then sees what it left.
        await client.query('select pg_advisory_lock_shared($1::int, 1)', [0x5e47a47]);
      } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
      }
      return async () => {
        await client.end().catch(() => undefined);
      };
    },
    async mayCollect(trx) {
      const { rows } = await sql<{ free: boolean }>`select pg_try_advisory_xact_lock(${KEY}) as free`.execute(trx);
      return rows[0]!.free;
    },
  };
}
