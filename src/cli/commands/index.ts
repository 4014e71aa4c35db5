// sextant index [PATH]: index a repository and publish it to the registry.
import { readWorktree, type Worktree } from '../../freshness/worktree.js';
import { startTypescriptIndexerAhead, type IndexerAhead } from '../../orchestrator/indexer-process.js';
import type { IndexReport, ProjectReport } from '../../orchestrator/index-repository.js';
import { secondsOption, UsageError, wholeNumberOption, type CommandSpec, type Parsed } from '../parse.js';
import { plural, print, printJson } from '../output.js';

export const spec: CommandSpec = {
  name: 'index',
  summary: 'Index a git repository with its SCIP indexers and publish the index for its HEAD commit.',
  usage: 'sextant index [PATH] [--repo NAME] [--timeout SECONDS] [--lsp] [--json]   |   sextant index --job ID',
  details: [
    'PATH defaults to the current directory; the git worktree containing it is indexed, uncommitted changes included.',
    'Languages whose indexer is missing or fails get definitions from universal-ctags (syntactic), else are published',
    'search-only, with the reason and how to fix it.',
    'Ctrl-C (SIGINT) or SIGTERM stops the run: nothing is published, the previous index keeps serving, exit 130 / 143.',
    '  --repo NAME          the name to register it under (default: the worktree folder name)',
    '  --timeout SECONDS    stop each indexer after this long (default: per indexer manifest)',
    '  --lsp                build a precise index through the language server of each language no SCIP indexer',
    '                       covers (C and C++ through clangd), within the timeout (default 600 s); what it did not',
    '                       reach is reported (without it, such languages are answered live: the lsp tier)',
    '  --job ID             run reindex job ID (its repository and worktree), as `sextant reindex --async` does',
  ],
  options: { repo: { type: 'string' }, timeout: { type: 'string' }, job: { type: 'string' }, lsp: { type: 'boolean' } },
  maxPositionals: 1,
};

export async function run({ values, positionals }: Parsed): Promise<number> {
  const job = wholeNumberOption(values.job, 'job', 1);
  if (job !== undefined && (positionals.length > 0 || values.repo !== undefined)) {
    throw new UsageError('--job runs a job on the worktree it names: pass no PATH or --repo with it');
  }
  if (values.lsp && job !== undefined) throw new UsageError('--lsp builds an index here: pass PATH, not --job');
  const timeoutSeconds = secondsOption(values.timeout, 'timeout');
  // Git reads the worktree while the pipeline's modules load (most of the bundle: the ingest, kysely) and the
  // registry opens (and migrates): all of it comes before the indexer can start.
  const path = positionals[0] ?? '.';
  const worktree = job === undefined ? readWorktree(path) : undefined;
  // Its failure is reported where it is awaited, or not at all when the registry failed first.
  worktree?.catch(() => undefined);
  // And the TypeScript indexer's process starts meanwhile: node, its preload and its TypeScript take about 0.4 s.
  const ahead = job === undefined ? startTypescriptIndexerAhead(path) : undefined;
  try {
    return await indexWith(values, { job, timeoutSeconds, path, worktree, ahead });
  } finally {
    ahead?.dispose();
  }
}

interface Run {
  job: number | undefined;
  timeoutSeconds: number | undefined;
  path: string;
  worktree: Promise<Worktree> | undefined;
  ahead: IndexerAhead | undefined;
}

async function indexWith(values: Parsed['values'], { job, timeoutSeconds, path, worktree, ahead }: Run): Promise<number> {
  const [{ openRegistry }, { indexRepository }, { abortOnSignals }, { runJob }, { terminalProgress }] = await Promise.all([
    import('../../registry/open.js'),
    import('../../orchestrator/index-repository.js'),
    import('../../orchestrator/interrupt.js'),
    import('../../orchestrator/run-job.js'),
    import('../../progress.js'),
  ]);
  const engine = await openRegistry({ registry: values.registry as string | undefined });
  // Ctrl-C and SIGTERM stop the run cleanly (nothing published, exit 130 / 143) instead of killing it midway.
  const interrupt = abortOnSignals();
  const lspIndexer = values.lsp ? (await import('../../lsp/build-index.js')).lspIndexer() : undefined;
  try {
    const options = {
      signal: interrupt.signal,
      timeoutSeconds,
      progress: values.json ? undefined : terminalProgress(),
      yieldCpu: true,
    };
    const report =
      job !== undefined
        ? await runJob(engine, job, options)
        : await indexRepository({
            ...options,
            engine,
            path,
            worktree,
            ahead,
            slug: values.repo as string | undefined,
            origin: 'cli',
            lspIndexer,
          });
    if (values.json) printJson(report);
    else describe(report);
    return 0;
  } finally {
    await lspIndexer?.close();
    await engine.close();
    interrupt.dispose();
  }
}

