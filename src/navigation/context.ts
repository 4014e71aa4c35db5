// Resolving what a request names — repository, published index, file,
// position — with errors that say how to fix the request.
import { posix } from 'node:path';
import { quote, UserError } from '../errors.js';
import type { CurrentRepo, IndexFileRow, Lookups, StoredDocument } from '../registry/lookups.js';
import type { IndexRow, Repo } from '../registry/schema.js';
import type { LanguageTier } from '../protocol/index-status.js';
import type { NearestCommit } from '../protocol/common.js';
import { NEAREST_COMMIT_BOUND, nearestPublished } from '../registry/commit-graph.js';
import type { Occurrence } from '../registry/payload.js';
import { lastRun } from '../registry/repos.js';
import { Adjuster, type Edits } from './adjust.js';

export interface RepoContext {
  repo: Repo;
  /** The index that answers: HEAD's, or the nearest indexed ancestor's (see adjust.ts). */
  index: IndexRow;
  languages: Record<string, LanguageTier>;
  /** This answer's adjustments through the edits made since that index (none at a named commit). */
  adjust: Adjuster;
  /** Set when the index is not of the commit asked about (a named commit, else HEAD) but of its nearest indexed ancestor. */
  nearest?: NearestCommit | undefined;
  /** The current index of every other repository: global symbols are the same entities there. */
  others: readonly number[];
}

export interface FileContext extends RepoContext {
  file: IndexFileRow;
  document: StoredDocument;
  lines: string[] | null;
}

/**
 * A repository and the index that answers for it: at `commit` when given (its
 * own, else its nearest published ancestor in the commit graph CI reported),
 * else the one for the worktree's HEAD that `edits` (when given) follows.
 */
export async function openRepo(
  lookups: Lookups,
  slug: string,
  options: { commit?: string | undefined; edits?: Edits | undefined; current?: CurrentRepo | undefined } = {},
): Promise<RepoContext> {
  const { commit, edits } = options;
  const found = options.current ?? (await lookups.current(slug));
  if (!found) {
    const known = await lookups.repoSlugs();
    const list = known.length ? `known repositories: ${known.slice(0, 20).join(', ')}` : 'the registry holds no repositories yet';
    throw new UserError(`unknown repository ${quote(slug)} (${list}): index it with \`sextant index PATH\` or pass a known name`);
  }
  const { repo, index: current, others } = found;
  if (commit !== undefined) return atCommit(lookups, repo, commit, others);
  if (!current) {
    const run = await lastRun(lookups.db, repo.id);
    const why =
      run?.outcome === 'failed' && run.reason ? `its last index run failed: ${run.reason}` : 'no index has been published for it yet';
    throw new UserError(`${slug} has no published index (${why}): run \`sextant index\` in it`);
  }
  const selection = edits ? await edits.select(repo, current) : { index: current, worktree: undefined };
  const index = selection.index;
  const languages = JSON.parse(index.languages) as Record<string, LanguageTier>;
  return { repo, index, languages, adjust: new Adjuster(edits, lookups, repo, selection), nearest: selection.nearest, others };
}

async function atCommit(lookups: Lookups, repo: Repo, commit: string, others: readonly number[]): Promise<RepoContext> {
  const found = await nearestPublished(lookups.db, repo.id, commit);
  if (!found) {
    throw new UserError(
      `${repo.slug} has no published index at ${commit.slice(0, 12)} nor at an ancestor the registry knows of within ${NEAREST_COMMIT_BOUND} commits: ` +
        'publish that commit (`sextant publish INDEX.scip --commit SHA`), or report its ancestry (--parents, or --root with a checkout)',
    );
  }
  const { index, distance } = found;
  const languages = JSON.parse(index.languages) as Record<string, LanguageTier>;
  const nearest = distance > 0 ? { requested: commit, commit: index.commit_sha, distance } : undefined;
  // An answer at a named commit is of that commit's text: no worktree edits to follow.
  return {
    repo,
    index,
    languages,
    nearest,
    others,
    adjust: new Adjuster(undefined, lookups, repo, { index, worktree: undefined, nearest }),
  };
}

