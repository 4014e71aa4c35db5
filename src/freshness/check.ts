// Is a published index still true to a worktree? Evidence, not guesses: the
// indexed commit against HEAD, and every file's content hash against the
// hash the index recorded. Stale only when some file differs.
import type { Kysely } from 'kysely';
import type { Database, IndexRow } from '../registry/schema.js';
import { commitFiles, commitsBetween, hasCommit } from './git.js';
import { readWorktree } from './worktree.js';

export interface Freshness {
  freshness: 'fresh' | 'stale' | 'unknown';
  reason: string | null;
  evidence: {
    checked_against: string;
    head: string | null;
    indexed_commit: string;
    commits_since_index: number | null;
    changed_files: string[];
    changed_files_total: number;
    uncommitted_changes: boolean;
  } | null;
}

const LISTED_CHANGES = 50;

export async function checkFreshness(db: Kysely<Database>, index: IndexRow, repoPath: string): Promise<Freshness> {
  const worktree = await readWorktree(repoPath);
  if (worktree.head !== index.commit_sha && !(await hasCommit(worktree.root, index.commit_sha))) {
    return {
      freshness: 'unknown',
      reason: `the indexed commit ${index.commit_sha.slice(0, 12)} is not in the repository at ${worktree.root}: pass repo_path of a clone of the indexed repository (or fetch)`,
      evidence: null,
    };
  }
  const rows = await db.selectFrom('index_files').select(['path', 'blob_sha']).where('index_id', '=', index.id).execute();
  // An index uploaded without --root recorded neither the commit's contents nor its other files: the commit's
  // tree, which the worktree's repository holds (checked above), is what it was made from.
  const indexed = rows.some((f) => f.blob_sha === '')
    ? await commitFiles(worktree.root, index.commit_sha)
    : new Map(rows.map((f) => [f.path, f.blob_sha]));
  const changed: string[] = [];
  for (const file of worktree.files) {
    if (indexed.get(file.path) !== file.sha) changed.push(file.path);
    indexed.delete(file.path);
  }
  changed.push(...indexed.keys());
  changed.sort();
  const commitsSince =
    worktree.head === index.commit_sha ? 0 : ((await commitsBetween(worktree.root, index.commit_sha, worktree.head)) ?? null);
  const evidence = {
    checked_against: worktree.root,
    head: worktree.head,
    indexed_commit: index.commit_sha,
    commits_since_index: commitsSince,
    changed_files: changed.slice(0, LISTED_CHANGES),
    changed_files_total: changed.length,
    uncommitted_changes: worktree.fingerprint !== null,
  };
  if (changed.length === 0) {
    const moved = worktree.head !== index.commit_sha ? `HEAD moved to ${worktree.head.slice(0, 12)} but ` : '';
    return { freshness: 'fresh', reason: moved ? `${moved}no file differs from the indexed content` : null, evidence };
  }
  const where = [
    commitsSince
      ? `${commitsSince} commit${commitsSince === 1 ? '' : 's'} since the index`
      : worktree.head !== index.commit_sha
        ? 'HEAD is elsewhere'
        : null,
    worktree.fingerprint !== null ? 'uncommitted changes' : null,
  ]
    .filter(Boolean)
    .join(' and ');
  return {
    freshness: 'stale',
    reason: `${changed.length} ${changed.length === 1 ? 'file differs' : 'files differ'} from the index (${where || 'changed content'}): run \`sextant index\` to refresh it`,
    evidence,
  };
}
