// The ingest step of the pipeline: SCIP documents in, stored rows out, in
// batches. `sextant index` feeds it an indexer's output as it is written;
// `sextant publish` feeds it an uploaded file. Files are known by path with
// their blob hash; their text, when the registry holds it, gives syntax facts
// and column conversions. An upload without a checkout has no text: its
// documents are stored as the indexer wrote them (navigation only).
import { posix } from 'node:path';
import type { PreparedDocument, RegistryWriter } from '../registry/writer.js';
import type { ScipDocument } from '../scip/schema.js';
import { SyntaxFacts } from '../syntax/facts.js';
import type { IndexerFacts } from '../syntax/facts-file.js';
import type { FactsProvider } from '../syntax/index.js';
import { languageOf } from '../languages.js';
import { documentContentHash, prepareDocument } from './prepare.js';
import { PackageRoots } from './nameless-packages.js';
import { splitLines } from '../lines.js';

const BATCH_DOCUMENTS = 48;
const BATCH_OCCURRENCES = 40_000;

export interface IngestOptions {
  /**
   * The files have no text in the registry (an upload without --root): a
   * document is stored without syntax facts, with the text it carries, if any.
   */
  textless?: boolean;
  /**
   * forget() will be called: what each file's document counted is kept to be
   * taken back (an entry per file, which an upload of tens of thousands of
   * documents would otherwise hold to the end for nothing).
   */
  forgettable?: boolean;
  /** The text of a file whose blob the registry holds without it (too large to keep), for its document to be derived from. */
  readText?: (path: string, sha: string) => string | undefined;
}

/** Turns an indexer's documents into stored rows, in batches. */
export class Ingest {
  readonly ids = new Map<string, number>();
  readonly perLanguage = new Map<string, number>();
  readonly skipped: { path: string; reason: string }[] = [];
  occurrences = 0;
  definitions = 0;
  count = 0;
  /** Ids of the documents this ingest derived and stored (the others were found stored). */
  private readonly writtenIds = new Set<number>();
  /** What each ingested file's document counted, so that forget can take it back. */
  private readonly counted = new Map<string, { language: string; occurrences: number; definitions: number }>();
  private pending: { path: string; doc: PreparedDocument }[] = [];
  /** The commit's packages, for symbols of those with no name. */
  private readonly packageRoots = new PackageRoots(() => this.files.keys());
  private pendingOccurrences = 0;

  constructor(
    private readonly writer: RegistryWriter,
    /** A file of the commit by path (its blob hash), or undefined for a path that is none. */
    private readonly files: Pick<ReadonlyMap<string, { sha: string }>, 'get' | 'keys'>,
    /** The indexer's languages: the first is a document's language when its path does not tell (else the document's own). */
    private readonly languages: readonly string[],
    private readonly facts: FactsProvider | undefined,
    private readonly options: IngestOptions = {},
  ) {}

  /** `given`: the file's syntax facts from the indexer's own parse, used when it parsed the text this ingest reads. */
  async add(document: ScipDocument, bytes: Buffer, given?: IndexerFacts): Promise<void> {
    this.count++;
    const path = normalizeDocumentPath(document.relativePath);
    const file = path === undefined ? undefined : this.files.get(path);
    if (path === undefined || !file) {
      this.skip(document.relativePath, path === undefined ? 'path leaves the repository' : 'not a file of the worktree');
      return;
    }
    if (this.ids.has(path) || this.pending.some((p) => p.path === path)) {
      this.skip(path, 'indexed twice by overlapping projects; the first document was kept');
      return;
    }
    const language = languageOf(path) ?? this.languages[0] ?? (document.language.toLowerCase() || 'unknown');
    const roots = this.packageRoots.root(document);
    const contentHash = documentContentHash(bytes, file.sha, roots);
    const existing = await this.writer.findDocument(contentHash);
    if (existing) {
      this.record(path, language, existing.id, existing.occurrence_count, existing.definition_count);
      return;
    }
    const text = this.options.textless
      ? document.text || undefined
      : ((await this.writer.blobText(file.sha)) ?? this.options.readText?.(path, file.sha));
    if (text === undefined && !this.options.textless) {
      this.skip(path, 'its text could not be read');
      return;
    }
    const lines = text === undefined ? [] : splitLines(text);
    const facts =
      text === undefined || !this.facts
        ? undefined
        : given?.textLength === text.length
          ? new SyntaxFacts(given.data)
          : await this.facts(path, language, text);
    const prepared = prepareDocument({ document, contentHash, language, lines, facts });
    this.pending.push({ path, doc: prepared });
    this.pendingOccurrences += prepared.occurrenceCount;
    if (this.pending.length >= BATCH_DOCUMENTS || this.pendingOccurrences >= BATCH_OCCURRENCES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.pendingOccurrences = 0;
    const ids = await this.writer.writeDocuments(batch.map((b) => b.doc));
    for (const id of ids) this.writtenIds.add(id);
    batch.forEach((b, i) => this.record(b.path, b.doc.language, ids[i]!, b.doc.occurrenceCount, b.doc.definitions.length));
  }

  /** Of the ingested files' documents, how many this ingest derived and stored (the rest were found stored). */
  get written(): number {
    let written = 0;
    for (const id of this.ids.values()) if (this.writtenIds.has(id)) written++;
    return written;
  }

  /**
   * Takes back the documents of these files, so that a later run of the
   * indexer over them is ingested in their place (incremental.ts: a project
   * indexed again whole after a few of its files were). Call after flush.
   */
  forget(paths: Iterable<string>): void {
    if (!this.options.forgettable) throw new Error('Ingest.forget needs an ingest made with { forgettable: true }');
    for (const path of paths) {
      const counted = this.counted.get(path);
      if (!counted) continue;
      this.ids.delete(path);
      this.counted.delete(path);
      this.perLanguage.set(counted.language, this.perLanguage.get(counted.language)! - 1);
      this.occurrences -= counted.occurrences;
      this.definitions -= counted.definitions;
    }
  }

  private record(path: string, language: string, id: number, occurrences: number, definitions: number): void {
    this.ids.set(path, id);
    if (this.options.forgettable) this.counted.set(path, { language, occurrences, definitions });
    this.perLanguage.set(language, (this.perLanguage.get(language) ?? 0) + 1);
    this.occurrences += occurrences;
    this.definitions += definitions;
  }

  private skip(path: string, reason: string): void {
    this.skipped.push({ path, reason });
  }
}

/** A document path as a clean repository-relative path, or undefined if it leaves the root. */
export function normalizeDocumentPath(relativePath: string): string | undefined {
  if (!relativePath || relativePath.includes('\\') || relativePath.includes('\0')) return undefined;
  if (posix.isAbsolute(relativePath)) return undefined;
  const normal = posix.normalize(relativePath);
  if (normal === '..' || normal.startsWith('../') || normal === '.') return undefined;
  return normal;
}
