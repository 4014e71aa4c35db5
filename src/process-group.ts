// A child started in a process group of its own (`detached: true`), watched
// until it closes: stopping it kills the whole group, so the helpers it
// spawned do not outlive it, and a deadline stops it the same way.
import type { ChildProcess } from 'node:child_process';

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the child could not be started at all. */
  error?: Error;
}

export interface WatchedGroup {
  /** Settles when the child has closed (or could not start); the deadline is then cleared. */
  exited: Promise<ChildExit>;
  /** SIGKILLs the whole group (the child alone if the group is gone). */
  kill(): void;
  /** Whether the deadline stopped it. */
  timedOut(): boolean;
}

export function watchGroup(child: ChildProcess, timeoutMs: number): WatchedGroup {
  let timedOut = false;
  const kill = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, timeoutMs);
  const exited = new Promise<ChildExit>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  }).finally(() => clearTimeout(timer));
  return { exited, kill, timedOut: () => timedOut };
}
