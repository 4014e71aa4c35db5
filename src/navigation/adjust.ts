// Answers that follow edits. An index is of one commit; the worktree moves on
// (uncommitted edits, commits since, a checkout). Every file an answer
// touches is compared with its worktree copy (a stat, and a hash when it
// moved): the position asked about goes back to its place in the indexed
// text, and every location answered comes forward to its place in the
// current text, marked `adjusted`. A location on a line changed since the
// index, or in a file deleted since, is dropped and counted: the index says
// nothing true about it (a language server can, later). When HEAD has no
// index, the nearest indexed ancestor answers, through the same diffs.
import type { Lookups, DefinitionRow } from '../registry/lookups.js';
import type { IndexRow, Repo } from '../registry/schema.js';
import type { Range as Range0 } from '../scip/range.js';
import type { Freshness, Location, NearestCommit } from '../protocol/common.js';
import { WorktreeFiles, type FileEdit } from '../freshness/worktree-files.js';
import { WorktreeChanges, type ChangedFiles } from '../freshness/worktree-changes.js';
import { changedBetween } from '../freshness/worktree.js';
import { Lru } from '../lru.js';
import { Heads } from '../freshness/head.js';
import { nearestBoundFromEnv, nearestIndexedCommit } from '../freshness/nearest.js';
import { range1 } from './locations.js';

/** At most this many adjusted files are named in an answer. */
const LISTED_FILES = 100;
/** Files changed since HEAD compared with an index per answer (a stat each, and a hash when one moved). */
const COMPARED_FILES = 1000;
/** Pairs of commits (an index's, a HEAD) whose changed files are kept. */
const COMMIT_PAIRS = 16;

/** Where a repository's worktree stands: its root on this machine and its HEAD. */
export interface WorktreeState {
  root: string;
  head: string;
}

/** The index chosen for a worktree, and how far from HEAD its commit is. */
export interface Selection {
  index: IndexRow;
  worktree: WorktreeState | undefined;
  /** Set when the index is not of HEAD: HEAD has none, so an ancestor's (distance > 0) or, failing that, the latest one answers. */
  nearest?: NearestCommit | undefined;
  /** HEAD has no index and no ancestor within the bound has one: the latest published index answers, through the diffs. */
  unrelated?: boolean;
}

/**
 * What a navigation object knows of worktrees across its queries: file
 * states and line maps by content, HEADs by the files behind them, ancestors
 * by commit. One per Navigation.
 */
export class Edits {
  private readonly files = new Map<string, WorktreeFiles>();
  private readonly changes = new Map<string, WorktreeChanges>();
  private readonly heads: Heads;
  private readonly committed = new Lru<string, Promise<string[] | undefined>>(COMMIT_PAIRS);

  constructor(
    private readonly lookups: Lookups,
    /** How many commits back an indexed ancestor is looked for. */
    readonly bound: number = nearestBoundFromEnv(),
    /** A serving process: the files changed in a worktree are listed for each answer, or followed once watched (see WorktreeChanges), else listed once. */
    private readonly serving = false,
  ) {
    this.heads = new Heads(serving);
  }

  /** The worktree of a repository on this machine, if it has one (a git worktree with a HEAD). */
  async worktree(repo: Pick<Repo, 'root_path'>): Promise<WorktreeState | undefined> {
    const root = repo.root_path;
    const head = root ? await this.heads.head(root) : undefined;
    return head ? { root: root!, head } : undefined;
  }

  /**
   * The index that answers for a repository: its worktree HEAD's own, else
   * the nearest indexed ancestor's within the bound, else the latest one
   * published (current_index_id). Without a worktree, the latest one.
   */
  async select(repo: Repo, current: IndexRow): Promise<Selection> {
    const worktree = await this.worktree(repo);
    if (!worktree || current.commit_sha === worktree.head) return { index: current, worktree };
    const published = await this.lookups.publishedIndexes(repo.id);
    // Newest first: the first index of each commit is the one to use.
    const byCommit = new Map<string, number>();
    for (const p of published) if (!byCommit.has(p.commit_sha)) byCommit.set(p.commit_sha, p.id);
    const own = byCommit.get(worktree.head);
    const candidates = own !== undefined ? [worktree.head] : await this.heads.ancestors(worktree.root, worktree.head, this.bound);
    const nearest = nearestIndexedCommit(candidates, byCommit, this.bound);
    const index = nearest ? await this.lookups.index(nearest.indexed) : undefined;
    if (!nearest || !index) return { index: current, worktree, unrelated: true };
    return {
      index,
      worktree,
      ...(nearest.distance > 0 ? { nearest: { requested: worktree.head, commit: nearest.commit, distance: nearest.distance } } : {}),
    };
  }

  /** How an indexed file stands in the worktree at `root`. */
  async fileEdit(root: string, path: string, blobSha: string): Promise<FileEdit> {
    return this.filesAt(root).edit(path, blobSha, () => this.lookups.lines(blobSha));
  }

  /** Reads and hashes a worktree file now, as an answer's first visit to it would (see Navigation.prime); its blob hash, undefined when gone. */
  primeFile(root: string, path: string): string | undefined {
    return this.filesAt(root).current(path);
  }

