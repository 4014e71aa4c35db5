// What a worktree file holds now, asked one file at a time by the answers
// that touch it, never by a scan of the tree. A file is hashed once; after
// that a stat says whether it moved (size, mtime, ctime, inode), and only a
// file that moved is read and hashed again.
import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { Lru } from '../lru.js';
import { gitBlobSha, readRepoFile } from './worktree.js';
import { LineMap } from './line-map.js';

/** How an indexed file stands in the worktree. */
export type FileEdit =
  | { state: 'unchanged' }
  | { state: 'edited'; map: LineMap }
  /** Gone, or no longer a regular file inside the repository. */
  | { state: 'deleted' }
  /** Changed, but its indexed text was not kept (binary or too large), so nothing maps. */
  | { state: 'unmappable' };

interface Seen {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  sha: string | undefined;
}

/** Files whose stat is remembered, per worktree. */
const REMEMBERED_FILES = 50_000;
/** Line maps kept, by (indexed blob, current blob). */
const REMEMBERED_MAPS = 256;

export class WorktreeFiles {
  private readonly seen = new Lru<string, Seen>(REMEMBERED_FILES);
  private readonly maps = new Lru<string, LineMap>(REMEMBERED_MAPS);

  constructor(readonly root: string) {}

  /**
   * How `path` stands against the blob an index recorded for it. The indexed
   * text is asked for only when the file changed; null when it was not kept.
   */
  async edit(path: string, indexedSha: string, indexedLines: () => Promise<readonly string[] | null>): Promise<FileEdit> {
    const now = this.current(path);
    if (now === undefined) return { state: 'deleted' };
    if (now === indexedSha) return { state: 'unchanged' };
    const key = `${indexedSha}:${now}`;
    const known = this.maps.get(key);
    if (known) return { state: 'edited', map: known };
    const before = await indexedLines();
    if (!before) return { state: 'unmappable' };
    const content = readRepoFile(this.root, path);
    if (!content) return { state: 'deleted' };
    // It may have changed again since the stat: the map is of what was read, and kept under its hash.
    const read = gitBlobSha(content);
    if (read === indexedSha) return { state: 'unchanged' };
    const map = LineMap.between(before, content.toString('utf8').split(/\r\n|\r|\n/));
    this.maps.set(`${indexedSha}:${read}`, map);
    return { state: 'edited', map };
  }

  /** The blob hash of the file now; undefined when it is not a regular file inside the root. */
  current(path: string): string | undefined {
    let stat: Stats | undefined;
    try {
      stat = lstatSync(join(this.root, path), { throwIfNoEntry: false });
    } catch {
      return undefined; // a directory on the way became a file
    }
    if (!stat?.isFile()) return undefined;
    const before = this.seen.get(path);
    if (
      before &&
      before.ino === stat.ino &&
      before.dev === stat.dev &&
      before.size === stat.size &&
      before.mtimeMs === stat.mtimeMs &&
      before.ctimeMs === stat.ctimeMs
    ) {
      return before.sha;
    }
    // readRepoFile refuses what resolves outside the root (a symlinked directory on the way).
    const content = readRepoFile(this.root, path);
    const sha = content === undefined ? undefined : gitBlobSha(content);
    this.seen.set(path, { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, sha });
    return sha;
  }
}
