// The managed pool of language servers behind the lsp tier: at most one per
// (repository, server), started on the first request, kept warm, stopped when
// idle, restarted once after a crash, and bounded — a cap on the number of
// servers, on each one's memory (its process group's resident set, polled
// from /proc), and a time budget on every request.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { languageOf } from '../languages.js';
import { loadManifests } from '../orchestrator/manifests.js';
// Types only: the server's module (with vscode-jsonrpc) loads when a first server starts, not with `sextant mcp`.
import type { LanguageServer, ServerState } from './server.js';
import { loadServerManifests, manifestFor, serverCommand, type ServerManifest } from './manifests.js';

export interface PoolOptions {
  /** A server unused this long is stopped. */
  idleMs: number;
  maxServers: number;
  /** A server whose process group holds more resident memory than this is stopped. */
  maxMemoryMb: number;
  /** The whole of one request: starting the server, waiting for it to load, its answer. */
  requestMs: number;
  /** Of that, how long a request waits for a loading server before it answers partial. */
  waitMs: number;
  /** Where sextant keeps per-repository server defaults (clangd's compilation database and its index). */
  home: string;
}

/** SEXTANT_LSP_IDLE_SECONDS, SEXTANT_LSP_MAX_SERVERS, SEXTANT_LSP_MAX_MEMORY_MB, SEXTANT_LSP_REQUEST_SECONDS, SEXTANT_LSP_WAIT_SECONDS. */
export function poolOptions(env: NodeJS.ProcessEnv = process.env): PoolOptions {
  const number = (name: string, fallback: number, zero = false): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0 || (value === 0 && !zero)) {
      throw new UserError(`${name}=${raw} is not a ${zero ? 'non-negative' : 'positive'} number: fix or unset it`);
    }
    return value;
  };
  const requestMs = number('SEXTANT_LSP_REQUEST_SECONDS', 20) * 1000;
  return {
    idleMs: number('SEXTANT_LSP_IDLE_SECONDS', 600) * 1000,
    maxServers: Math.floor(number('SEXTANT_LSP_MAX_SERVERS', 4)),
    maxMemoryMb: number('SEXTANT_LSP_MAX_MEMORY_MB', 2048),
    requestMs,
    waitMs: Math.min(requestMs, number('SEXTANT_LSP_WAIT_SECONDS', requestMs / 2000, true) * 1000),
    home: join(env.SEXTANT_HOME || join(homedir(), '.sextant'), 'lsp'),
  };
}

/** A crash within this long of the previous one leaves the server failed rather than restarted again. */
const CRASH_WINDOW_MS = 5 * 60_000;
/** How often idle time and memory are checked. */
const SWEEP_MS = 1000;
/** Files walked to write a default compilation database. */
const MAX_WALKED = 20_000;
const MAX_INCLUDE_DIRS = 64;
/** How long whether a server is installed is taken as known. */
const INSTALLED_RECHECK_MS = 5000;

export interface ServerStatus {
  server: string;
  languages: string[];
  state: ServerState;
  reason: string | null;
  pid: number | null;
  memory_mb: number | null;
  /** Seconds it has been starting or loading its project, while it is. */
  loading_seconds: number | null;
  restarts: number;
  requests: number;
}

export interface Answer<R> {
  value: R;
  server: string;
  /** Seconds the server had been loading when it answered, or null when it had loaded: its answer may miss what it has not reached. */
  loadingSeconds: number | null;
}

interface Entry {
  manifest: ServerManifest;
  slug: string;
  server?: LanguageServer;
  starting?: Promise<LanguageServer>;
  crashes: number[];
  restarts: number;
  /** The last server's end, kept for status once it is gone. */
  last?: { state: ServerState; reason: string | null };
}

export class LspPool {
  private readonly manifests: ServerManifest[];
  /** Languages a SCIP indexer covers: their servers answer edited code, not a tier of their own. */
  private readonly indexed: Set<string>;
  private readonly entries = new Map<string, Entry>();
  /** Whether each server is installed, and when that was looked up (see serverFor). */
  private readonly installed = new Map<string, { at: number; installed: boolean }>();
  private sweeper: NodeJS.Timeout | undefined;
  private readonly onExit = () => this.killAll();

