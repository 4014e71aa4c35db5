// What a worktree file holds now, asked one file at a time by the answers
// that touch it, never by a scan of the tree. A file is hashed once; after
// that a stat says whether it moved (size, mtime, ctime, inode), and only a
// file that moved is read and hashed again. While a watch reports every
// change under the tree (a serving process, see worktree-changes.ts), a file
// stat'ed since and named by no event has not moved, and is not stat'ed
// again: a stat costs 5-10 µs here, and a deep call hierarchy touches a few
// hundred files.
import { lstatSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { Lru } from '../lru.js';
import { gitBlobSha, readRepoFile } from './worktree.js';
import { LineMap } from './line-map.js';
import { splitLines } from '../lines.js';

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
  /** The watch generation it was stat'ed in, with its directory watched; -1 when not, or an event named it since. */
  watched: number;
}

/** Which directories a watch reports the entries of: those it covers, and they only. */
export type WatchedDirectories = (dir: string) => boolean;

/** Files whose stat is remembered, per worktree. */
const REMEMBERED_FILES = 50_000;
/** Line maps kept, by (indexed blob, current blob). */
const REMEMBERED_MAPS = 256;

export class WorktreeFiles {
  private readonly seen = new Lru<string, Seen>(REMEMBERED_FILES);
  private readonly maps = new Lru<string, LineMap>(REMEMBERED_MAPS);
  /** Set while a watch reports every change in the directories it says it covers. */
  private watchedDirectories: WatchedDirectories | undefined;
  /**
   * Moves on at each event that may concern files not named by it (a
   * directory moved, a file created) and at each change of watch: a stat
   * taken in an earlier generation is not trusted.
   */
  private generation = 0;

  constructor(readonly root: string) {}

  /** A watch is ready: files stat'ed from now on in the directories it covers are stat'ed again only after an event names them. */
  watched(directories: WatchedDirectories): void {
    this.watchedDirectories = directories;
    this.generation++;
  }

  /** The watch ended, or failed somewhere: every file is stat'ed at each visit again. */
  unwatched(): void {
    this.watchedDirectories = undefined;
    this.generation++;
  }

  /** A watch event named this repository-relative path: a file, or a directory whose entries all may have moved. */
  changed(path: string): void {
    const seen = this.seen.peek(path);
    if (seen) seen.watched = -1;
    else this.generation++;
  }

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
    const map = LineMap.between(before, splitLines(content.toString('utf8')));
    this.maps.set(`${indexedSha}:${read}`, map);
    return { state: 'edited', map };
  }

  /** The blob hash of the file now; undefined when it is not a regular file inside the root. */
  current(path: string): string | undefined {
    const known = this.seen.get(path);
    if (known && known.watched === this.generation && this.watchedDirectories) return known.sha;
    let stat: Stats | undefined;
    try {
      stat = lstatSync(join(this.root, path), { throwIfNoEntry: false });
    } catch {
      return undefined; // a directory on the way became a file
    }
    if (!stat?.isFile()) return undefined;
    // Trusted from this stat on, until an event names it (events are handled between answers, never inside one).
    const watched = this.watchedDirectories?.(dirOf(path)) ? this.generation : -1;
    if (
      known &&
      known.ino === stat.ino &&
      known.dev === stat.dev &&
      known.size === stat.size &&
      known.mtimeMs === stat.mtimeMs &&
      known.ctimeMs === stat.ctimeMs
    ) {
      known.watched = watched;
      return known.sha;
    }
    // readRepoFile refuses what resolves outside the root (a symlinked directory on the way).
    const content = readRepoFile(this.root, path);
    const sha = content === undefined ? undefined : gitBlobSha(content);
    this.seen.set(path, { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, sha, watched });
    return sha;
  }
}

/** A repository-relative path's directory, '' for the root's entries (as watches name them). */
function dirOf(path: string): string {
  const dir = dirname(path);
  return dir === '.' ? '' : dir;
}
