// SQLite's search index keeps no positions from here on (see
// src/registry/dialect/sqlite/text-index.ts): one built with them is rebuilt
// from the stored texts. pg_trgm's index never had any.
import type { Kysely } from 'kysely';
import type { EngineCapabilities } from '../../src/registry/engine.js';
import { dropTrigramPositions } from '../../src/registry/dialect/sqlite/text-index.js';

export async function up(db: Kysely<unknown>, caps: EngineCapabilities): Promise<void> {
  if (caps.textIndex === 'fts5-trigram') await dropTrigramPositions(db);
}
