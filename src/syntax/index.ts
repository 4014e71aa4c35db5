// Syntax facts by language. TypeScript and JavaScript are parsed in a worker
// thread whose heap is capped: the syntax trees are the bulk of what ingest
// allocates, and a bounded heap keeps ingest memory flat however large the
// index (a file too large for it loses its facts, and says so, rather than
// the run). A small repository's files are parsed on the calling thread
// instead (see IN_THREAD_FILES). Python files are parsed by python3's own ast
// module, in one process over all files, started up front. When `sextant
// index` runs scip-typescript, the indexer's process gives the facts of the
// files it indexed (orchestrator/syntax-facts-patch.ts), and this parses only
// the files it left without.
import { Worker } from 'node:worker_threads';
import { languageOf, PARSED_LANGUAGES } from '../languages.js';
import { SyntaxFacts, type SyntaxFactsData } from './facts.js';
import { saveTypescriptCache } from './load-typescript.js';
import { pythonFacts } from './python.js';

export interface FactsProvider {
  (path: string, language: string, text: string): Promise<SyntaxFacts | undefined>;
  /** Why some files have no facts. */
  readonly problems: string[];
  /**
   * Starts the parser now rather than at the first file: loading TypeScript
   * into its thread takes 0.1-0.3 s, which then overlaps the indexer's own
   * start instead of holding up the first document (and, on a small run, the
   * end of ingest).
   */
  start?(): void;
  close(): Promise<void>;
}

/** Heap of the parsing worker: syntax trees of the largest files fit many times over. */
const WORKER_OLD_GENERATION_MB = 160;
/**
 * A repository of at most this many TypeScript and JavaScript files is parsed
 * on the calling thread: a worker costs a thread and a second load of
 * TypeScript (0.25-0.3 s of CPU; planning loaded it on this thread already
 * where there is a tsconfig), more than such a repository's parse, and the
 * trees of so few files need no heap of their own. A file over
 * IN_THREAD_BYTES still goes to a worker.
 */
const IN_THREAD_FILES = 64;
const IN_THREAD_BYTES = 1 << 20;

export function syntaxFacts(root: string, languages: readonly string[], paths: readonly string[]): FactsProvider {
  const python = languages.includes('python') ? pythonFacts(root, paths) : undefined;
  const worker = new ParserWorker();
  const parsed = paths.filter((p) => PARSED_LANGUAGES.has(languageOf(p) ?? '')).length;
  const inThread = parsed <= IN_THREAD_FILES ? new InThreadParser() : undefined;
  const problems: string[] = [];
  const provider = async (path: string, language: string, text: string) => {
    if (language === 'python') return (await python)?.facts.get(path);
    if (PARSED_LANGUAGES.has(language)) {
      try {
        return await (inThread && text.length <= IN_THREAD_BYTES ? inThread : worker).parse(path, text);
      } catch (error) {
        problems.push(`${path}: ${(error as Error).message}`);
        return undefined;
      }
    }
    return undefined;
  };
  const parses = languages.some((l) => PARSED_LANGUAGES.has(l));
  return Object.assign(provider, {
    problems,
    start() {
      if (parses) (inThread ?? worker).start();
    },
    async close() {
      await worker.close();
      // TypeScript loaded on this thread (planning read configs with it) leaves its code cache for the next run: the
      // worker, which wrote it after its first file, no longer starts where the indexer gives the facts.
      saveTypescriptCache();
      if (python) problems.push(...(await python).problems);
    },
  });
}

/** typescript.ts on this thread, loaded on first use or by start(). */
class InThreadParser {
  private module: Promise<typeof import('./typescript.js')> | undefined;

  start(): Promise<typeof import('./typescript.js')> {
    return (this.module ??= import('./typescript.js'));
  }

  async parse(path: string, text: string): Promise<SyntaxFacts> {
    const facts = (await this.start()).typescriptFacts(path, text);
    // As the worker does after its first file (see syntax-worker.ts).
    saveTypescriptCache();
    return facts;
  }
}

/**
 * One worker thread, started on first use or by start(). When it dies (out of memory on a
 * huge file), the requests it held fail with the reason and the next request
 * starts a new one.
 */
class ParserWorker {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (facts: SyntaxFacts) => void; reject: (error: Error) => void }>();

  parse(path: string, text: string): Promise<SyntaxFacts> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, path, text });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./syntax-worker.js', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: WORKER_OLD_GENERATION_MB },
    });
    worker.on('message', (message: { id: number; data?: SyntaxFactsData; error?: string }) => {
      const request = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.data) request?.resolve(new SyntaxFacts(message.data));
      else request?.reject(new Error(`the parser failed: ${message.error}`));
    });
    const fail = (reason: string) => {
      if (this.worker === worker) this.worker = undefined;
      for (const { reject } of this.pending.values()) reject(new Error(reason));
      this.pending.clear();
    };
    worker.on('error', (error) => fail(`the parser stopped: ${error.message}`));
    worker.on('exit', (code) => fail(`the parser exited with code ${code}`));
    this.worker = worker;
    return worker;
  }
}
