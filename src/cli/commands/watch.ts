// sextant watch [PATH...]: publish each new commit of these repositories as it lands.
import { openRegistry } from '../../registry/open.js';
import { indexRepository } from '../../orchestrator/index-repository.js';
import { abortOnSignals } from '../../orchestrator/interrupt.js';
import { watchRepositories, type WatchEvent } from '../../orchestrator/watch.js';
import { silentProgress, terminalProgress } from '../../progress.js';
import { boundedMessage, UserError } from '../../errors.js';
import { gitRoot } from '../../freshness/git.js';
import { secondsOption, type CommandSpec, type Parsed } from '../parse.js';
import { print, printJsonLine } from '../output.js';

export const spec: CommandSpec = {
  name: 'watch',
  summary: 'Keep repositories indexed: index now and again whenever files change or HEAD moves, until stopped.',
  usage: 'sextant watch [PATH...] [--poll SECONDS] [--timeout SECONDS] [--json]',
  details: [
    'PATH defaults to the current directory; each names the git worktree containing it. A run follows file changes',
    '(not in .git, node_modules or what git ignores) and HEAD moves (commit, checkout, rebase, pull), when HEAD or the',
    'uncommitted content differs from what is published. Runs go one at a time per repository, through the same',
    'pipeline as `sextant index`; changes during a run cause one more run. A failed run is retried at the next change.',
    'Ctrl-C (SIGINT) or SIGTERM stops watching: a run under way publishes nothing and releases its lock; exit 0.',
    'A repository deleted, moved or no longer a git repository is let go (a "stopped" event); with none left, exit 1.',
    '  --poll SECONDS       also check the worktree this often, for changes the filesystem does not report (default 2)',
    '  --timeout SECONDS    stop each indexer after this long (default: per indexer manifest)',
    '  --json               one JSON object a line per event (watching, indexing, indexed, failed, stopped)',
  ],
  options: { poll: { type: 'string' }, timeout: { type: 'string' } },
  maxPositionals: 16,
};

export async function run({ values, positionals }: Parsed): Promise<number> {
  const pollSeconds = secondsOption(values.poll, 'poll');
  const timeoutSeconds = secondsOption(values.timeout, 'timeout');
  // Every path is checked before the registry is opened: a bad one changes nothing.
  const roots = await Promise.all((positionals.length ? positionals : ['.']).map((p) => gitRoot(p)));
  const engine = await openRegistry({ registry: values.registry as string | undefined });
  const interrupt = abortOnSignals();
  const json = Boolean(values.json);
  try {
    const ended = await watchRepositories({
      engine,
      roots,
      signal: interrupt.signal,
      pollMs: pollSeconds === undefined ? undefined : pollSeconds * 1000,
      index: (root, slug, signal) =>
        indexRepository({
          signal,
          engine,
          path: root,
          slug,
          origin: 'watch',
          timeoutSeconds,
          progress: json ? silentProgress : terminalProgress(),
          yieldCpu: true,
        }),
      onEvent: (event) => (json ? printJsonLine(event) : describe(event)),
    });
    if (ended === 'gone') {
      throw new UserError(
        'every repository it watched is gone (deleted, moved or no longer a git repository): run `sextant watch PATH` where they are now',
      );
    }
    if (!json) print('stopped watching');
    return 0;
  } finally {
    interrupt.dispose();
    await engine.close();
  }
}

function describe(e: WatchEvent): void {
  switch (e.kind) {
    case 'watching':
      print(
        `watching ${e.root} as ${e.repo} (HEAD ${e.head?.slice(0, 12) ?? 'none'}, ${e.published ? `published ${e.published.slice(0, 12)}` : 'nothing published yet'})`,
      );
      break;
    case 'indexing':
      print(`indexing ${e.root} at ${e.head.slice(0, 12)}${e.dirty ? ' with uncommitted changes' : ''} (${e.cause})…`);
      break;
    case 'indexed':
      print(
        `published ${e.report.repo} at ${e.report.commit.slice(0, 12)}: ${e.report.outcome}, ` +
          `${(e.report.duration_ms / 1000).toFixed(1)} s to index, ${(e.since_change_ms / 1000).toFixed(1)} s after the change was seen`,
      );
      break;
    case 'failed':
      print(`indexing ${e.root} at ${e.head.slice(0, 12)} failed: ${boundedMessage(e.reason)}`);
      break;
    case 'stopped':
      print(`stopped watching ${e.root}: ${e.reason}`);
      break;
  }
}