  constructor(
    readonly options: PoolOptions = poolOptions(),
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.manifests = loadServerManifests(env);
    this.indexed = new Set(loadManifests(env).flatMap((m) => m.languages));
  }

  /** The installed server of a language no SCIP indexer covers: the lsp tier answers it. */
  tierServer(language: string): ServerManifest | undefined {
    return this.indexed.has(language) ? undefined : this.serverFor(language);
  }

  /** The language of a file by its name, for files no index lists (untracked ones). */
  languageOf(path: string): string | undefined {
    return languageOf(path);
  }

  /**
   * The installed server for a language, if any. Every answer asks this, so
   * whether a server is installed is looked up (a package resolved, or PATH
   * searched) at most once per INSTALLED_RECHECK_MS: a server installed
   * while sextant runs is found within that.
   */
  serverFor(language: string): ServerManifest | undefined {
    const manifest = manifestFor(this.manifests, language);
    if (!manifest) return undefined;
    const now = performance.now();
    let known = this.installed.get(manifest.name);
    if (!known || now - known.at > INSTALLED_RECHECK_MS) {
      known = { at: now, installed: serverCommand(manifest, this.env) !== undefined };
      this.installed.set(manifest.name, known);
    }
    return known.installed ? manifest : undefined;
  }

  /** The servers that could run for these languages in a repository, with their states. */
  status(slug: string, languages: string[]): ServerStatus[] {
    const seen = new Set<string>();
    const out: ServerStatus[] = [];
    for (const language of languages) {
      const manifest = this.serverFor(language);
      if (!manifest || seen.has(manifest.name)) continue;
      seen.add(manifest.name);
      const entry = this.entries.get(key(slug, manifest));
      const server = entry?.server;
      const state: ServerState = server ? server.state : (entry?.last?.state ?? 'not_started');
      out.push({
        server: manifest.name,
        languages: manifest.languages.filter((l) => languages.includes(l)),
        state: server?.state === 'loading' && server.loadingSeconds() === null ? 'ready' : state,
        reason: server?.alive ? null : (server?.reason ?? entry?.last?.reason ?? null),
        pid: server?.alive ? (server.pid ?? null) : null,
        memory_mb: server?.alive ? server.memoryMb : null,
        loading_seconds: server?.alive ? server.loadingSeconds() : null,
        restarts: entry?.restarts ?? 0,
        requests: server?.requests ?? 0,
      });
    }
    return out;
  }

  /**
   * Asks the server of `language` about a file of a repository: starts it if
   * needed, shows it the file's current text, waits for it to load within the
   * budget, then sends the request `build` makes from the file's URI.
   */
  async ask<R>(
    repo: { slug: string; root: string },
    language: string,
    path: string,
    method: string,
    build: (uri: string) => unknown,
  ): Promise<Answer<R>> {
    const deadline = Date.now() + this.options.requestMs;
    const manifest = this.serverFor(language);
    if (!manifest) throw new UserError(`no language server for ${language} is installed: ${this.missing(language)}`);
    const server = await this.running(repo, manifest, deadline);
    const uri = await server.open(path, manifest.languageIds[language] ?? language);
    // Part of the budget (half by default) may go to waiting for the project to load; the rest is the answer's.
    const ready = await server.settle(Math.min(deadline, Date.now() + this.options.waitMs));
    const loadingSeconds = ready ? null : server.loadingSeconds();
    const value = await server.request<R>(method, build(uri), deadline);
    return { value, server: manifest.name, loadingSeconds: ready ? null : (server.loadingSeconds() ?? loadingSeconds) };
  }

  /**
   * Starts the server of `language` for a repository before any question
   * needs it, and opens `paths` in it, so that it loads the projects holding
   * them meanwhile: Navigation.prime calls this for files edited since the
   * index, which their server answers. Nothing happens when no server is
   * installed, one runs or starts already, or the cap is reached (a warm-up
   * stops no other server). A failure is the server's state, which the next
   * question or getIndexStatus reports; it is not thrown.
   */
  warm(repo: { slug: string; root: string }, language: string, paths: readonly string[]): void {
    const manifest = this.serverFor(language);
    if (!manifest) return;
    const entry = this.entries.get(key(repo.slug, manifest));
    if (entry?.server?.alive || entry?.starting) return;
    if ([...this.entries.values()].filter((e) => e.server?.alive).length >= this.options.maxServers) return;
    const languageId = manifest.languageIds[language] ?? language;
    void this.running(repo, manifest, Date.now() + this.options.requestMs)
      .then(async (server) => {
        for (const path of paths) await server.open(path, languageId);
      })
      .catch(() => undefined);
  }

