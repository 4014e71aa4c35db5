// The commit graph of repositories fed from CI, as far as CI reported it
// (`publish --parents`, or `git rev-list --parents` of --root): the registry
// has no checkout of them to ask git. It answers one question: the ancestors
// of a commit within a bound, nearest first.
import type { Kysely } from 'kysely';
import type { Database, IndexRow } from './schema.js';
import { chunks } from './writer.js';

/** How far back an unpublished commit looks for a published ancestor (as for local repositories). */
export const NEAREST_COMMIT_BOUND = 50;

/** Records `commit`'s parents (edges already known are kept). */
export async function recordParents(
  db: Kysely<Database>,
  repoId: number,
  edges: readonly { commit: string; parents: readonly string[] }[],
): Promise<void> {
  const rows = edges.flatMap((e) => e.parents.map((p) => ({ repo_id: repoId, commit_sha: e.commit, parent_sha: p })));
  for (const chunk of chunks(rows, 300)) {
    await db
      .insertInto('commit_parents')
      .values(chunk)
      .onConflict((oc) => oc.columns(['repo_id', 'commit_sha', 'parent_sha']).doNothing())
      .execute();
  }
}

/**
 * The known ancestors of `commit` at most `bound` commits away, each with its
 * distance (the shortest path through the reported parents), the commit
 * itself at 0. One query per generation: at most `bound` of them.
 */
export async function ancestorsWithin(
  db: Kysely<Database>,
  repoId: number,
  commit: string,
  bound = NEAREST_COMMIT_BOUND,
): Promise<Map<string, number>> {
  const distance = new Map([[commit, 0]]);
  let frontier = [commit];
  for (let d = 1; d <= bound && frontier.length > 0; d++) {
    const next: string[] = [];
    for (const chunk of chunks(frontier, 500)) {
      const rows = await db
        .selectFrom('commit_parents')
        .select('parent_sha')
        .where('repo_id', '=', repoId)
        .where('commit_sha', 'in', chunk)
        .execute();
      for (const { parent_sha } of rows) {
        if (distance.has(parent_sha)) continue;
        distance.set(parent_sha, d);
        next.push(parent_sha);
      }
    }
    frontier = next;
  }
  return distance;
}

/**
 * The published index at `commit`, else the one at its nearest known
 * ancestor within the bound (distance > 0), else undefined. Among several
 * published indexes of one commit, the newest.
 */
export async function nearestPublished(
  db: Kysely<Database>,
  repoId: number,
  commit: string,
  bound = NEAREST_COMMIT_BOUND,
): Promise<{ index: IndexRow; distance: number } | undefined> {
  const ancestors = await ancestorsWithin(db, repoId, commit, bound);
  let best: { index: IndexRow; distance: number } | undefined;
  for (const chunk of chunks([...ancestors.keys()], 500)) {
    const rows = await db
      .selectFrom('indexes')
      .selectAll()
      .where('repo_id', '=', repoId)
      .where('state', '=', 'published')
      .where('commit_sha', 'in', chunk)
      .execute();
    for (const index of rows) {
      const distance = ancestors.get(index.commit_sha)!;
      if (!best || distance < best.distance || (distance === best.distance && index.id > best.index.id)) best = { index, distance };
    }
  }
  return best;
}
