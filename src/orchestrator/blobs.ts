// Stores the text of a worktree's files that the registry does not hold yet.
// Blobs are content-addressed by git's hash, so an unchanged file is stored once.
import type { WorktreeFile } from '../freshness/worktree.js';
import { readRepoFile, gitBlobSha } from '../freshness/worktree.js';
import type { NewBlob, RegistryWriter } from '../registry/writer.js';

/** Files larger than this are listed but their text is not kept. */
export const MAX_TEXT_BYTES = 1 << 20;
const BATCH_BYTES = 8 << 20;

export interface BlobStats {
  stored: number;
  reused: number;
  skipped: number;
}

export async function storeBlobs(writer: RegistryWriter, root: string, files: readonly WorktreeFile[]): Promise<BlobStats> {
  const have = await writer.existingBlobs([...new Set(files.map((f) => f.sha))]);
  const stats: BlobStats = { stored: 0, reused: 0, skipped: 0 };
  let batch: NewBlob[] = [];
  let batchBytes = 0;
  const seen = new Set<string>();
  for (const file of files) {
    if (have.has(file.sha) || seen.has(file.sha)) {
      stats.reused++;
      continue;
    }
    seen.add(file.sha);
    const blob = readBlob(root, file);
    if (blob.skipped) stats.skipped++;
    else stats.stored++;
    batch.push(blob);
    batchBytes += blob.content?.length ?? 0;
    if (batchBytes > BATCH_BYTES) {
      await writer.writeBlobs(batch);
      batch = [];
      batchBytes = 0;
    }
  }
  await writer.writeBlobs(batch);
  return stats;
}

/**
 * The text of a file the registry keeps no text of (over MAX_TEXT_BYTES), read
 * again from the worktree for the indexer's document to be derived from: a
 * generated parser of 1.6 MB (webpack's lib/javascript/syntax-printer.js) is
 * source the indexer covers, though search leaves it out. Undefined when the
 * file is no longer that blob, or is binary.
 */
export function readBlobText(root: string, path: string, sha: string): string | undefined {
  const content = readRepoFile(root, path);
  if (content === undefined || content.includes(0) || gitBlobSha(content) !== sha) return undefined;
  return content.toString('utf8');
}

function readBlob(root: string, file: WorktreeFile): NewBlob {
  const content = readRepoFile(root, file.path);
  if (content === undefined) return { sha: file.sha, content: null, byteSize: 0, skipped: 'unreadable' };
  // The file changed since the snapshot: keep the snapshot's identity honest.
  if (gitBlobSha(content) !== file.sha)
    return { sha: file.sha, content: null, byteSize: content.length, skipped: 'changed while indexing' };
  if (content.length > MAX_TEXT_BYTES) return { sha: file.sha, content: null, byteSize: content.length, skipped: 'larger than 1 MiB' };
  // Any NUL byte, not only early ones: text columns cannot hold NUL on every engine (Postgres).
  if (content.includes(0)) return { sha: file.sha, content: null, byteSize: content.length, skipped: 'binary' };
  return { sha: file.sha, content: content.toString('utf8'), byteSize: content.length, skipped: null };
}
