// The nearest indexed commit: where answers come from when HEAD itself has
// no index. The candidates come from wherever the commit graph is known (git
// in a worktree; a table of parents for a repository published by CI), so
// this takes them as a list and asks nothing itself.
import { UserError } from '../errors.js';

/** How many commits back sextant looks for an indexed ancestor, unless configured otherwise. */
export const DEFAULT_NEAREST_BOUND = 50;

export interface NearestCommit<T> {
  commit: string;
  /** Commits between HEAD and it: 0 is HEAD itself. */
  distance: number;
  indexed: T;
}

/**
 * The first of `candidates` (HEAD first, then its ancestors nearest first)
 * that has an index, within `bound` commits of HEAD; undefined when none has.
 */
export function nearestIndexedCommit<T>(
  candidates: readonly string[],
  indexed: ReadonlyMap<string, T>,
  bound = DEFAULT_NEAREST_BOUND,
): NearestCommit<T> | undefined {
  const last = Math.min(candidates.length - 1, bound);
  for (let distance = 0; distance <= last; distance++) {
    const commit = candidates[distance]!;
    const found = indexed.get(commit);
    if (found !== undefined) return { commit, distance, indexed: found };
  }
  return undefined;
}

/** The bound from SEXTANT_NEAREST_COMMITS, or the default; a clear error for a bad value. */
export function nearestBoundFromEnv(value = process.env.SEXTANT_NEAREST_COMMITS): number {
  if (value === undefined || value === '') return DEFAULT_NEAREST_BOUND;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 10_000) {
    throw new UserError(
      `SEXTANT_NEAREST_COMMITS must be a whole number from 0 to 10000 (commits to look back for an indexed ancestor), not "${value}"`,
    );
  }
  return n;
}
