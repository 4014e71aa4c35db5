// One adapter over the registry's database engines. Engine differences are
// capability flags here, never `if (sqlite)` chains in queries or migrations.
import type { ColumnDataType, Insertable, Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

export interface EngineCapabilities {
  /** Column type of binary payloads. */
  binaryType: ColumnDataType;
  /** Column type of generated integer keys. */
  identityType: ColumnDataType;
  /** Whether generated keys need AUTOINCREMENT (SQLite) to never be reused. */
  identityAutoIncrement: boolean;
  /** The most bind parameters one statement may carry. */
  maxParameters: number;
}

export interface Engine {
  name: 'sqlite' | 'postgres';
  /** Where the registry lives, for messages (no credentials). */
  location: string;
  capabilities: EngineCapabilities;
  db: Kysely<Database>;
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
   * Refreshes the statistics the query planner chooses indexes by. Without
   * them SQLite walks every file of an index to find one symbol's definitions.
   */
  refreshStatistics(): Promise<void>;
  close(): Promise<void>;
}
