// The query layer: one object every adapter (MCP, CLI, LSP) asks. Adapters
// validate input against src/protocol and shape output; no query logic lives
// in them. Each request goes to the tier that covers what it names: a file of
// a syntactic language, or a name in a repository with nothing precise, is
// answered by the syntactic tier (./syntactic.ts); a file of a language with a
// live language server and no precise index, by the lsp tier (./live.ts); the
// rest by the precise one.
import type { Engine } from '../registry/engine.js';
import { Lookups } from '../registry/lookups.js';
import type * as Definition from '../protocol/definition.js';
import type * as References from '../protocol/references.js';
import type * as DocumentSymbols from '../protocol/document-symbols.js';
import type * as IndexStatus from '../protocol/index-status.js';
import type * as CallHierarchy from '../protocol/call-hierarchy.js';
import type * as TypeHierarchy from '../protocol/type-hierarchy.js';
import type * as WorkspaceSymbols from '../protocol/workspace-symbols.js';
import { callHierarchy } from './call-hierarchy.js';
import { typeHierarchy } from './type-hierarchy.js';
import { SymbolTables, workspaceSymbols } from './workspace-symbols.js';
import { goToDefinition } from './definitions.js';
import { findReferences } from './references.js';
import { documentSymbols } from './document-symbols.js';
import { indexStatus } from './status.js';
import { nearestFlag, normalizeQueryPath, openRepo, type RepoContext } from './context.js';
import { Edits } from './adjust.js';
import type { ChangedFiles } from '../freshness/worktree-changes.js';
import { withChangedDefinitions, withChangedSymbols } from './changed-symbols.js';
import { UserError } from '../errors.js';
import type { IndexJob, Repo } from '../registry/schema.js';
import {
  namesAreSyntactic,
  refuseHierarchy,
  syntacticDefinitionAt,
  syntacticDefinitionsNamed,
  syntacticDocumentSymbols,
  syntacticFile,
  syntacticLanguages,
  syntacticReferences,
} from './syntactic.js';
import { SyntacticSymbolTables, syntacticWorkspaceSymbols, withSyntacticSymbols } from './syntactic-symbols.js';
import type * as SrcIndexStatus from '../protocol/src-index-status.js';
import { srcIndexStatus } from './src-index-status.js';
import {
  liveCallHierarchy,
  liveDefinition,
  liveFile,
  liveDocumentSymbols,
  liveReferences,
  withEditedReferences,
  withEditedCalls,
  withLiveTiers,
  type LiveServers,
} from './live.js';

/**
 * Schedules (or joins) a reindex of a registered repository that has no
 * index; null when it cannot (no worktree on this machine). Given by the
 * adapter (the MCP server gives orchestrator/jobs.ts autoReindexer).
 */
export type AutoReindex = (repo: Repo) => Promise<{ triggered: boolean; job: IndexJob } | null>;

/** Files Navigation.prime reads ahead, per repository: below what WorktreeFiles remembers. */
const PRIMED_FILES = 20_000;
/** How long Navigation.prime works before it lets the server answer what came in. */
const PRIME_SLICE_MS = 1;
/** Edited files per language shown to their warming server (each loads the project that holds it). */
const WARMED_FILES = 8;

export class Navigation {
  readonly lookups: Lookups;
  private readonly symbolTables: SymbolTables;
  private readonly syntacticTables: SyntacticSymbolTables;
  /** What the worktrees of repositories look like now, for answers that follow edits (see adjust.ts). */
  readonly edits: Edits;

  constructor(
    readonly engine: Engine,
    private readonly options: {
      autoReindex?: AutoReindex | undefined;
      nearestBound?: number | undefined;
      live?: LiveServers | undefined;
      /** A serving process: which worktree files changed is asked for each answer (watched once primed), not once. */
      serving?: boolean | undefined;
    } = {},
  ) {
    this.lookups = new Lookups(engine.db, engine);
    this.symbolTables = new SymbolTables(this.lookups);
    this.syntacticTables = new SyntacticSymbolTables(this.lookups);
    this.edits = new Edits(this.lookups, options.nearestBound, options.serving);
  }

  /** Stops watching worktrees. */
  close(): Promise<void> {
    return this.edits.close();
  }

