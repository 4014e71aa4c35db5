// searchCode: the substring index picks the files whose text can match, the
// real matcher finds the matches. Every search has a time budget and a match
// budget; past either, the answer says it is partial and why.
import { isAscii } from 'node:buffer';
import { existsSync } from 'node:fs';
import type { Engine } from '../registry/engine.js';
import { candidateFiles, currentIndexes, TEXTLESS_REASON, type CandidateFile, type SearchedIndex } from '../registry/search.js';
import { UserError } from '../errors.js';
import { WorktreeFiles, type FileEdit } from '../freshness/worktree-files.js';
import type { Freshness } from '../protocol/common.js';
import { CAP, Params, PREVIEW_CHARS, type Match, type Result } from '../protocol/search-code.js';
import { createMatcher, type Span } from './matcher.js';
import { parseParams } from './params.js';
import { allOf, extensionFilter, globFilter } from './paths.js';
import { splitLines } from '../lines.js';

export interface SearchBudget {
  /** Wall-clock milliseconds one search may take. */
  timeMs: number;
  /** Matches counted (returned or not) before counting stops. */
  matches: number;
}

export const DEFAULT_BUDGET: SearchBudget = { timeMs: 5000, matches: 100_000 };

/**
 * Text read only to count matches once `limit` of them are found. Counting
 * reads every candidate file, which on a large registry costs far more than
 * finding the matches shown; past this, `total` is a lower bound (total_exact false).
 */
const COUNT_BYTES_AFTER_LIMIT = 8 << 20;

/** At most this many files, or about this many bytes, of text are read from the registry at once. */
const TEXT_BATCH_FILES = 64;
const TEXT_BATCH_BYTES = 1 << 20;

/** At most this many adjusted files are named in an answer (as navigation answers name them). */
const LISTED_FILES = 100;

/**
 * The worktree files of a root, kept across answers so that a file seen
 * before costs a stat (see WorktreeFiles). The MCP server shares its
 * navigation's, which it primes in the background.
 */
export type WorktreeFilesOf = (root: string) => WorktreeFiles;

/** A WorktreeFilesOf of its own, for a search not given one. */
export function ownWorktreeFiles(): WorktreeFilesOf {
  const byRoot = new Map<string, WorktreeFiles>();
  return (root) => {
    let files = byRoot.get(root);
    if (!files) byRoot.set(root, (files = new WorktreeFiles(root)));
    return files;
  };
}

