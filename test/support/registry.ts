// The registry engine the suite runs against, and what tests need of a
// registry whatever its engine: a fresh one per test home, reads of its rows
// while a run writes them, and a fingerprint of everything it holds.
//
// SEXTANT_TEST_REGISTRY_ENGINE=postgres runs every test against a Postgres
// server: each test home gets a database of its own, created from
// SEXTANT_TEST_POSTGRES_URL (a URL whose role may create databases; .ci/postgres
// prints one) and dropped when the test process exits. Anything else, or
// nothing, is SQLite: a registry.db file in the test home.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export type TestEngine = 'sqlite' | 'postgres';

export const TEST_ENGINE: TestEngine = process.env.SEXTANT_TEST_REGISTRY_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

const POSTGRES_BASE = postgresBase(process.env.SEXTANT_TEST_POSTGRES_URL || 'postgres://sextant_test:sextant_test@127.0.0.1:5432/postgres');

/** The base URL, checked: anything else would have psql fall back to the local socket and the OS user, and fail far from the cause. */
function postgresBase(url: string): string {
  if (!/^postgres(ql)?:\/\/\S+$/.test(url)) {
    throw new Error(
      `SEXTANT_TEST_POSTGRES_URL is not a postgres:// URL (${JSON.stringify(url.slice(0, 200))}): set it to one, or unset it and let \`bash .ci/postgres\` print one`,
    );
  }
  return url;
}

/** The registry of each test home, by home. */
const registries = new Map<string, string>();
const created: string[] = [];
let counter = 0;

/** Runs SQL commands through one psql on `url`, in order; their output, unaligned and without headers. */
function psql(url: string, ...commands: string[]): string {
  const r = spawnSync('psql', [url, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', ...commands.flatMap((c) => ['-c', c])], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`psql failed (${r.status}): ${r.stderr || r.error?.message}`);
  return r.stdout;
}

function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_BASE);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The registry a new test home uses: its registry.db on SQLite; on Postgres a
 * new, empty database (in the C collation, so that text sorts by code point
 * as on SQLite). The returned environment variables select it. The engine is
 * the suite's unless a test compares the two.
 */
export function newRegistry(home: string, engine: TestEngine = TEST_ENGINE): NodeJS.ProcessEnv {
  if (engine === 'sqlite') {
    registries.set(home, join(home, 'registry.db'));
    return {};
  }
  const name = `sextant_test_${process.pid}_${++counter}_${Date.now().toString(36)}`;
  psql(POSTGRES_BASE, `create database ${name} template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'`);
  if (created.length === 0) process.on('exit', dropCreated);
  created.push(name);
  const url = databaseUrl(name);
  registries.set(home, url);
  return { SEXTANT_REGISTRY: url };
}

function dropCreated(): void {
  for (const name of created.splice(0)) {
    try {
      psql(POSTGRES_BASE, `drop database if exists ${name} with (force)`);
    } catch {
      // The server went away first: nothing left to drop.
    }
  }
}

/** What opens the test home's registry: the file path, or the postgres:// URL (with its credentials). */
export function registryOf(home: string): string {
  return registries.get(home) ?? join(home, 'registry.db');
}

/** The location sextant reports for the home's registry (a URL without its credentials). */
export function displayedRegistry(home: string): string {
  const location = registryOf(home);
  if (!/^postgres(ql)?:\/\//.test(location)) return location;
  const u = new URL(location);
  return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
}

/** Whether anything has created the home's registry yet (its file, or its tables). */
export function registryExists(home: string): boolean {
  const location = registryOf(home);
  if (!/^postgres(ql)?:\/\//.test(location)) return existsSync(location);
  return psql(location, "select count(*) from information_schema.tables where table_schema = 'public'").trim() !== '0';
}

/** Synchronous reads of a registry beside a running sextant: better-sqlite3's shape, on either engine. */
export interface RegistryReader {
  prepare(query: string): { get(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] };
  close(): void;
}

/** The home's registry opened for reading (SQLite: read-only; `?` placeholders on both engines). */
export function registryReader(home: string): RegistryReader {
  const location = registryOf(home);
  if (!/^postgres(ql)?:\/\//.test(location)) {
    const db = new Database(location, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    return db;
  }
  const all = (query: string, params: unknown[]) => {
    let i = 0;
    const bound = query.replace(/\?/g, () => literal(params[i++]));
    return JSON.parse(psql(location, `select coalesce(json_agg(t), '[]') from (${bound}) t`)) as unknown[];
  };
  return {
    prepare: (query) => ({ get: (...params) => all(query, params)[0], all: (...params) => all(query, params) }),
    close() {},
  };
}

/** A test's own value as an SQL literal. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  throw new Error(`no SQL literal for ${typeof value}`);
}

/**
 * A digest of everything the registry holds: each table's columns and all its
 * rows (in a sorted order, as engines return rows in their own). Equal
 * digests mean equal content, which is what "the registry is unchanged"
 * means, on any engine (and whether or not SQLite has checkpointed its WAL).
 */
export function registryFingerprint(home: string): string {
  const location = registryOf(home);
  const hash = createHash('sha256');
  if (!/^postgres(ql)?:\/\//.test(location)) {
    const db = new Database(location, { readonly: true, fileMustExist: true });
    try {
      const tables = db.prepare("select name, sql from sqlite_master where type = 'table' order by name").all() as {
        name: string;
        sql: string;
      }[];
      for (const { name, sql } of tables) {
        hash.update(`${name}\n${sql}\n`);
        const rows = (db.prepare(`select * from "${name}"`).raw().all() as unknown[][]).map((row) =>
          JSON.stringify(row, (_k, v) =>
            v?.type === 'Buffer' ? Buffer.from(v.data).toString('base64') : typeof v === 'bigint' ? String(v) : v,
          ),
        );
        for (const row of rows.sort()) hash.update(row + '\n');
      }
    } finally {
      db.close();
    }
    return hash.digest('hex');
  }
  const columns = psql(
    location,
    "select table_name || E'\\t' || string_agg(column_name || ' ' || data_type, ', ' order by ordinal_position) from information_schema.columns where table_schema = 'public' group by table_name order by table_name",
  )
    .split('\n')
    .filter(Boolean);
  // Each row as JSON text, sorted by that text (bytea shows as hex), digested by the server: a table of texts
  // would not fit through psql's output. One psql for all the tables (a line each): tests take a fingerprint
  // around every rejection, and a psql (and a server process) per table was most of the suite's psql time.
  const digests =
    columns.length === 0
      ? []
      : psql(
          location,
          ...columns.map((line) => {
            const table = line.split('\t')[0];
            return `select md5(coalesce(string_agg(r, E'\\n' order by r), '')) from (select row_to_json(t)::text as r from "${table}" t) rows`;
          }),
        ).split('\n');
  columns.forEach((line, i) => {
    if (!/^[0-9a-f]{32}$/.test(digests[i] ?? ''))
      throw new Error(`psql gave no digest for ${line.split('\t')[0]}: ${JSON.stringify(digests)}`);
    hash.update(`${line}\n${digests[i]}\n`);
  });
  return hash.digest('hex');
}
