// One adapter over the registry's database engines. Engine differences are
// capability flags here, never `if (sqlite)` chains in queries or migrations.
import type { ColumnDataType, Insertable, Kysely, RawBuilder, Transaction } from 'kysely';
import type { Database } from './schema.js';
import type { TextQuery } from './text-query.js';

export interface EngineCapabilities {
  /** Column type of binary payloads. */
  binaryType: ColumnDataType;
  /** Column type of generated integer keys. */
  identityType: ColumnDataType;
  /** Whether generated keys need AUTOINCREMENT (SQLite) to never be reused. */
  identityAutoIncrement: boolean;
  /** The most bind parameters one statement may carry. */
  maxParameters: number;
  /**
   * The index that finds blobs containing literal substrings: SQLite FTS5's
   * trigram tokenizer, Postgres pg_trgm; null when the engine has none and
   * searches scan the text.
   */
  textIndex: 'fts5-trigram' | 'pg_trgm' | null;
  /**
   * The function giving where a text first holds another, byte for byte
   * (1-based, 0 when it does not): `instr(text, part)` or `strpos(text, part)`.
   * LIKE cannot stand in: it ignores case on SQLite and not on Postgres.
   */
  textPosition: 'instr' | 'strpos';
}

/** The engine's substring index over blob texts, content-addressed like the blobs. */
export interface TextIndex {
  /** Indexes the texts of newly stored blobs (blobs already indexed are left alone). */
  add(trx: Transaction<Database>, blobs: readonly { sha: string; content: string }[]): Promise<void>;
  /** Removes the entries of blobs that were collected. */
  collect(trx: Kysely<Database>): Promise<void>;
  /**
   * A subquery selecting the `sha` of every blob whose text may satisfy
   * `query` (a superset: candidates are verified by the real matcher), or
   * null when the query has no literal the index can use.
   */
  candidates(query: TextQuery): RawBuilder<{ sha: string }> | null;
}

/**
 * Keeps garbage collection from deleting rows a run is about to publish an
 * index of: content-addressed rows are shared, and a run's stay unreferenced
 * until it publishes.
 */
export interface WriterCoordination {
  /**
   * Marks this process as writing until the returned release is called (after
   * its index is published or its run failed). A process that dies releases it.
   */
  hold(): Promise<() => Promise<void>>;
  /** Inside the collecting transaction: whether no run is writing, and none can start before it ends. */
  mayCollect(trx: Transaction<Database>): Promise<boolean>;
}

export interface Engine {
  name: 'sqlite' | 'postgres';
  /** Where the registry lives, for messages (no credentials). */
  location: string;
  /** What opens this registry again from another process (a postgres:// URL may hold credentials: never shown). */
  connection: string;
  capabilities: EngineCapabilities;
  db: Kysely<Database>;
  /** Null when capabilities.textIndex is null. */
  textIndex: TextIndex | null;
  writers: WriterCoordination;
  /** Bytes the whole registry occupies. */
  sizeBytes(): Promise<number>;
  /**
   * Inserts many rows inside the transaction `trx`. Ingest writes hundreds of
   * thousands of rows; each engine has a faster way than building one huge
   * statement per batch through the query builder.
   */
  insertRows<T extends keyof Database & string>(
    trx: Transaction<Database>,
    table: T,
    rows: readonly Insertable<Database[T]>[],
    options?: { ignoreConflicts?: boolean },
  ): Promise<void>;
  /**
   * The stored texts of blobs as UTF-8 bytes, by hash (blobs without text are
   * absent). Code search reads megabytes of text per query and searches the
   * bytes: turning them into strings would cost more than the search.
   */
  blobBytes(shas: readonly string[]): Promise<Map<string, Buffer>>;
  /**
   * Refreshes the statistics the query planner chooses indexes by. Without
   * them SQLite walks every file of an index to find one symbol's definitions.
   */
  refreshStatistics(): Promise<void>;
  /**
   * Runs `read` in one transaction that sees a single commit of the registry
   * and takes no write lock (SQLite: a deferred transaction, where writes
   * begin immediate; Postgres: repeatable read).
   */
  readSnapshot<T>(read: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * A value that differs whenever the registry may have changed since it was
   * last taken: a commit by any process, this one's included. Null where the
   * engine has none cheaper than the reads it would spare (Postgres: every
   * read is a round trip, and so would this be).
   */
  changeToken(): string | null;
  close(): Promise<void>;
}

/** What the read queries need of an engine beside its connection. */
export type EngineReads = Pick<Engine, 'capabilities' | 'textIndex' | 'changeToken'>;
