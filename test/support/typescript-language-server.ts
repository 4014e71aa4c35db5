// A client of the real typescript-language-server (`--stdio`), for tests and
// benchmarks that hold sextant's answers against a live language server. The
// server runs the project's pinned TypeScript (node_modules/typescript), not
// the copy it bundles, so both sides of a comparison see the same compiler.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  createProtocolConnection,
  DefinitionRequest,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  NotificationType,
  ReferencesRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type CallHierarchyIncomingCall,
  type CallHierarchyItem,
  type CallHierarchyOutgoingCall,
  type Location,
  type LocationLink,
  type ProtocolConnection,
  type Range,
} from 'vscode-languageserver-protocol/node.js';
import { PROJECT_ROOT } from './paths.js';

/**
 * A place the server answered with, 0-based as in LSP. `path` is relative to
 * the root (with '/') for files inside it, and absolute for files outside it
 * (lib.d.ts, node_modules of another tree), so callers can tell them apart.
 */
export interface LspLocation {
  path: string;
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
}

const SERVER_BIN = join(PROJECT_ROOT, 'node_modules', 'typescript-language-server', 'lib', 'cli.mjs');
const TSSERVER = join(PROJECT_ROOT, 'node_modules', 'typescript', 'lib', 'tsserver.js');
/** How long stop() lets the server shut down before killing it. */
const STOP_GRACE_MS = 5000;
/** Bytes of the server's stderr kept to explain its death. */
const STDERR_TAIL = 4096;

/** Sent by typescript-language-server after `initialized`: which TypeScript it runs. */
const TypescriptVersionNotification = new NotificationType<{ version: string; source: string }>('$/typescriptVersion');

