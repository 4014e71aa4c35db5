// clangd asked directly, for tests that hold the lsp tier's answers against
// the server's own: the real clangd on a repository, with a compilation
// database of the test's own (outside the worktree), waited on until its
// background index has covered every file.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, type MessageConnection } from 'vscode-jsonrpc/node.js';
import { StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node.js';
import { compilationDatabase } from '../../src/lsp/pool.js';
import { tempDir } from './repos.js';

/** A place clangd answered, 1-based like sextant's; `path` is repository-relative, or absolute outside the repository. */
export interface Place {
  path: string;
  line: number;
  column: number;
}

type Answered = { uri: string; range: { start: { line: number; character: number } } };

export class Clangd {
  private readonly opened = new Set<string>();
  private indexing = 0;
  private indexedOnce = false;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly connection: MessageConnection,
    private readonly root: string,
  ) {}

  /**
   * clangd on `root`, with the compilation database sextant writes for a
   * repository without one (the same configuration the lsp tier gives it),
   * kept in a directory of the test's own.
   */
  static async start(root: string): Promise<Clangd> {
    const real = realpathSync(root);
    const cdb = tempDir('sextant-clangd-cdb-');
    writeFileSync(
      join(cdb, 'compile_commands.json'),
      JSON.stringify(compilationDatabase(real, { c: ['-std=gnu11'], cpp: ['-std=gnu++17'] })),
    );
    const child = spawn('clangd', ['--background-index', '--log=error', '-j=2', `--compile-commands-dir=${cdb}`], {
      cwd: real,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stderr.resume();
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const server = new Clangd(child, connection, real);
    connection.onRequest(() => null);
    connection.onUnhandledProgress(({ value }) => {
      const kind = (value as { kind?: string } | undefined)?.kind;
      if (kind === 'begin') server.indexing++;
      if (kind === 'end') {
        server.indexing--;
        server.indexedOnce = true;
      }
    });
    connection.listen();
    const rootUri = pathToFileURL(real).href;
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'root' }],
      capabilities: {
        window: { workDoneProgress: true },
        textDocument: { definition: { linkSupport: false }, references: {}, callHierarchy: {} },
      },
    });
    await connection.sendNotification('initialized', {});
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Opens a file (the first open makes clangd load the database) and waits until the background index is done. */
  async ready(firstPath: string, timeoutMs = 120_000): Promise<void> {
    await this.open(firstPath);
    const deadline = Date.now() + timeoutMs;
    while (!(this.indexedOnce && this.indexing === 0)) {
      if (Date.now() > deadline) throw new Error('clangd did not finish its background index in time');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async definition(p: Place): Promise<Place[]> {
    const uri = await this.open(p.path);
    const answer = (await this.connection.sendRequest('textDocument/definition', {
      textDocument: { uri },
      position: { line: p.line - 1, character: p.column - 1 },
    })) as Answered | Answered[] | null;
    return this.places(answer);
  }

  async references(p: Place, includeDeclaration = true): Promise<Place[]> {
    const uri = await this.open(p.path);
    const answer = (await this.connection.sendRequest('textDocument/references', {
      textDocument: { uri },
      position: { line: p.line - 1, character: p.column - 1 },
      context: { includeDeclaration },
    })) as Answered[] | null;
    return this.places(answer);
  }

  /** The names of the functions calling the function at `p`, from clangd's call hierarchy; null where clangd knows no function (inactive code). */
  async callers(p: Place): Promise<string[] | null> {
    const uri = await this.open(p.path);
    const items = (await this.connection.sendRequest('textDocument/prepareCallHierarchy', {
      textDocument: { uri },
      position: { line: p.line - 1, character: p.column - 1 },
    })) as unknown[] | null;
    if (!items?.[0]) return null;
    const calls = (await this.connection.sendRequest('callHierarchy/incomingCalls', { item: items[0] })) as
      { from: { name: string } }[] | null;
    return [...new Set((calls ?? []).map((c) => c.from.name))].sort();
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification('exit');
    } catch {
      // already gone
    }
    this.child.kill('SIGKILL');
    this.connection.dispose();
  }

  private async open(path: string): Promise<string> {
    const file = join(this.root, path);
    const uri = pathToFileURL(file).href;
    if (!this.opened.has(uri)) {
      this.opened.add(uri);
      await this.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'c', version: 1, text: readFileSync(file, 'utf8') },
      });
    }
    return uri;
  }

  private places(answer: Answered | Answered[] | null): Place[] {
    const list = answer === null ? [] : Array.isArray(answer) ? answer : [answer];
    return list.map((l) => {
      const rel = relative(this.root, fileURLToPath(l.uri));
      return {
        path: rel.startsWith('..') ? fileURLToPath(l.uri) : rel.split(sep).join('/'),
        line: l.range.start.line + 1,
        column: l.range.start.character + 1,
      };
    });
  }
}
