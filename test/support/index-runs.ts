// Watching a `sextant index` from outside, as the atomic-publish and
// interrupt tests do: the registry read-only while the run writes it, the
// indexers it started, the work directories it keeps in the temporary directory.
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { registryReader, type RegistryReader } from './registry.js';

/** The registry of a test home, opened for reading beside a running index (on the suite's engine). */
export function registry(home: string): RegistryReader {
  return registryReader(home);
}

/** The first column of a query's first row. */
export function scalar<T>(db: RegistryReader, query: string, ...params: unknown[]): T {
  return Object.values(db.prepare(query).get(...params) as Record<string, T>)[0]!;
}

/**
 * The scip-typescript processes working on `root`, by pid: named on their
 * command line, or working in it (one started ahead is given its arguments
 * on stdin, and then moves into the root).
 */
export function runningIndexers(root: string): number[] {
  const pids: number[] = [];
  const real = realpathSync(root);
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let argv: string[];
    let cwd: string;
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      continue;
    }
    if (argv.some((a) => a.includes('scip-typescript')) && (argv.includes(root) || cwd === real)) pids.push(Number(pid));
  }
  return pids;
}

/** Work directories a sextant process left in the temporary directory. */
export function workDirsOf(pid: number): string[] {
  return readdirSync(tmpdir()).filter((d) => d.startsWith(`sextant-${pid}-`));
}
