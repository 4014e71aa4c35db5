// Section (e) of `npm run bench`: what answers that follow edits cost. Two
// clones of rxjs, indexed alike, each served by its own warm `sextant mcp`;
// in the second, 5 lines are inserted at the top of 20 of the files the
// queries touch (without a reindex). goToDefinition and findReferences at the
// same 200 positions of unchanged code (shifted in the edited files) are
// timed call by call, the two servers interleaved in turn, so that a loaded
// machine slows both alike: the median of the paired ratios is the figure.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { rxjsRepo } from '../test/support/corpus.js';
import { SEXTANT_BIN } from '../test/support/paths.js';
import { linesOf, trackedFiles } from '../test/support/positions.js';
import { removeDir, tempDir } from '../test/support/repos.js';
import { prng, shuffle } from '../test/support/stats.js';

/** Warm answers at unchanged code in a worktree with edits, over the same in a clean one: at most this (median paired ratio). */
export const EDITS_TARGET = 1.5;
const POSITIONS = 200;
const EDITED_FILES = 20;
const INSERTED = 5;
const TOOLS = ['goToDefinition', 'findReferences'] as const;

export interface EditsTool {
  tool: (typeof TOOLS)[number];
  clean_p50_ms: number;
  clean_p99_ms: number;
  edited_p50_ms: number;
  edited_p99_ms: number;
  /** Median over calls of (edited / clean), each pair timed back to back. */
  median_paired_ratio: number;
  /** The first pass after the edits, which hashes and diffs each edited file once. */
  first_pass_p50_ms: number;
  first_pass_p99_ms: number;
}

export interface EditsSection {
  corpus: string;
  positions: number;
  edited_files: number;
  runs: number;
  tools: EditsTool[];
}

async function serve(env: NodeJS.ProcessEnv): Promise<Client> {
  const client = new Client({ name: 'sextant-bench', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [SEXTANT_BIN, 'mcp'],
      env: env as Record<string, string>,
      stderr: 'ignore',
    }),
  );
  await client.listTools();
  return client;
}