  /**
   * The files changed since the index in the worktree of an answer about it
   * (not at a named commit): listing them starts now, beside the index's answer.
   */
  private changedFiles(ctx: RepoContext, commit: string | undefined): Promise<ChangedFiles> | undefined {
    const root = ctx.repo.root_path;
    if (commit !== undefined || !root) return undefined;
    const changed = this.edits.changedSinceIndex(root, ctx.index);
    // An answer that ends without needing the list (no symbol there, a refusal) leaves it unawaited: its failure
    // then (the registry closed by a one-shot CLI meanwhile) must not end the process as an unhandled rejection.
    changed.catch(() => undefined);
    return changed;
  }

  /**
   * Whether a 1-based line of a repository file, as it is now, is on lines
   * the index that answers for the repository knows nothing true about
   * (changed since, or in a file it lacks): where another tier must answer.
   */
  async onChangedLine(slug: string, path: string, line: number): Promise<boolean> {
    const ctx = await this.open(slug);
    return this.edits.onChangedLine(ctx, normalizeQueryPath(path), line);
  }

  /**
   * Reads and hashes the worktree files of the index that answers for a
   * repository, ahead of the questions: an answer's first visit to a file
   * then costs a stat, as later visits do, instead of a read and a hash
   * (0.1-0.4 ms a file on the held-out corpora). While the lookups' caches
   * have room, it also reads what a first answer in each file reads from the
   * registry (Lookups.prefetch): a first goToDefinition in a file on kysely,
   * in process, took 0.24 ms at the median, 0.18 primed. At most PRIMED_FILES files,
   * in slices of about PRIME_SLICE_MS, each after `pause` resolves (the
   * server waits there while it answers). What answers say is unchanged:
   * each still stats every file it touches, and reads again one that moved.
   * It first starts watching the worktree, so that which files changed since
   * the index is listed again only after a file event, and then starts the
   * language servers of files edited or created since.
   * Returns the files primed: 0 without an index or a worktree here.
   */
  async prime(slug: string, pause: () => Promise<void>): Promise<number> {
    const ctx = await openRepo(this.lookups, slug, { edits: this.edits }).catch(() => undefined);
    const root = ctx && (await this.edits.worktree(ctx.repo))?.root;
    if (!ctx || !root) return 0;
    // Watched first, not once the files are hashed: until the watch is ready every question lists the changed
    // files with `git status` (10-40 ms, most of it forking this process), and the hashing advances only between
    // questions, so a client asking without pause kept paying that for a second or more.
    const changes = this.edits.changesAt(root);
    changes.follow();
    const files = await this.lookups.filesOf(ctx.index.id, PRIMED_FILES);
    // Files edited since the index, by language: their server answers questions about them.
    const edited = new Map<string, string[]>();
    let sliceEnd = 0;
    // Read ahead too while the lookups' caches have room: what a first answer in a file reads from the registry.
    let prefetching = true;
    for (const file of files) {
      const { path, blob_sha, language } = file;
      if (performance.now() >= sliceEnd) {
        await pause();
        sliceEnd = performance.now() + PRIME_SLICE_MS;
      }
      if (prefetching) prefetching = await this.lookups.prefetch(ctx.index.id, file);
      const now = this.edits.primeFile(root, path);
      if (now === undefined || now === blob_sha || !language) continue;
      const list = edited.get(language);
      if (!list) edited.set(language, [path]);
      else if (list.length < WARMED_FILES) list.push(path);
    }
    // And files no index lists yet (created since), which their server answers too.
    const live = this.options.live;
    const created = live ? (await changes.files()).paths : [];
    for (const path of created) {
      const language = live?.languageOf(path);
      if (!language || !live?.serverFor(language)) continue;
      const list = edited.get(language) ?? [];
      if (list.length < WARMED_FILES && !list.includes(path)) edited.set(language, [...list, path]);
    }
    // Started ahead, the server has loaded their projects by the first question about them (3-5 s on a large one).
    for (const [language, paths] of edited) live?.warm({ slug: ctx.repo.slug, root }, language, paths);
    return files.length;
  }

  async getIndexStatus(params: IndexStatus.Params): Promise<IndexStatus.Result> {
    const status = await indexStatus(this.engine, this.lookups, params, undefined, this.edits);
    const live = this.options.live;
    const ctx = live && status.commit !== null ? await this.open(params.repo).catch(() => undefined) : undefined;
    return withLiveTiers(status, ctx, live);
  }

