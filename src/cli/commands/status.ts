// sextant status [REPO]: what is indexed and how fresh it is.
import { UserError } from '../../errors.js';
import * as IndexStatus from '../../protocol/index-status.js';
import type { Result } from '../../protocol/index-status.js';
import { request } from '../request.js';
import { chooseRepo, withNavigation } from '../context.js';
import type { CommandSpec, Parsed } from '../parse.js';
import { plural, print, printAnswer, printJson } from '../output.js';

export const spec: CommandSpec = {
  name: 'status',
  summary: 'Show what a repository has indexed, how fresh it is and what works now (getIndexStatus).',
  usage: 'sextant status [REPO] [--path WORKTREE] [--all] [--json]',
  details: [
    'REPO defaults to the repository containing the current directory, whose worktree is then checked for freshness.',
    '  --path WORKTREE   compare the index against this git worktree (like getIndexStatus repo_path)',
    '  --all             list every repository in the registry',
  ],
  options: { path: { type: 'string' }, all: { type: 'boolean' } },
  maxPositionals: 1,
};

export async function run({ values, positionals }: Parsed): Promise<number> {
  return withNavigation(values.registry as string | undefined, async (nav) => {
    if (values.all) {
      const slugs = await nav.lookups.repoSlugs();
      const all = await Promise.all(slugs.map((repo) => nav.getIndexStatus({ repo })));
      if (values.json) printJson(all);
      else if (all.length === 0) print('the registry holds no repositories yet: run `sextant index PATH`');
      else
        for (const s of all)
          print(
            `${s.repo.padEnd(24)} ${String(s.status ?? 'not indexed').padEnd(12)} ${s.commit?.slice(0, 12) ?? ''}  ${plural(s.totalFiles, 'file')}`,
          );
      return 0;
    }
    const choice = positionals[0] ? { slug: positionals[0], root: undefined } : await chooseRepo(nav, undefined);
    const repoPath = (values.path as string | undefined) ?? choice.root;
    const status = await nav.getIndexStatus(
      request(IndexStatus.Params, { repo: choice.slug, ...(repoPath ? { repo_path: repoPath } : {}) }),
    );
    if (values.json) printAnswer(status);
    else describe(status);
    if (status.status === null && status.message) throw new UserError(status.message);
    return 0;
  });
}

function describe(s: Result): void {
  if (s.status === null && s.index_missing) return;
  print(
    `${s.repo}: ${s.status ?? 'no index'}${s.commit ? ` at ${s.commit.slice(0, 12)}` : ''}${s.generated_at ? `, generated ${s.generated_at}` : ''}`,
  );
  print(`  freshness: ${s.freshness}${s.freshness_reason ? ` (${s.freshness_reason})` : ''}`);
  const changed = s.freshness_evidence?.changed_files ?? [];
  if (changed.length) print(`  changed: ${changed.slice(0, 8).join(', ')}${s.freshness_evidence!.changed_files_total > 8 ? ', …' : ''}`);
  for (const [language, t] of Object.entries(s.language_tiers)) {
    print(`  ${language.padEnd(12)} ${plural(t.files, 'file').padStart(12)}  ${t.tier}${t.reason ? `: ${t.reason}` : ''}`);
  }
  for (const p of s.projects) {
    const coverage = p.problem ?? `${p.indexed_files} of ${plural(p.files, 'file')} indexed`;
    print(`  project ${(p.config ?? '(inferred: files no config includes)').padEnd(40)} ${coverage}`);
  }
  if (s.projects_total > s.projects.length) print(`  … and ${s.projects_total - s.projects.length} more projects (see --json)`);
  const nav = s.capabilities?.navigation;
  if (nav) print(`  navigation: ${nav.available ? 'available' : 'unavailable'}${nav.reason ? ` — ${nav.reason}` : ''}`);
  const coverage = s.searchCoverage;
  if (coverage)
    print(
      `  search: ${coverage.indexed} of ${plural(coverage.expected, 'file')} searchable${s.searchCoverageReason ? ` — ${s.searchCoverageReason}` : ''}`,
    );
  else if (s.capabilities?.search.available === false) print(`  search: unavailable — ${s.capabilities.search.reason}`);
  const run = s.last_index_run;
  if (run)
    print(
      `  last run: ${run.outcome ?? run.state} (${run.origin}, ${run.finished_at ?? run.started_at})${run.reason ? `: ${run.reason}` : ''}`,
    );
  if (run?.recovery && run.outcome === 'failed') print(`  fix: ${run.recovery}`);
  for (const u of s.uploads.slice(0, 3)) {
    print(
      `  upload ${u.id}: ${u.state} (${u.indexer}${u.indexer_version ? ` ${u.indexer_version}` : ''} at ${u.commit.slice(0, 12)}, ${u.finished_at ?? u.created_at}${u.with_root ? '' : ', no root: navigation only'})${u.reason ? `: ${u.reason}` : ''}`,
    );
  }
  if (s.job_id) print(`  reindex job ${s.job_id}: ${s.job_state} (lifecycle ${s.lifecycle})${s.job_error ? `: ${s.job_error}` : ''}`);
  print(
    `  storage: ${plural(s.storage_bytes, 'byte')} of ${plural(s.registry_bytes, 'byte')} in the registry${s.write_lock_present ? '; an index run holds the write lock' : ''}${s.corrupt ? `; CORRUPT: ${s.corrupt_reason}` : ''}`,
  );
}
