// References as text: every whole-word occurrence of a name in the stored
// text of a repository's files of some languages, where no index resolves the
// name (the syntactic tier, or a name the precise index has no symbol for).
// Each match follows the edits made since the index (adjust.ts): it comes
// forward to its place in the current text, or is dropped when its line changed.
import type { Lookups } from '../registry/lookups.js';
import type { Range as Range0 } from '../scip/range.js';
import type * as References from '../protocol/references.js';
import { Lru } from '../lru.js';
import { moved } from './adjust.js';
import type { RepoContext } from './context.js';
import { location } from './locations.js';
import { nextWholeWord, type NameSyntax } from './words.js';

/** A scan stops after this long or this many bytes, and says so. */
const SCAN_BUDGET_MS = 2000;
const SCAN_BUDGET_BYTES = 64 << 20;
/** Files whose lines a scan reads ahead per query batch: fewer than the lookups keep, so none is dropped before it is read. */
const SCAN_SLICE_FILES = 256;
/** Matches of whole scans kept per registry connection (8 bytes each). */
const SCANS_KEPT_MATCHES = 500_000;

export interface TextScan {
  references: References.Reference[];
  /** Matches counted, returned or not (in the files scanned). */
  total: number;
  /** Whether the budget stopped the scan before the last candidate file. */
  stopped: boolean;
  scannedFiles: number;
  candidateFiles: number;
}

/** A word's whole-word occurrences in one file's stored text. */
interface FileMatches {
  path: string;
  blob_sha: string;
  /** Line and character (0-based) of each occurrence, in order: two numbers apiece. */
  at: Int32Array;
}

/**
 * Where a word occurs in the files of an index: its stored texts alone, which
 * never change, so a scan holds for as long as the index does. Files without
 * an occurrence are left out.
 */
interface WordScan {
  files: FileMatches[];
  stopped: boolean;
  scannedFiles: number;
  candidateFiles: number;
}

/**
 * Whole scans, per lookups (one registry connection; index ids are its own).
 * A popular name falls back to text in many places (kysely's `node`: 4,616
 * occurrences in 409 files): scanning again made each such answer 9.4 ms at
 * the median in a serving process, 1.7 ms from the kept scan.
 */
const scans = new WeakMap<Lookups, Lru<string, WordScan>>();

export async function textReferences(
  lookups: Lookups,
  ctx: RepoContext,
  query: {
    word: string;
    languages: readonly string[];
    syntax: NameSyntax;
    /** `path\0line\0character` (0-based) of the name's definitions: those matches are marked, or left out. */
    declared: ReadonlySet<string>;
    includeDeclaration: boolean;
    limit: number;
  },
): Promise<TextScan> {
  const { word, limit } = query;
  const declared = declaredByPath(query.declared);
  const scan = await wordScan(lookups, ctx.index.id, query.languages, word, query.syntax);
  const references: References.Reference[] = [];
  let total = 0;
  for (const file of scan.files) {
    const indexed = { repo: ctx.repo.slug, path: file.path, blob: file.blob_sha };
    const edit = await ctx.adjust.file(indexed);
    // Every match of an unedited file counts; only those returned need their place.
    const unmoved = !edit || edit.state === 'unchanged';
    const declaredHere = declared.get(file.path);
    if (unmoved && !declaredHere && references.length >= limit) {
      total += file.at.length / 2;
      continue;
    }
    let lines: readonly string[] | null | undefined;
    for (let k = 0; k < file.at.length; k += 2) {
      const line = file.at[k]!;
      const at = file.at[k + 1]!;
      const isDefinition = declaredHere?.has(`${line}\0${at}`) === true;
      if (isDefinition && !query.includeDeclaration) continue;
      if (unmoved && references.length >= limit) {
        total++;
        continue;
      }
      // The stored text is the indexed one: a match comes forward to the current text, or is dropped (and counted).
      const range: Range0 = [line, at, line, at + word.length];
      const place = ctx.adjust.placeIn(indexed, edit, range);
      if (!place) continue;
      total++;
      if (references.length < limit) {
        lines ??= await lookups.lines(file.blob_sha);
        references.push({
          ...moved(location(ctx.repo.slug, file.path, range, lines), place),
          kind: isDefinition ? 'definition' : 'identifier',
          is_definition: isDefinition,
        });
      }
    }
  }
  return { references, total, stopped: scan.stopped, scannedFiles: scan.scannedFiles, candidateFiles: scan.candidateFiles };
}

/** The word's occurrences in the index's files of these languages: kept once whole, scanned otherwise. */
async function wordScan(
  lookups: Lookups,
  indexId: number,
  languages: readonly string[],
  word: string,
  syntax: NameSyntax,
): Promise<WordScan> {
  let kept = scans.get(lookups);
  if (!kept) scans.set(lookups, (kept = new Lru(SCANS_KEPT_MATCHES, (s) => s.files.reduce((n, f) => n + 1 + f.at.length / 2, 1))));
  const key = `${indexId}\0${syntax}\0${languages.join(',')}\0${word}`;
  const known = kept.get(key);
  if (known) return known;
  const candidates = await lookups.filesContaining(indexId, languages, word);
  const files: FileMatches[] = [];
  let scannedFiles = 0;
  let scannedBytes = 0;
  let stopped = false;
  const started = performance.now();
  scanning: for (let from = 0; from < candidates.length; from += SCAN_SLICE_FILES) {
    const slice = candidates.slice(from, from + SCAN_SLICE_FILES);
    await lookups.preloadLines(slice.map((c) => c.blob_sha));
    for (const candidate of slice) {
      if (performance.now() - started > SCAN_BUDGET_MS || scannedBytes > SCAN_BUDGET_BYTES) {
        stopped = true;
        break scanning;
      }
      const lines = await lookups.lines(candidate.blob_sha);
      if (!lines) continue;
      scannedFiles++;
      const at: number[] = [];
      for (let line = 0; line < lines.length; line++) {
        const text = lines[line]!;
        scannedBytes += text.length + 1;
        for (let c = nextWholeWord(text, word, 0, syntax); c !== -1; c = nextWholeWord(text, word, c + word.length, syntax))
          at.push(line, c);
      }
      if (at.length > 0) files.push({ path: candidate.path, blob_sha: candidate.blob_sha, at: Int32Array.from(at) });
    }
  }
  const scan = { files, stopped, scannedFiles, candidateFiles: candidates.length };
  // A scan the budget stopped is not kept: the next question may get further.
  if (!stopped) kept.set(key, scan);
  return scan;
}

/** `path\0line\0character` keys by path, each file's as `line\0character`: most files scanned declare nothing. */
function declaredByPath(declared: ReadonlySet<string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const key of declared) {
    const cut = key.indexOf('\0');
    const path = key.slice(0, cut);
    let set = out.get(path);
    if (!set) out.set(path, (set = new Set()));
    set.add(key.slice(cut + 1));
  }
  return out;
}

/** What a message adds when the scan's budget stopped it. */
export function scanCut(scan: TextScan): string {
  return scan.stopped
    ? ` The scan stopped after ${scan.scannedFiles} of ${scan.candidateFiles} files (its time budget): total counts only the files scanned.`
    : '';
}
