// Leases of the rows that stand for a live process: write locks, index runs,
// reindex jobs, watchers and uploads. Each row names its process (pid, host)
// and holds until `expires_at`; while the process lives one heartbeat per
// registry renews every row it holds. Whether such a row's process is alive
// is judged here, once: on this host by its pid (a dead process is known at
// once), on another host by its lease (a pid there says nothing here).
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** How long a lease holds without being renewed; the heartbeat renews it several times within. */
export const LEASE_MS = 120_000;
const RENEW_MS = 20_000;

export function leaseEnd(): string {
  return new Date(Date.now() + LEASE_MS).toISOString();
}

/** Whether a process of this host is alive. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !zombie(pid);
}

/** A killed process whose parent has not collected it yet still has a pid, but is dead (Linux; elsewhere: unknown, false). */
function zombie(pid: number): boolean {
  try {
    // The state follows the command name, which is in parentheses and may contain anything.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

export interface Leased {
  pid: number;
  host: string;
  /** Null for rows written before leases: on another host they are taken to be alive, as this machine cannot tell. */
  expires_at: string | null;
}

/** Whether the process a row stands for may still be alive: on this host, its process is; on another, its lease holds. */
export function leaseLive(row: Leased): boolean {
  if (row.host === hostname()) return processAlive(row.pid);
  return row.expires_at === null || Date.parse(row.expires_at) > Date.now();
}

/** How the process of a row judged dead was found dead, for the reason recorded with it. */
export function deathOf(row: Leased): string {
  return row.host === hostname()
    ? `its process (pid ${row.pid} on this host, ${row.host}) is gone`
    : `its process (pid ${row.pid} on ${row.host}) stopped renewing its lease, which ran out at ${row.expires_at}`;
}

/** What a process holds in one registry; a watcher is held per repository. */
interface Held {
  runs: Set<number>;
  jobs: Set<number>;
  uploads: Set<number>;
  watchers: Set<number>;
  timer: NodeJS.Timeout;
}

const heartbeats = new WeakMap<Kysely<Database>, Held>();

type Kind = 'runs' | 'jobs' | 'uploads' | 'watchers';

/**
 * Renews the lease of a row this process holds until dropLease. One timer per
 * registry renews everything the process holds there, however many rows.
 */
export function holdLease(db: Kysely<Database>, kind: Kind, id: number): void {
  let held = heartbeats.get(db);
  if (!held) {
    const fresh: Held = { runs: new Set(), jobs: new Set(), uploads: new Set(), watchers: new Set(), timer: undefined! };
    fresh.timer = setInterval(() => void renew(db, fresh).catch(() => undefined), RENEW_MS);
    // The lease keeps nothing alive: a process that is otherwise done exits, and its leases run out.
    fresh.timer.unref();
    heartbeats.set(db, fresh);
    held = fresh;
  }
  held[kind].add(id);
}

/** Stops renewing a row's lease (its process is done with it); the last one stops the registry's heartbeat. */
export function dropLease(db: Kysely<Database>, kind: Kind, id: number): void {
  const held = heartbeats.get(db);
  if (!held) return;
  held[kind].delete(id);
  if (held.runs.size + held.jobs.size + held.uploads.size + held.watchers.size > 0) return;
  clearInterval(held.timer);
  heartbeats.delete(db);
}

/** One beat: every row this process holds in the registry is renewed, a statement per table. */
async function renew(db: Kysely<Database>, held: Held): Promise<void> {
  const expires_at = leaseEnd();
  const runs = [...held.runs];
  const jobs = [...held.jobs];
  const uploads = [...held.uploads];
  const watchers = [...held.watchers];
  if (runs.length) {
    await db.updateTable('locks').set({ expires_at }).where('run_id', 'in', runs).execute();
    await db.updateTable('index_runs').set({ expires_at }).where('id', 'in', runs).where('state', '=', 'running').execute();
  }
  if (jobs.length) await db.updateTable('index_jobs').set({ expires_at }).where('id', 'in', jobs).execute();
  if (uploads.length) await db.updateTable('uploads').set({ expires_at }).where('id', 'in', uploads).execute();
  if (watchers.length) {
    await db
      .updateTable('watchers')
      .set({ expires_at })
      .where('repo_id', 'in', watchers)
      .where('pid', '=', process.pid)
      .where('host', '=', hostname())
      .execute();
  }
}
