// Ctrl-C (SIGINT) and SIGTERM during `sextant index`: the run stops where it
// is, stops its indexer, removes its temporary files, publishes nothing and
// is recorded as failed; the previous index keeps serving. The command then
// exits as a process killed by that signal would report it (128 + signal).
import { constants } from 'node:os';
import { UserError } from '../errors.js';

export type StopSignal = 'SIGINT' | 'SIGTERM';
const SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

export class Interrupted extends UserError {
  override name = 'Interrupted';

  constructor(readonly signal: StopSignal) {
    super(`interrupted by ${signal}: nothing was published; the previous index, if any, is still served`);
  }

  override get exitCode(): number {
    return 128 + constants.signals[this.signal];
  }
}

/** Throws Interrupted once `signal` has fired; a no-op without one. */
export function throwIfInterrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Interrupted(signal.reason as StopSignal);
}

/**
 * Turns SIGINT and SIGTERM into an abort of the returned signal, for as long
 * as the work runs (dispose() gives the process its default handling back).
 * A second signal stops at once, for a user who does not want to wait for
 * the cleanup; the next run collects what that leaves behind.
 */
export function abortOnSignals(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const handlers = SIGNALS.map((name) => {
    const handler = () => {
      if (controller.signal.aborted) process.exit(new Interrupted(name).exitCode);
      controller.abort(name);
    };
    process.on(name, handler);
    return () => process.off(name, handler);
  });
  return { signal: controller.signal, dispose: () => handlers.forEach((off) => off()) };
}
