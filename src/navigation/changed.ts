// Whether a file's worktree text is still what the index holds. File-level on
// purpose: one function for the query layer to ask, which a line-level check
// (positions on lines changed since the index) can replace.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * True when the worktree's file differs from the indexed blob (its git blob
 * hash), or is not in the index at all; false when it is unchanged or cannot
 * be read (then the index is all there is to answer from).
 */
export function changedSinceIndex(root: string, path: string, indexedBlob: string | undefined): boolean {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(root, path));
  } catch {
    return false;
  }
  if (indexedBlob === undefined) return true;
  const sha = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
  return sha !== indexedBlob;
}
