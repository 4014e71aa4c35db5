// The lifecycle section of `npm run bench` (issue 8), run alone with
// `--only lifecycle`: what a reindex after a one-file edit costs against a
// full index of the same repository, side by side in one run, on a
// single-project repository (rxjs's sources) and on a monorepo of five
// projects (test/support/corpus.ts monorepoRepo). Each round indexes into an
// empty registry (the full index), appends one export to one file, and runs
// `sextant reindex` (blocking) on it; the report's document counts say how
// much of the index the reindex derived again. Then `sextant watch` on the
// monorepo: the time from a `git commit` to that commit published.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { monorepoRepo, rxjsRepo } from '../test/support/corpus.js';
import { SEXTANT_BIN } from '../test/support/paths.js';
import { git, removeDir, tempDir } from '../test/support/repos.js';

/** The target of issue 8 on the monorepo: a reindex after a one-file edit costs at most this fraction of a full index. */
export const LIFECYCLE_TARGET = { monorepo_reindex_over_full: 0.3 };

export interface LifecycleCase {
  corpus: string;
  files: number;
  /** The file each round edits. */
  edited: string;
  rounds: {
    full_s: number;
    reindex_s: number;
    ratio: number;
    documents: number;
    written: number;
    reused: number;
    removed: number;
    /** How the reindex ran the projects that were not kept: `files N` (N files given to the indexer) or `project`. */
    ran: string;
  }[];
  median_ratio: number;
}

export interface WatchCase {
  corpus: string;
  files: number;
  /** From `git commit` returning to the `indexed` event of that commit. */
  commit_to_published_s: number;
  /** Of which the index run itself. */
  indexing_s: number;
}

export interface LifecycleSection {
  cases: LifecycleCase[];
  watch: WatchCase;
  targets: Record<string, { value: number | null; target: string; met: boolean | null }>;
}

