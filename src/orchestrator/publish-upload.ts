// `sextant publish`: an index produced anywhere (CI, another machine, any
// SCIP indexer) through the same ingest and publish steps as `sextant index`.
//
// The file is checked first (upload-check.ts), before the registry is touched.
// Then it is recorded as an upload (queued), takes the repository's write lock
// (processing), is ingested and published with its state completed in one
// transaction, or recorded errored with the reason.
//
// A commit may get one upload per indexer (scip-typescript and scip-python
// from one CI job): the index published for it holds every indexer's latest
// documents. Publishing the same (repository, commit, indexer) again replaces
// that indexer's documents, and the previous index of the commit is retired
// in the publishing transaction.
import { readIndexFields } from '../scip/stream.js';
import { decodeDocument } from '../scip/decode.js';
import { IndexField, type ScipDocument } from '../scip/schema.js';
import type { Engine } from '../registry/engine.js';
import { recordParents } from '../registry/commit-graph.js';
import { publishIndex, type PublishedFile } from '../registry/publish.js';
import { dropLease, holdLease } from '../registry/lease.js';
import { ensureRepo, failRun, startRun } from '../registry/repos.js';
import type { Repo, Upload } from '../registry/schema.js';
import { createUpload, markCompleted, markErrored, markProcessing } from '../registry/uploads.js';
import { RegistryWriter } from '../registry/writer.js';
import { commitTime } from '../freshness/git.js';
import { silentProgress, type Progress } from '../progress.js';
import { syntaxFacts, type FactsProvider } from '../syntax/index.js';
import { readBlobText, storeBlobs, type BlobStats } from './blobs.js';
import type { LanguageReport } from './index-repository.js';
import { documentCounts } from './incremental.js';
import { Ingest, normalizeDocumentPath } from './ingest.js';
import { languageOf } from '../languages.js';
import type { CheckedUpload, RootTree } from './upload-check.js';
import { gitBlobSha, readRepoFile } from '../freshness/worktree.js';

export interface PublishOptions {
  engine: Engine;
  slug: string;
  upload: CheckedUpload;
  /** Parents of the commit reported by the caller (--parents). */
  parents?: readonly string[] | undefined;
  progress?: Progress;
}

export interface PublishReport {
  repo: string;
  commit: string;
  upload_id: number;
  upload_state: 'completed';
  index_id: number;
  indexer: string;
  indexer_version: string | null;
  /** Whether file texts came from a checkout: search and syntax-derived answers work. */
  with_root: boolean;
  documents: number;
  documents_written: number;
  documents_reused: number;
  occurrences: number;
  definitions: number;
  /** Documents of other indexers' uploads of the same commit, kept in the published index. */
  documents_kept: number;
  /** Index ids this upload retired (an earlier upload of the same commit). */
  replaced: number[];
  files: number;
  languages: Record<string, LanguageReport>;
  blobs: BlobStats | null;
  skipped_documents: { path: string; reason: string }[];
  /** Parent edges recorded for nearest-commit answers. */
  parents_recorded: number;
  file_bytes: number;
  decode_ms: number;
  duration_ms: number;
}

interface ToolRecord {
  name: string;
  version: string | null;
  status: string;
  projects: unknown[];
  /** Set on tools that came from an upload: whether file texts were available. */
  upload?: { id: number; with_root: boolean };
}

export async function publishUpload(options: PublishOptions): Promise<PublishReport> {
  const started = performance.now();
  const { engine, upload } = options;
  const db = engine.db;
  const tree = upload.tree;

  const repo = await ensureRepo(db, options.slug, null);
  const row = await createUpload(db, {
    repoId: repo.id,
    commit: upload.request.commit,
    indexer: upload.indexer,
    indexerVersion: upload.indexerVersion,
    fileSha256: upload.sha256,
    fileBytes: upload.bytes,
    withRoot: tree !== undefined,
  });
  // This process renews the upload's lease until it is completed or errored.
  holdLease(db, 'uploads', row.id);
  try {
    return await publishRow(options, repo, row, started);
  } finally {
    dropLease(db, 'uploads', row.id);
  }
}