export class TypeScriptLanguageServer {
  private announcedVersion: { version: string; source: string } | undefined;
  /** Settles when the server has said which TypeScript it runs. */
  private readonly announced: Promise<void>;
  private readonly opened = new Set<string>();
  private stderrTail = '';
  private exitReason: Error | undefined;
  private stopping = false;
  /** Rejects with the reason when the server process ends: every request races it, so none hangs on a dead server. */
  private readonly exited: Promise<never>;
  private readonly exitedEvent: Promise<void>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly connection: ProtocolConnection,
    /** The real path of the root: the server reports real paths. */
    private readonly root: string,
  ) {
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL);
    });
    let fail!: (error: Error) => void;
    this.exited = new Promise<never>((_, reject) => (fail = reject));
    // Nobody may be waiting when the server dies; the reason is kept for the next request.
    this.exited.catch(() => {});
    this.exitedEvent = new Promise<void>((resolve) => {
      const end = (why: string) => {
        if (this.exitReason) return;
        const tail = this.stderrTail.trim();
        this.exitReason = new Error(
          `typescript-language-server (pid ${child.pid}) ${why}${this.stopping ? ' after stop()' : ''}${tail ? `; stderr: ${tail}` : ''}`,
        );
        fail(this.exitReason);
        connection.dispose();
        resolve();
      };
      child.on('exit', (code, signal) => end(signal ? `was killed by ${signal}` : `exited with code ${code}`));
      child.on('error', (error) => end(`could not run: ${error.message}`));
    });
    // A write to a server that just died fails with EPIPE; the exit handler reports the death.
    child.stdin.on('error', () => {});
    this.announced = new Promise<void>((resolve) =>
      connection.onNotification(TypescriptVersionNotification, (v) => {
        this.announcedVersion = v;
        resolve();
      }),
    );
  }

  /** Spawns the server on `root`, initializes it and waits until it says which TypeScript it runs. */
  static async start(root: string): Promise<TypeScriptLanguageServer> {
    const realRoot = await realpath(root);
    // Its own process group, so that a hung server can be killed with the tsserver processes it forked.
    const child = spawn(process.execPath, [SERVER_BIN, '--stdio'], { cwd: realRoot, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const server = new TypeScriptLanguageServer(child, connection, realRoot);
    connection.listen();
    const rootUri = pathToFileURL(realRoot).href;
    try {
      await server.race(() =>
        connection.sendRequest(InitializeRequest.type, {
          processId: process.pid,
          rootUri,
          workspaceFolders: [{ uri: rootUri, name: realRoot.split(sep).pop()! }],
          capabilities: {
            textDocument: {
              synchronization: {},
              definition: { linkSupport: true },
              references: {},
              callHierarchy: {},
            },
          },
          initializationOptions: {
            // While the project loads, the default ("auto") answers definition and references from a
            // syntax-only server that sees one file; "never" makes every answer wait for the full program.
            tsserver: { path: TSSERVER, useSyntaxServer: 'never' },
            // Typings acquisition would reach the npm registry from a test.
            disableAutomaticTypingAcquisition: true,
          },
        }),
      );
      await connection.sendNotification(InitializedNotification.type, {});
      await server.race(() => server.announced);
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** The TypeScript the server runs and where it came from (`user-setting`: the pinned one it was given). */
  get typescript(): { version: string; source: string } {
    return this.announcedVersion!;
  }

  /** Opens a repo-relative file (textDocument/didOpen with its text from disk). Queries open their file themselves. */
  async open(path: string): Promise<void> {
    if (this.opened.has(path)) return;
    const text = await readFile(join(this.root, path), 'utf8');
    this.failIfExited();
    this.opened.add(path);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: this.uri(path), languageId: languageId(path), version: 1, text },
    });
  }

  /**
   * Resolves once the server's processes (its process group: the server and
   * the tsservers it runs) have used no CPU for `quietMs`, or after `maxMs`.
   * After a didOpen the server checks the file in the background (its
   * diagnostics): a benchmark waits for that before it times anything else
   * on the same cores, or the other side's figure would carry this one's work.
   */
  async settle(quietMs = 50, maxMs = 3000): Promise<void> {
    const deadline = performance.now() + maxMs;
    let last = groupCpuTicks(this.pid);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, quietMs));
      const now = groupCpuTicks(this.pid);
      if (now === last || performance.now() > deadline) return;
      last = now;
    }
  }

  /** textDocument/definition at a 0-based position; Location and LocationLink answers both come back as locations. */
  async definition(path: string, line: number, character: number): Promise<LspLocation[]> {
    await this.open(path);
    const result = await this.race(() =>
      this.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: this.uri(path) }, position: { line, character } }),
    );
    if (!result) return [];
    const list: (Location | LocationLink)[] = Array.isArray(result) ? result : [result];
    return list.map((l) => ('targetUri' in l ? this.location(l.targetUri, l.targetSelectionRange) : this.location(l.uri, l.range)));
  }

  /** textDocument/references at a 0-based position. */
  async references(path: string, line: number, character: number, includeDeclaration: boolean): Promise<LspLocation[]> {
    await this.open(path);
    const result = await this.race(() =>
      this.connection.sendRequest(ReferencesRequest.type, {
        textDocument: { uri: this.uri(path) },
        position: { line, character },
        context: { includeDeclaration },
      }),
    );
    return (result ?? []).map((l) => this.location(l.uri, l.range));
  }

  async prepareCallHierarchy(path: string, line: number, character: number): Promise<CallHierarchyItem[]> {
    await this.open(path);
    const result = await this.race(() =>
      this.connection.sendRequest(CallHierarchyPrepareRequest.type, {
        textDocument: { uri: this.uri(path) },
        position: { line, character },
      }),
    );
    return result ?? [];
  }

  async incomingCalls(item: CallHierarchyItem): Promise<CallHierarchyIncomingCall[]> {
    return (await this.race(() => this.connection.sendRequest(CallHierarchyIncomingCallsRequest.type, { item }))) ?? [];
  }

  async outgoingCalls(item: CallHierarchyItem): Promise<CallHierarchyOutgoingCall[]> {
    return (await this.race(() => this.connection.sendRequest(CallHierarchyOutgoingCallsRequest.type, { item }))) ?? [];
  }

  /** shutdown and exit; kills the server (and the tsserver it runs) when it does not end within a few seconds. */
  async stop(): Promise<void> {
    if (this.exitReason) return;
    this.stopping = true;
    const grace = () => new Promise<'timeout'>((resolve) => setTimeout(resolve, STOP_GRACE_MS, 'timeout').unref());
    let clean = false;
    try {
      clean = (await Promise.race([this.race(() => this.connection.sendRequest(ShutdownRequest.type)), grace()])) !== 'timeout';
      if (clean) await this.connection.sendNotification(ExitNotification.type);
    } catch {
      // A server that cannot shut down cleanly is killed below.
    }
    if (!clean || (await Promise.race([this.exitedEvent, grace()])) === 'timeout') {
      try {
        process.kill(-this.pid, 'SIGKILL');
      } catch {
        // Already gone between the check and the kill.
      }
      await this.exitedEvent;
    }
  }

  /** Sends a request unless the server is dead; rejects with the reason the server died, also while waiting. */
  private race<T>(send: () => Promise<T>): Promise<T> {
    this.failIfExited();
    const request = send();
    // If the server dies first, the request itself fails later (its connection is disposed): that is no news.
    request.catch(() => {});
    return Promise.race([request, this.exited]);
  }

  private failIfExited(): void {
    if (this.exitReason) throw this.exitReason;
  }

  private uri(path: string): string {
    return pathToFileURL(join(this.root, path)).href;
  }

  private location(uri: string, range: Range): LspLocation {
    const file = fileURLToPath(uri);
    const rel = relative(this.root, file);
    const inside = rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
    return {
      path: inside ? rel.split(sep).join('/') : file,
      line: range.start.line,
      character: range.start.character,
      endLine: range.end.line,
      endCharacter: range.end.character,
    };
  }
}

/** CPU time (clock ticks, user and system) of the processes of a process group, read from /proc. */
function groupCpuTicks(group: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // it ended meanwhile
    }
    // After the command's closing parenthesis: state, ppid, pgrp, ... utime (14th field), stime (15th).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks;
}

function languageId(path: string): string {
  if (/\.[cm]?tsx?$/.test(path)) return path.endsWith('x') ? 'typescriptreact' : 'typescript';
  return path.endsWith('x') ? 'javascriptreact' : 'javascript';
}

/** The version of the project's pinned TypeScript, which the server is told to run. */
export function pinnedTypeScriptVersion(): string {
  return (JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string })
    .version;
}
