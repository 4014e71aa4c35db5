// sextant index [PATH]: index a repository and publish it to the registry.
import type { IndexReport } from '../../orchestrator/index-repository.js';
import { secondsOption, type CommandSpec, type Parsed } from '../parse.js';
import { plural, print, printJson } from '../output.js';

export const spec: CommandSpec = {
  name: 'index',
  summary: 'Index a git repository with its SCIP indexers and publish the index for its HEAD commit.',
  usage: 'sextant index [PATH] [--repo NAME] [--timeout SECONDS] [--json]',
  details: [
    'PATH defaults to the current directory; the git worktree containing it is indexed, uncommitted changes included.',
    'Languages whose indexer is missing or fails are published search-only, with the reason and how to fix it.',
    '  --repo NAME          the name to register it under (default: the worktree folder name)',
    '  --timeout SECONDS    stop each indexer after this long (default: per indexer manifest)',
  ],
  options: { repo: { type: 'string' }, timeout: { type: 'string' } },
  maxPositionals: 1,
};

export async function run({ values, positionals }: Parsed): Promise<number> {
  // Loaded here, not with the module: `sextant --help` reads every command's spec.
  const [{ openRegistry }, { indexRepository }, { terminalProgress }] = await Promise.all([
    import('../../registry/open.js'),
    import('../../orchestrator/index-repository.js'),
    import('../../progress.js'),
  ]);
  const engine = await openRegistry({ registry: values.registry as string | undefined });
  try {
    const report = await indexRepository({
      engine,
      path: positionals[0] ?? '.',
      slug: values.repo as string | undefined,
      origin: 'cli',
      timeoutSeconds: secondsOption(values.timeout, 'timeout'),
      progress: values.json ? undefined : terminalProgress(),
      yieldCpu: true,
    });
    if (values.json) printJson(report);
    else describe(report);
    return 0;
  } finally {
    await engine.close();
  }
}

function describe(r: IndexReport): void {
  const state = r.dirty ? 'with uncommitted changes' : 'clean';
  print(`indexed ${r.repo} at ${r.commit.slice(0, 12)} (${state}) in ${(r.duration_ms / 1000).toFixed(1)} s: ${r.outcome}`);
  const width = Math.max(...Object.keys(r.languages).map((l) => l.length), 8);
  for (const [language, l] of Object.entries(r.languages)) {
    const files = plural(l.files, 'file').padStart(12);
    if (l.tier === 'precise') {
      const coverage = l.indexed_files < l.files ? `, ${l.indexed_files} of them in the project` : '';
      print(`  ${language.padEnd(width)} ${files}  precise (${l.indexer}${coverage})`);
    } else {
      print(`  ${language.padEnd(width)} ${files}  search-only: ${l.reason}`);
      if (l.recovery) print(`  ${''.padEnd(width)} ${''.padStart(12)}  fix: ${l.recovery}`);
    }
  }
  print(`  ${plural(r.documents, 'document')}, ${plural(r.occurrences, 'occurrence')}, ${plural(r.definitions, 'definition')}`);
  const precise = Object.entries(r.languages)
    .filter(([, l]) => l.tier === 'precise')
    .map(([language]) => language);
  if (precise.length) {
    print(`now answers definitions, references, symbols, call and type hierarchies for ${precise.join(' and ')}:`);
    print('  npx sextant def|refs PATH:LINE:COL|NAME   npx sextant symbols QUERY   npx sextant calls|types PATH:LINE:COL');
    print('  npx sextant mcp   (the same over MCP, for agents)');
  } else {
    print('navigation is unavailable until an indexer succeeds (see the fixes above); the files are stored for search.');
  }
}
