// get_index_status: the SRC contract (reference/src-get_index_status.txt),
// exactly: `{schema_version: 1, success, data, meta, error?, message?}` for
// the repository whose root contains `directory`. A directory outside every
// repository is `exists: false`, not an error. The SRC schema forbids extra
// fields, so this tool's failures are SRC envelopes too, not `{"error"}`.
import { z } from 'zod';
import { FRESHNESS, Meta } from './meta.js';

export const name = 'get_index_status';
export const description =
  'Verify codebase index status before searching. Returns file count, chunk count, and indexed languages to confirm ' +
  'search readiness, for the repository whose root contains `directory` (default: the server\'s working directory).';

export const MAX_DIRECTORY = 4096;

export const Params = z.strictObject(
  {
    directory: z
      .string({ error: 'directory must be a string: a path inside a repository' })
      .max(MAX_DIRECTORY, { error: `directory is longer than ${MAX_DIRECTORY} characters: pass a shorter path` })
      .default('.')
      .describe('Path to the directory to check (defaults to current directory)'),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'get_index_status takes one argument, directory' : 'arguments must be an object with directory') },
);
export type Params = z.infer<typeof Params>;

const count = () => z.int().min(0).max(Number.MAX_SAFE_INTEGER);

export const Metadata = z.strictObject({
  schemaVersion: count(),
  embeddingProvider: z.enum(['ollama', 'lexical', 'unknown']),
  embeddingModel: z.string(),
  embeddingDimensions: z.int().positive().max(Number.MAX_SAFE_INTEGER),
  createdAt: z.string(),
  updatedAt: z.string(),
  chunkSize: z.int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  chunkOverlap: count().optional(),
  legacy: z.boolean().optional(),
  sourceFingerprint: z.string().optional(),
});

export const Data = z.strictObject({
  directory: z.string(),
  indexPath: z.string(),
  exists: z.boolean(),
  totalChunks: count(),
  totalFiles: count(),
  languages: z.record(z.string(), count()),
  lastUpdated: z.string().optional(),
  index_freshness: z.enum(FRESHNESS).optional(),
  storage_bytes: count().optional(),
  storage_scan_truncated: z.boolean().optional(),
  write_lock_present: z.boolean().optional(),
  corrupt: z.boolean().optional(),
  hash_cache_present: z.boolean().optional(),
  metadata: Metadata.optional(),
  metadataError: z.string().optional(),
});
export type Data = z.infer<typeof Data>;

export const Result = z.strictObject({
  schema_version: z.literal(1),
  success: z.boolean(),
  data: Data.optional(),
  meta: Meta,
  error: z.string().optional(),
  message: z.string().optional(),
});
export type Result = z.infer<typeof Result>;
