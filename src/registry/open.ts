// Finds, opens and migrates the registry.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import { migrations } from '../../registry/migrations/index.js';
import type { Engine } from './engine.js';
import { openSqlite } from './dialect/sqlite/engine.js';
import { UserError } from '../errors.js';

export interface RegistryOptions {
  /** --registry: a file path or a postgres:// URL. */
  registry?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /**
   * For a long-lived reader (sextant mcp): a SQLite registry is mapped into
   * memory from the start, so that reads copy pages straight out of the OS's
   * cache. Left off where memory is measured and pages are touched once
   * (indexing, the CLI's queries).
   */
  mapped?: boolean;
}

/** Where the registry lives: --registry, then SEXTANT_REGISTRY, then $SEXTANT_HOME/registry.db. */
export function registryLocation(options: RegistryOptions = {}): string {
  const env = options.env ?? process.env;
  const explicit = options.registry ?? env.SEXTANT_REGISTRY;
  if (explicit) return /^[a-z]+:\/\//i.test(explicit) ? explicit : resolve(explicit);
  const home = env.SEXTANT_HOME || join(homedir(), '.sextant');
  return join(resolve(home), 'registry.db');
}

export async function openRegistry(options: RegistryOptions = {}): Promise<Engine> {
  const location = registryLocation(options);
  const postgres = /^postgres(ql)?:\/\//i.test(location);
  if (!postgres && /^[a-z]+:\/\//i.test(location)) {
    throw new UserError(`unsupported registry URL ${location.split('://')[0]}://: pass a file path or a postgres:// URL to --registry`);
  }
  // Loaded only for a Postgres registry: its driver is no part of a SQLite registry's start.
  const dialect = postgres ? await import('./dialect/postgres/engine.js') : undefined;
  let engine: Engine;
  try {
    engine = dialect ? dialect.openPostgres(location) : openSqlite(location, { mapped: options.mapped === true });
  } catch (error) {
    const where = dialect ? dialect.displayLocation(location) : location;
    throw new UserError(`cannot open the registry at ${where}: ${(error as Error).message}; pass another path with --registry`);
  }
  try {
    await migrate(engine);
  } catch (error) {
    await engine.close();
    throw error;
  }
  return engine;
}

async function migrate(engine: Engine): Promise<void> {
  // Every open but the first finds nothing to do, and kysely's Migrator takes
  // some 30 ms of a cold start to find it (its tables, a transaction, every
  // migration checked): one read says so first.
  if (await upToDate(engine)) return;
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, m] of Object.entries(migrations)) out[name] = { up: (db) => m.up(db, engine.capabilities) };
      return out;
    },
  };
  const migrator = new Migrator({ db: engine.db, provider });
  let result;
  try {
    result = await migrator.migrateToLatest();
  } catch (error) {
    throw registryError(engine, error);
  }
  if (result.error) throw registryError(engine, result.error);
}

/**
 * Whether the registry has run exactly the migrations this sextant has.
 * Anything else (no migration table yet, migrations to run, or ones this
 * sextant does not know, from a newer one) is the Migrator's to handle.
 */
async function upToDate(engine: Engine): Promise<boolean> {
  let names: string[];
  try {
    // The Migrator's own table (kysely's default name), outside the registry's typed schema.
    names = (await sql<{ name: string }>`select name from kysely_migration`.execute(engine.db)).rows.map((r) => r.name);
  } catch {
    return false;
  }
  const known = new Set(Object.keys(migrations));
  return names.length === known.size && names.every((name) => known.has(name));
}

function registryError(engine: Engine, error: unknown): UserError {
  const message = error instanceof Error ? error.message : String(error);
  if (/corrupted migrations|missing/i.test(message)) {
    return new UserError(
      `the registry at ${engine.location} was written by a newer sextant (${message}); upgrade sextant or pass another --registry`,
    );
  }
  if (/not a database|malformed|corrupt/i.test(message)) {
    return new UserError(`the registry at ${engine.location} is corrupt (${message}); move it away and run \`sextant index\` again`);
  }
  return new UserError(`cannot prepare the registry at ${engine.location}: ${message}`);
}