  /** SRC's get_index_status for the repository containing a directory; `cwd` resolves a relative one. */
  srcIndexStatus(params: SrcIndexStatus.Params, cwd: string): Promise<SrcIndexStatus.Result> {
    return srcIndexStatus(this.engine, this.lookups, params, cwd);
  }

  async goToDefinition(params: Definition.Params): Promise<Definition.Result> {
    const ctx = await this.open(params.repo, params.commit);
    // Every tier's answer at a commit's nearest published ancestor says so.
    return { ...(await this.definitionIn(ctx, params)), ...nearestFlag(ctx) };
  }

  private async definitionIn(ctx: RepoContext, params: Definition.Params): Promise<Definition.Result> {
    const live = await this.liveFile(ctx, params.path, params.line);
    if (live) return liveDefinition(this.lookups, ctx, this.options.live!, live, params);
    const file = await syntacticFile(this.lookups, ctx, params.path);
    if (file) return syntacticDefinitionAt(this.lookups, ctx, file, { line: params.line!, column: params.column! });
    if (params.symbol === undefined) {
      const precise = await goToDefinition(this.lookups, ctx, params);
      return (await this.definitionsChanged(ctx, params, precise)) ?? precise;
    }
    if (namesAreSyntactic(ctx)) return syntacticDefinitionsNamed(this.lookups, ctx, params.symbol);
    const changed = this.changedFiles(ctx, params.commit);
    const precise = await withChangedDefinitions(
      ctx,
      this.options.live,
      params.symbol,
      await goToDefinition(this.lookups, ctx, params),
      changed,
    );
    if (precise.found || syntacticLanguages(ctx).length === 0) return precise;
    const syntactic = await syntacticDefinitionsNamed(this.lookups, ctx, params.symbol);
    return syntactic.found ? syntactic : precise;
  }

  /**
   * goToDefinition at unchanged code whose definitions the index has only on
   * lines changed since (a signature edited, say), or in files deleted since:
   * the file's server answers from the text now, where one is installed.
   */
  private async definitionsChanged(
    ctx: RepoContext,
    params: Definition.Params,
    precise: Definition.Result,
  ): Promise<Definition.Result | undefined> {
    const dropped = precise.dropped_locations;
    const live = this.options.live;
    const root = ctx.adjust.root;
    if (precise.found || !dropped || !live || !root || params.path === undefined) return undefined;
    const path = normalizeQueryPath(params.path);
    const language = (await this.lookups.file(ctx.index.id, path))?.language;
    if (!language || !live.serverFor(language)) return undefined;
    return liveDefinition(this.lookups, ctx, live, { path, language, root, edited: true }, params);
  }

  async findReferences(params: References.Params): Promise<References.Result> {
    const ctx = await this.open(params.repo, params.commit);
    return { ...(await this.referencesIn(ctx, params)), ...nearestFlag(ctx) };
  }

  private async referencesIn(ctx: RepoContext, params: References.Params): Promise<References.Result> {
    const live = await this.liveFile(ctx, params.path, params.line);
    if (live) return liveReferences(this.lookups, ctx, this.options.live!, live, params);
    const file = await syntacticFile(this.lookups, ctx, params.path);
    if (file) return syntacticReferences(this.lookups, ctx, params, file);
    if (params.symbol === undefined) {
      const changed = this.changedFiles(ctx, params.commit);
      const precise = await findReferences(this.lookups, ctx, params);
      // Text matches of a name the index left unresolved are not symbols a language server could add to.
      if (precise.source === 'search') return precise;
      return withEditedReferences(this.lookups, ctx, this.options.live, params, precise, changed);
    }
    if (namesAreSyntactic(ctx)) return syntacticReferences(this.lookups, ctx, params, undefined);
    const precise = await findReferences(this.lookups, ctx, params);
    if (precise.symbols.length > 0 || syntacticLanguages(ctx).length === 0) return precise;
    const syntactic = await syntacticReferences(this.lookups, ctx, params, undefined);
    return syntactic.symbols.length > 0 ? syntactic : precise;
  }

