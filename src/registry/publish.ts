// Publishing swaps a finished index in, in one transaction: readers see the
// previous index until the commit and the new one after it, never a mix.
import { sql, type Kysely } from 'kysely';
import type { Engine } from './engine.js';
import { finishRun, now, releaseRun, type RunEnd } from './repos.js';
import type { Database, IndexRun } from './schema.js';
import { chunks } from './writer.js';
import { collectSyntaxDocuments } from './syntactic.js';

export interface PublishedFile {
  path: string;
  blobSha: string;
  documentId: number | null;
  language: string | null;
  /** The file's syntax document, for a language of the syntactic tier. */
  syntaxId?: number | null;
}

export interface PublishInput {
  run: IndexRun;
  commit: string;
  /** Unix seconds of the commit. */
  commitTime: number | null;
  dirty: boolean;
  fingerprint: string | null;
  languages: unknown;
  tools: unknown;
  files: readonly PublishedFile[];
  documentCount: number;
  occurrenceCount: number;
  definitionCount: number;
  end: Omit<RunEnd, 'indexId'>;
  /** Runs last inside the transaction; throwing rolls the publish back (an interrupted run publishes nothing). */
  beforeCommit?: () => void;
  /** Indexes this one replaces (an upload of the same commit and indexer): retired in the same transaction. */
  supersedes?: readonly number[];
  /** More writes that must become visible with the index (an upload's completed state). */
  alongside?: (trx: Kysely<Database>, indexId: number) => Promise<void>;
  /**
   * Whether the planner's statistics are refreshed after publishing (the
   * default). An incremental run that changed a few documents leaves the
   * tables' proportions as the last refresh measured them, and skips it.
   */
  refreshStatistics?: boolean;
  /** Filled with the milliseconds each step took. */
  timings?: { publish: number; collect: number; statistics: number };
}

/**
 * Commits whose newest published index is kept per repository besides the
 * current one. Counted in commits, not indexes: `watch` republishes the same
 * commit after every edit, and those would otherwise push out the index of
 * the branch a developer came from, which a checkout back to it (or to a
 * branch off it) answers from (navigation/adjust.ts). An older index of the
 * same commit is superseded by the newer and retired. A retired index is
 * deleted at the next publish of its repository (see collectGarbage).
 */
const KEEP_PREVIOUS = 2;

/** index_files rows built and inserted at a time. */
const INDEX_FILES_CHUNK = 5000;

export async function publishIndex(engine: Engine, input: PublishInput): Promise<number> {
  let indexId: number;
  const t0 = performance.now();
  try {
    indexId = await insertIndex(engine, input);
  } finally {
    // Published (or not): the run no longer holds collection off.
    await releaseRun(input.run.id);
  }
  const t1 = performance.now();
  await collectGarbage(engine, input.run.repo_id, input.supersedes ?? []);
  const t2 = performance.now();
  if (input.refreshStatistics ?? true) await engine.refreshStatistics();
  if (input.timings) {
    input.timings.publish += t1 - t0;
    input.timings.collect += t2 - t1;
    input.timings.statistics += performance.now() - t2;
  }
  return indexId;
}

async function insertIndex(engine: Engine, input: PublishInput): Promise<number> {
  return engine.db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('indexes')
      .values({
        repo_id: input.run.repo_id,
        commit_sha: input.commit,
        commit_time: input.commitTime,
        dirty: input.dirty ? 1 : 0,
        worktree_fingerprint: input.fingerprint,
        state: 'building',
        origin: input.run.origin,
        generated_at: now(),
        languages: JSON.stringify(input.languages),
        tools: JSON.stringify(input.tools),
        total_files: input.files.length,
        document_count: input.documentCount,
        occurrence_count: input.occurrenceCount,
        definition_count: input.definitionCount,
        storage_bytes: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // In chunks: rows for every file of a large index at once would be as many objects again as the files.
    for (const chunk of chunks(input.files, INDEX_FILES_CHUNK)) {
      await engine.insertRows(
        trx,
        'index_files',
        chunk.map((f) => ({
          index_id: id,
          path: f.path,
          blob_sha: f.blobSha,
          document_id: f.documentId,
          language: f.language,
          syntax_id: f.syntaxId ?? null,
        })),
      );
    }
    await trx
      .updateTable('indexes')
      .set({ state: 'published', storage_bytes: await indexStorageBytes(trx, id) })
      .where('id', '=', id)
      .execute();
    await trx.updateTable('repos').set({ current_index_id: id }).where('id', '=', input.run.repo_id).execute();
    if (input.supersedes?.length) {
      await trx.updateTable('indexes').set({ state: 'retired' }).where('id', 'in', input.supersedes).execute();
    }
    await input.alongside?.(trx, id);
    await finishRun(trx, input.run, { ...input.end, indexId: id });
    input.beforeCommit?.();
    return id;
  });
}