/** Publishes the upload `row` records: takes the write lock, ingests, and completes it, or errors it with why. */
async function publishRow(options: PublishOptions, repo: Repo, row: Upload, started: number): Promise<PublishReport> {
  const { engine, upload } = options;
  const progress = options.progress ?? silentProgress;
  const db = engine.db;
  const { commit } = upload.request;
  const tree = upload.tree;
  let run;
  try {
    run = await startRun(engine, { repoId: repo.id, origin: 'ci', commit });
  } catch (error) {
    await markErrored(db, row.id, (error as Error).message);
    throw error;
  }
  let facts: FactsProvider | undefined;
  // Awaited before the run is recorded failed, so the registry is not closed under the writes.
  let blobsStored: Promise<unknown> = Promise.resolve();
  try {
    await markProcessing(db, row.id);
    const edges = [...(tree?.parents ?? []), ...(options.parents?.length ? [{ commit, parents: [...options.parents] }] : [])];
    await recordParents(db, repo.id, edges);

    const writer = new RegistryWriter(engine);
    // Without texts, documents are known by path alone (an empty blob hash: nothing to search). Every path
    // passed the check; one that leaves the root is refused by ingest itself (normalizeDocumentPath).
    const textless = { sha: '' };
    const files: Pick<Map<string, { sha: string }>, 'get' | 'keys'> = tree
      ? new Map([...tree.files].map(([path, sha]) => [path, { sha }]))
      : { get: () => textless, keys: () => new Map<string, never>().keys() };
    let storing: Promise<BlobStats | null> = Promise.resolve(null);
    if (tree) {
      progress.update(`storing the text of ${tree.files.size} files…`);
      // Stored while the first documents' files are parsed; ingest waits for it.
      storing = storeBlobs(
        writer,
        tree.root,
        [...tree.files].map(([path, sha]) => ({ path, sha, dirty: false })),
      );
      blobsStored = storing;
      storing.catch(() => undefined);
      const paths = [...upload.paths!];
      const languages = [...new Set(paths.map((p) => languageOf(p)).filter((l): l is string => l !== undefined))];
      facts = syntaxFacts(tree.root, languages, paths);
    }

    const ahead = tree && facts ? lookahead(facts, tree) : undefined;
    const ingest = new Ingest(writer, files, [], ahead ?? facts, {
      textless: tree === undefined,
      readText: tree && ((path, sha) => readBlobText(tree.root, path, sha)),
    });
    // A few documents are decoded ahead, so that their files are parsed while earlier ones are stored.
    const window: { document: ScipDocument; bytes: Buffer }[] = [];
    const take = async () => {
      const next = window.shift()!;
      await storing;
      await ingest.add(next.document, next.bytes);
      // A document found stored (or skipped) never asked for its parse: drop it.
      ahead?.forget(next.document.relativePath);
      if (ingest.count % 50 === 0) progress.update(`${upload.indexer}: ${ingest.count} of ${upload.documents} documents ingested`);
    };
    for await (const field of readIndexFields(upload.request.file)) {
      if (field.field !== IndexField.documents) continue;
      const document = decodeDocument(field.bytes);
      ahead?.prefetch(document.relativePath);
      window.push({ document, bytes: field.bytes });
      if (window.length > LOOKAHEAD) await take();
    }
    while (window.length) await take();
    await ingest.flush();
    const blobs = await storing;
    await facts?.close();
    facts = undefined;

    // What other indexers' uploads of this commit published stays; this indexer's is replaced.
    const sameCommit = await db
      .selectFrom('indexes')
      .selectAll()
      .where('repo_id', '=', repo.id)
      .where('commit_sha', '=', commit)
      .where('state', '=', 'published')
      .orderBy('id', 'desc')
      .execute();
    const previous = sameCommit[0];
    const keptLanguages: Record<string, LanguageReport> = {};
    const keptTools: ToolRecord[] = [];
    const keptDocuments = new Map<string, { documentId: number; language: string | null; blobSha: string }>();
    if (previous) {
      const tools = JSON.parse(previous.tools) as ToolRecord[];
      keptTools.push(...tools.filter((t) => t.name !== upload.indexer));
      const languages = JSON.parse(previous.languages) as Record<string, LanguageReport>;
      for (const [language, l] of Object.entries(languages)) {
        if (l.tier === 'precise' && l.indexer !== upload.indexer) keptLanguages[language] = l;
      }
      const rows = await db
        .selectFrom('index_files')
        .select(['path', 'document_id', 'language', 'blob_sha'])
        .where('index_id', '=', previous.id)
        .where('document_id', 'is not', null)
        .execute();
      for (const r of rows) {
        if (r.language !== null && keptLanguages[r.language] && !ingest.ids.has(r.path)) {
          keptDocuments.set(r.path, { documentId: r.document_id!, language: r.language, blobSha: r.blob_sha });
        }
      }
    }

    const published: PublishedFile[] = [];
    // Kept documents are only of paths this upload has none for: the two lists do not overlap.
    const paths = tree ? [...tree.files.keys()] : [...ingest.ids.keys(), ...keptDocuments.keys()].sort();
    for (const path of paths) {
      const kept = keptDocuments.get(path);
      published.push({
        path,
        blobSha: files.get(path)?.sha ?? kept?.blobSha ?? '',
        documentId: ingest.ids.get(path) ?? kept?.documentId ?? null,
        language: languageOf(path) ?? kept?.language ?? (ingest.ids.has(path) ? 'unknown' : null),
      });
    }
    const languages = languageReports(upload.indexer, published, ingest, keptLanguages);
    const keptCounts = await documentCounts(engine, [...keptDocuments.values()].map((k) => k.documentId));
    const tools: ToolRecord[] = [
      ...keptTools,
      { name: upload.indexer, version: upload.indexerVersion, status: 'ok', projects: [], upload: { id: row.id, with_root: tree !== undefined } },
    ];
    const precise = Object.values(languages).some((l) => l.tier === 'precise');
    const outcome = precise ? 'indexed' : 'search-only';
    const report: Omit<PublishReport, 'index_id' | 'duration_ms'> = {
      repo: repo.slug,
      commit,
      upload_id: row.id,
      upload_state: 'completed',
      indexer: upload.indexer,
      indexer_version: upload.indexerVersion,
      with_root: tree !== undefined,
      documents: ingest.ids.size,
      documents_written: ingest.written,
      documents_reused: ingest.ids.size - ingest.written,
      occurrences: ingest.occurrences,
      definitions: ingest.definitions,
      documents_kept: keptDocuments.size,
      replaced: sameCommit.map((i) => i.id),
      files: published.length,
      languages,
      blobs,
      skipped_documents: ingest.skipped.slice(0, 20),
      parents_recorded: edges.reduce((n, e) => n + e.parents.length, 0),
      file_bytes: upload.bytes,
      decode_ms: Math.round(upload.decodeMs),
    };
    progress.update('publishing…');
    const indexId = await publishIndex(engine, {
      run,
      commit,
      commitTime: tree ? await commitTime(tree.root, commit) : null,
      dirty: false,
      fingerprint: null,
      languages,
      tools,
      files: published,
      documentCount: ingest.ids.size + keptDocuments.size,
      occurrenceCount: ingest.occurrences + keptCounts.occurrences,
      definitionCount: ingest.definitions + keptCounts.definitions,
      end: { outcome, reason: null, recovery: null, report },
      supersedes: sameCommit.map((i) => i.id),
      alongside: (trx, id) => markCompleted(trx, row.id, id),
    });
    progress.done();
    return { ...report, index_id: indexId, duration_ms: Math.round(performance.now() - started) };
  } catch (error) {
    await blobsStored.catch(() => undefined);
    await facts?.close().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    await failRun(db, run, {
      outcome: 'failed',
      reason,
      recovery: 'fix the problem named in the reason, then publish again',
      indexId: null,
      report: null,
    }).catch(() => undefined);
    await markErrored(db, row.id, reason).catch(() => undefined);
    progress.done();
    throw error;
  }
}