/** The nearest_commit flag of an answer computed at the nearest indexed ancestor, whatever the tier. */
export function nearestFlag(ctx: RepoContext): { nearest_commit?: NearestCommit } {
  return ctx.nearest ? { nearest_commit: ctx.nearest } : {};
}

/** The explanation a navigation tool gives on a repository indexed search-only. */
export function searchOnlyExplanation(ctx: Pick<RepoContext, 'repo' | 'languages'>): string | undefined {
  const tiers = Object.values(ctx.languages);
  // With a syntactic language, what a request names decides (see navigation/syntactic.ts).
  if (tiers.some((t) => t.tier === 'precise' || t.tier === 'syntactic')) return undefined;
  const failed = Object.entries(ctx.languages).find(([, t]) => t.reason);
  const why = failed ? ` Here: ${failed[0]}: ${sentence(failed[1].reason!)}` : '';
  const fix = failed?.[1].recovery ? ` To fix: ${sentence(failed[1].recovery)}` : '';
  return (
    `${ctx.repo.slug} is indexed search-only: it has no SCIP index, so navigation tools cannot answer. ` +
    `This happens when the language's indexer cannot build the repo — for example an Android/Gradle project.${why}${fix}`
  );
}

/** Text ending in exactly one full stop, whatever the indexer's message ended with. */
function sentence(text: string): string {
  return text.replace(/[.\s]+$/, '') + '.';
}

export function requirePrecise(ctx: RepoContext): void {
  const explanation = searchOnlyExplanation(ctx);
  if (explanation) throw new UserError(explanation);
}

/** A request's path as a clean repository-relative path. */
export function normalizeQueryPath(path: string): string {
  if (path.includes('\0')) throw new UserError('path contains a NUL byte: pass a repository-relative file path');
  if (path.includes('\\')) throw new UserError(`path ${quote(path)} uses '\\': pass a repository-relative path with '/' separators`);
  if (posix.isAbsolute(path))
    throw new UserError(`path ${quote(path)} is absolute: pass it relative to the repository root (e.g. src/index.ts)`);
  const normal = posix.normalize(path);
  if (normal === '..' || normal.startsWith('../')) {
    throw new UserError(`path ${quote(path)} leaves the repository: pass a path inside it, relative to its root`);
  }
  if (normal === '.' || normal.endsWith('/')) throw new UserError(`path ${quote(path)} is a directory: pass a file path`);
  return normal;
}

export async function openFile(lookups: Lookups, ctx: RepoContext, rawPath: string): Promise<FileContext> {
  const path = normalizeQueryPath(rawPath);
  const file = await lookups.file(ctx.index.id, path);
  const at = `${ctx.repo.slug}@${ctx.index.commit_sha.slice(0, 12)}`;
  if (!file) {
    const similar = await lookups.similarPaths(ctx.index.id, posix.basename(path));
    const hint = similar.length ? ` (did you mean ${similar.map((s) => `"${s}"`).join(', ')}?)` : '';
    throw new UserError(`${quote(path)} is not a file of ${at}${hint}: pass a repository-relative path of an indexed file`);
  }
  if (file.document_id === null) {
    const tier = file.language ? ctx.languages[file.language] : undefined;
    if (tier && tier.tier !== 'precise') {
      throw new UserError(
        `${path} is ${file.language}, which ${ctx.repo.slug} has indexed search-only, so navigation tools cannot answer for it: ` +
          `${sentence(tier.reason ?? 'no indexer')}${tier.recovery ? ` To fix: ${tier.recovery}` : ''}`,
      );
    }
    const indexer = tier?.indexer ?? 'an indexer';
    throw new UserError(
      file.language
        ? `${path} was not indexed by ${indexer} (it is outside the indexed project, e.g. not included by tsconfig.json, or larger than the indexer's file size limit, as its manifest sets it): include it in the project and run \`sextant index\` again`
        : `${path} is not source code sextant can navigate: pass a source file`,
    );
  }
  const [document, lines] = await Promise.all([lookups.document(file.document_id), lookups.lines(file.blob_sha)]);
  return { ...ctx, file, document, lines };
}