export async function searchCode(
  engine: Engine,
  input: Params,
  budget: SearchBudget = DEFAULT_BUDGET,
  worktreeFiles: WorktreeFilesOf = ownWorktreeFiles(),
): Promise<Result> {
  const started = performance.now();
  const deadline = started + budget.timeMs;
  const expired = () => performance.now() > deadline;
  const params = parseParams(Params, input);
  const limit = Math.min(params.limit, CAP);
  const matcher = createMatcher(params.query, { regex: params.regex, caseSensitive: params.case_sensitive });
  const asked = await searchedIndexes(engine, params.repo);
  // An index published without --root has no texts: searching it would answer "no match" for any query.
  const indexes = asked.filter((i) => !i.textless);
  if (params.repo !== undefined && indexes.length === 0)
    throw new UserError(
      `repository "${params.repo}" has no file texts to search: its index was published without --root (from CI, navigation only); ` +
        'publish it again with --root DIR (a checkout of the commit) to search it',
    );
  const unsearchable = asked.filter((i) => i.textless).map((i) => ({ repo: i.repo, commit: i.commit, reason: TEXTLESS_REASON }));
  const accept = allOf([
    params.path === undefined ? undefined : globFilter(params.path),
    params.extensions === undefined ? undefined : extensionFilter(params.extensions),
  ]);

  const { files: candidates, indexed } = await candidateFiles(
    engine,
    indexes.map((i) => i.indexId),
    matcher.required,
  );
  const repoOf = new Map(indexes.map((i) => [i.indexId, i.repo]));
  // Repositories in name order, each one's files in path order.
  const rank = new Map(indexes.map((i, n) => [i.indexId, n]));
  const files = candidates
    .filter((f) => accept(f.path))
    .sort((a, b) => rank.get(a.indexId)! - rank.get(b.indexId)! || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const matches: Match[] = [];
  /** The file of each match, by its index in `matches`. */
  const matchFiles: CandidateFile[] = [];
  let total = 0;
  let stopped: Result['truncated_reason'] = null;
  let filesSearched = 0;
  let countedBytes = 0;
  outer: for (let i = 0; i < files.length; ) {
    // Texts are read a batch at a time, never past what the limit and the counting budget can use.
    const batch: CandidateFile[] = [];
    let batchBytes = 0;
    for (; i < files.length && batch.length < TEXT_BATCH_FILES && batchBytes < TEXT_BATCH_BYTES; i++) {
      if (matches.length >= limit && countedBytes + batchBytes + files[i]!.size > COUNT_BYTES_AFTER_LIMIT) break;
      batch.push(files[i]!);
      batchBytes += files[i]!.size;
    }
    if (batch.length === 0) {
      stopped = 'limit';
      break;
    }
    const texts = await engine.blobBytes(batch.map((f) => f.blobSha));
    for (const file of batch) {
      if (expired()) {
        stopped = 'time_budget';
        break outer;
      }
      const text = texts.get(file.blobSha);
      if (text === undefined) continue;
      if (matches.length >= limit) {
        countedBytes += text.length;
        if (countedBytes > COUNT_BYTES_AFTER_LIMIT) {
          stopped = 'limit';
          break outer;
        }
      }
      filesSearched++;
      const lines = new Lines(text);
      const finished = matcher.scan(
        text,
        (span) => {
          total++;
          if (matches.length < limit) {
            matches.push(toMatch(repoOf.get(file.indexId)!, file, lines, span, params.context));
            matchFiles.push(file);
          }
          if (total >= budget.matches) {
            stopped = 'match_budget';
            return false;
          }
          return true;
        },
        expired,
      );
      if (!finished) {
        stopped ??= 'time_budget';
        break outer;
      }
    }
  }
  const rootOf = new Map(indexes.map((i) => [i.indexId, i.root]));
  const followed = await followEdits(engine, worktreeFiles, matches, matchFiles, (f) => rootOf.get(f.indexId) ?? null, indexes.length > 1);
  const truncatedReason = stopped ?? (total > matches.length + followed.dropped ? 'limit' : null);
  return {
    matches: followed.matches,
    total: total - followed.dropped,
    total_exact: stopped === null,
    truncated: truncatedReason !== null,
    truncated_reason: truncatedReason,
    searched: indexes.map((i) => ({ repo: i.repo, commit: i.commit })),
    ...(unsearchable.length ? { unsearchable } : {}),
    files_searched: filesSearched,
    strategy: indexed ? 'index' : 'scan',
    source: 'search',
    limit,
    ...(params.limit > CAP ? { limit_clamped: true } : {}),
    duration_ms: Math.round(performance.now() - started),
    ...followed.freshness,
  };
}

/**
 * Matches are found in the indexed text; a file edited since the index no
 * longer has them where that text did. Each file with a match is compared
 * with its worktree copy (a stat; read and hashed only when it moved), as
 * navigation answers are (src/navigation/adjust.ts): a match on a line
 * unchanged since moves to that line's place now, marked `adjusted`; one on a
 * changed line, or in a file deleted or changed beyond mapping since, is
 * dropped and counted. The search itself stays of the indexed text: text
 * added in the worktree is not searched until a reindex.
 */
async function followEdits(
  engine: Engine,
  worktreeFiles: WorktreeFilesOf,
  matches: Match[],
  files: CandidateFile[],
  rootOf: (file: CandidateFile) => string | null,
  /** The search spans several repositories: files are named repo:path. */
  manyRepos: boolean,
): Promise<{ matches: Match[]; dropped: number; freshness: Partial<Freshness> }> {
  const edits = new Map<string, FileEdit | undefined>();
  const editOf = async (file: CandidateFile): Promise<FileEdit | undefined> => {
    const key = `${file.indexId}\0${file.path}`;
    if (edits.has(key)) return edits.get(key);
    const root = rootOf(file);
    let edit: FileEdit | undefined;
    if (root && existsSync(root)) {
      edit = await worktreeFiles(root).edit(file.path, file.blobSha, async () => {
        const text = (await engine.blobBytes([file.blobSha])).get(file.blobSha);
        return text === undefined ? null : splitLines(text.toString('utf8'));
      });
    }
    edits.set(key, edit);
    return edit;
  };
  const out: Match[] = [];
  const adjusted = new Set<string>();
  let onChangedLines = 0;
  let inDeletedFiles = 0;
  for (let i = 0; i < matches.length; i++) {
    const match = matches[i]!;
    const edit = await editOf(files[i]!);
    if (edit === undefined || edit.state === 'unchanged') {
      out.push(match);
      continue;
    }
    const line = edit.state === 'edited' ? edit.map.toNew(match.line - 1) : undefined;
    if (line === undefined) {
      if (edit.state === 'edited') onChangedLines++;
      else inDeletedFiles++;
      continue;
    }
    adjusted.add(manyRepos ? `${match.repo}:${match.path}` : match.path);
    out.push({ ...match, line: line + 1, end_line: line + 1, adjusted: true });
  }
  const dropped = onChangedLines + inDeletedFiles;
  if (adjusted.size === 0 && dropped === 0) return { matches: out, dropped, freshness: {} };
  return {
    matches: out,
    dropped,
    freshness: {
      index_freshness: 'stale',
      stale: true,
      adjusted_files: [...adjusted].sort().slice(0, LISTED_FILES),
      ...(dropped
        ? {
            dropped_locations: {
              on_changed_lines: onChangedLines,
              in_deleted_files: inDeletedFiles,
              reason:
                'these matches are on lines changed, or in files deleted or changed beyond mapping, since the index: ' +
                'the search reads the indexed text; reindex (`sextant reindex`) to search the worktree as it is',
            },
          }
        : {}),
    },
  };
}

/** The repositories a search covers: the one named, or every one with a published index. */
export async function searchedIndexes(engine: Engine, repo: string | undefined): Promise<SearchedIndex[]> {
  if (repo === undefined) return currentIndexes(engine.db);
  const found = await currentIndexes(engine.db, [repo]);
  if (found.length > 0) return found;
  const known = await engine.db.selectFrom('repos').select('slug').where('slug', '=', repo).executeTakeFirst();
  if (known) throw new UserError(`repository "${repo}" has no published index yet: run \`sextant index\` in it`);
  const all = (await currentIndexes(engine.db)).map((i) => i.repo);
  throw new UserError(
    `no repository named "${repo}" is registered: ` +
      (all.length
        ? `pass one of ${all.slice(0, 20).join(', ')}${all.length > 20 ? ', …' : ''}, or leave repo out to search all`
        : 'the registry holds none yet: run `sextant index PATH`'),
  );
}

/** Lines of a file's UTF-8 text, for matches found in order. */
class Lines {
  /** Newlines counted so far: `counted` lines start before `countedTo`. */
  private counted = 0;
  private countedTo = 0;
  /** The line decoded last, by its start: a long line with many matches is decoded once. */
  private decoded: { start: number; text: string } | undefined;
  private asciiLine: { start: number; ascii: boolean } | undefined;
  constructor(readonly bytes: Buffer) {}

  /** 0-based line of a byte offset (offsets asked in increasing order are counted incrementally). */
  lineOf(offset: number): number {
    if (offset < this.countedTo) {
      this.counted = 0;
      this.countedTo = 0;
    }
    const bytes = this.bytes;
    let n = this.counted;
    for (let i = this.countedTo; i < offset; i++) if (bytes[i] === NEWLINE) n++;
    this.counted = n;
    this.countedTo = offset;
    return n;
  }

  /** Byte offset where the line holding `offset` starts. */
  startOf(offset: number): number {
    return offset === 0 ? 0 : this.bytes.lastIndexOf(NEWLINE, offset - 1) + 1;
  }

  /** Byte offset of the end of the line starting at `start` (its newline, or the end of the text). */
  endOf(start: number): number {
    const end = this.bytes.indexOf(NEWLINE, start);
    return end < 0 ? this.bytes.length : end;
  }

  /** The text of the line starting at `start`, without its newline. */
  text(start: number): string {
    if (this.decoded?.start !== start) this.decoded = { start, text: this.bytes.toString('utf8', start, this.endOf(start)) };
    return this.decoded.text;
  }

  /** UTF-16 length of the bytes [from, to) of the line starting at `start`. */
  units(start: number, from: number, to: number): number {
    // A line whose characters are all one byte long needs no decoding.
    return this.ascii(start) ? to - from : this.bytes.toString('utf8', from, to).length;
  }

  /** The preview of the line starting at `start` around `column`, without its carriage return. */
  preview(start: number, column: number): { text: string; from: number } {
    let end = this.endOf(start);
    // A long line of one-byte characters (minified code) is not decoded whole for 300 of them.
    if (!this.ascii(start) || end - start <= PREVIEW_CHARS) return cut(withoutCr(this.text(start)), column);
    if (this.bytes[end - 1] === CR) end--;
    const from = Math.max(0, Math.min(column - 40, end - start - PREVIEW_CHARS));
    return { text: this.bytes.toString('latin1', start + from, start + from + PREVIEW_CHARS), from };
  }

  private ascii(start: number): boolean {
    if (this.asciiLine?.start !== start) this.asciiLine = { start, ascii: isAscii(this.bytes.subarray(start, this.endOf(start))) };
    return this.asciiLine.ascii;
  }
}

const NEWLINE = 0x0a;
const CR = 0x0d;

function toMatch(repo: string, file: CandidateFile, lines: Lines, span: Span, context: number): Match {
  const line = lines.lineOf(span.start);
  const start = lines.startOf(span.start);
  const column = lines.units(start, start, span.start);
  const endColumn = column + lines.units(start, span.start, span.end);
  const preview = lines.preview(start, column);
  const match: Match = {
    repo,
    path: file.path,
    line: line + 1,
    column: column + 1,
    // Matches never span lines.
    end_line: line + 1,
    end_column: endColumn + 1,
    preview: preview.text,
    ...(preview.from > 0 ? { preview_column: preview.from + 1 } : {}),
  };
  if (context > 0) {
    const before: string[] = [];
    for (let from = start, l = line; l > 0 && before.length < context; l--) {
      from = lines.startOf(from - 1);
      before.unshift(cut(withoutCr(lines.bytes.toString('utf8', from, lines.endOf(from))), 0).text);
    }
    const after: string[] = [];
    for (let from = lines.endOf(start) + 1; from < lines.bytes.length && after.length < context; from = lines.endOf(from) + 1)
      after.push(cut(withoutCr(lines.bytes.toString('utf8', from, lines.endOf(from))), 0).text);
    match.before = before;
    match.after = after;
  }
  return match;
}

function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** At most PREVIEW_CHARS of a line, starting a little before `column` when the line is longer. */
function cut(text: string, column: number): { text: string; from: number } {
  if (text.length <= PREVIEW_CHARS) return { text, from: 0 };
  const from = Math.max(0, Math.min(column - 40, text.length - PREVIEW_CHARS));
  return { text: text.slice(from, from + PREVIEW_CHARS), from };
}
