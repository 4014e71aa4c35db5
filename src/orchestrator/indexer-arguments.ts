// How an indexer started ahead (indexer-process.ts, `IndexerAhead`) is given
// its run: the preload (indexer-preload.ts) loads the indexer's TypeScript
// while sextant plans, then reads these from its stdin, once, before the
// indexer's own code runs.

/** Set to `stdin` in the environment of an indexer started ahead; the preload removes it. */
export const ARGUMENTS_ENV = 'SEXTANT_INDEXER_ARGUMENTS';

/** One JSON object on a line of its own, the first of the indexer's stdin. Its end before one means the run did not need the indexer. */
export interface IndexerArguments {
  /** What follows the indexer's main module on its command line. */
  args: string[];
  /** Its working directory: the repository's root. */
  cwd: string;
}