/** Checks a 0-based position against the file's text. */
export function checkPosition(ctx: FileContext, line: number, column: number): void {
  if (!ctx.lines) return;
  if (line >= ctx.lines.length) {
    throw new UserError(
      `line ${line + 1} is past the end of ${ctx.file.path} (${ctx.lines.length} lines): pass a line between 1 and ${ctx.lines.length}`,
    );
  }
  const width = ctx.lines[line]!.length;
  if (column > width) {
    throw new UserError(
      `column ${column + 1} is past the end of line ${line + 1} of ${ctx.file.path} (${width} columns): pass a column between 1 and ${width + 1}`,
    );
  }
}

/**
 * The occurrences at a 0-based position: the narrowest range containing it,
 * or, failing that, one that ends exactly there (a cursor just after a name).
 * Several occurrences can share a range (a shorthand property is both a
 * property and a variable); all of them are returned.
 */
export function occurrencesAt(doc: StoredDocument, line: number, column: number): Occurrence[] {
  const occ = doc.occurrences;
  let lo = 0;
  let hi = occ.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (occ.startLine(mid) < line) lo = mid + 1;
    else hi = mid;
  }
  const inside: number[] = [];
  const atEnd: number[] = [];
  const consider = (i: number) => {
    const where = occ.where(i, line, column);
    if (where === 'inside') inside.push(i);
    else if (where === 'at-end') atEnd.push(i);
  };
  for (let i = lo; i < occ.length && occ.startLine(i) === line; i++) consider(i);
  // Ranges spanning lines are rare; only then look further back.
  if (inside.length === 0) for (let i = 0; i < lo; i++) if (occ.endLine(i) >= line) consider(i);
  const pool = (inside.length ? inside : atEnd).map((i) => occ.at(i)).filter((o) => o.range[0] !== o.range[2] || o.range[1] !== o.range[3]);
  if (pool.length === 0) return [];
  const size = (o: Occurrence) => (o.range[2] - o.range[0]) * 1e6 + (o.range[3] - o.range[1]);
  const smallest = Math.min(...pool.map(size));
  return pool.filter((o) => size(o) === smallest);
}

/** Whether occurrence `i` of the file's document is written as `name`, on one line of the file's text. */
export function occurrenceSpells(ctx: FileContext, i: number, name: string): boolean {
  const occ = ctx.document.occurrences;
  if (occ.startLine(i) !== occ.endLine(i)) return false;
  const r = occ.range(i);
  return r[3] - r[1] === name.length && ctx.lines?.[r[0]]?.startsWith(name, r[1]) === true;
}

/** Names on a line, to suggest when a position hits none; `shown` is its 1-based number as asked. */
export function namesOnLine(ctx: FileContext, line: number, shown = line + 1): string {
  const occ = ctx.document.occurrences;
  const near: Occurrence[] = [];
  // A name that is several symbols at once (`Error`, both the interface and the value) has an occurrence for each: named once.
  const ranges = new Set<string>();
  for (let i = 0; i < occ.length; i++) {
    if (occ.startLine(i) !== line || occ.endLine(i) !== line) continue;
    const o = occ.at(i);
    const range = `${o.range[1]}:${o.range[3]}`;
    if (o.range[3] > o.range[1] && !ranges.has(range)) {
      ranges.add(range);
      near.push(o);
    }
  }
  const text = ctx.lines?.[line];
  if (!text || near.length === 0) return '';
  const names = near.slice(0, 6).map((o) => `${text.slice(o.range[1], o.range[3])} (column ${o.range[1] + 1})`);
  return `; symbols on line ${shown}: ${names.join(', ')}`;
}