/** Documents decoded ahead of ingest: their files' syntax is parsed meanwhile (bounded, so memory stays flat). */
const LOOKAHEAD = 8;

/**
 * The facts provider, with parses started ahead for the files of documents
 * waiting in the window. The text is the checkout's, which is the stored blob's
 * (storeBlobs kept only texts that match the commit); a file whose text or
 * language differs from what ingest then asks for is parsed again.
 */
function lookahead(facts: FactsProvider, tree: RootTree): FactsProvider & { prefetch(relativePath: string): void; forget(relativePath: string): void } {
  const started = new Map<string, { language: string; text: string; facts: ReturnType<FactsProvider> }>();
  const provider = (path: string, language: string, text: string) => {
    const early = started.get(path);
    started.delete(path);
    return early && early.language === language && early.text === text ? early.facts : facts(path, language, text);
  };
  return Object.assign(provider, {
    problems: facts.problems,
    close: () => facts.close(),
    prefetch(relativePath: string) {
      const path = normalizeDocumentPath(relativePath);
      const language = path === undefined ? undefined : languageOf(path);
      const sha = path === undefined ? undefined : tree.files.get(path);
      if (!path || !language || !sha || started.has(path)) return;
      const content = readRepoFile(tree.root, path);
      if (!content || gitBlobSha(content) !== sha) return;
      const text = content.toString('utf8');
      const parsing = facts(path, language, text);
      // A failure is the ingest's to see when it asks; do not let it go unhandled meanwhile.
      parsing.catch(() => undefined);
      started.set(path, { language, text, facts: parsing });
    },
    forget(relativePath: string) {
      const path = normalizeDocumentPath(relativePath);
      if (path !== undefined) started.delete(path);
    },
  });
}

