// One running language server: a child in a process group of its own (so its
// helpers die with it), spoken to over JSON-RPC on its stdio. Every request
// races the child's exit and a deadline: a request never outlives a dead
// server, and never waits past its budget; each fails with a one-line reason.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, type Message, type MessageConnection } from 'vscode-jsonrpc/node.js';
import {
  CancellationTokenSource,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ErrorCodes,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  type NotificationType,
  ShutdownRequest,
  StreamMessageReader,
  ResponseError,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node.js';
import { MethodNotImplemented, UserError } from '../errors.js';
import { watchGroup, type WatchedGroup } from '../process-group.js';
import { initializationOptions, type ServerManifest } from './manifests.js';

export const SERVER_STATES = ['not_started', 'starting', 'loading', 'ready', 'failed', 'stopped'] as const;
export type ServerState = (typeof SERVER_STATES)[number];

/**
 * A server is loading while it reports work in progress; one that has reported none yet is loading until it has
 * been quiet this long since its first document (a server may start reporting a moment after it is asked).
 */
const QUIET_MS = 2000;
/** Documents kept open in a server; the least recently asked about is closed past this. */
const OPEN_DOCUMENTS = 64;
/** Bytes of the server's stderr kept to explain its death. */
const STDERR_TAIL = 2048;
/** How long a server whose pipes failed is given to exit, so that its exit, not the pipe, says why. */
const EXIT_GRACE_MS = 500;
/** How long stop() lets the server shut down before killing its group. */
const STOP_GRACE_MS = 1000;
/** watchGroup's deadline: a server runs until stopped (the longest timer Node keeps). */
const NO_DEADLINE_MS = 2 ** 31 - 1;

export interface ServerOptions {
  manifest: ServerManifest;
  slug: string;
  /** The repository root; documents outside it are never read. */
  root: string;
  command: string[];
  args: string[];
}

export class LanguageServer {
  state: ServerState = 'starting';
  reason: string | null = null;
  readonly startedAt = Date.now();
  lastUsed = Date.now();
  pending = 0;
  requests = 0;
  memoryMb: number | null = null;
  /** Settles (never rejects) when the process has ended; `reason` then says why. */
  readonly exited: Promise<void>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly group: WatchedGroup;
  private readonly connection: MessageConnection;
  private readonly realRoot: string;
  private readonly documents = new Map<string, { version: number; text: string; real: string; stamp: string }>();
  private readonly progress = new Set<string | number>();
  private firstOpenAt: number | undefined;
  private lastProgressAt = 0;
  private progressEnded = false;
  private stderrTail = '';
  private stopping: string | undefined;

  constructor(private readonly options: ServerOptions) {
    this.realRoot = realpathSync(options.root);
    const [program, ...leading] = options.command;
    this.child = spawn(program!, [...leading, ...options.args], {
      cwd: this.realRoot,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.group = watchGroup(this.child, NO_DEADLINE_MS);
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL)));
    // A write to a server that just died fails with EPIPE; the exit is what gets reported.
    this.child.stdin.on('error', () => {});
    const writer = new UnfailingWriter(this.child.stdin, (error) => this.unheard(error));
    this.connection = createMessageConnection(new StreamMessageReader(this.child.stdout), writer);
    this.exited = this.group.exited.then((exit) => {
      const how = exit.error
        ? `could not run (${exit.error.message})`
        : exit.signal
          ? `was killed by ${exit.signal}`
          : `exited with code ${exit.code}`;
      if (this.stopping) {
        this.state = this.state === 'failed' ? 'failed' : 'stopped';
        this.reason ??= this.stopping;
      } else {
        this.state = 'failed';
        const said = lastLine(this.stderrTail);
        this.reason = `${this.name} ${how}${said ? ` (it said: ${said})` : ''}`;
      }
      this.connection.dispose();
    });
    this.listen();
  }

  get name(): string {
    return this.options.manifest.name;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.state === 'starting' || this.state === 'loading' || this.state === 'ready';
  }

  /** Seconds since the server started, while it is still starting or loading its project. */
  loadingSeconds(): number | null {
    this.refreshReadiness();
    return this.state === 'starting' || this.state === 'loading' ? (Date.now() - this.startedAt) / 1000 : null;
  }

  /** initialize and initialized, within `deadline` (a Date.now() value). */
  async initialize(deadline: number): Promise<void> {
    const rootUri = pathToFileURL(this.realRoot).href;
    await this.race('initialize', deadline, (token) =>
      this.connection.sendRequest(
        InitializeRequest.type,
        {
          processId: process.pid,
          rootUri,
          workspaceFolders: [{ uri: rootUri, name: this.options.slug }],
          capabilities: {
            window: { workDoneProgress: true },
            workspace: { configuration: true, workspaceFolders: true },
            textDocument: {
              synchronization: { didSave: false },
              definition: { linkSupport: true },
              declaration: { linkSupport: true },
              references: {},
              callHierarchy: {},
              documentSymbol: { hierarchicalDocumentSymbolSupport: true },
            },
          },
          initializationOptions: initializationOptions(this.options.manifest),
        },
        token,
      ),
    );
    await this.connection.sendNotification(InitializedNotification.type, {});
    if (this.state === 'starting') this.state = 'loading';
  }

  /**
   * Makes the server see a file's current text (opening it, or sending the
   * new text when it changed on disk); returns its URI. The path is
   * repository-relative and checked to stay inside the root, symlinks included.
   */
  async open(path: string, languageId: string): Promise<string> {
    const absolute = join(this.realRoot, path);
    let real: string;
    try {
      real = realpathSync(absolute);
    } catch {
      throw new UserError(`${path} is not in the worktree of ${this.options.slug} (${this.options.root}): pass a file that exists there`);
    }
    const rel = relative(this.realRoot, real);
    if (rel.startsWith('..') || rel.startsWith(sep))
      throw new UserError(`${path} leads outside the repository (a symlink): pass a file inside it`);
    const uri = pathToFileURL(real).href;
    // Every open document must show the worktree's text, not only this one: the answer may lie in another.
    await this.sync();
    const open = this.documents.get(uri);
    if (open) {
      this.documents.delete(uri);
      this.documents.set(uri, open);
      return uri;
    }
    const text = readFileSync(real, 'utf8');
    this.documents.set(uri, { version: 1, text, real, stamp: stampOf(real) });
    await this.notify(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } }, `opening ${path}`);
    this.firstOpenAt ??= Date.now();
    if (this.documents.size > OPEN_DOCUMENTS) {
      const oldest = this.documents.keys().next().value!;
      this.documents.delete(oldest);
      await this.notify(DidCloseTextDocumentNotification.type, { textDocument: { uri: oldest } }, `opening ${path}`);
    }
    return uri;
  }

  /** Sends the new text of each open document whose file changed on disk (by size and modification time). */
  private async sync(): Promise<void> {
    for (const [uri, open] of this.documents) {
      const stamp = stampOf(open.real);
      if (stamp === open.stamp) continue;
      open.stamp = stamp;
      let text: string;
      try {
        text = readFileSync(open.real, 'utf8');
      } catch {
        continue; // deleted: the server keeps its last text until the document is closed
      }
      if (text === open.text) continue;
      open.version++;
      open.text = text;
      await this.notify(
        DidChangeTextDocumentNotification.type,
        { textDocument: { uri, version: open.version }, contentChanges: [{ text }] },
        `sending the new text of ${relative(this.realRoot, open.real)}`,
      );
    }
  }

  /** Waits until the server has loaded its project, or `deadline`; whether it is ready. */
  async settle(deadline: number): Promise<boolean> {
    for (;;) {
      this.refreshReadiness();
      if (this.state !== 'loading') return this.state === 'ready';
      if (Date.now() >= deadline) return false;
      await Promise.race([sleep(Math.min(100, deadline - Date.now())), this.exited]);
    }
  }

  /** A request that fails with one line when the server dies or the deadline passes first. */
  request<R>(method: string, params: unknown, deadline: number): Promise<R> {
    return this.race(method, deadline, (token) => this.connection.sendRequest(method, params, token) as Promise<R>);
  }

  /** Shuts the server down (then kills its group): `why` becomes its state's reason. */
  async stop(why: string, failed = false): Promise<void> {
    if (this.stopping) return this.exited;
    this.stopping = why;
    if (failed) {
      this.state = 'failed';
      this.reason = why;
      this.group.kill();
      return this.exited;
    }
    const graceful = (async () => {
      await this.connection.sendRequest(ShutdownRequest.type);
      await this.connection.sendNotification(ExitNotification.type);
    })().catch(() => {});
    const timer = setTimeout(() => this.group.kill(), STOP_GRACE_MS);
    await Promise.race([graceful.then(() => this.exited), this.exited]);
    clearTimeout(timer);
    this.group.kill();
    await this.exited;
  }

  /** Kills the group at once (the sextant process is exiting). */
  killNow(): void {
    this.stopping ??= 'sextant stopped';
    this.group.kill();
  }

  private listen(): void {
    // Requests a server makes of its client: progress tokens, configuration, registrations.
    this.connection.onRequest((method, params) => {
      if (method === 'workspace/configuration') {
        const items = (params as { items?: unknown[] } | undefined)?.items ?? [];
        return items.map(() => null);
      }
      if (method === 'workspace/workspaceFolders') {
        return [{ uri: pathToFileURL(this.realRoot).href, name: this.options.slug }];
      }
      return null;
    });
    // vscode-jsonrpc routes $/progress to handlers by token, and the rest here.
    this.connection.onUnhandledProgress(({ token, value }) => {
      const kind = (value as { kind?: string } | undefined)?.kind;
      this.lastProgressAt = Date.now();
      if (kind === 'begin') this.progress.add(token);
      else if (kind === 'end') {
        this.progress.delete(token);
        this.progressEnded = true;
      }
    });
    this.connection.onError(() => {});
    // The connection closed with no write failing (the server closed a pipe while idle): every later send would
    // throw "Connection is closed.", so the server is stopped as one that cannot hear (unless it is exiting anyway).
    this.connection.onClose(() => this.unheard(new Error('its connection closed')));
    this.connection.listen();
  }

  /** loading becomes ready once the work it reported has ended, or it has been quiet since its first document. */
  private refreshReadiness(): void {
    if (this.state !== 'loading' || this.firstOpenAt === undefined || this.progress.size > 0) return;
    if (this.progressEnded || Date.now() - Math.max(this.firstOpenAt, this.lastProgressAt) >= QUIET_MS) this.state = 'ready';
  }

  private async race<R>(method: string, deadline: number, send: (token: CancellationTokenSource['token']) => Promise<R>): Promise<R> {
    if (!this.alive) {
      // Failed a moment ago (stopped as unable to hear, say): its exit, which counts it as a crash, comes first.
      await this.exitOrGrace();
      throw new UserError(`${this.describe()} is not running (${this.reason ?? this.state}): ask again to restart it`);
    }
    const cancel = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    this.pending++;
    this.requests++;
    this.lastUsed = Date.now();
    try {
      const died = () => this.stoppedWhile(`answering ${method}`, this.reason ?? 'it exited');
      return await Promise.race([
        // Through a promise: on a closed connection vscode-jsonrpc throws at once instead of rejecting.
        Promise.resolve(cancel.token)
          .then(send)
          .catch(async (error: Error) => {
            await this.exitOrGrace();
            if (!this.alive) throw died();
            if (error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound)
              throw new MethodNotImplemented(this.name, method);
            throw new UserError(`${this.describe()} failed ${method}: ${lastLine(error.message)}`);
          }),
        this.exited.then(() => {
          throw died();
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => {
              cancel.cancel();
              reject(
                new UserError(
                  `${this.describe()} did not answer ${method} within the request budget (SEXTANT_LSP_REQUEST_SECONDS): ask again, or raise the budget`,
                ),
              );
            },
            Math.max(0, deadline - Date.now()),
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
      this.pending--;
      this.lastUsed = Date.now();
      cancel.dispose();
    }
  }

  private describe(): string {
    return `${this.name} for ${this.options.slug}`;
  }

  /** A moment for a failing server to exit: a dying server closes its pipes just before, and its exit says which it was. */
  private exitOrGrace(): Promise<unknown> {
    return Promise.race([this.exited, sleep(EXIT_GRACE_MS)]);
  }

  /** The one line for a server that stopped in the middle of something. */
  private stoppedWhile(doing: string, why: string): UserError {
    return new UserError(`${this.describe()} stopped while ${doing}: ${why}; ask again (sextant restarts it once after a crash)`);
  }

  /** A notification that fails as a request does: in one line saying why, once the server has had a moment to exit. */
  private async notify<P>(type: NotificationType<P>, params: P, doing: string): Promise<void> {
    try {
      await this.connection.sendNotification(type, params);
    } catch (error) {
      await this.exitOrGrace();
      throw this.stoppedWhile(doing, this.reason ?? lastLine(error instanceof Error ? error.message : String(error)));
    }
  }

  /**
   * A write failed: the server has died, or closed its input and cannot hear a request. Its exit says which when it
   * comes at once; a server still running past that is stopped, so that nothing waits for its answer until the deadline.
   */
  private unheard(error: Error): void {
    void this.exitOrGrace().then(() => {
      if (this.alive) void this.stop(`${this.name} stopped reading its input (${lastLine(error.message)})`, true);
    });
  }
}

/**
 * A message writer whose writes never reject. vscode-jsonrpc's sendRequest,
 * when its write fails, rejects the request and also rethrows from a promise
 * no one holds: an unhandled rejection, which ends `sextant mcp`. The failure
 * goes to `failed` instead; the request then fails on the server's exit.
 */
class UnfailingWriter extends StreamMessageWriter {
  constructor(
    writable: NodeJS.WritableStream,
    private readonly failed: (error: Error) => void,
  ) {
    super(writable);
  }

  override async write(message: Message): Promise<void> {
    try {
      await super.write(message);
    } catch (error) {
      this.failed(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

function stampOf(path: string): string {
  try {
    const s = statSync(path);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return 'gone';
  }
}

function lastLine(text: string): string {
  const line = text.trim().split('\n').pop()?.trim() ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
