// Loaded into scip-typescript's process with indexer-preload.ts. sextant
// derives each document with the syntax facts of its file (syntax/facts.ts).
// It parsed every file again for them, in a thread beside the indexer on the
// same cores (kysely's 560 files: 1.2 s of CPU, and 0.8 s of `sextant
// index`'s 8.3 s on 2 cores), while the indexer's program holds every tree
// already. This walks each tree the indexer indexed, right after it did,
// with the indexer's own TypeScript, and writes the facts to the file sextant
// reads them from (syntax/facts-file.ts), before the document, so that sextant
// has them when the document arrives. A file without them (the walk failed,
// or the indexer's TypeScript is another version than sextant's) is parsed by
// sextant as before.
import { openSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as ts from 'typescript';
import { FACTS_FILE_ENV, writeFactsFrame } from '../syntax/facts-file.js';
import { useTypescript } from '../syntax/load-typescript.js';

interface FileIndexerLike {
  index(): void;
  sourceFile: ts.SourceFile;
  document: { relative_path: string; occurrences: unknown[] };
}

export interface FactsWriter {
  walk: typeof import('../syntax/typescript.js').sourceFileFacts;
  fd: number;
}

/**
 * What patchSyntaxFacts needs, when sextant asked for facts: the walk, bound to
 * the TypeScript the indexer (`process.argv[1]`) requires, loaded now (it
 * would be at the indexer's start anyway) so that the walk's module can be
 * loaded before the indexer runs, whose run never yields to an import.
 */
export async function syntaxFactsWriter(): Promise<FactsWriter | undefined> {
  const file = process.env[FACTS_FILE_ENV];
  if (!file || !process.argv[1]) return undefined;
  try {
    if (!useTypescript(createRequire(process.argv[1])('typescript') as typeof ts)) return undefined;
    const { sourceFileFacts } = await import('../syntax/typescript.js');
    return { walk: sourceFileFacts, fd: openSync(file, 'w') };
  } catch {
    return undefined;
  }
}

/** Wraps FileIndexer's index: the facts of each document it fills, after it does. */
export function patchSyntaxFacts(prototype: FileIndexerLike, writer: FactsWriter): void {
  const original = prototype.index;
  prototype.index = function (this: FileIndexerLike) {
    original.call(this);
    try {
      // A document without occurrences (too large, or empty) is not written, and not ingested.
      if (this.document.occurrences.length === 0) return;
      const data = writer.walk(this.sourceFile).toData();
      writeFactsFrame(writer.fd, { path: this.document.relative_path, textLength: this.sourceFile.text.length, data });
    } catch {
      // sextant parses this file itself (and nothing reaches the indexer, which would report it as its own failure).
    }
  };
}
