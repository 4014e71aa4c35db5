// The MCP server's collection of V8's young generation once it has been
// quiet: after a burst of calls, not inside one, and not while a call is
// being answered.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';
import { IdleCollector, WORTH_COLLECTING, youngBytes } from '../../src/mcp/idle-collector.js';

/** Allocates until the young generation holds more than a collection is worth. */
function litter(): void {
  const keep: unknown[] = [];
  for (let i = 0; youngBytes() < 2 * WORTH_COLLECTING; i++) keep.push({ i, text: `x${i}` });
}

/** A collector whose collections are recorded, over a young generation of `young` bytes. */
function recording(busy: () => boolean = () => false, young = () => 2 * WORTH_COLLECTING) {
  const calls: { type: string; at: number }[] = [];
  const collector = new IdleCollector((options) => calls.push({ ...options, at: performance.now() }), busy, young);
  return { calls, collector };
}

test("the server's collector is V8's own: once quiet, it runs a young-generation collection", async () => {
  const collector = IdleCollector.create(() => false);
  assert.ok(collector, 'V8 handed out its collector');
  const minor: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR)
        minor.push(entry.startTime);
  });
  observer.observe({ entryTypes: ['gc'] });
  litter();
  const poked = performance.now();
  collector.poke();
  // Nothing allocates while it waits: a collection seen after the poke is the collector's.
  await sleep(60);
  observer.disconnect();
  assert.ok(
    minor.some((at) => at >= poked + 5),
    `a young-generation collection after the quiet moment (seen at ${minor.map((at) => (at - poked).toFixed(1)).join(', ') || 'none'} ms)`,
  );
});

test('a burst of calls is not interrupted: a collection comes only 10 ms after the last call before it, and one after the last', async () => {
  const { calls, collector } = recording();
  const pokes: number[] = [];
  const start = performance.now();
  while (performance.now() - start < 40) {
    // Taken before the poke: a process put off the CPU between the two (a loaded machine) would otherwise record the
    // call later than the collector's timer started, and a collection 10 ms after it as one sooner.
    pokes.push(performance.now());
    collector.poke();
    await sleep(2);
  }
  const last = pokes[pokes.length - 1]!;
  await sleep(40);
  // A loaded machine may stretch a 2 ms sleep past the quiet moment: a collection between two calls is right only
  // after such a gap, never between calls closer than that.
  for (const { at } of calls) {
    const before = pokes.filter((p) => p <= at).pop()!;
    assert.ok(at - before >= 9, `collected ${(at - before).toFixed(1)} ms after a call, not once quiet`);
  }
  const gaps = pokes.slice(1).filter((p, i) => p - pokes[i]! >= 9).length;
  assert.ok(calls.length <= gaps + 1, `${calls.length} collections for ${gaps} quiet moments in the burst and one after it`);
  assert.ok(calls.at(-1)!.at >= last + 9, 'collected once quiet after the last call');
  assert.ok(calls.every((c) => c.type === 'minor'));
});

test('nothing is collected while a call is being answered', async () => {
  let busy = true;
  const { calls, collector } = recording(() => busy);
  collector.poke();
  await sleep(40);
  assert.equal(calls.length, 0);
  // The call's end pokes again (the server does on each answer), and the collection follows.
  busy = false;
  collector.poke();
  await sleep(40);
  assert.equal(calls.length, 1);
});

test('a young generation with little in it is left alone', async () => {
  let young = WORTH_COLLECTING - 1;
  const { calls, collector } = recording(undefined, () => young);
  collector.poke();
  await sleep(40);
  assert.equal(calls.length, 0);
  young = WORTH_COLLECTING;
  collector.poke();
  await sleep(40);
  assert.equal(calls.length, 1);
});
