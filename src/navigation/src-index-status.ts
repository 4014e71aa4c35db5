// get_index_status (the SRC contract) answered from getIndexStatus: the
// repository is the registered one whose root contains the directory, and
// SRC's vocabulary maps onto sextant's (a "chunk" is an indexed document).
import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { Engine } from '../registry/engine.js';
import type { Lookups } from '../registry/lookups.js';
import type { Data, Params, Result } from '../protocol/src-index-status.js';
import { buildMeta } from '../trust/envelope.js';
import { indexStatus, statusSnapshot } from './status.js';

export async function srcIndexStatus(engine: Engine, lookups: Lookups, params: Params, cwd: string): Promise<Result> {
  const asked = resolve(cwd, params.directory);
  const directory = canonical(asked);
  const repos = await lookups.db.selectFrom('repos').select(['slug', 'root_path']).where('root_path', 'is not', null).execute();
  const owner = repos
    .filter(
      (r) =>
        r.root_path !== null &&
        (directory === r.root_path || directory.startsWith(r.root_path.endsWith(sep) ? r.root_path : r.root_path + sep)),
    )
    .sort((a, b) => b.root_path!.length - a.root_path!.length)[0];

  if (!owner) {
    const data: Data = { directory: asked, indexPath: engine.location, exists: false, totalChunks: 0, totalFiles: 0, languages: {} };
    return {
      schema_version: 1,
      success: true,
      data,
      meta: buildMeta({}, { provenance: 'local-index' }),
      message: 'no repository in the registry contains this directory: run `sextant index` in it',
    };
  }

  // The document count comes from the index the status describes, read in the same snapshot.
  const snapshot = await statusSnapshot(engine, owner.slug);
  const status = await indexStatus(engine, lookups, { repo: owner.slug, repo_path: owner.root_path! }, snapshot);
  const index = snapshot.index;
  const data: Data = {
    directory: asked,
    indexPath: `${engine.location}#${owner.slug}`,
    exists: !status.index_missing,
    totalChunks: index?.document_count ?? 0,
    totalFiles: status.totalFiles,
    languages: status.languages,
    index_freshness: status.freshness,
    storage_bytes: status.storage_bytes,
    storage_scan_truncated: false,
    write_lock_present: status.write_lock_present,
    corrupt: status.corrupt,
    // Every indexed file's content hash is kept (freshness compares them).
    hash_cache_present: !status.index_missing,
  };
  if (status.generated_at) data.lastUpdated = status.generated_at;
  return {
    schema_version: 1,
    success: true,
    data,
    meta: buildMeta({ commit: status.commit ?? undefined, index_freshness: status.freshness }, { provenance: 'local-index' }),
    ...(status.message ? { message: status.message } : {}),
  };
}

/** The directory as the registry records roots (symlinks resolved); as given when it does not exist. */
function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