/** Bytes of file text and derived data an index refers to. */
async function indexStorageBytes(db: Kysely<Database>, indexId: number): Promise<number> {
  const blobs = await db
    .selectFrom('index_files as f')
    .innerJoin('blobs as b', 'b.sha', 'f.blob_sha')
    .select(sql<number>`coalesce(sum(b.byte_size), 0)`.as('bytes'))
    .where('f.index_id', '=', indexId)
    .executeTakeFirstOrThrow();
  const documents = await db
    .selectFrom('index_files as f')
    .innerJoin('documents as d', 'd.id', 'f.document_id')
    .select(sql<number>`coalesce(sum(length(d.payload)), 0)`.as('bytes'))
    .where('f.index_id', '=', indexId)
    .executeTakeFirstOrThrow();
  return Number(blobs.bytes) + Number(documents.bytes);
}

/**
 * Retires indexes beyond the few most recent, deletes those retired by an
 * earlier collection, then deletes rows no index refers to. A retired index
 * keeps its rows until the next collection: a server that read the current
 * index just before this publish may be answering from it, and its answer
 * must not lose rows half way (`supersedes`: retired by the publish that
 * ran just now). Content-addressed rows are shared across repositories, so
 * they are only collected while no other run is writing (it may be about to
 * refer to them).
 */
async function collectGarbage(engine: Engine, repoId: number, supersedes: readonly number[]): Promise<void> {
  await engine.db.transaction().execute(async (trx) => {
    const repo = await trx.selectFrom('repos').select('current_index_id').where('id', '=', repoId).executeTakeFirstOrThrow();
    const published = await trx
      .selectFrom('indexes')
      .select(['id', 'commit_sha'])
      .where('repo_id', '=', repoId)
      .where('state', '=', 'published')
      .orderBy('id', 'desc')
      .execute();
    // The current index, then the newest index of each of the most recent other commits.
    const current = published.find((p) => p.id === repo.current_index_id);
    const commits = new Set(current ? [current.commit_sha] : []);
    const kept = [repo.current_index_id ?? -1];
    for (const p of published) {
      if (commits.has(p.commit_sha) || commits.size >= KEEP_PREVIOUS + (current ? 1 : 0)) continue;
      commits.add(p.commit_sha);
      kept.push(p.id);
    }
    const dropped = await trx
      .selectFrom('indexes')
      .select(['id', 'state'])
      .where('repo_id', '=', repoId)
      .where('id', 'not in', kept)
      .execute();
    const retiring = dropped.filter((r) => r.state === 'published' || supersedes.includes(r.id)).map((r) => r.id);
    const deleted = dropped.filter((r) => !retiring.includes(r.id)).map((r) => r.id);
    if (retiring.length > 0) await trx.updateTable('indexes').set({ state: 'retired' }).where('id', 'in', retiring).execute();
    if (deleted.length > 0) {
      await trx.deleteFrom('index_files').where('index_id', 'in', deleted).execute();
      await trx.deleteFrom('indexes').where('id', 'in', deleted).execute();
    }
    if (!(await engine.writers.mayCollect(trx))) return;
    const referenced = trx.selectFrom('index_files').select('document_id').where('document_id', 'is not', null);
    const orphans = (
      await trx
        .selectFrom('documents')
        .select('id')
        .where('id', 'not in', referenced as never)
        .execute()
    ).map((r) => r.id);
    for (const chunk of chunks(orphans, 500)) {
      await trx.deleteFrom('symbol_refs').where('document_id', 'in', chunk).execute();
      await trx.deleteFrom('definitions').where('document_id', 'in', chunk).execute();
      await trx.deleteFrom('relationships').where('document_id', 'in', chunk).execute();
      await trx.deleteFrom('documents').where('id', 'in', chunk).execute();
    }
    await collectSyntaxDocuments(trx);
    await trx
      .deleteFrom('blobs')
      .where('sha', 'not in', trx.selectFrom('index_files').select('blob_sha') as never)
      .execute();
    await engine.textIndex?.collect(trx);
  });
}