/** Per language: precise where this upload (or a kept one) has documents; the files without one named. */
function languageReports(
  indexer: string,
  files: readonly PublishedFile[],
  ingest: Ingest,
  kept: Record<string, LanguageReport>,
): Record<string, LanguageReport> {
  const out: Record<string, LanguageReport> = { ...kept };
  const byLanguage = new Map<string, PublishedFile[]>();
  // Appended in place: copying the list per file made this quadratic (minutes at 64,000 files).
  for (const f of files) {
    if (!f.language) continue;
    const list = byLanguage.get(f.language);
    if (list) list.push(f);
    else byLanguage.set(f.language, [f]);
  }
  for (const [language, list] of byLanguage) {
    if (kept[language]) continue;
    // Counted, and the first few missing named: lists of every file would be as long as the index.
    let mine = 0;
    const missing: string[] = [];
    for (const f of list) {
      if (ingest.ids.has(f.path)) mine++;
      else if (missing.length < 3) missing.push(f.path);
    }
    if (mine === 0) {
      out[language] = {
        files: list.length,
        tier: 'search-only',
        indexer: null,
        indexed_files: 0,
        reason: `no index of the ${language} files was published for this commit`,
        recovery: `publish a SCIP index of them (\`sextant publish INDEX.scip --repo … --commit …\`), or run \`sextant index\` on a checkout`,
      };
      continue;
    }
    const unindexed = list.length - mine;
    out[language] = {
      files: list.length,
      tier: 'precise',
      indexer,
      indexed_files: mine,
      reason: unindexed
        ? `${unindexed} of ${list.length} ${language} files have no document in the uploaded index (${missing.join(', ')}${unindexed > 3 ? ', …' : ''}): the indexer skipped them, or the file was cut short (pass --sha256 to rule that out)`
        : null,
      recovery: unindexed ? 'check the indexer\'s project configuration, then publish again' : null,
    };
  }
  return out;
}
