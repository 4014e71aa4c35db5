// `npm run bench -- --only lsp`: the lsp tier against the language server it
// runs, side by side on tree-sitter's C runtime (42 files, clangd):
//   cold: spawn `sextant mcp` -> first findReferences at a C position (clangd
//         started, its background index built, the answer complete), against
//         spawn clangd -> initialize -> didOpen -> index done -> first references
//   warm: p50/p99 of findReferences through the tier (MCP, one request for the
//         definition and one for the references) against clangd asked directly,
//         alternating the two sides position by position
import { loadavg } from 'node:os';
import { Clangd } from '../test/support/clangd.js';
import { identifierUses } from '../test/support/c-positions.js';
import { treeSitterCRepo } from '../test/support/corpus.js';
import { removeDir } from '../test/support/repos.js';
import { indexOrThrow, mcpSession, testHome } from '../test/support/sextant.js';
import { prng, shuffle } from '../test/support/stats.js';

type Table = (rows: (string | number)[][], header: string[]) => string;

const COLD_RUNS = 3;
const WARM_POSITIONS = 60;
const WARM_ROUNDS = 3;

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

export async function benchLsp(json: boolean, progress: (message: string) => void, table: Table): Promise<void> {
  const loadBefore = loadavg()[0]!;
  const repo = treeSitterCRepo('tree-sitter-bench');
  const positions = shuffle(identifierUses(repo), prng(21)).slice(0, WARM_POSITIONS);
  const cold = { tier: [] as number[], direct: [] as number[], tierPartial: 0 };
  const warm = { tier: [] as number[], direct: [] as number[] };
  try {
    for (let run = 0; run < COLD_RUNS; run++) {
      progress(`(lsp) cold run ${run + 1}/${COLD_RUNS}`);
      // A home of its own each run: clangd's background index starts empty, as on a first use.
      const { home, env } = testHome();
      try {
        indexOrThrow(repo, env);
        let started = performance.now();
        const session = await mcpSession(env);
        const first = await session.ok('findReferences', { repo: 'tree-sitter-bench', ...positions[0]! });
        cold.tier.push(performance.now() - started);
        if (first.partial) cold.tierPartial++;
        await session.close();
        started = performance.now();
        const clangd = await Clangd.start(repo);
        await clangd.ready(positions[0]!.path);
        await clangd.references(positions[0]!);
        cold.direct.push(performance.now() - started);
        await clangd.stop();
      } finally {
        removeDir(home);
      }
    }
    progress('(lsp) warm');
    const { home, env } = testHome();
    try {
      indexOrThrow(repo, env);
      const session = await mcpSession(env);
      const clangd = await Clangd.start(repo);
      await session.ok('findReferences', { repo: 'tree-sitter-bench', ...positions[0]! });
      await clangd.ready(positions[0]!.path);
      // Until sextant's server has loaded too.
      for (;;) {
        const s = await session.ok('getIndexStatus', { repo: 'tree-sitter-bench' });
        if (s.language_servers[0]?.state === 'ready') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      for (let round = 0; round < WARM_ROUNDS; round++) {
        for (const p of positions) {
          let t = performance.now();
          await session.ok('findReferences', { repo: 'tree-sitter-bench', ...p, limit: 2000 });
          warm.tier.push(performance.now() - t);
          t = performance.now();
          await clangd.references(p);
          warm.direct.push(performance.now() - t);
        }
      }
      await session.close();
      await clangd.stop();
    } finally {
      removeDir(home);
    }
  } finally {
    removeDir(repo);
  }
  const median = (xs: number[]) => percentile(xs, 50);
  const result = {
    corpus: 'tree-sitter 0.21.1 C runtime (42 files), clangd',
    cold_ms: {
      tier: Math.round(median(cold.tier)),
      clangd: Math.round(median(cold.direct)),
      tier_partial_answers: cold.tierPartial,
      runs: COLD_RUNS,
    },
    warm_ms: {
      tier_p50: +median(warm.tier).toFixed(1),
      tier_p99: +percentile(warm.tier, 99).toFixed(1),
      clangd_p50: +median(warm.direct).toFixed(1),
      clangd_p99: +percentile(warm.direct, 99).toFixed(1),
      added_p50: +(median(warm.tier) - median(warm.direct)).toFixed(1),
      samples: warm.tier.length,
    },
    load_average_1m: { before: +loadBefore.toFixed(2), after: +loadavg()[0]!.toFixed(2) },
  };
  if (json) {
    process.stdout.write(JSON.stringify({ only: 'lsp', lsp: result }) + '\n');
    return;
  }
  process.stdout.write(`sextant bench — the lsp tier (--only lsp): ${result.corpus}\n`);
  process.stdout.write(
    table(
      [
        [
          'cold: first findReferences (median ms)',
          result.cold_ms.tier,
          result.cold_ms.clangd,
          `${cold.tierPartial} of ${COLD_RUNS} partial`,
        ],
        [
          'warm findReferences p50 (ms)',
          result.warm_ms.tier_p50,
          result.warm_ms.clangd_p50,
          `added ${result.warm_ms.added_p50} ms (target <= 20)`,
        ],
        ['warm findReferences p99 (ms)', result.warm_ms.tier_p99, result.warm_ms.clangd_p99, `${result.warm_ms.samples} samples`],
      ],
      ['measure', 'sextant (lsp tier, MCP)', 'clangd directly', 'note'],
    ) + '\n',
  );
}
