// pyright asked directly (pyright-langserver --stdio, from npm), for tests that
// hold the lsp tier's answers at edited Python against the server's own: the
// same methods and answer shapes as TypeScriptLanguageServer, so one
// comparison serves both languages.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, type MessageConnection } from 'vscode-jsonrpc/node.js';
import {
  StreamMessageReader,
  StreamMessageWriter,
  type CallHierarchyIncomingCall,
  type CallHierarchyItem,
  type CallHierarchyOutgoingCall,
  type Location,
  type LocationLink,
  type Range,
} from 'vscode-languageserver-protocol/node.js';
import { PROJECT_ROOT } from './paths.js';
import type { LspLocation } from './typescript-language-server.js';

const SERVER_BIN = join(PROJECT_ROOT, 'node_modules', 'pyright', 'langserver.index.js');

export class Pyright {
  private readonly opened = new Set<string>();

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly connection: MessageConnection,
    private readonly root: string,
  ) {}

  static async start(root: string): Promise<Pyright> {
    const real = realpathSync(root);
    const child = spawn(process.execPath, [SERVER_BIN, '--stdio'], { cwd: real, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr.resume();
    child.stdin.on('error', () => {});
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    // pyright asks for its settings (none: its defaults, as the lsp tier gives it) and registers capabilities.
    connection.onRequest((method: string, params: unknown) =>
      method === 'workspace/configuration' ? ((params as { items: unknown[] }).items ?? []).map(() => null) : null,
    );
    connection.listen();
    const rootUri = pathToFileURL(real).href;
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'root' }],
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true },
        textDocument: { definition: { linkSupport: true }, references: {}, callHierarchy: {} },
      },
    });
    await connection.sendNotification('initialized', {});
    return new Pyright(child, connection, real);
  }

  async definition(path: string, line: number, character: number): Promise<LspLocation[]> {
    const answer = (await this.connection.sendRequest('textDocument/definition', {
      textDocument: { uri: this.open(path) },
      position: { line, character },
    })) as Location | (Location | LocationLink)[] | null;
    const list = answer === null ? [] : Array.isArray(answer) ? answer : [answer];
    return list.map((l) => ('targetUri' in l ? this.location(l.targetUri, l.targetSelectionRange) : this.location(l.uri, l.range)));
  }

  async references(path: string, line: number, character: number, includeDeclaration: boolean): Promise<LspLocation[]> {
    const answer = (await this.connection.sendRequest('textDocument/references', {
      textDocument: { uri: this.open(path) },
      position: { line, character },
      context: { includeDeclaration },
    })) as Location[] | null;
    return (answer ?? []).map((l) => this.location(l.uri, l.range));
  }

  async prepareCallHierarchy(path: string, line: number, character: number): Promise<CallHierarchyItem[]> {
    return ((await this.connection.sendRequest('textDocument/prepareCallHierarchy', {
      textDocument: { uri: this.open(path) },
      position: { line, character },
    })) ?? []) as CallHierarchyItem[];
  }

  async incomingCalls(item: CallHierarchyItem): Promise<CallHierarchyIncomingCall[]> {
    return ((await this.connection.sendRequest('callHierarchy/incomingCalls', { item })) ?? []) as CallHierarchyIncomingCall[];
  }

  async outgoingCalls(item: CallHierarchyItem): Promise<CallHierarchyOutgoingCall[]> {
    return ((await this.connection.sendRequest('callHierarchy/outgoingCalls', { item })) ?? []) as CallHierarchyOutgoingCall[];
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

  /** Opens a repository-relative file with its text from disk (once); its URI. */
  private open(path: string): string {
    const file = join(this.root, path);
    const uri = pathToFileURL(file).href;
    if (!this.opened.has(uri)) {
      this.opened.add(uri);
      void this.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'python', version: 1, text: readFileSync(file, 'utf8') },
      });
    }
    return uri;
  }

  private location(uri: string, range: Range): LspLocation {
    const file = fileURLToPath(uri);
    const rel = relative(this.root, file);
    const inside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
    return {
      path: inside ? rel.split(sep).join('/') : file,
      line: range.start.line,
      character: range.start.character,
      endLine: range.end.line,
      endCharacter: range.end.character,
    };
  }
}