  /** The files changed since HEAD in the worktree at `root` (see WorktreeChanges). */
  changesAt(root: string): WorktreeChanges {
    let changes = this.changes.get(root);
    if (!changes) this.changes.set(root, (changes = new WorktreeChanges(root, this.serving, this.filesAt(root))));
    return changes;
  }

  /**
   * The files at `root` whose text is not what `index` holds, or that it
   * lacks: of those changed since HEAD (an index of an uncommitted tree holds
   * some as they are), and, when the index is of another commit (HEAD's
   * nearest indexed ancestor), of those the commits between changed. Past
   * COMPARED_FILES such files, the rest are not compared and the list says it
   * is incomplete; so it does when git cannot compare the index's commit.
   */
  async changedSinceIndex(root: string, index: Pick<IndexRow, 'id' | 'commit_sha'>): Promise<ChangedFiles> {
    const head = await this.heads.head(root);
    const [listed, committed] = await Promise.all([
      this.changesAt(root).files(),
      head === undefined || head === index.commit_sha ? [] : this.committedSince(root, index.commit_sha, head),
    ]);
    const candidates = [...new Set([...listed.paths, ...(committed ?? [])])];
    const paths: string[] = [];
    for (const path of candidates.slice(0, COMPARED_FILES)) {
      const now = this.filesAt(root).current(path);
      // Gone since: nothing is in it.
      if (now === undefined) continue;
      const row = await this.lookups.file(index.id, path);
      if (!row || now !== row.blob_sha) paths.push(path);
    }
    return { paths, complete: listed.complete && committed !== undefined && candidates.length <= COMPARED_FILES };
  }

  /** The files commits changed between an indexed commit and HEAD (see changedBetween); commits never change, so kept. */
  private committedSince(root: string, from: string, to: string): Promise<string[] | undefined> {
    const key = `${root}\0${from}\0${to}`;
    let known = this.committed.get(key);
    if (!known) this.committed.set(key, (known = changedBetween(root, from, to)));
    return known;
  }

  /** Stops following worktrees. */
  async close(): Promise<void> {
    this.heads.close();
    await Promise.all([...this.changes.values()].map((c) => c.close()));
    this.changes.clear();
  }

  /** The worktree files of `root`, as every answer of this Navigation sees them (searches share them too). */
  filesAt(root: string): WorktreeFiles {
    let files = this.files.get(root);
    if (!files) this.files.set(root, (files = new WorktreeFiles(root)));
    return files;
  }

  /**
   * Whether a 1-based line of a file, as it is now in the worktree, is one
   * the index of `ctx` knows nothing true about: changed or inserted since
   * the index, in a file changed beyond mapping, or in a file the index does
   * not have. For the tier that answers there instead (a language server).
   */
  /** Whether an indexed file is in the worktree with other text than the index holds. */
  async changedAt(ctx: { repo: Repo; index: IndexRow }, path: string): Promise<boolean> {
    const worktree = await this.worktree(ctx.repo);
    if (!worktree) return false;
    const file = await this.lookups.file(ctx.index.id, path);
    if (!file) return false;
    const { state } = await this.fileEdit(worktree.root, path, file.blob_sha);
    return state === 'edited' || state === 'unmappable';
  }

  async onChangedLine(ctx: { repo: Repo; index: IndexRow }, path: string, line: number): Promise<boolean> {
    const worktree = await this.worktree(ctx.repo);
    if (!worktree) return false;
    const file = await this.lookups.file(ctx.index.id, path);
    if (!file) return true;
    const edit = await this.fileEdit(worktree.root, path, file.blob_sha);
    if (edit.state === 'unchanged') return false;
    if (edit.state !== 'edited') return true;
    return edit.map.toOld(line - 1) === undefined;
  }
}

/** An indexed file, as a row of an answer names it. */
export interface IndexedFile {
  repo: string;
  path: string;
  blob: string;
}

/** A location's place in the current text; `span` carries an extent of the same file along. */
export interface Placement {
  range: Range0;
  adjusted: boolean;
  span(r: Range0): Range0;
}

const UNMOVED = (range: Range0): Placement => ({ range, adjusted: false, span: (r) => r });

/**
 * One answer's adjustments: the files it went through and what it dropped.
 * Files of other repositories are adjusted through their own worktrees.
 */
export class Adjuster {
  private readonly roots = new Map<string, Promise<string | undefined>>();
  private readonly states = new Map<string, Promise<FileEdit | undefined>>();
  private readonly adjusted = new Set<string>();
  /** Locations dropped, each once however many parts of the answer named it. */
  private readonly onChangedLines = new Set<string>();
  private readonly inDeletedFiles = new Set<string>();

  constructor(
    private readonly edits: Edits | undefined,
    private readonly lookups: Lookups,
    private readonly repo: Repo,
    private readonly selection: Omit<Selection, 'index'> & { index?: IndexRow },
  ) {
    if (selection.worktree) this.roots.set(repo.slug, Promise.resolve(selection.worktree.root));
  }

