// findFiles and countFiles: the tracked files of each repository's current
// index, and the directories their paths imply. Sizes come from the blobs;
// mtime from the worktree when it is on this machine, else the commit's time.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { RE2JS, RE2JSException } from 're2js';
import type { z } from 'zod';
import type { Kysely } from 'kysely';
import type { Engine } from '../registry/engine.js';
import type { Database } from '../registry/schema.js';
import { currentIndexes, trackedFiles, type SearchedIndex } from '../registry/search.js';
import { currentLocks } from '../registry/repos.js';
import { UserError } from '../errors.js';
import * as CountFiles from '../protocol/count-files.js';
import * as FindFiles from '../protocol/find-files.js';
import type { Hit, ScanState } from '../protocol/find-files.js';
import { isOnline } from '../freshness/worktree.js';
import { parseParams } from './params.js';
import { extensionFilter, extensionOf } from './paths.js';

/** The filters, validated (defaults applied). */
type Filters = z.infer<typeof CountFiles.Params>;

export interface Entry {
  repo: string;
  path: string;
  name: string;
  kind: 'file' | 'dir';
  /** Bytes (0 for a directory); null when unknown. */
  size: number | null;
  extension: string;
  blob: string | null;
  /** Unix seconds, read on demand (a stat per entry when online). */
  mtime: () => number;
}

export interface RepoEntries {
  index: SearchedIndex;
  online: boolean;
  entries: Entry[];
  files: number;
  dirs: number;
  bytes: number;
}

export async function findFiles(engine: Engine, input: FindFiles.Params): Promise<FindFiles.Result> {
  const started = performance.now();
  const params = parseParams(FindFiles.Params, input);
  const { entries, scanState } = await matching(engine, params);
  const key = sortKey(params.sort);
  const direction = params.desc ? -1 : 1;
  entries.sort((a, b) => direction * (compare(key(a), key(b)) || compare(a.repo, b.repo) || compare(a.path, b.path)));
  const page = entries.slice(params.offset, params.offset + params.limit);
  return {
    hits: page.map(toHit),
    total: entries.length,
    offset: params.offset,
    limit: params.limit,
    duration_ms: Math.round(performance.now() - started),
    scan_state: scanState,
  };
}

export async function countFiles(engine: Engine, input: CountFiles.Params): Promise<CountFiles.Result> {
  const started = performance.now();
  const params = parseParams(CountFiles.Params, input);
  const { entries, scanState } = await matching(engine, params);
  return { count: entries.length, duration_ms: Math.round(performance.now() - started), scan_state: scanState };
}

function toHit(e: Entry): Hit {
  return { repo: e.repo, path: e.path, name: e.name, kind: e.kind, size: e.size, mtime: e.mtime(), extension: e.extension, blob: e.blob };
}

function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortKey(sort: (typeof FindFiles.SORTS)[number]): (e: Entry) => string | number {
  switch (sort) {
    case 'name':
      return (e) => e.name;
    case 'path':
      return (e) => e.path;
    case 'size':
      // An unknown size sorts before every known one.
      return (e) => e.size ?? -1;
    case 'mtime':
      return (e) => e.mtime();
    case 'kind':
      return (e) => e.kind;
    case 'extension':
      return (e) => e.extension;
  }
}

async function matching(engine: Engine, params: Filters): Promise<{ entries: Entry[]; scanState: ScanState }> {
  if (params.min_size !== undefined && params.max_size !== undefined && params.min_size > params.max_size) {
    throw new UserError(`min_size (${params.min_size}) is larger than max_size (${params.max_size}): nothing can match; swap them`);
  }
  const scope = await repositoriesInScope(engine.db, params);
  const test = entryFilter(params);
  const entries: Entry[] = [];
  for (const repo of scope.repos) for (const e of (await repoEntries(engine.db, repo)).entries) if (test(e)) entries.push(e);
  return { entries, scanState: scope.scanState };
}

