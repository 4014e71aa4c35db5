// Row types of the registry, as kysely sees them. The tables are created by
// the migrations under registry/migrations; both engines share them.
import type { ColumnType, Generated, Selectable } from 'kysely';

/** 0 or 1: portable booleans. */
type Flag = number;
/** ISO-8601 timestamps as text: portable and sortable. */
type Timestamp = string;
/** Engines return binary columns as Buffer (SQLite) or Buffer (pg's bytea). */
type Binary = ColumnType<Buffer, Buffer | Uint8Array, Buffer | Uint8Array>;

export interface RepoTable {
  id: Generated<number>;
  slug: string;
  root_path: string | null;
  current_index_id: number | null;
  created_at: Timestamp;
}

export interface IndexTable {
  id: Generated<number>;
  repo_id: number;
  commit_sha: string;
  /** 1 when the worktree had uncommitted changes when it was indexed. */
  dirty: Flag;
  /** Hash of the uncommitted files' paths and contents at index time. */
  worktree_fingerprint: string | null;
  /** building, published or retired. */
  state: string;
  origin: string;
  generated_at: Timestamp;
  /** JSON: per language, its tier, indexer and why. */
  languages: string;
  /** JSON: the indexers that ran, with versions. */
  tools: string;
  total_files: number;
  document_count: number;
  occurrence_count: number;
  definition_count: number;
  storage_bytes: ColumnType<number, number, number>;
  /** Unix seconds of the indexed commit; null for indexes published before it was recorded. */
  commit_time: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface IndexFileTable {
  index_id: number;
  path: string;
  blob_sha: string;
  document_id: number | null;
  language: string | null;
  /** The file's syntax document (syntactic tier), when a parser read it. */
  syntax_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface BlobTable {
  sha: string;
  /** The file's text; null when it is binary or too large to keep. */
  content: string | null;
  byte_size: number;
  skipped: string | null;
}

export interface DocumentTable {
  id: Generated<number>;
  /** sha256 of the SCIP document, the file's blob and the derivation version. */
  content_hash: string;
  language: string;
  occurrence_count: number;
  definition_count: number;
  /** JSON array of the symbols the payload's records refer to by index. */
  symbols: string;
  /** Packed occurrence records; see payload.ts. */
  payload: Binary;
}

export interface SymbolTable {
  id: Generated<number>;
  symbol: string;
}

export interface SymbolRefTable {
  symbol_id: number;
  document_id: number;
  has_definition: Flag;
  /** Packed ranges with flags; see payload.ts. */
  ranges: Binary;
}

export interface DefinitionTable {
  document_id: number;
  symbol_id: number;
  name: string;
  kind: string;
  /** 1 when the definition holds code that makes calls: functions, methods, variables holding functions. */
  callable: Flag;
  container: string | null;
  start_line: number;
  start_char: number;
  end_line: number;
  end_char: number;
  enclosing_start_line: number | null;
  enclosing_start_char: number | null;
  enclosing_end_line: number | null;
  enclosing_end_char: number | null;
  /** Where the enclosing range came from: index (SCIP enclosing_range) or syntax (a parse). */
  enclosing_source: string | null;
  /** Arguments a call may pass: null min = not known; null max with a min = any number more. */
  min_arguments: number | null;
  max_arguments: number | null;
  signature: string | null;
  documentation: string | null;
}

export interface RelationshipTable {
  document_id: number;
  symbol_id: number;
  target_symbol_id: number;
  is_implementation: Flag;
  is_reference: Flag;
  is_type_definition: Flag;
  is_definition: Flag;
  /** sextant's own (registry/migrations/0011): `symbol`, a module's default export (or CommonJS module), is an export of `target`. */
  is_export_of: Flag;
}

/** Definitions a parser found in one file's content (the syntactic tier); see registry/migrations/0005. */
export interface SyntaxDocumentTable {
  id: Generated<number>;
  /** sha256 of the blob, the language and the parser with its derivation version. */
  content_hash: string;
  language: string;
  /** The parser and its version, e.g. "universal-ctags 5.9.0". */
  parser: string;
  definition_count: number;
}

export interface SyntaxDefinitionTable {
  syntax_id: number;
  /** Position in the document's list, in source order. */
  ordinal: number;
  /** The ordinal of the definition it is nested in (by the parser's scope), or null at the top. */
  parent_ordinal: number | null;
  name: string;
  kind: string;
  /** The parser's scope, qualified ("pkg.Type", "mod::Type"). */
  container: string | null;
  /** The name: 0-based line, UTF-16 columns; it sits on one line. */
  start_line: number;
  start_char: number;
  end_char: number;
  /** Where the whole definition ends, as far as the parser knows (else the end of its first line). */
  span_end_line: number;
  span_end_char: number;
  signature: string | null;
}

export interface IndexRunTable {
  id: Generated<number>;
  repo_id: number;
  origin: string;
  /** running or finished. */
  state: string;
  /** indexed, partial, search-only or failed; null while running. */
  outcome: string | null;
  reason: string | null;
  recovery: string | null;
  commit_sha: string | null;
  started_at: Timestamp;
  finished_at: Timestamp | null;
  pid: number;
  host: string;
  index_id: number | null;
  /** JSON: what each indexer did. */
  report: string | null;
  /** Until when the row's process holds it unless it renews it (src/registry/lease.ts); null for rows from before leases. */
  expires_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

/** A reindex job; see registry/migrations/0006. */
export interface IndexJobTable {
  id: Generated<number>;
  repo_id: number;
  /** The worktree it indexes. */
  root_path: string;
  /** Who asked: mcp, cli or auto (a query that found the index missing). */
  origin: string;
  /** queued, running, completed, failed or cancelled. */
  state: string;
  created_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  /** The process that runs it (set when it is spawned, then by the process itself). */
  pid: number | null;
  host: string;
  /** The index it published. */
  index_id: number | null;
  error: string | null;
  /** JSON: the run's report, once completed. */
  report: string | null;
  /** Until when the row's process holds it unless it renews it (src/registry/lease.ts); null for rows from before leases. */
  expires_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export interface LockTable {
  repo_id: number;
  run_id: number;
  pid: number;
  host: string;
  acquired_at: Timestamp;
  /** Until when the lease holds unless its run renews it; null for locks taken before leases. */
  expires_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

/** A running `sextant watch` of a repository (registry/migrations/0007). */
export interface WatcherTable {
  repo_id: number;
  pid: number;
  host: string;
  started_at: Timestamp;
  /** watching (idle) or indexing. */
  state: string;
  /** A change arrived during a run: one more run follows it. */
  pending: Flag;
  last_event: string | null;
  last_event_at: Timestamp | null;
  /** Until when the row's process holds it unless it renews it (src/registry/lease.ts); null for rows from before leases. */
  expires_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

/** One `sextant publish` of a SCIP file (registry/migrations/0009). */
export interface UploadTable {
  id: Generated<number>;
  repo_id: number;
  commit_sha: string;
  /** The indexer that wrote the file (--indexer, else the file's tool_info). */
  indexer: string;
  indexer_version: string | null;
  /** queued, processing, completed or errored. */
  state: string;
  /** Why it errored. */
  reason: string | null;
  file_sha256: string;
  /** bigint: Postgres returns it as a string. */
  file_bytes: ColumnType<number | string, number, number>;
  /** 1 when file texts came from a checkout (--root): search and sextant's additions work. */
  with_root: Flag;
  created_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  index_id: number | null;
  /** The publishing process: one that died leaves its upload queued or processing, reported errored. */
  pid: number;
  host: string;
  /** Until when the row's process holds it unless it renews it (src/registry/lease.ts); null for rows from before leases. */
  expires_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

/** An edge of the commit graph CI reported (registry/migrations/0009). */
export interface CommitParentTable {
  repo_id: number;
  commit_sha: string;
  parent_sha: string;
}

export interface Database {
  repos: RepoTable;
  indexes: IndexTable;
  index_files: IndexFileTable;
  blobs: BlobTable;
  documents: DocumentTable;
  symbols: SymbolTable;
  symbol_refs: SymbolRefTable;
  definitions: DefinitionTable;
  relationships: RelationshipTable;
  syntax_documents: SyntaxDocumentTable;
  syntax_definitions: SyntaxDefinitionTable;
  index_runs: IndexRunTable;
  locks: LockTable;
  watchers: WatcherTable;
  index_jobs: IndexJobTable;
  uploads: UploadTable;
  commit_parents: CommitParentTable;
  /** The text index's stable id per indexed blob (SQLite's FTS5 index is keyed by it). */
  search_blobs: SearchBlobTable;
}

export interface SearchBlobTable {
  id: Generated<number>;
  sha: string;
}

export type Repo = Selectable<RepoTable>;
export type IndexRow = Selectable<IndexTable>;
export type IndexRun = Selectable<IndexRunTable>;
export type IndexJob = Selectable<IndexJobTable>;
export type Upload = Selectable<UploadTable>;