function sextant(args: string[], home: string): { seconds: number; report: any } {
  const env: NodeJS.ProcessEnv = { ...process.env, SEXTANT_HOME: home };
  delete env.SEXTANT_REGISTRY;
  const started = performance.now();
  const r = spawnSync(process.execPath, [SEXTANT_BIN, ...args, '--json'], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`sextant ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const out = JSON.parse(r.stdout);
  return { seconds, report: out.report ?? out };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const r2 = (x: number) => Math.round(x * 100) / 100;

function measure(corpus: string, root: string, edited: string, runs: number, progress: (m: string) => void): LifecycleCase {
  const rounds: LifecycleCase['rounds'] = [];
  let files = 0;
  for (let round = 1; round <= runs; round++) {
    const home = tempDir('sextant-bench-lifecycle-');
    try {
      progress(`lifecycle: ${corpus} round ${round}/${runs}: full index`);
      const full = sextant(['index', root], home);
      files = full.report.files;
      appendFileSync(join(root, edited), `\nexport const benchEdit${round} = ${round};\n`);
      git(root, 'commit', '-qam', `bench edit ${round}`);
      progress(`lifecycle: ${corpus} round ${round}/${runs}: reindex after a one-file edit`);
      const again = sextant(['reindex', root], home);
      const r = again.report;
      rounds.push({
        full_s: r2(full.seconds),
        reindex_s: r2(again.seconds),
        ratio: r2(again.seconds / full.seconds),
        documents: r.documents,
        written: r.documents_written,
        reused: r.documents_reused,
        removed: r.documents_removed,
        ran: ranOf(r),
      });
    } finally {
      removeDir(home);
    }
  }
  return { corpus, files, edited, rounds, median_ratio: r2(median(rounds.map((r) => r.ratio))) };
}

/** The granularity of each project the reindex ran (see src/orchestrator/incremental.ts), as `files 2` or `project`. */
function ranOf(report: any): string {
  const projects = report.indexers.flatMap((i: any) => i.projects ?? []).filter((p: any) => p.granularity && p.granularity !== 'kept');
  return projects.map((p: any) => (p.granularity === 'files' ? `files ${p.files_run}` : 'project')).join(', ') || 'none';
}

/** `sextant watch` on `root`: once its first index is published, a commit, and the time until that commit is published. */
async function measureWatch(corpus: string, root: string, edited: string, progress: (m: string) => void): Promise<WatchCase> {
  const home = tempDir('sextant-bench-watch-');
  const env: NodeJS.ProcessEnv = { ...process.env, SEXTANT_HOME: home };
  delete env.SEXTANT_REGISTRY;
  const child = spawn(process.execPath, [SEXTANT_BIN, 'watch', root, '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const events: any[] = [];
  let buffer = '';
  let wake = () => {};
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      events.push(JSON.parse(buffer.slice(0, end)));
      buffer = buffer.slice(end + 1);
    }
    wake();
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const next = async (match: (e: any) => boolean): Promise<any> => {
    for (;;) {
      const found = events.find(match);
      if (found) return found;
      if (child.exitCode !== null) throw new Error(`sextant watch exited: ${JSON.stringify(events.slice(-2))}`);
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  try {
    progress(`lifecycle: ${corpus}: sextant watch publishes its first index`);
    const first = await next((e) => e.kind === 'indexed' || e.kind === 'failed');
    if (first.kind === 'failed') throw new Error(`sextant watch failed: ${first.reason}`);
    progress(`lifecycle: ${corpus}: a commit under sextant watch`);
    appendFileSync(join(root, edited), '\nexport const benchWatched = 1;\n');
    git(root, 'commit', '-qam', 'bench: a commit for watch');
    const committed = performance.now();
    const head = git(root, 'rev-parse', 'HEAD').trim();
    const published = await next((e) => e.kind === 'indexed' && e.report.commit === head && !e.report.dirty);
    return {
      corpus,
      files: published.report.files,
      commit_to_published_s: r2((performance.now() - committed) / 1000),
      indexing_s: r2(published.report.duration_ms / 1000),
    };
  } finally {
    child.kill('SIGINT');
    await exited;
    removeDir(home);
  }
}

export async function benchLifecycle(runs: number, progress: (m: string) => void): Promise<LifecycleSection> {
  const cases: LifecycleCase[] = [];
  const single = rxjsRepo();
  try {
    cases.push(measure('rxjs (one project)', single, 'src/internal/util/identity.ts', runs, progress));
  } finally {
    removeDir(join(single, '..'));
  }
  const mono = monorepoRepo();
  let watch: WatchCase;
  try {
    cases.push(measure('monorepo (five projects)', mono, 'packages/query-core/src/utils.ts', runs, progress));
    watch = await measureWatch('monorepo (five projects)', mono, 'packages/query-core/src/utils.ts', progress);
  } finally {
    removeDir(join(mono, '..'));
  }
  const value = cases[1]!.median_ratio;
  const target = LIFECYCLE_TARGET.monorepo_reindex_over_full;
  return { cases, watch: watch!, targets: { monorepo_reindex_over_full: { value, target: `<= ${target}`, met: value <= target } } };
}

export function printLifecycle(
  s: LifecycleSection,
  print: (line?: string) => void,
  table: (rows: (string | number)[][], header: string[]) => string,
): void {
  print('(l) reindex after a one-file edit vs a full index into an empty registry (`sextant index`, then `sextant reindex`), wall time');
  for (const c of s.cases) {
    print(`  ${c.corpus}: ${c.files.toLocaleString('en-US')} files; each round appends one export to ${c.edited}`);
    print(
      table(
        c.rounds.map((r, i) => [i + 1, r.full_s, r.reindex_s, r.ratio, r.documents, r.written, r.reused, r.removed, r.ran]),
        ['round', 'full s', 'reindex s', 'ratio', 'documents', 'written', 'reused', 'removed', 'ran'],
      ),
    );
    print(`  median ratio ${c.median_ratio}`);
  }
  const w = s.watch;
  print(
    `(l) sextant watch on the ${w.corpus} (${w.files.toLocaleString('en-US')} files): ${w.commit_to_published_s} s from \`git commit\` ` +
      `to that commit published, ${w.indexing_s} s of it indexing`,
  );
}