function clone(homes: string[], roots: string[]): { env: NodeJS.ProcessEnv; repo: string } {
  const home = tempDir('sextant-bench-edits-');
  homes.push(home);
  const env: NodeJS.ProcessEnv = { ...process.env, SEXTANT_HOME: home };
  delete env.SEXTANT_REGISTRY;
  const repo = rxjsRepo();
  roots.push(join(repo, '..'));
  execFileSync(process.execPath, [SEXTANT_BIN, 'index', repo, '--json'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  return { env, repo };
}

const percentile = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const round2 = (x: number) => Math.round(x * 100) / 100;

export async function benchEdits(runs: number, progress: (m: string) => void): Promise<EditsSection> {
  const homes: string[] = [];
  const roots: string[] = [];
  const clients: Client[] = [];
  try {
    progress('(e) indexing two clones of rxjs…');
    const clean = clone(homes, roots);
    const edited = clone(homes, roots);
    const [a, b] = await Promise.all([serve(clean.env), serve(edited.env)]);
    clients.push(a, b);
    const random = prng(5);
    const candidates = shuffle(
      trackedFiles(clean.repo).filter((p) => p.endsWith('.ts')),
      random,
    ).flatMap((path) => {
      const at: { path: string; line: number; column: number }[] = [];
      linesOf(clean.repo, path).forEach((text, i) => {
        if (!/^\s*(\*|\/\/|\/\*)/.test(text))
          for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) at.push({ path, line: i + 1, column: m.index + 1 });
      });
      return shuffle(at, random).slice(0, 4);
    });
    const positions: typeof candidates = [];
    for (const p of candidates) {
      if (positions.length >= POSITIONS) break;
      const r = await a.callTool({ name: 'goToDefinition', arguments: { repo: 'rxjs', ...p } });
      // Positions the index answers at, not names it resolved to nothing (answered by their spelling, source "search").
      const answer = r.structuredContent as { found?: boolean; source?: string } | undefined;
      if (answer?.found && answer.source !== 'search') positions.push(p);
    }
    const touched = new Set(shuffle([...new Set(positions.map((p) => p.path))], random).slice(0, EDITED_FILES));
    const header = Array.from({ length: INSERTED }, (_, i) => `// edit ${i + 1}`).join('\n');
    for (const path of touched) writeFileSync(join(edited.repo, path), `${header}\n${readFileSync(join(edited.repo, path), 'utf8')}`);

    const time = async (client: Client, tool: string, args: Record<string, unknown>) => {
      const started = process.hrtime.bigint();
      const r = await client.callTool({ name: tool, arguments: { repo: 'rxjs', ...args } });
      if (r.isError) throw new Error(`${tool} ${JSON.stringify(args)} failed: ${JSON.stringify(r.structuredContent)}`);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const series = Object.fromEntries(
      TOOLS.map((t) => [t, { clean: [] as number[], edited: [] as number[], ratios: [] as number[], first: [] as number[] }]),
    );
    // Round 0 warms both servers up; on the edited clone it is the first pass, which hashes and diffs.
    for (let run = 0; run <= runs; run++) {
      progress(`(e) round ${run} of ${runs}…`);
      for (const [i, p] of positions.entries()) {
        const shifted = { ...p, line: p.line + (touched.has(p.path) ? INSERTED : 0) };
        for (const tool of TOOLS) {
          const s = series[tool]!;
          if ((i + run) % 2 === 0) {
            const c = await time(a, tool, p);
            const e = await time(b, tool, shifted);
            if (run > 0) (s.clean.push(c), s.edited.push(e), s.ratios.push(e / c));
            else s.first.push(e);
          } else {
            const e = await time(b, tool, shifted);
            const c = await time(a, tool, p);
            if (run > 0) (s.clean.push(c), s.edited.push(e), s.ratios.push(e / c));
            else s.first.push(e);
          }
        }
      }
    }
    return {
      corpus: 'rxjs@7.8.2',
      positions: positions.length,
      edited_files: touched.size,
      runs,
      tools: TOOLS.map((tool) => {
        const s = series[tool]!;
        return {
          tool,
          clean_p50_ms: round2(percentile(s.clean, 0.5)),
          clean_p99_ms: round2(percentile(s.clean, 0.99)),
          edited_p50_ms: round2(percentile(s.edited, 0.5)),
          edited_p99_ms: round2(percentile(s.edited, 0.99)),
          median_paired_ratio: Math.round(percentile(s.ratios, 0.5) * 1000) / 1000,
          first_pass_p50_ms: round2(percentile(s.first, 0.5)),
          first_pass_p99_ms: round2(percentile(s.first, 0.99)),
        };
      }),
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    for (const dir of [...homes, ...roots]) removeDir(dir);
  }
}

export function printEdits(
  s: EditsSection,
  print: (line?: string) => void,
  table: (rows: (string | number)[][], header: string[]) => string,
): void {
  print(
    `(e) warm answers at unchanged code with ${s.edited_files} files edited (${INSERTED} lines inserted at the top, no reindex) vs a clean worktree; ` +
      `${s.corpus}, ${s.positions} positions x ${s.runs} runs, calls interleaved`,
  );
  print(
    table(
      s.tools.map((t) => [
        t.tool,
        t.clean_p50_ms,
        t.clean_p99_ms,
        t.edited_p50_ms,
        t.edited_p99_ms,
        t.median_paired_ratio,
        t.first_pass_p50_ms,
        t.first_pass_p99_ms,
      ]),
      ['tool', 'clean p50 ms', 'clean p99 ms', 'edited p50 ms', 'edited p99 ms', 'paired ratio', 'first pass p50 ms', 'first pass p99 ms'],
    ),
  );
}
