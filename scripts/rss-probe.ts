// Preloaded into a `sextant` process by the benchmark (`node --import`): when
// the process exits, writes its own peak RSS and CPU time (not its children's)
// to the file named by SEXTANT_BENCH_PROBE_FILE, with when it started, when
// node had booted and the `sextant:` performance marks of its start (the cold
// start breakdown, scripts/bench-cold.ts). Node does not pass --import on to
// the processes sextant spawns, so indexers are not probed.
import { writeFileSync } from 'node:fs';

const out = process.env.SEXTANT_BENCH_PROBE_FILE;
if (out) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    const probe = {
      maxRssKb: usage.maxRSS,
      userMs: usage.userCPUTime / 1000,
      systemMs: usage.systemCPUTime / 1000,
      // Milliseconds since the Unix epoch: other processes can place the marks on their own clock.
      timeOrigin: performance.timeOrigin,
      bootstrapMs: performance.nodeTiming.bootstrapComplete,
      marks: Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])),
    };
    try {
      writeFileSync(out, JSON.stringify(probe));
    } catch {
      // The benchmark reports the figure as missing.
    }
  });
}
