// Validation of an uploaded SCIP index, before the registry is opened: a file
// rejected here leaves the registry byte for byte as it was. One pass over
// the file, holding only the document paths.
//
// What a truncated file leaves behind, and what is caught:
// - a cut inside a top-level field (a document, the metadata, a tag or a
//   length): always: the field's declared length runs past the end of file;
// - a cut before the metadata ended: the metadata is missing;
// - a cut exactly between two documents: the rest decodes cleanly. Only a
//   checksum catches it (--sha256, or --size). With --root, the documents
//   missing from the index show as files of an indexed language without a
//   document (the language's tier says so), but indexers legitimately skip
//   files too, so that is reported, not rejected.
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { quote, UserError } from '../errors.js';
import { commitFiles, gitAt, gitRoot, hasCommit, headCommit } from '../freshness/git.js';
import { gitBlobSha, readRepoFile } from '../freshness/worktree.js';
import { decodeDocument, decodeMetadata } from '../scip/decode.js';
import { normalizeRange } from '../scip/range.js';
import { IndexField, PositionEncoding, type ScipDocument, type ScipMetadata } from '../scip/schema.js';
import { readIndexFields, TruncatedIndexError } from '../scip/stream.js';
import { normalizeDocumentPath } from './ingest.js';
import { splitLines } from '../lines.js';

export const COMMIT_PATTERN = /^[0-9a-f]{40}$/;
const SHA256_PATTERN = /^[0-9a-f]{64}$/;

export interface UploadRequest {
  file: string;
  commit: string;
  /** A checkout of the repository at `commit`. */
  root?: string | undefined;
  indexer?: string | undefined;
  indexerVersion?: string | undefined;
  sha256?: string | undefined;
  size?: number | undefined;
}

/** The commit's tree in the checkout: regular files with their git blob hashes. */
export interface RootTree {
  root: string;
  files: Map<string, string>;
  /** Edges of the commit graph up to the nearest-commit bound back from the commit. */
  parents: { commit: string; parents: string[] }[];
}

export interface CheckedUpload {
  request: UploadRequest;
  indexer: string;
  indexerVersion: string | null;
  metadata: ScipMetadata;
  sha256: string;
  bytes: number;
  documents: number;
  occurrences: number;
  /** The documents' paths, normalized, each once; with a root only (their files are read), else undefined. */
  paths: Set<string> | undefined;
  tree: RootTree | undefined;
  decodeMs: number;
}

/** Everything about the request and the file that can be wrong, checked without the registry. */
export async function checkUpload(request: UploadRequest, parentsBound: number): Promise<CheckedUpload> {
  const { file } = request;
  if (!COMMIT_PATTERN.test(request.commit)) {
    throw new UserError(`--commit ${quote(request.commit)} is not a full commit hash: pass the 40-hex sha (git rev-parse HEAD)`);
  }
  if (request.sha256 !== undefined && !SHA256_PATTERN.test(request.sha256)) {
    throw new UserError(`--sha256 ${quote(request.sha256)} is not a sha256: pass 64 lowercase hex digits (sha256sum INDEX.scip)`);
  }
  let bytes: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new UserError(`${quote(file)} is not a file: pass the path of a SCIP index (index.scip)`);
    bytes = st.size;
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`${quote(file)} cannot be read (${(error as NodeJS.ErrnoException).code}): pass the path of a SCIP index (index.scip)`);
  }
  if (request.size !== undefined && request.size !== bytes) {
    throw new UserError(`${quote(file)} holds ${bytes} bytes, not the --size ${request.size}: the upload is truncated or corrupt; copy the file again`);
  }
  const sha256 = await fileSha256(file);
  if (request.sha256 !== undefined && request.sha256 !== sha256) {
    throw new UserError(`${quote(file)} has sha256 ${sha256}, not the --sha256 given: the upload is truncated or corrupt; copy the file again`);
  }
  const tree = request.root === undefined ? undefined : await rootTree(request.root, request.commit, parentsBound);

  const started = performance.now();
  let metadata: ScipMetadata | undefined;
  let documents = 0;
  let occurrences = 0;
  // Kept only when files will be read: an upload without a root needs no list of its tens of thousands of paths.
  const paths = tree ? new Set<string>() : undefined;
  /** With a root: documents that are files of its tree, and a path of one that is not. */
  let inTree = 0;
  let notInTree: string | undefined;
  try {
    for await (const field of readIndexFields(file)) {
      if (field.field === IndexField.metadata) {
        metadata = decodeField(() => decodeMetadata(field.bytes), file, 'its metadata');
      } else if (field.field === IndexField.documents) {
        const document = decodeField(() => decodeDocument(field.bytes), file, `document ${documents + 1}`);
        documents++;
        occurrences += document.occurrences.length;
        const path = checkDocument(document, tree, request.commit);
        paths?.add(path);
        if (tree?.files.has(path)) inTree++;
        else notInTree ??= path;
      }
    }
  } catch (error) {
    if (error instanceof TruncatedIndexError) {
      throw new UserError(`${error.message}: upload the complete file (pass --sha256 to also catch a cut between documents)`);
    }
    if (error instanceof UserError) throw error;
    throw new UserError(`${quote(file)} is not a SCIP index (${(error as Error).message}): pass the index.scip an indexer wrote`);
  }
  const decodeMs = performance.now() - started;

  if (!metadata) {
    throw new UserError(`${quote(file)} has no metadata (tool_info, project_root): it is truncated or not a SCIP index; upload the indexer's complete output`);
  }
  const indexer = request.indexer ?? metadata.toolInfo?.name;
  if (!indexer) {
    throw new UserError(`${quote(file)}'s metadata has no tool_info: pass --indexer NAME --indexer-version V for the indexer that wrote it`);
  }
  if (!metadata.projectRoot) {
    throw new UserError(`${quote(file)}'s metadata has no project_root: the indexer wrote an incomplete index; regenerate it`);
  }
  if (![0, 1, 2].includes(metadata.textDocumentEncoding)) {
    throw new UserError(`${quote(file)}'s metadata names an unknown text encoding (${metadata.textDocumentEncoding}): regenerate it with a current indexer`);
  }
  if (documents === 0) {
    throw new UserError(`${quote(file)} holds no documents: the indexer indexed nothing (check its project configuration), so there is nothing to publish`);
  }
  // Indexers may index a file git does not track, but an index of no file of the checkout is of another
  // tree (another repository, or a subdirectory's project_root): publishing it would serve nothing.
  if (tree && inTree === 0) {
    throw new UserError(
      `none of the ${documents} documents of ${quote(file)} is a file of ${quote(tree.root)} at ${request.commit.slice(0, 12)} ` +
        `(e.g. ${quote(notInTree ?? '')}): pass --root the checkout the index was made from, indexed from its repository root`,
    );
  }
  const indexerVersion = request.indexerVersion ?? (request.indexer === undefined ? metadata.toolInfo?.version || null : null);
  return { request, indexer, indexerVersion, metadata, sha256, bytes, documents, occurrences, paths, tree, decodeMs };
}