  /** The worktree this answer follows, when it follows one: where the current text of a file is read. */
  get root(): string | undefined {
    return this.edits ? this.selection.worktree?.root : undefined;
  }

  /** Whether answers follow worktree edits: when not, `file` is undefined for every file, and asks nothing of the registry. */
  get followsEdits(): boolean {
    return this.edits !== undefined;
  }

  /** How a file stands in its worktree; undefined when its repository has none on this machine. */
  async file(f: IndexedFile): Promise<FileEdit | undefined> {
    if (!this.edits) return undefined;
    const key = `${f.repo}\0${f.path}\0${f.blob}`;
    let state = this.states.get(key);
    if (!state) {
      state = this.rootOf(f.repo).then(async (root) => {
        if (root === undefined) return undefined;
        const edit = await this.edits!.fileEdit(root, f.path, f.blob);
        if (edit.state !== 'unchanged') this.adjusted.add(f.repo === this.repo.slug ? f.path : `${f.repo}:${f.path}`);
        return edit;
      });
      this.states.set(key, state);
    }
    return state;
  }

  /** A range of an indexed file in the current text; undefined (and counted) when its lines changed or its file is gone. */
  async place(f: IndexedFile, range: Range0): Promise<Placement | undefined> {
    const edit = await this.file(f);
    return this.placeIn(f, edit, range);
  }

  /** `place`, for a file whose state is already known. */
  placeIn(f: IndexedFile, edit: FileEdit | undefined, range: Range0): Placement | undefined {
    if (!edit || edit.state === 'unchanged') return UNMOVED(range);
    if (edit.state === 'deleted') {
      this.inDeletedFiles.add(`${f.repo}\0${f.path}\0${range.join(':')}`);
      return undefined;
    }
    const moved = edit.state === 'edited' ? edit.map.rangeToNew(range) : undefined;
    if (!moved) {
      this.onChangedLines.add(`${f.repo}\0${f.path}\0${range.join(':')}`);
      return undefined;
    }
    return { range: moved, adjusted: true, span: (r) => (edit as { map: { spanToNew(r: Range0): Range0 } }).map.spanToNew(r) };
  }

  /** A definition row with its positions in the current text; undefined (and counted) when its name's line changed. */
  async row(d: DefinitionRow): Promise<(DefinitionRow & { adjusted?: true }) | undefined> {
    return this.rowIn(d, await this.file({ repo: d.repo, path: d.path, blob: d.blob_sha }));
  }

  /** `row`, for a definition in a file whose state is already known. */
  rowIn(d: DefinitionRow, edit: FileEdit | undefined): (DefinitionRow & { adjusted?: true }) | undefined {
    const f = { repo: d.repo, path: d.path, blob: d.blob_sha };
    const place = this.placeIn(f, edit, [d.start_line, d.start_char, d.end_line, d.end_char]);
    if (!place) return undefined;
    if (!place.adjusted) return d;
    const [start_line, start_char, end_line, end_char] = place.range;
    const moved = { ...d, start_line, start_char, end_line, end_char, adjusted: true as const };
    if (d.enclosing_start_line !== null) {
      const e = place.span([d.enclosing_start_line, d.enclosing_start_char!, d.enclosing_end_line!, d.enclosing_end_char!]);
      Object.assign(moved, { enclosing_start_line: e[0], enclosing_start_char: e[1], enclosing_end_line: e[2], enclosing_end_char: e[3] });
    }
    return moved;
  }

  /** The fields every adjusted answer carries (see Freshness in protocol/common.ts). */
  fields(): Freshness {
    const dropped = this.onChangedLines.size + this.inDeletedFiles.size;
    const nearest = this.selection.nearest;
    const stale = this.adjusted.size > 0 || dropped > 0 || nearest !== undefined || this.selection.unrelated === true;
    const freshness = this.edits && this.selection.worktree ? (stale ? 'stale' : 'fresh') : 'unknown';
    return {
      index_freshness: freshness,
      stale: freshness === 'stale',
      adjusted_files: [...this.adjusted].sort().slice(0, LISTED_FILES),
      ...(dropped
        ? {
            dropped_locations: {
              on_changed_lines: this.onChangedLines.size,
              in_deleted_files: this.inDeletedFiles.size,
              reason:
                'these locations are on lines changed, or in files deleted, since the index: the index says nothing true about them; ' +
                'reindex (`sextant reindex`) to see them',
            },
          }
        : {}),
      ...(nearest ? { nearest_commit: nearest } : {}),
    };
  }

  private rootOf(slug: string): Promise<string | undefined> {
    let root = this.roots.get(slug);
    if (!root) {
      // This answer's own repository is at hand; another's row is read once per answer.
      const repo = slug === this.repo.slug ? Promise.resolve(this.repo) : this.lookups.repo(slug);
      root = repo.then(async (r) => (r && this.edits ? (await this.edits.worktree(r))?.root : undefined));
      this.roots.set(slug, root);
    }
    return root;
  }
}

/** A location built from indexed text (its preview is of that line), moved to its place in the current text. */
export function moved<T extends Location>(loc: T, place: Placement): T {
  return place.adjusted ? { ...loc, ...range1(place.range), adjusted: true } : loc;
}