  async documentSymbols(params: DocumentSymbols.Params): Promise<DocumentSymbols.Result> {
    const ctx = await this.open(params.repo);
    // A file the index does not list (created since), or one edited since, is outlined by its server from its
    // text now: the index's outline would miss what the edit added.
    const live = await this.liveFile(ctx, params.path, undefined);
    if (live?.edited) return liveDocumentSymbols(ctx, this.options.live!, live);
    const file = await syntacticFile(this.lookups, ctx, params.path);
    return file ? syntacticDocumentSymbols(this.lookups, ctx, file) : documentSymbols(this.lookups, ctx, params);
  }

  async workspaceSymbols(params: WorkspaceSymbols.Params): Promise<WorkspaceSymbols.Result> {
    const ctx = await this.open(params.repo);
    if (namesAreSyntactic(ctx)) return syntacticWorkspaceSymbols(this.syntacticTables, ctx, params);
    const changed = this.changedFiles(ctx, undefined);
    const indexed = await workspaceSymbols(this.lookups, this.symbolTables, ctx, params);
    const precise = await withChangedSymbols(ctx, this.options.live, params, indexed, changed);
    return syntacticLanguages(ctx).length ? withSyntacticSymbols(precise, this.syntacticTables, ctx, params) : precise;
  }

  async callHierarchy(params: CallHierarchy.Params): Promise<CallHierarchy.Result> {
    const ctx = await this.open(params.repo);
    const live = await this.liveFile(ctx, params.path, params.line);
    if (live) return liveCallHierarchy(ctx, this.options.live!, live, params);
    await refuseHierarchy(this.lookups, ctx, params.path, 'callHierarchy');
    const changed = params.direction === 'incoming' ? this.changedFiles(ctx, undefined) : undefined;
    return withEditedCalls(this.lookups, ctx, this.options.live, params, await callHierarchy(this.lookups, ctx, params), changed);
  }

  async typeHierarchy(params: TypeHierarchy.Params): Promise<TypeHierarchy.Result> {
    const ctx = await this.open(params.repo);
    // A language of the lsp tier has no index to read type relations from, and its server is asked for none.
    const live = await this.liveFile(ctx, params.path, params.line);
    if (live && !live.edited) {
      const server = this.options.live!.tierServer(live.language)!.name;
      const recovery = ctx.languages[live.language]?.recovery;
      throw new UserError(
        `typeHierarchy needs a precise index: ${live.path} is ${live.language}, which ${ctx.repo.slug} answers in the lsp tier ` +
          `(${server}, live: goToDefinition, findReferences and callHierarchy), without type relations` +
          (recovery ? `; for them, ${recovery}` : ''),
      );
    }
    await refuseHierarchy(this.lookups, ctx, params.path, 'typeHierarchy');
    return typeHierarchy(this.lookups, ctx, params);
  }

  /**
   * The file a language server answers at, when one does: a file of a
   * language of the lsp tier, or a position on a line changed since the index
   * (the index knows nothing true there).
   */
  /** The file a request names, when a live server answers it: in the lsp tier, or changed at `line` (anywhere, without one). */
  private liveFile(ctx: RepoContext, path: string | undefined, line: number | undefined) {
    const edits = this.edits;
    return liveFile(this.lookups, ctx, this.options.live, path, (p) =>
      line !== undefined ? edits.onChangedLine(ctx, p, line) : edits.changedAt(ctx, p),
    );
  }

  /**
   * The repository and its index. A registered repository without one answers
   * at once: the error says so and names the reindex scheduled for it
   * (index_missing, auto_reindex_triggered, job_id, job_state), never waiting.
   */
  private async open(slug: string, commit?: string): Promise<RepoContext> {
    const auto = this.options.autoReindex;
    const current = await this.lookups.current(slug);
    const repo = current?.repo;
    if (auto && repo && repo.current_index_id === null) {
      const scheduled = await auto(repo);
      if (scheduled) {
        const { triggered, job } = scheduled;
        const state =
          job.state === 'failed'
            ? `its last automatic reindex (job ${job.id}) failed: ${job.error ?? 'no reason recorded'}; retried later`
            : triggered
              ? `indexing it now (job ${job.id}, ${job.state})`
              : `a reindex is under way (job ${job.id}, ${job.state})`;
        throw new UserError(`${slug} has no published index yet: ${state}; ask again once getIndexStatus says lifecycle ready`, {
          index_missing: true,
          auto_reindex_triggered: triggered,
          job_id: String(job.id),
          job_state: job.state,
        });
      }
    }
    return openRepo(this.lookups, slug, { commit, edits: this.edits, current });
  }
}