function decodeField<T>(decode: () => T, file: string, what: string): T {
  try {
    return decode();
  } catch (error) {
    throw new UserError(`${quote(file)}: ${what} cannot be decoded (${(error as Error).message}): the file is corrupt or not a SCIP index; upload it again`);
  }
}

/** The document's normalized path, after checking its path, encoding and ranges. */
function checkDocument(document: ScipDocument, tree: RootTree | undefined, commit: string): string {
  const path = normalizeDocumentPath(document.relativePath);
  if (path === undefined) {
    throw new UserError(
      `document path ${quote(document.relativePath)} is not inside the project root (absolute, '..' or '\\'): index from the repository root so that paths are relative to it`,
    );
  }
  if (!Object.values(PositionEncoding).includes(document.positionEncoding as 0)) {
    throw new UserError(`document ${quote(path)} has an unknown position encoding (${document.positionEncoding}): regenerate the index with a current indexer`);
  }
  const text = tree ? treeText(tree, path) : document.text || undefined;
  if (text !== undefined) checkRanges(document, path, splitLines(text), commit, tree !== undefined);
  return path;
}

/** The file's text at the commit, when the checkout holds it unchanged. */
function treeText(tree: RootTree, path: string): string | undefined {
  const sha = tree.files.get(path);
  if (!sha) return undefined;
  const content = readRepoFile(tree.root, path);
  if (!content || gitBlobSha(content) !== sha) return undefined;
  return content.toString('utf8');
}

function checkRanges(document: ScipDocument, path: string, lines: string[], commit: string, fromRoot: boolean): void {
  const width = lineWidth(document.positionEncoding);
  const fits = (line: number, character: number) => line < lines.length && character <= width(lines[line]!);
  for (const o of document.occurrences) {
    const r = normalizeRange(o.range);
    if (!r) continue;
    if (fits(r[0], r[1]) && fits(r[2], r[3])) continue;
    const against = fromRoot ? `the file at ${commit.slice(0, 12)} (${lines.length} lines)` : `the text the document carries (${lines.length} lines)`;
    throw new UserError(
      `document ${quote(path)}: occurrence range [${o.range.join(', ')}] lies outside ${against}: the index was not made from this commit; pass the commit it was made from`,
    );
  }
}

/** A line's length in the units of the document's position encoding (unspecified: UTF-16, as JavaScript-hosted indexers write). */
function lineWidth(encoding: number): (line: string) => number {
  if (encoding === PositionEncoding.Utf8) return (line) => Buffer.byteLength(line, 'utf8');
  if (encoding === PositionEncoding.Utf32) return (line) => [...line].length;
  return (line) => line.length;
}

async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The checkout at `commit`: checked, listed, and its recent ancestry read. */
async function rootTree(dir: string, commit: string, parentsBound: number): Promise<RootTree> {
  const root = await gitRoot(dir);
  if (!(await hasCommit(root, commit))) {
    throw new UserError(`commit ${commit} does not exist in ${quote(root)}: fetch it there (git fetch origin ${commit}) or pass the commit the index was made from`);
  }
  const head = await headCommit(root);
  if (head !== commit) {
    throw new UserError(
      `${quote(root)} has ${head ? head.slice(0, 12) : 'no commit'} checked out, not ${commit.slice(0, 12)}: check it out there (git -C ${root} checkout ${commit}) so file texts match the index`,
    );
  }
  const git = await gitAt(root);
  const files = await commitFiles(root, commit);
  const graph = await git.raw(['rev-list', '--parents', `--max-count=${parentsBound + 1}`, commit]);
  const parents = graph
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [c, ...ps] = line.trim().split(' ');
      return { commit: c!, parents: ps };
    });
  return { root, files, parents };
}
