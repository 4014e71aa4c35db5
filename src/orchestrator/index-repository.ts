// `sextant index`: plan -> run indexers -> fall back -> publish.
//
// Each language of the repository ends in one tier: precise when its indexer
// produced documents, syntactic when it has none but universal-ctags found its
// definitions, search-only (with the reason and a recovery hint) otherwise:
// the indexer is missing, fails, times out or indexes nothing. The index is
// published atomically whatever the tiers; a run that dies leaves the
// previous index in place and its run record says so.
import { readFile, realpath } from 'node:fs/promises';
import { basename, posix } from 'node:path';
import { commitTime } from '../freshness/git.js';
import { readWorktree, type Worktree, type WorktreeFile } from '../freshness/worktree.js';
import type { Engine } from '../registry/engine.js';
import { publishIndex, type PublishedFile } from '../registry/publish.js';
import { ensureRepo, failRun, repoAt, startRun } from '../registry/repos.js';
import { RegistryWriter } from '../registry/writer.js';
import { silentProgress, type Progress } from '../progress.js';
import { syntaxFacts } from '../syntax/index.js';
import type { ScipDocument } from '../scip/schema.js';
import { SyntaxFacts } from '../syntax/facts.js';
import { RefKindCode } from '../registry/payload.js';
import { readBlobText, storeBlobs, type BlobStats } from './blobs.js';
import { countLanguages, languageOf } from '../languages.js';
import { loadManifests, resolveCommand, type IndexerManifest } from './manifests.js';
import { Ingest, normalizeDocumentPath } from './ingest.js';
import { DERIVATION_VERSION } from './prepare.js';
import { planProjects, type PlannedProject, type ProjectGap, type ProjectPlan } from './projects.js';
import { Interrupted, throwIfInterrupted } from './interrupt.js';
import { runIndexer, type IndexerResult } from './run-indexer.js';
import type { IndexerAhead } from './indexer-process.js';
import { indexSyntactic } from './syntactic.js';
import {
  chooseScopes,
  documentCounts,
  exportAliases,
  firstMention,
  launchScopes,
  loadPrevious,
  planCarryOver,
  surfaceChange,
  type RunScope,
} from './incremental.js';

/** Who ran the index: `sextant index`, watch, CI, or a reindex job (orchestrator/jobs.ts). */
export type Origin = 'cli' | 'watch' | 'ci' | 'job';
export type Tier = 'precise' | 'syntactic' | 'search-only';

export interface IndexOptions {
  engine: Engine;
  path: string;
  /** The worktree at `path`, when the caller started reading it already (the CLI does, while the registry opens). */
  worktree?: Promise<Worktree>;
  /** An indexer the caller started ahead (the CLI starts scip-typescript's): the run of its command takes it. */
  ahead?: IndexerAhead | undefined;
  slug?: string | undefined;
  origin: Origin;
  /** Overrides every manifest's timeout. */
  timeoutSeconds?: number | undefined;
  env?: NodeJS.ProcessEnv;
  progress?: Progress;
  /** Give the indexers CPU priority over this process (the CLI does; a library caller may not want its process reniced). */
  yieldCpu?: boolean;
  /** Aborting it (with the signal's name as the reason) stops the run before it publishes: see interrupt.ts. */
  signal?: AbortSignal;
  /** Builds precise indexes through language servers for languages no SCIP indexer covers (`sextant index --lsp`). */
  lspIndexer?: LspIndexer;
}

/**
 * Drives a language server to build SCIP documents for one language (given by
 * the adapter: src/lsp/build-index.ts), within a time budget.
 */
export interface LspIndexer {
  /** The server that would build a language's index, if one is installed. */
  serverFor(language: string): string | undefined;
  build(request: LspIndexRequest): Promise<LspIndexResult>;
  close(): Promise<void>;
}

