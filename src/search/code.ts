// searchCode: the substring index picks the files whose text can match, the
// real matcher finds the matches. Every search has a time budget and a match
// budget; past either, the answer says it is partial and why.
import type { Engine } from '../registry/engine.js';
import { blobTexts, candidateFiles, currentIndexes, type CandidateFile, type SearchedIndex } from '../registry/search.js';
import { UserError } from '../errors.js';
import { CAP, Params, PREVIEW_CHARS, type Match, type Result } from '../protocol/search-code.js';
import { createMatcher, type Span } from './matcher.js';
import { parseParams } from './params.js';
import { allOf, extensionFilter, globFilter } from './paths.js';

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

/** Files whose texts are read from the registry at once. */
const TEXT_BATCH = 64;

export async function searchCode(engine: Engine, input: Params, budget: SearchBudget = DEFAULT_BUDGET): Promise<Result> {
  const started = performance.now();
  const deadline = started + budget.timeMs;
  const expired = () => performance.now() > deadline;
  const params = parseParams(Params, input);
  const limit = Math.min(params.limit, CAP);
  const matcher = createMatcher(params.query, { regex: params.regex, caseSensitive: params.case_sensitive });
  const indexes = await searchedIndexes(engine, params.repo);
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
  let total = 0;
  let stopped: Result['truncated_reason'] = null;
  let filesSearched = 0;
  let countedBytes = 0;
  outer: for (let i = 0; i < files.length; i += TEXT_BATCH) {
    const batch = files.slice(i, i + TEXT_BATCH);
    const texts = await blobTexts(
      engine,
      batch.map((f) => f.blobSha),
    );
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
      const lines = new LineIndex(text);
      const finished = matcher.scan(
        text,
        (span) => {
          total++;
          if (matches.length < limit) matches.push(toMatch(repoOf.get(file.indexId)!, file, lines, span, params.context));
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
  const truncatedReason = stopped ?? (total > matches.length ? 'limit' : null);
  return {
    matches,
    total,
    total_exact: stopped === null,
    truncated: truncatedReason !== null,
    truncated_reason: truncatedReason,
    searched: indexes.map((i) => ({ repo: i.repo, commit: i.commit })),
    files_searched: filesSearched,
    strategy: indexed ? 'index' : 'scan',
    source: 'search',
    limit,
    ...(params.limit > CAP ? { limit_clamped: true } : {}),
    duration_ms: Math.round(performance.now() - started),
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
    `no repository named "${repo}" is registered${all.length ? ` (known: ${all.slice(0, 20).join(', ')})` : ''}: pass one of those, or leave repo out to search all`,
  );
}

/** Line starts of a text, computed once per file that has a match. */
class LineIndex {
  private starts: number[] | undefined;
  constructor(readonly text: string) {}

  private lineStarts(): number[] {
    if (!this.starts) {
      const starts = [0];
      for (let i = this.text.indexOf('\n'); i >= 0; i = this.text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.starts = starts;
    }
    return this.starts;
  }

  /** 0-based line of an offset. */
  lineOf(offset: number): number {
    const starts = this.lineStarts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  start(line: number): number {
    return this.lineStarts()[line]!;
  }

  /** The line's text without its newline (and a trailing carriage return). */
  line(line: number): string | undefined {
    const starts = this.lineStarts();
    if (line < 0 || line >= starts.length) return undefined;
    const from = starts[line]!;
    if (from === this.text.length && line > 0) return undefined; // past the final newline
    const to = line + 1 < starts.length ? starts[line + 1]! - 1 : this.text.length;
    return this.text.slice(from, to).replace(/\r$/, '');
  }
}

function toMatch(repo: string, file: CandidateFile, lines: LineIndex, span: Span, context: number): Match {
  const line = lines.lineOf(span.start);
  const endLine = lines.lineOf(Math.max(span.start, span.end - 1));
  const column = span.start - lines.start(line);
  const endColumn = span.end - lines.start(endLine);
  const text = lines.line(line) ?? '';
  const preview = cut(text, column);
  const match: Match = {
    repo,
    path: file.path,
    line: line + 1,
    column: column + 1,
    end_line: endLine + 1,
    end_column: endColumn + 1,
    preview: preview.text,
    ...(preview.from > 0 ? { preview_column: preview.from + 1 } : {}),
  };
  if (context > 0) {
    const before: string[] = [];
    for (let l = Math.max(0, line - context); l < line; l++) before.push(cut(lines.line(l) ?? '', 0).text);
    const after: string[] = [];
    for (let l = line + 1; l <= line + context; l++) {
      const t = lines.line(l);
      if (t === undefined) break;
      after.push(cut(t, 0).text);
    }
    match.before = before;
    match.after = after;
  }
  return match;
}

/** At most PREVIEW_CHARS of a line, starting a little before `column` when the line is longer. */
function cut(text: string, column: number): { text: string; from: number } {
  if (text.length <= PREVIEW_CHARS) return { text, from: 0 };
  const from = Math.max(0, Math.min(column - 40, text.length - PREVIEW_CHARS));
  return { text: text.slice(from, from + PREVIEW_CHARS), from };
}
