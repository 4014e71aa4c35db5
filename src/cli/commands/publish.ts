// sextant publish INDEX.scip --repo SLUG --commit SHA: publish a SCIP index
// made elsewhere (CI, any indexer). The file is checked before the registry
// is opened, so a rejected upload changes nothing.
import { quote } from '../../errors.js';
import { publishUpload, type PublishReport } from '../../orchestrator/publish-upload.js';
import { checkUpload, COMMIT_PATTERN } from '../../orchestrator/upload-check.js';
import { NEAREST_COMMIT_BOUND } from '../../registry/commit-graph.js';
import { openRegistry } from '../../registry/open.js';
import { terminalProgress } from '../../progress.js';
import { UsageError, wholeNumberOption, type CommandSpec, type Parsed } from '../parse.js';
import { plural, print, printJson } from '../output.js';

export const spec: CommandSpec = {
  name: 'publish',
  summary: 'Publish a SCIP index made elsewhere (CI, any SCIP indexer) for one commit of a repository.',
  usage:
    'sextant publish INDEX.scip --repo SLUG --commit SHA [--root DIR] [--indexer NAME --indexer-version V] [--sha256 HEX] [--size BYTES] [--parents SHA,...] [--json]',
  details: [
    'The file is checked before anything is written: a rejected upload leaves the registry unchanged.',
    'With --root (a checkout of SHA), file texts and syntax come from it: search, call-hierarchy extents and',
    'the other additions work as after `sextant index`. Without it, navigation only (search coverage is null).',
    'Publishing the same repository, commit and indexer again replaces that upload; other indexers\' uploads',
    'of the commit stay. A query at an unpublished commit is answered from its nearest published ancestor',
    `(within ${NEAREST_COMMIT_BOUND} commits of the graph that --parents and --root report), flagged nearest_commit.`,
    '  --repo SLUG             the repository\'s name in the registry (registered without a worktree if new)',
    '  --commit SHA            the full 40-hex commit the index was made from',
    '  --root DIR              a checkout with SHA checked out: file texts, syntax, and the commit graph',
    '                          (git rev-list --parents) come from it',
    '  --indexer NAME          the indexer (default: the index\'s tool_info); --indexer-version V its version',
    '  --sha256 HEX            reject the file unless its sha256 is this (catches a cut between documents)',
    '  --size BYTES            reject the file unless it holds exactly this many bytes',
    '  --parents SHA,...       the commit\'s parents (git rev-list --parents -n 1 SHA), for nearest-commit answers',
  ],
  options: {
    repo: { type: 'string' },
    commit: { type: 'string' },
    root: { type: 'string' },
    indexer: { type: 'string' },
    'indexer-version': { type: 'string' },
    sha256: { type: 'string' },
    size: { type: 'string' },
    parents: { type: 'string' },
  },
  maxPositionals: 1,
};

export async function run({ values, positionals }: Parsed): Promise<number> {
  const file = positionals[0];
  if (!file) throw new UsageError(`pass the SCIP file to publish (usage: ${spec.usage})`);
  const slug = values.repo as string | undefined;
  if (!slug) throw new UsageError(`pass --repo SLUG, the repository's name in the registry (usage: ${spec.usage})`);
  const commit = values.commit as string | undefined;
  if (!commit) throw new UsageError(`pass --commit SHA, the 40-hex commit the index was made from (usage: ${spec.usage})`);
  if (values['indexer-version'] !== undefined && values.indexer === undefined) {
    throw new UsageError('--indexer-version goes with --indexer NAME: pass both, or neither to use the index\'s tool_info');
  }
  const parents = parentsOption(values.parents);
  const upload = await checkUpload(
    {
      file,
      commit,
      root: values.root as string | undefined,
      indexer: values.indexer as string | undefined,
      indexerVersion: values['indexer-version'] as string | undefined,
      sha256: values.sha256 as string | undefined,
      size: wholeNumberOption(values.size, 'size', 0),
    },
    NEAREST_COMMIT_BOUND,
  );
  const engine = await openRegistry({ registry: values.registry as string | undefined });
  try {
    const report = await publishUpload({
      engine,
      slug,
      upload,
      parents,
      progress: values.json ? undefined : terminalProgress(),
    });
    if (values.json) printJson(report);
    else describe(report);
    return 0;
  } finally {
    await engine.close();
  }
}

function parentsOption(value: string | boolean | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = String(value)
    .split(/[\s,]+/)
    .filter(Boolean);
  const bad = list.find((p) => !COMMIT_PATTERN.test(p));
  if (bad !== undefined) throw new UsageError(`--parents ${quote(bad)} is not a full commit hash: pass 40-hex shas separated by commas`);
  return list;
}

function describe(r: PublishReport): void {
  print(
    `published ${r.repo} at ${r.commit.slice(0, 12)} from ${r.indexer}${r.indexer_version ? ` ${r.indexer_version}` : ''} (upload ${r.upload_id}, ${r.upload_state}) in ${(r.duration_ms / 1000).toFixed(1)} s`,
  );
  print(
    `  ${plural(r.documents, 'document')} (${r.documents_written} written, ${r.documents_reused} reused), ${plural(r.occurrences, 'occurrence')}, ${plural(r.definitions, 'definition')}` +
      (r.documents_kept ? `; ${r.documents_kept} documents of other indexers kept` : ''),
  );
  for (const [language, l] of Object.entries(r.languages)) {
    print(`  ${language.padEnd(12)} ${plural(l.files, 'file').padStart(12)}  ${l.tier}${l.reason ? `: ${l.reason}` : ''}`);
  }
  if (r.replaced.length) print(`  replaced the earlier index of this commit (${r.replaced.join(', ')})`);
  if (!r.with_root) print('  navigation only: published without --root, so file texts are not searchable');
  if (r.skipped_documents.length) print(`  skipped ${r.skipped_documents.length} documents, e.g. ${r.skipped_documents[0]!.path}: ${r.skipped_documents[0]!.reason}`);
}
