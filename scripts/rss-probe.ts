// Preloaded into a `sextant` process by the benchmark (`node --import`): when
// the process exits, writes its own peak RSS and CPU time (not its children's)
// to the file named by SEXTANT_BENCH_PROBE_FILE. Node does not pass --import on
// to the processes sextant spawns, so indexers are not probed.
import { writeFileSync } from 'node:fs';

const out = process.env.SEXTANT_BENCH_PROBE_FILE;
if (out) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    const probe = { maxRssKb: usage.maxRSS, userMs: usage.userCPUTime / 1000, systemMs: usage.systemCPUTime / 1000 };
    try {
      writeFileSync(out, JSON.stringify(probe));
    } catch {
      // The benchmark reports the figure as missing.
    }
  });
}
