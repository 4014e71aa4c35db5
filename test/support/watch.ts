// `sextant watch` as a test runs it: a subprocess whose JSON events are read as they come.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { SEXTANT_BIN } from './paths.js';

/** A running `sextant watch --json`, its events read as they come. */
export class Watch {
  readonly events: Record<string, any>[] = [];
  readonly exited: Promise<number | null>;
  stderr = '';
  private readonly child: ChildProcess;
  private waiters: (() => void)[] = [];

  constructor(roots: string | string[], env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [SEXTANT_BIN, 'watch', ...[roots].flat(), '--poll', '1', '--json'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffer = '';
    this.child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let end: number;
      while ((end = buffer.indexOf('\n')) >= 0) {
        this.events.push(JSON.parse(buffer.slice(0, end)));
        buffer = buffer.slice(end + 1);
        for (const wake of this.waiters.splice(0)) wake();
      }
    });
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Waits (at most `seconds`) for an event matching `match`, and returns it. */
  async next(match: (e: Record<string, any>) => boolean, seconds = 180): Promise<Record<string, any>> {
    const deadline = Date.now() + seconds * 1000;
    for (;;) {
      const found = this.events.find(match);
      if (found) return found;
      assert.ok(Date.now() < deadline, `no such event within ${seconds} s; events: ${JSON.stringify(this.events)}; stderr: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 500);
      });
    }
  }

  stop(signal: NodeJS.Signals): Promise<number | null> {
    this.child.kill(signal);
    return this.exited;
  }
}
