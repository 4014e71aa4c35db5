// References as text: every whole-word occurrence of a name in the stored
// text of a repository's files of some languages, where no index resolves the
// name (the syntactic tier, or a name the precise index has no symbol for).
// Each match follows the edits made since the index (adjust.ts): it comes
// forward to its place in the current text, or is dropped when its line changed.
import type { Lookups } from '../registry/lookups.js';
import type { Range as Range0 } from '../scip/range.js';
import type * as References from '../protocol/references.js';
import { moved } from './adjust.js';
import type { RepoContext } from './context.js';
import { location } from './locations.js';
import { nextWholeWord, type NameSyntax } from './words.js';

/** A scan stops after this long or this many bytes, and says so. */
const SCAN_BUDGET_MS = 2000;
const SCAN_BUDGET_BYTES = 64 << 20;

export interface TextScan {
  references: References.Reference[];
  /** Matches counted, returned or not (in the files scanned). */
  total: number;
  /** Whether the budget stopped the scan before the last candidate file. */
  stopped: boolean;
  scannedFiles: number;
  candidateFiles: number;
}

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
  const references: References.Reference[] = [];
  let total = 0;
  let scannedFiles = 0;
  let scannedBytes = 0;
  let stopped = false;
  const started = performance.now();
  const candidates = await lookups.filesContaining(ctx.index.id, query.languages, word);
  for (const candidate of candidates) {
    if (performance.now() - started > SCAN_BUDGET_MS || scannedBytes > SCAN_BUDGET_BYTES) {
      stopped = true;
      break;
    }
    const lines = await lookups.lines(candidate.blob_sha);
    if (!lines) continue;
    const indexed = { repo: ctx.repo.slug, path: candidate.path, blob: candidate.blob_sha };
    const edit = await ctx.adjust.file(indexed);
    // Every match of an unedited file counts; only those returned need their place.
    const unmoved = !edit || edit.state === 'unchanged';
    const declaredHere = declared.get(candidate.path);
    scannedFiles++;
    for (let line = 0; line < lines.length; line++) {
      const text = lines[line]!;
      scannedBytes += text.length + 1;
      for (let at = nextWholeWord(text, word, 0, query.syntax); at !== -1; at = nextWholeWord(text, word, at + word.length, query.syntax)) {
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
          references.push({
            ...moved(location(ctx.repo.slug, candidate.path, range, lines), place),
            kind: isDefinition ? 'definition' : 'identifier',
            is_definition: isDefinition,
          });
        }
      }
    }
  }
  return { references, total, stopped, scannedFiles, candidateFiles: candidates.length };
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