const MAX_PROJECTS_SHOWN = 20;

/** How a project ran, after a previous index (see orchestrator/incremental.ts). */
function ran(p: ProjectReport): string {
  if (p.granularity === 'kept') return ' (unchanged: kept)';
  if (p.granularity === 'files') return ` (${plural(p.files_run, 'file')} run, the rest kept)`;
  return p.fallback ? ` (run whole: ${p.fallback})` : '';
}

export function describe(r: IndexReport): void {
  const state = r.dirty ? 'with uncommitted changes' : 'clean';
  print(`indexed ${r.repo} at ${r.commit.slice(0, 12)} (${state}) in ${(r.duration_ms / 1000).toFixed(1)} s: ${r.outcome}`);
  const width = Math.max(...Object.keys(r.languages).map((l) => l.length), 8);
  for (const [language, l] of Object.entries(r.languages)) {
    const files = plural(l.files, 'file').padStart(12);
    if (l.tier === 'precise') {
      const coverage = l.indexed_files < l.files ? `, ${l.indexed_files} of them indexed` : '';
      print(
        `  ${language.padEnd(width)} ${files}  precise (${l.indexer}${l.origin === 'lsp' ? ', built through the language server' : ''}${coverage})`,
      );
      if (l.reason) print(`  ${''.padEnd(width)} ${''.padStart(12)}  ${l.reason}`);
    } else if (l.tier === 'syntactic') {
      print(`  ${language.padEnd(width)} ${files}  syntactic (${l.indexer}): definitions and symbols; references are text matches`);
    } else {
      print(`  ${language.padEnd(width)} ${files}  search-only: ${l.reason}`);
      if (l.recovery) print(`  ${''.padEnd(width)} ${''.padStart(12)}  fix: ${l.recovery}`);
    }
  }
  for (const indexer of r.indexers) {
    // A single project is shown when it ran narrower than whole, or fell back to whole from narrower.
    const narrower = indexer.projects.some((p) => p.granularity !== 'project' || p.fallback);
    if (indexer.projects.length < 2 && !narrower && !indexer.projects.some((p) => p.config === null || p.problem)) continue;
    for (const p of indexer.projects.slice(0, MAX_PROJECTS_SHOWN)) {
      print(
        `  project ${p.config ?? '(inferred: files no config includes)'}: ${p.problem ?? `${p.indexed_files} of ${plural(p.files, 'file')} indexed${ran(p)}`}`,
      );
    }
    if (indexer.projects.length > MAX_PROJECTS_SHOWN)
      print(`  … and ${indexer.projects.length - MAX_PROJECTS_SHOWN} more projects (see --json)`);
  }
  print(
    `  ${plural(r.documents, 'document')} (${r.documents_written} written, ${r.documents_reused} reused), ${plural(r.occurrences, 'occurrence')}, ${plural(r.definitions, 'definition')}` +
      (r.syntactic_definitions ? `, ${plural(r.syntactic_definitions, 'syntactic definition')}` : ''),
  );
  const syntactic = Object.entries(r.languages)
    .filter(([, l]) => l.tier === 'syntactic')
    .map(([language]) => language);
  const precise = Object.entries(r.languages)
    .filter(([, l]) => l.tier === 'precise')
    .map(([language]) => language);
  if (precise.length) {
    print(`now answers definitions, references, symbols, call and type hierarchies for ${precise.join(' and ')}:`);
    print('  npx sextant def|refs PATH:LINE:COL|NAME   npx sextant symbols QUERY   npx sextant calls|types PATH:LINE:COL');
    print('  npx sextant mcp   (the same over MCP, for agents)');
  }
  if (syntactic.length) {
    print(`answers definitions and symbols for ${syntactic.join(' and ')} (references are text matches):`);
    print('  npx sextant def PATH:LINE:COL|NAME   npx sextant symbols QUERY   npx sextant refs NAME');
  }
  if (!precise.length && !syntactic.length) {
    print('navigation is unavailable until an indexer succeeds (see the fixes above); the files are stored for search.');
  }
}