  /** Stops every server (the MCP server is closing). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    process.off('exit', this.onExit);
    await Promise.all([...this.entries.values()].map((e) => e.server?.stop('sextant stopped')));
  }

  private missing(language: string): string {
    const manifest = manifestFor(this.manifests, language);
    if (!manifest) return `none is declared (add a NAME.lsp.json manifest under SEXTANT_INDEXERS)`;
    return manifest.recovery.missing ?? `install ${manifest.name} on PATH`;
  }

  private async running(repo: { slug: string; root: string }, manifest: ServerManifest, deadline: number): Promise<LanguageServer> {
    const k = key(repo.slug, manifest);
    let entry = this.entries.get(k);
    if (!entry) this.entries.set(k, (entry = { manifest, slug: repo.slug, crashes: [], restarts: 0 }));
    // A server still starting is set on its entry before it has answered initialize: wait for that, as its starter does.
    if (entry.starting) return entry.starting;
    if (entry.server?.alive) {
      entry.server.lastUsed = Date.now();
      return entry.server;
    }
    entry.starting ??= this.start(entry, repo.root, deadline).finally(() => (entry.starting = undefined));
    return entry.starting;
  }

  private async start(entry: Entry, root: string, deadline: number): Promise<LanguageServer> {
    const previous = entry.server;
    if (previous && previous.state === 'failed') {
      // The previous server crashed: restart once; twice within the window, it stays failed.
      const now = Date.now();
      entry.crashes = entry.crashes.filter((t) => now - t < CRASH_WINDOW_MS);
      if (entry.crashes.length >= 2) {
        throw new UserError(
          `${entry.manifest.name} for ${entry.slug} failed twice within ${CRASH_WINDOW_MS / 60_000} minutes and is not restarted ` +
            `(last: ${previous.reason}): fix the cause, then ask again later or restart sextant mcp`,
        );
      }
      entry.restarts++;
    }
    await this.makeRoom(entry);
    const command = serverCommand(entry.manifest, this.env);
    if (!command) throw new UserError(`${entry.manifest.name} is not installed: ${this.missing(entry.manifest.languages[0]!)}`);
    const { LanguageServer } = await import('./server.js');
    const server = new LanguageServer({
      manifest: entry.manifest,
      slug: entry.slug,
      root,
      command,
      args: [...entry.manifest.args, ...this.defaultArgs(entry, root)],
    });
    entry.server = server;
    void server.exited.then(() => {
      entry.last = { state: server.state, reason: server.reason };
      if (server.state === 'failed') entry.crashes.push(Date.now());
    });
    this.watch();
    try {
      await server.initialize(deadline);
    } catch (error) {
      await server.stop(`it did not start: ${(error as Error).message}`, true);
      throw error;
    }
    return server;
  }

  /** At the cap, the least recently used server with nothing pending makes room. */
  private async makeRoom(entry: Entry): Promise<void> {
    const live = [...this.entries.values()].filter((e) => e !== entry && e.server?.alive).map((e) => e.server!);
    if (live.length < this.options.maxServers) return;
    const idle = live.filter((s) => s.pending === 0).sort((a, b) => a.lastUsed - b.lastUsed)[0];
    if (!idle) {
      throw new UserError(
        `${live.length} language servers are running and all are busy, the cap (SEXTANT_LSP_MAX_SERVERS=${this.options.maxServers}): ask again shortly`,
      );
    }
    await idle.stop(
      `stopped to make room for ${entry.manifest.name} for ${entry.slug} (SEXTANT_LSP_MAX_SERVERS=${this.options.maxServers})`,
    );
  }

