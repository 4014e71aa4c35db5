// registryStatus: what fsindex's status reports, for the registry.
import type { Kysely } from 'kysely';
import type { Engine } from '../registry/engine.js';
import type { Database } from '../registry/schema.js';
import { currentLocks, lastRun, watchedRepos, type WatcherState } from '../registry/repos.js';
import { currentIndexes, textCoverage } from '../registry/search.js';
import type { Result } from '../protocol/registry-status.js';
import { repoEntries, repositoriesInScope } from './files.js';

function watcherOf(w: WatcherState | undefined) {
  return {
    watcher: w ? (w.state === 'indexing' ? ('indexing' as const) : ('watching' as const)) : ('none' as const),
    watcher_last_event: w?.last_event ?? null,
    watcher_last_event_at: w?.last_event_at ?? null,
    watcher_pending: w?.pending ?? false,
  };
}

export async function registryStatus(engine: Engine, version: string): Promise<Result> {
  // Read from one snapshot: a reindex may publish between two reads and collect the index the first one named.
  return engine.readSnapshot((db) => statusAt(engine, db, version));
}

/** The status, every row read through `db` (the snapshot); the engine gives only its name, location and size. */
async function statusAt(engine: Engine, db: Kysely<Database>, version: string): Promise<Result> {
  const registered = await db.selectFrom('repos').select(['id', 'slug', 'root_path', 'current_index_id']).orderBy('slug').execute();
  const indexes = new Map((await currentIndexes(db)).map((i) => [i.repo, i]));
  const indexing = new Set(await currentLocks(db));
  const watched = await watchedRepos(db);
  const { scanState } = await repositoriesInScope(db, { include_offline: true });
  // Each repository's freshness runs git in its worktree: a few at a time, so that their processes overlap.
  const repos = await mapPooled(registered, FRESHNESS_CHECKS_AT_ONCE, async (r): Promise<Result['repos'][number]> => {
    const index = indexes.get(r.slug);
    if (!index) {
      const run = await lastRun(db, r.id);
      return {
        repo: r.slug,
        root: r.root_path,
        online: false,
        commit: null,
        freshness: 'unknown',
        entries: 0,
        files: 0,
        dirs: 0,
        bytes: 0,
        state: indexing.has(r.slug) ? 'indexing' : run?.outcome === 'failed' ? 'failed' : 'missing',
        ...watcherOf(watched.get(r.slug)),
        searchable_files: 0,
      };
    }
    const entries = await repoEntries(db, index);
    const freshness = entries.online ? await freshnessOf(db, index.indexId, index.root!) : 'unknown';
    const coverage = await textCoverage(db, index.indexId, 0);
    return {
      repo: r.slug,
      root: r.root_path,
      online: entries.online,
      commit: index.commit,
      freshness,
      entries: entries.files + entries.dirs,
      files: entries.files,
      dirs: entries.dirs,
      bytes: entries.bytes,
      state: indexing.has(r.slug) ? 'indexing' : freshness === 'stale' ? 'stale' : 'ready',
      ...watcherOf(watched.get(r.slug)),
      searchable_files: coverage.withText,
    };
  });
  const sum = (f: (r: Result['repos'][number]) => number) => repos.reduce((n, r) => n + f(r), 0);
  return {
    version,
    pid: process.pid,
    uptime_s: Math.floor(process.uptime()),
    registry: {
      engine: engine.name,
      location: withoutCredentials(engine.location),
      bytes: await engine.sizeBytes(),
      text_index: engine.capabilities.textIndex,
    },
    totals: {
      repos: repos.length,
      entries: sum((r) => r.entries),
      files: sum((r) => r.files),
      dirs: sum((r) => r.dirs),
      // Symlinks are not tracked entries of an index (only regular files are).
      symlinks: 0,
      bytes: sum((r) => r.bytes),
    },
    repos,
    scan_state: scanState,
  };
}

/** Repositories whose freshness is checked at once: each check runs git processes in its worktree. */
const FRESHNESS_CHECKS_AT_ONCE = 4;

/** `fn` over `items`, at most `limit` running at a time; the results in the items' order. */
async function mapPooled<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Fresh or stale against the worktree, by the same evidence getIndexStatus uses. */
async function freshnessOf(db: Kysely<Database>, indexId: number, root: string): Promise<'fresh' | 'stale' | 'unknown'> {
  const index = await db.selectFrom('indexes').selectAll().where('id', '=', indexId).executeTakeFirstOrThrow();
  try {
    // Loaded on demand: git tooling is only needed here.
    return (await (await import('../freshness/check.js')).checkFreshness(db, index, root)).freshness;
  } catch {
    return 'unknown';
  }
}

function withoutCredentials(location: string): string {
  return location.replace(/^([a-z]+:\/\/)[^@/]*@/i, '$1');
}