export interface LspIndexRequest {
  root: string;
  /** The root with symlinks resolved, as servers name files. */
  realRoot: string;
  slug: string;
  language: string;
  server: string;
  paths: string[];
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export interface LspIndexResult {
  documents: ScipDocument[];
  durationMs: number;
  /** What the build reached: files, definitions, and definitions whose references were asked. */
  coverage: Record<string, number | string>;
  /** What it did not reach, when it ran out of budget; null when complete. */
  reason: string | null;
  /** Where each file's calls are (0-based line and character of the called name), from the server's call hierarchy. */
  callSites: Map<string, [number, number][]>;
}

export interface LanguageReport {
  files: number;
  tier: Tier;
  indexer: string | null;
  /** `lsp` when a language server built the precise index (`sextant index --lsp`). */
  origin?: 'lsp';
  indexed_files: number;
  reason: string | null;
  recovery: string | null;
}

export interface IndexerReport {
  name: string;
  version: string | null;
  status: IndexerResult['status'] | 'missing';
  reason: string | null;
  documents: number;
  duration_ms: number;
  /** The projects it was given, each with the tracked files it owns and how many got a document. */
  projects: ProjectReport[];
  /** Projects not indexed again because none of their files changed: their files kept their documents (see incremental.ts). */
  projects_reused?: number;
  /** For an index built through a language server: what it reached. */
  coverage?: Record<string, number | string>;
}

export interface ProjectReport {
  /**
   * Repository-relative tsconfig.json/jsconfig.json, or a config one references
   * (tsconfig.app.json); null for the project inferred for files no config includes.
   */
  config: string | null;
  files: number;
  indexed_files: number;
  /** Why a config owns nothing (it cannot be read; its files went to the inferred project), else null. */
  problem: string | null;
  /**
   * How this run indexed it (see incremental.ts): `project`, all its files;
   * `files`, only its changed files (and those declaring globals), the others
   * keeping their documents; `kept`, none, as none of its files changed.
   */
  granularity: 'project' | 'files' | 'kept';
  /** How many of its files the indexer was given. */
  files_run: number;
  /** Why it ran whole rather than narrower; null when it ran as narrow as it could (a first index runs whole). */
  fallback: string | null;
}

export interface IndexReport {
  repo: string;
  root: string;
  commit: string;
  dirty: boolean;
  outcome: 'indexed' | 'partial' | 'search-only';
  index_id: number;
  files: number;
  documents: number;
  /**
   * Documents are content-addressed (the indexer's output for a file and the
   * file's content): of this index's documents, how many were derived and
   * written, and how many were already stored and cost a lookup; and how many
   * of the previous index's documents it no longer uses.
   */
  documents_written: number;
  documents_reused: number;
  documents_removed: number;
  occurrences: number;
  definitions: number;
  /** Definitions of the syntactic tier's files (from ctags). */
  syntactic_definitions: number;
  languages: Record<string, LanguageReport>;
  indexers: IndexerReport[];
  blobs: BlobStats;
  /** Time spent adding file texts to the code search index (overlaps the indexers' run). */
  search_index_ms: number;
  /** Where the run's wall time went (see PhaseTimes); not in the report stored with the run, which is written while publishing. */
  phases_ms?: PhaseTimes;
  skipped_documents: { path: string; reason: string }[];
  /** Files whose syntax could not be read (their references have no kinds): the reason for each. */
  syntax_problems: string[];
  reason: string | null;
  recovery: string | null;
  duration_ms: number;
}

/**
 * Milliseconds of wall time per step of a run, so a slow run says where it was
 * slow. Steps that overlap the indexers (file texts, ingest while they write)
 * are counted apart from what is left once they have exited.
 */
export interface PhaseTimes {
  /** Reading the worktree: git's listing and status, hashing changed files. */
  worktree: number;
  /** The repository's row, the run's record, the previous index's documents. */
  setup: number;
  /** Storing file texts and their search index; overlaps the indexers. */
  blobs: number;
  /** Planning each indexer's projects, counting the documents kept from the previous index. */
  planning: number;
  /** The indexers, from start to exit (their documents ingested meanwhile). */
  indexers: number;
  /** Ingest still running after the indexers exited. */
  ingest_after_indexers: number;
  /** File texts still being stored after the indexers' ingest finished. */
  blobs_after_indexers: number;
  /** Languages built through language servers (`--lsp`). */
  lsp: number;
  /** The syntactic tier (ctags). */
  syntactic: number;
  /** Counting the previous index's dropped documents, the commit's time. */
  report: number;
  /** The publishing transaction. */
  publish: number;
  /** Retiring old indexes and deleting rows nothing refers to. */
  collect: number;
  /** The planner's statistics (ANALYZE), when refreshed. */
  statistics: number;
}

const NOTHING_TO_RUN: IndexerResult = { status: 'ok', reason: null, documents: 0, metadata: undefined, durationMs: 0, exitMs: 0 };

export async function indexRepository(options: IndexOptions): Promise<IndexReport> {
  const started = performance.now();
  const progress = options.progress ?? silentProgress;
  const env = options.env ?? process.env;
  const { engine, signal } = options;
  const db = engine.db;

  const phases: PhaseTimes = {
    worktree: 0,
    setup: 0,
    blobs: 0,
    planning: 0,
    indexers: 0,
    ingest_after_indexers: 0,
    blobs_after_indexers: 0,
    lsp: 0,
    syntactic: 0,
    report: 0,
    publish: 0,
    collect: 0,
    statistics: 0,
  };
  let lap = started;
  /** Adds the time since the last lap to a phase. */
  const clock = (phase: keyof PhaseTimes) => {
    const t = performance.now();
    phases[phase] += t - lap;
    lap = t;
  };

  progress.update('reading the worktree…');
  const worktree = await (options.worktree ?? readWorktree(options.path));
  clock('worktree');
  const manifests = loadManifests(env);
  // Without a name, the one the worktree is registered by (as reindex, watch and status use), else its folder's.
  const slug = options.slug ?? (await repoAt(db, worktree.root))?.slug ?? basename(worktree.root);
  throwIfInterrupted(signal);
  const repo = await ensureRepo(db, slug, worktree.root);
  const run = await startRun(engine, { repoId: repo.id, origin: options.origin, commit: worktree.head });
  // Written blobs, awaited before the run is recorded failed, so the registry is not closed under them.
  let blobsStored: Promise<unknown> = Promise.resolve();

  try {
    const writer = new RegistryWriter(engine);
    const byPath = new Map(worktree.files.map((f) => [f.path, f]));
    const shas = new Map(worktree.files.map((f) => [f.path, f.sha]));
    const previous = await loadPrevious(engine, repo.current_index_id);
    const languageCounts = countLanguages(byPath.keys());
    clock('setup');

    // File texts are stored once the first indexer has started (or when none
    // runs): reading them and indexing them for search takes this thread a
    // second or more, which would otherwise delay the indexer's start, the
    // critical path. Ingest needs them, and waits for them.
    let storing: Promise<BlobStats> | undefined;
    const stored = (): Promise<BlobStats> => {
      if (storing) return storing;
      progress.update(`storing the text of ${worktree.files.length} files…`);
      const storingStarted = performance.now();
      storing = storeBlobs(writer, worktree.root, worktree.files).finally(() => (phases.blobs = performance.now() - storingStarted));
      blobsStored = storing;
      // A failure here surfaces when awaited; do not let it go unhandled meanwhile.
      storing.catch(() => undefined);
      return storing;
    };

    // The commit's time is asked of git then too (or at publish, when no indexer runs): asked after the indexers,
    // that git run was on the critical path.
    let committed: Promise<number | null> | undefined;
    const commitTimeAsked = () => (committed ??= commitTime(worktree.root, worktree.head));

    const documentIds = new Map<string, number>();
    const counters = { documents: 0, written: 0, reused: 0, occurrences: 0, definitions: 0 };
    /** Counts an indexer's ingested documents into the run's, whichever indexer (SCIP or a language server) gave them. */
    const recordIngest = (ingest: Ingest) => {
      for (const [path, id] of ingest.ids) documentIds.set(path, id);
      counters.documents += ingest.ids.size;
      counters.written += ingest.written;
      counters.reused += ingest.ids.size - ingest.written;
      counters.occurrences += ingest.occurrences;
      counters.definitions += ingest.definitions;
    };
    const skipped: { path: string; reason: string }[] = [];
    const syntaxProblems: string[] = [];
    const indexerReports: IndexerReport[] = [];
    const languages: Record<string, LanguageReport> = {};
    const indexedPerLanguage = new Map<string, number>();

    for (const manifest of manifests) {
      const languageFiles = worktree.files.filter((f) => manifest.languages.includes(languageOf(f.path) ?? ''));
      if (languageFiles.length === 0) continue;
      throwIfInterrupted(signal);
      const { report: result, gaps } = await runOne(manifest, languageFiles);
      throwIfInterrupted(signal);
      indexerReports.push(result);
      for (const language of manifest.languages) {
        const files = languageCounts[language];
        if (!files) continue;
        const indexed = indexedPerLanguage.get(language) ?? 0;
        const ok = result.status === 'ok' && indexed > 0;
        if (ok && indexed < files) {
          // Precise for the files it covers: the others are named, with why.
          const missing = languageFiles.filter((f) => languageOf(f.path) === language && !documentIds.has(f.path)).map((f) => f.path);
          languages[language] = {
            files,
            tier: 'precise',
            indexer: manifest.name,
            indexed_files: indexed,
            reason: coverageGap(manifest.name, language, files, missing, gaps),
            recovery: gaps.length ? 'fix the config named in the reason, then run `sextant index` again' : null,
          };
          continue;
        }
        const recovery =
          manifest.recovery[result.status === 'ok' ? 'empty' : result.status] ??
          (result.status === 'missing'
            ? `install ${manifest.name} (or fix the command in its manifest), then run \`sextant index\` again`
            : null);
        languages[language] = {
          files,
          tier: ok ? 'precise' : 'search-only',
          indexer: manifest.name,
          indexed_files: indexed,
          reason: ok ? null : (result.reason ?? `${manifest.name} produced no documents for ${language} files`),
          recovery: ok ? null : (recovery ?? `run \`sextant index\` again`),
        };
      }
    }
    for (const [language, files] of Object.entries(languageCounts)) {
      languages[language] ??= {
        files,
        tier: 'search-only',
        indexer: null,
        indexed_files: 0,
        reason: `no SCIP indexer for ${language} is configured`,
        recovery: `add a manifest for a ${language} SCIP indexer to a directory named by SEXTANT_INDEXERS, then run \`sextant index\` again`,
      };
    }

    clock('planning');
    const blobs = await stored();
    clock('blobs_after_indexers');
    if (options.lspIndexer) await buildThroughServers(options.lspIndexer);
    clock('lsp');
    // The syntactic tier (./syntactic.ts): languages still search-only get their definitions from ctags.
    const syntactic = await indexSyntactic({
      engine,
      writer,
      files: worktree.files,
      languages,
      env,
      timeoutSeconds: options.timeoutSeconds,
      progress,
    });
    if (syntactic.report) indexerReports.push(syntactic.report);
    clock('syntactic');
    const tiers = Object.values(languages);
    const precise = tiers.filter((l) => l.tier === 'precise');
    const outcome =
      precise.length === 0 ? (syntactic.ids.size > 0 ? 'partial' : 'search-only') : counters.occurrences === 0 ? 'partial' : 'indexed';
    const firstProblem = Object.entries(languages).find(([, l]) => l.tier !== 'precise' && l.indexer !== null);
    const reason = firstProblem ? `${firstProblem[0]}: ${firstProblem[1].reason}` : null;
    const recovery = firstProblem ? firstProblem[1].recovery : null;

    const files: PublishedFile[] = worktree.files.map((f) => ({
      path: f.path,
      blobSha: f.sha,
      documentId: documentIds.get(f.path) ?? null,
      language: languageOf(f.path) ?? null,
      syntaxId: syntactic.ids.get(f.path) ?? null,
    }));
    const report: Omit<IndexReport, 'index_id' | 'duration_ms'> = {
      repo: slug,
      root: worktree.root,
      commit: worktree.head,
      dirty: worktree.fingerprint !== null,
      outcome,
      files: files.length,
      documents: counters.documents,
      documents_written: counters.written,
      documents_reused: counters.reused,
      documents_removed: await documentsDropped(engine, repo.current_index_id, documentIds),
      occurrences: counters.occurrences,
      definitions: counters.definitions,
      syntactic_definitions: syntactic.definitions,
      languages,
      indexers: indexerReports,
      blobs,
      search_index_ms: Math.round(writer.textIndexMs),
      skipped_documents: skipped.slice(0, 20),
      syntax_problems: syntaxProblems.slice(0, 20),
      reason,
      recovery,
    };
    clock('report');
    progress.update('publishing…');
    throwIfInterrupted(signal);
    const indexId = await publishIndex(engine, {
      run,
      commit: worktree.head,
      commitTime: await commitTimeAsked(),
      dirty: worktree.fingerprint !== null,
      fingerprint: worktree.fingerprint,
      languages,
      // The derivation version says how the documents were derived, so that a later run of another sextant re-derives them (see planCarryOver).
      tools: indexerReports.map((r) => ({
        name: r.name,
        version: r.version,
        status: r.status,
        projects: r.projects,
        derivation: DERIVATION_VERSION,
      })),
      files,
      documentCount: counters.documents,
      occurrenceCount: counters.occurrences,
      definitionCount: counters.definitions,
      end: { outcome, reason, recovery, report },
      // Checked last inside the publishing transaction: a signal that came during it rolls it back.
      beforeCommit: () => throwIfInterrupted(signal),
      refreshStatistics: !previous || changedMuch(report),
      timings: phases,
    });
    progress.done();
    for (const phase of Object.keys(phases) as (keyof PhaseTimes)[]) phases[phase] = Math.round(phases[phase]);
    return { ...report, phases_ms: phases, index_id: indexId, duration_ms: Math.round(performance.now() - started) };

    /** Languages no SCIP indexer covers, indexed precisely through their language servers (src/lsp/build-index.ts). */
    async function buildThroughServers(indexer: LspIndexer): Promise<void> {
      for (const [language, report] of Object.entries(languages)) {
        const server = report.tier === 'search-only' && report.indexer === null ? indexer.serverFor(language) : undefined;
        if (!server) continue;
        throwIfInterrupted(signal);
        progress.update(`${server}: building the ${language} index…`);
        const paths = worktree.files.filter((f) => languageOf(f.path) === language).map((f) => f.path);
        const manifest: IndexerManifest = {
          name: server,
          languages: [language],
          command: { path: server },
          args: [],
          timeoutSeconds: options.timeoutSeconds ?? 600,
          recovery: {},
        };
        // The server's call sites are the calls among the references (what a parser tells for TypeScript and Python).
        let callSites = new Map<string, [number, number][]>();
        const facts = Object.assign(
          async (path: string) => {
            const sites = callSites.get(path);
            if (!sites) return undefined;
            const known = new SyntaxFacts();
            for (const [line, character] of sites) known.setKind(line, character, RefKindCode.call);
            return known;
          },
          { problems: [] as string[], close: async () => {} },
        );
        const ingest = new Ingest(writer, byPath, [language], facts, { readText: (path, sha) => readBlobText(worktree.root, path, sha) });
        let result: LspIndexResult;
        try {
          result = await indexer.build({
            root: worktree.root,
            realRoot: await realpath(worktree.root),
            slug,
            language,
            server,
            paths,
            timeoutMs: manifest.timeoutSeconds * 1000,
            signal,
          });
          callSites = result.callSites;
          for (const document of result.documents) {
            // A document is stored by the hash of what it was derived from: the server's answers, call sites included.
            const derivedFrom = JSON.stringify([document, callSites.get(document.relativePath) ?? []]);
            await ingest.add(document, Buffer.from(derivedFrom));
          }
          await ingest.flush();
        } catch (error) {
          if (error instanceof Interrupted) throw error;
          indexerReports.push({
            name: server,
            version: null,
            status: 'failed',
            reason: (error as Error).message,
            documents: 0,
            duration_ms: 0,
            projects: [],
          });
          continue;
        } finally {
          await facts.close();
        }
        throwIfInterrupted(signal);
        recordIngest(ingest);
        indexerReports.push({
          name: server,
          version: null,
          status: 'ok',
          reason: result.reason,
          documents: result.documents.length,
          duration_ms: result.durationMs,
          projects: [],
          coverage: result.coverage,
        });
        if (ingest.ids.size === 0) continue;
        languages[language] = {
          files: report.files,
          tier: 'precise',
          indexer: server,
          origin: 'lsp',
          indexed_files: ingest.ids.size,
          reason: result.reason,
          recovery: result.reason ? 'index with a longer --timeout to reach the rest' : null,
        };
      }
    }

    async function runOne(
      manifest: IndexerManifest,
      languageFiles: WorktreeFile[],
    ): Promise<{ report: IndexerReport; gaps: ProjectGap[] }> {
      const command = resolveCommand(manifest, env);
      if (!command) {
        const report: IndexerReport = {
          name: manifest.name,
          version: null,
          status: 'missing',
          reason: `${manifest.name} is not installed: ${'npm' in manifest.command ? `npm package ${manifest.command.npm} not found` : `no executable ${manifest.command.path}${posix.isAbsolute(manifest.command.path) ? '' : ' on PATH'}`}`,
          documents: 0,
          duration_ms: 0,
          projects: [],
        };
        return { report, gaps: [] };
      }
      const plan = planProjects(
        manifest,
        worktree.root,
        worktree.files.map((f) => f.path),
        languageFiles.map((f) => f.path),
      );
      const facts = syntaxFacts(
        worktree.root,
        manifest.languages,
        languageFiles.map((f) => f.path),
      );
      const ingest = new Ingest(writer, byPath, manifest.languages, facts, {
        forgettable: true,
        readText: (path, sha) => readBlobText(worktree.root, path, sha),
      });
      // Projects none of whose files changed keep their documents instead of running again; those
      // with few changed files may run on those alone (see incremental.ts).
      const planned = planCarryOver(manifest, plan, previous, shas);
      const carry = 'run' in planned ? planned : null;
      const texts = new Map<string, Promise<string | undefined>>();
      const readText = (path: string) => {
        let text = texts.get(path);
        if (!text) texts.set(path, (text = readFile(posix.join(worktree.root, path), 'utf8').catch(() => undefined)));
        return text;
      };
      const scopes = carry ? await chooseScopes(plan, carry, previous!, readText) : new Map<number, RunScope>();
      // The unchanged files a narrowed run is given (they declare globals) keep their documents: the
      // previous ones were derived from the whole project.
      const given = new Set(
        [...scopes.values()].flatMap((s) => (s.granularity === 'files' ? s.files.filter((f) => !s.changed.includes(f)) : [])),
      );
      const run = (launch: Pick<ProjectPlan, 'projects' | 'generatedConfigs'>) =>
        runIndexer(
          {
            manifest,
            command,
            root: worktree.root,
            slug,
            projects: launch.projects,
            generatedConfigs: launch.generatedConfigs,
            timeoutMs: (options.timeoutSeconds ?? manifest.timeoutSeconds) * 1000,
            env,
            yieldCpu: options.yieldCpu,
            ahead: options.ahead,
            onSpawn: ({ syntaxFacts }) => {
              void stored();
              void commitTimeAsked();
              // Where the indexer gives the facts, the parser starts only for a file it left without.
              if (!syntaxFacts) facts.start?.();
            },
            signal,
          },
          async (document, bytes, indexerFacts) => {
            // Stops reading the indexer's output: the run is over.
            throwIfInterrupted(signal);
            if (given.has(normalizeDocumentPath(document.relativePath) ?? '')) return;
            await stored();
            await ingest.add(document, bytes, indexerFacts);
            progress.update(`${manifest.name}: ${ingest.count} documents ingested`);
          },
        );
      // The documents kept from the previous index: of unchanged projects, and of the files narrowed runs leave out.
      const kept = new Map(carry?.documents ?? []);
      for (const [i, scope] of scopes) {
        if (scope.granularity !== 'files') continue;
        for (const f of plan.planned[i]!.files) {
          const document = previous!.files.get(f)?.document;
          if (document != null) kept.set(f, document);
        }
      }
      let result: IndexerResult;
      clock('planning');
      const launched = lap;
      try {
        // Every project unchanged: the indexer has nothing to do.
        result = carry?.run.size === 0 ? NOTHING_TO_RUN : await run(carry ? launchScopes(worktree.root, plan, scopes) : plan);
        throwIfInterrupted(signal);
        await ingest.flush();
        const fallen = result.status === 'ok' ? await checkSurfaces(scopes, plan.planned, ingest.ids, readText) : new Map();
        if (fallen.size > 0) {
          // A narrowed project whose surface changed runs whole, so that its other files follow.
          for (const [i, reason] of fallen) {
            scopes.set(i, { granularity: 'project', reason });
            ingest.forget(plan.planned[i]!.files);
            for (const f of plan.planned[i]!.files) {
              kept.delete(f);
              given.delete(f);
            }
          }
          const again = await run(launchScopes(worktree.root, plan, new Map([...fallen.keys()].map((i) => [i, scopes.get(i)!]))));
          throwIfInterrupted(signal);
          await ingest.flush();
          result = {
            ...again,
            metadata: result.metadata ?? again.metadata,
            documents: result.documents + again.documents,
            durationMs: result.durationMs + again.durationMs,
            exitMs: result.exitMs + again.exitMs,
          };
        }
      } finally {
        // The parsing worker must not outlive the run, whatever happened.
        await facts.close();
      }
      phases.indexers += result.exitMs;
      phases.ingest_after_indexers += performance.now() - launched - result.exitMs;
      lap = performance.now();
      skipped.push(...ingest.skipped);
      syntaxProblems.push(...facts.problems);
      if (result.status === 'ok') {
        recordIngest(ingest);
        for (const [language, n] of ingest.perLanguage) indexedPerLanguage.set(language, (indexedPerLanguage.get(language) ?? 0) + n);
        const keep = [...kept].filter(([path]) => !ingest.ids.has(path));
        for (const [path, id] of keep) {
          documentIds.set(path, id);
          const language = languageOf(path) ?? manifest.languages[0]!;
          indexedPerLanguage.set(language, (indexedPerLanguage.get(language) ?? 0) + 1);
        }
        const keptCounts = await documentCounts(
          engine,
          keep.map(([, id]) => id),
        );
        counters.documents += keep.length;
        counters.reused += keep.length;
        counters.occurrences += keptCounts.occurrences;
        counters.definitions += keptCounts.definitions;
      }
      const report: IndexerReport = {
        name: manifest.name,
        version: result.metadata?.toolInfo?.version ?? carry?.version ?? null,
        status: result.status,
        reason: result.reason,
        documents: result.documents,
        duration_ms: Math.round(result.durationMs),
        projects: plan.planned
          .map((p, i): ProjectReport => {
            const scope = scopes.get(i);
            return {
              config: p.config,
              files: p.files.length,
              indexed_files: result.status === 'ok' ? p.files.filter((f) => documentIds.has(f)).length : 0,
              problem: null,
              granularity: carry && !scope ? 'kept' : (scope?.granularity ?? 'project'),
              files_run: carry && !scope ? 0 : scope?.granularity === 'files' ? scope.files.length : p.files.length,
              fallback: scope?.granularity === 'project' ? scope.reason : 'reason' in planned ? planned.reason : null,
            };
          })
          .concat(
            plan.gaps.map((g) => ({
              config: g.config,
              files: 0,
              indexed_files: 0,
              problem: g.reason,
              granularity: 'project' as const,
              files_run: 0,
              fallback: null,
            })),
          ),
        projects_reused: carry ? plan.planned.length - carry.run.size : 0,
      };
      return { report, gaps: plan.gaps };
    }

    /** The narrowed projects some of whose changed files' surface changed, with why (see surfaceChange). */
    async function checkSurfaces(
      scopes: ReadonlyMap<number, RunScope>,
      planned: readonly PlannedProject[],
      ids: ReadonlyMap<string, number>,
      readText: (path: string) => Promise<string | undefined>,
    ): Promise<Map<number, string>> {
      const fallen = new Map<number, string>();
      for (const [i, scope] of scopes) {
        if (scope.granularity !== 'files') continue;
        const others = planned[i]!.files.filter((f) => !scope.changed.includes(f));
        for (const path of scope.changed) {
          const after = ids.get(path);
          const before = previous!.files.get(path)!;
          const [was, is] = await Promise.all([writer.blobText(before.blob), readText(path)]);
          const change =
            after === undefined
              ? `${path} got no document from the narrowed run`
              : was === undefined || is === undefined || !sameList(exportAliases(was), exportAliases(is))
                ? `the surface of ${path} changed: what it exports from elsewhere is not as it was`
                : await surfaceChange(engine, path, before.document!, after, (names) => firstMention(others, names, readText));
          if (change) {
            fallen.set(i, change);
            break;
          }
        }
      }
      return fallen;
    }
  } catch (caught) {
    // However the run failed, a signal received meanwhile is why it stopped.
    const error = signal?.aborted && !(caught instanceof Interrupted) ? new Interrupted(signal.reason) : caught;
    await blobsStored.catch(() => undefined);
    const interrupted = error instanceof Interrupted;
    await failRun(db, run, {
      outcome: 'failed',
      reason: interrupted
        ? `interrupted by ${error.signal} before it published; the previous index, if any, is still served`
        : error instanceof Error
          ? error.message
          : String(error),
      recovery: interrupted ? 'run `sextant index` again' : 'fix the problem named in the reason, then run `sextant index` again',
      indexId: null,
      report: null,
    }).catch(() => undefined);
    progress.done();
    throw error;
  }
}

/**
 * Whether a run over a previous index changed enough of it that the planner's
 * statistics should be measured again: a few edited files do not move the
 * tables' proportions, and ANALYZE would cost more than their indexing.
 */
function changedMuch(report: Pick<IndexReport, 'documents' | 'documents_written' | 'documents_removed'>): boolean {
  return report.documents_written + report.documents_removed > STATISTICS_DRIFT * Math.max(report.documents, 1);
}
const STATISTICS_DRIFT = 0.1;

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** How many documents of the previous index (if any) the new one no longer uses. */
async function documentsDropped(engine: Engine, previousIndex: number | null, kept: ReadonlyMap<string, number>): Promise<number> {
  if (previousIndex === null) return 0;
  const rows = await engine.db
    .selectFrom('index_files')
    .select('document_id')
    .distinct()
    .where('index_id', '=', previousIndex)
    .where('document_id', 'is not', null)
    .execute();
  const now = new Set(kept.values());
  return rows.filter((r) => !now.has(r.document_id!)).length;
}

/** Why some files of a language that is precise elsewhere have no document: broken configs, else the files themselves. */
function coverageGap(indexer: string, language: string, files: number, missing: string[], gaps: ProjectGap[]): string {
  const named = missing.slice(0, 3).join(', ') + (missing.length > 3 ? ', …' : '');
  const why = gaps.length ? gaps.map((g) => g.reason).join('; ') : `${indexer} produced no document for them`;
  return `${missing.length} of ${files} ${language} files have no precise index (${named}): ${why}`;
}