  /**
   * The manifest's default arguments when the repository does not configure
   * the server itself (no root marker): for clangd, a compilation database
   * sextant writes outside the worktree, listing every C/C++ file with the
   * repository's include directories, so that its background index covers
   * the whole repository and its index files stay out of the worktree.
   */
  private defaultArgs(entry: Entry, root: string): string[] {
    const defaults = entry.manifest.defaults;
    if (!defaults || entry.manifest.rootMarkers.some((m) => existsSync(join(root, m)))) return [];
    const dir = join(this.options.home, entry.slug.replace(/[^\w.-]/g, '_'), entry.manifest.name);
    mkdirSync(dir, { recursive: true });
    if (defaults.compilationDatabase) {
      writeFileSync(join(dir, 'compile_commands.json'), JSON.stringify(compilationDatabase(root, defaults.compilationDatabase), null, 1));
    }
    return defaults.args.map((a) => a.replaceAll('{defaults}', dir));
  }

  /** Starts the sweep of idle and oversized servers, and the kill of every group when sextant exits. */
  private watch(): void {
    if (this.sweeper) return;
    process.on('exit', this.onExit);
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  private sweep(): void {
    const live = [...this.entries.values()].map((e) => e.server).filter((s): s is LanguageServer => Boolean(s?.alive));
    if (live.length === 0) return;
    const memory = groupMemoryMb(live.map((s) => s.pid!));
    const now = Date.now();
    for (const server of live) {
      server.memoryMb = memory.get(server.pid!) ?? null;
      if (server.memoryMb !== null && server.memoryMb > this.options.maxMemoryMb) {
        void server.stop(
          `${server.name} used ${Math.round(server.memoryMb)} MiB, over the cap of ${this.options.maxMemoryMb} MiB (SEXTANT_LSP_MAX_MEMORY_MB)`,
          true,
        );
      } else if (server.pending === 0 && now - server.lastUsed > this.options.idleMs) {
        void server.stop(
          `idle for ${Math.round((now - server.lastUsed) / 1000)} s (SEXTANT_LSP_IDLE_SECONDS=${this.options.idleMs / 1000})`,
        );
      }
    }
  }

  private killAll(): void {
    for (const entry of this.entries.values()) if (entry.server?.alive) entry.server.killNow();
  }
}

function key(slug: string, manifest: ServerManifest): string {
  return `${slug}\0${manifest.name}`;
}

/** Resident memory of each process group, in MiB, summed over its processes (from /proc/PID/stat). */
export function groupMemoryMb(groups: number[]): Map<number, number> {
  const wanted = new Set(groups);
  const pages = new Map<number, number>();
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return new Map();
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    // Fields after the command (which may hold spaces): state ppid pgrp ... rss is the 22nd.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const group = Number(fields[2]);
    if (wanted.has(group)) pages.set(group, (pages.get(group) ?? 0) + Number(fields[21]));
  }
  return new Map([...pages].map(([group, n]) => [group, (n * 4096) / (1 << 20)]));
}

/**
 * A compilation database for a repository without one: every file of the
 * database's languages, compiled from the root with -I for the root, each
 * directory named `include` and each directory holding headers.
 */
export function compilationDatabase(
  root: string,
  flags: Record<string, string[]>,
): { directory: string; file: string; arguments: string[] }[] {
  const sources: { path: string; language: string }[] = [];
  const includes = new Set<string>([root]);
  let walked = 0;
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (++walked > MAX_WALKED) return;
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === 'include' && includes.size < MAX_INCLUDE_DIRS) includes.add(path);
        walk(path);
      } else if (e.isFile()) {
        if (/\.(h|hh|hpp|hxx)$/.test(e.name) && includes.size < MAX_INCLUDE_DIRS) includes.add(dir);
        const language = languageOf(e.name);
        if (language && flags[language] && !/\.(h|hh|hpp|hxx)$/.test(e.name)) sources.push({ path, language });
      }
    }
  };
  walk(root);
  const includeFlags = [...includes].map((d) => `-I${d}`);
  return sources.map((s) => ({
    directory: root,
    file: s.path,
    arguments: [s.language === 'cpp' ? 'c++' : 'cc', ...flags[s.language]!, ...includeFlags, '-c', s.path],
  }));
}

/** The pool of the lsp tier, or none when SEXTANT_LSP=0 turns the tier off (answers then come from indexes alone). */
export function lspPoolFromEnv(env: NodeJS.ProcessEnv = process.env): LspPool | undefined {
  return env.SEXTANT_LSP === '0' ? undefined : new LspPool();
}