/** The repositories the filters name (all by default), online ones only unless include_offline. */
export async function repositoriesInScope(
  db: Kysely<Database>,
  params: Pick<Filters, 'repos' | 'repo_names' | 'include_offline'>,
): Promise<{ repos: SearchedIndex[]; scanState: ScanState }> {
  const registered = await db.selectFrom('repos').select(['slug', 'root_path', 'current_index_id']).orderBy('slug').execute();
  if (params.repos) {
    const unknown = params.repos.filter((r) => !registered.some((x) => x.slug === r));
    if (unknown.length) {
      throw new UserError(
        `no repository named ${unknown.map((u) => `"${u}"`).join(', ')} is registered (known: ${
          registered
            .map((r) => r.slug)
            .slice(0, 20)
            .join(', ') || 'none'
        }): call registryStatus for the names`,
      );
    }
  }
  const wanted = registered.filter(
    (r) =>
      (!params.repos || params.repos.includes(r.slug)) &&
      (!params.repo_names ||
        params.repo_names.some(
          (n) => r.slug.toLowerCase().includes(n.toLowerCase()) || (r.root_path ?? '').toLowerCase().includes(n.toLowerCase()),
        )),
  );
  const indexes = await currentIndexes(
    db,
    wanted.map((r) => r.slug),
  );
  const indexing = new Set(await currentLocks(db));
  const offline = indexes.filter((i) => !isOnline(i.root)).map((i) => i.repo);
  const repos = params.include_offline ? indexes : indexes.filter((i) => !offline.includes(i.repo));
  const inScope = wanted.filter((r) => params.include_offline || !offline.includes(r.slug));
  const indexingNow = inScope.map((r) => r.slug).filter((s) => indexing.has(s));
  const unindexed = inScope.filter((r) => r.current_index_id === null).map((r) => r.slug);
  return {
    repos,
    scanState: {
      state: indexingNow.length ? 'indexing' : 'idle',
      complete: indexingNow.length === 0 && unindexed.length === 0,
      indexing: indexingNow,
      unindexed,
      offline_excluded: params.include_offline ? [] : offline,
    },
  };
}


/** Every entry of a repository's current index: its files, and the directories their paths imply. */
export async function repoEntries(db: Kysely<Database>, index: SearchedIndex): Promise<RepoEntries> {
  const online = isOnline(index.root);
  const fallback = index.commitTime ?? Math.floor(Date.parse(index.generatedAt) / 1000);
  const mtimeOf = (path: string) => {
    let cached: number | undefined;
    return () => (cached ??= online ? statSeconds(index.root!, path, fallback) : fallback);
  };
  const files = await trackedFiles(db, index.indexId);
  const entries: Entry[] = [];
  const dirs = new Set<string>();
  let bytes = 0;
  for (const f of files) {
    bytes += f.size ?? 0;
    const slash = f.path.lastIndexOf('/');
    entries.push({
      repo: index.repo,
      path: f.path,
      name: f.path.slice(slash + 1),
      kind: 'file',
      size: f.size,
      extension: extensionOf(f.path),
      blob: f.blobSha,
      mtime: mtimeOf(f.path),
    });
    for (let dir = f.path.slice(0, Math.max(slash, 0)); dir && !dirs.has(dir); dir = dir.slice(0, Math.max(dir.lastIndexOf('/'), 0))) {
      dirs.add(dir);
      entries.push({
        repo: index.repo,
        path: dir,
        name: dir.slice(dir.lastIndexOf('/') + 1),
        kind: 'dir',
        size: 0,
        extension: '',
        blob: null,
        mtime: mtimeOf(dir),
      });
    }
  }
  return { index, online, entries, files: files.length, dirs: dirs.size, bytes };
}

/** A path's modification time in the worktree, never following a link out of it; the fallback when it is gone. */
function statSeconds(root: string, path: string, fallback: number): number {
  try {
    return Math.floor(lstatSync(join(root, path)).mtimeMs / 1000);
  } catch {
    return fallback;
  }
}

function entryFilter(params: Filters): (e: Entry) => boolean {
  const tests: ((e: Entry) => boolean)[] = [];
  const text = (pattern: string, what: string): ((s: string) => boolean) => {
    if (params.regex) {
      let re: RE2JS;
      try {
        re = RE2JS.compile(pattern, params.case_sensitive ? 0 : RE2JS.CASE_INSENSITIVE);
      } catch (error) {
        const reason = error instanceof RE2JSException ? error.message : String(error);
        throw new UserError(`${what} is not a valid RE2 regular expression (${reason}): fix it, or pass regex: false`);
      }
      return (s) => re.matcher(s).find();
    }
    if (params.case_sensitive) return (s) => s.includes(pattern);
    const lower = pattern.toLowerCase();
    return (s) => s.toLowerCase().includes(lower);
  };
  if (params.name !== undefined) {
    const t = text(params.name, 'name');
    tests.push(params.search_path ? (e) => t(e.path) : (e) => t(e.name));
  }
  if (params.path !== undefined) {
    const t = text(params.path, 'path');
    tests.push((e) => t(e.path));
  }
  if (params.kind !== undefined) tests.push((e) => e.kind === params.kind);
  if (params.extensions !== undefined) {
    const ext = extensionFilter(params.extensions);
    tests.push((e) => e.kind === 'file' && ext(e.path));
  }
  // A size filter asks for known sizes: an unknown one matches neither bound.
  if (params.min_size !== undefined) tests.push((e) => e.size !== null && e.size >= params.min_size!);
  if (params.max_size !== undefined) tests.push((e) => e.size !== null && e.size <= params.max_size!);
  if (params.modified_after !== undefined) tests.push((e) => e.mtime() >= params.modified_after!);
  if (params.modified_before !== undefined) tests.push((e) => e.mtime() <= params.modified_before!);
  return (e) => tests.every((t) => t(e));
}
