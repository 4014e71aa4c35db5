// `sextant mcp`: one stdio MCP server for every repository in the registry.
// Tools are thin adapters: the protocol module of each request gives its name,
// description and zod schemas; the query layer answers.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { boundedMessage, quote, UserError } from '../errors.js';
import type { Navigation } from '../navigation/index.js';
import { LineTransport } from './stdio.js';
import * as Definition from '../protocol/definition.js';
import * as DocumentSymbols from '../protocol/document-symbols.js';
import * as IndexStatus from '../protocol/index-status.js';
import * as References from '../protocol/references.js';
import * as WorkspaceSymbols from '../protocol/workspace-symbols.js';
import * as CallHierarchy from '../protocol/call-hierarchy.js';
import * as TypeHierarchy from '../protocol/type-hierarchy.js';
import * as SearchCode from '../protocol/search-code.js';
import * as FindFiles from '../protocol/find-files.js';
import * as CountFiles from '../protocol/count-files.js';
import * as RegistryStatus from '../protocol/registry-status.js';
import { Search } from '../search/index.js';
import * as SrcIndexStatus from '../protocol/src-index-status.js';
import { Meta } from '../protocol/meta.js';
import { buildMeta } from '../trust/envelope.js';
import { mcpResultBytes, reply } from '../trust/reply.js';

interface ToolModule<P extends z.ZodType, R extends z.ZodObject> {
  name: string;
  description: string;
  Params: P;
  Result: R;
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export function createMcpServer(nav: Navigation, version: string): McpServer {
  const server = new McpServer({ name: 'sextant', version }, { capabilities: { tools: {} } });

  // One result path for every tool: validate (the SDK, against Params),
  // answer, fit the reply to its byte budget, and wrap it in the envelope.
  const register = <P extends z.ZodType, R extends z.ZodObject>(
    tool: ToolModule<P, R>,
    handler: (params: z.infer<P>) => Promise<z.infer<R>>,
    provenance: Meta['provenance'] = 'local-index',
  ) => {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.Params as never,
        outputSchema: resultOrError(enveloped(tool.Result)) as never,
        annotations: READ_ONLY,
      },
      (async (params: z.infer<P>) => {
        try {
          const answer = (await handler(params)) as Record<string, unknown>;
          const body = reply(answer, provenance, (params as { max_bytes?: number }).max_bytes, mcpResultBytes);
          return { structuredContent: body, content: [{ type: 'text', text: JSON.stringify(body) }] };
        } catch (error) {
          return errorResult(error);
        }
      }) as never,
    );
  };

  // SRC's get_index_status has its own envelope and failure shape (the SRC
  // schema forbids extra fields), so it is registered as the SRC tool it is.
  server.registerTool(
    SrcIndexStatus.name,
    {
      description: SrcIndexStatus.description,
      inputSchema: SrcIndexStatus.Params as never,
      outputSchema: SrcIndexStatus.Result as never,
      annotations: READ_ONLY,
    },
    (async (params: SrcIndexStatus.Params) => {
      try {
        const body = await nav.srcIndexStatus(params, process.cwd());
        return { structuredContent: body, content: [{ type: 'text', text: JSON.stringify(body) }] };
      } catch (error) {
        const body = srcFailure(messageOf(error));
        return { isError: true, structuredContent: body, content: [{ type: 'text', text: JSON.stringify(body) }] };
      }
    }) as never,
  );

  register(IndexStatus, (p) => nav.getIndexStatus(p));
  register(Definition, (p) => nav.goToDefinition(p));
  register(References, (p) => nav.findReferences(p));
  register(DocumentSymbols, (p) => nav.documentSymbols(p));
  register(WorkspaceSymbols, (p) => nav.workspaceSymbols(p));
  register(CallHierarchy, (p) => nav.callHierarchy(p));
  register(TypeHierarchy, (p) => nav.typeHierarchy(p));
  const search = new Search(nav.engine, version);
  register(SearchCode, (p) => search.searchCode(p), 'local-analysis');
  register(FindFiles, (p) => search.findFiles(p), 'local-filesystem');
  register(CountFiles, (p) => search.countFiles(p), 'local-filesystem');
  register(RegistryStatus, () => search.registryStatus(), 'local-filesystem');
  return server;
}

/** Every tool's result with the provenance envelope, and the flags a byte budget may add. */
function enveloped(result: z.ZodObject) {
  const budget = { meta: Meta, truncation_hint: z.string().optional() };
  return 'truncated' in result.shape ? result.extend(budget) : result.extend({ ...budget, truncated: z.boolean().optional() });
}

/** An SRC get_index_status failure: the SRC envelope with success false. */
function srcFailure(message: string): SrcIndexStatus.Result {
  return { schema_version: 1, success: false, meta: buildMeta({}, { provenance: 'local-index' }), error: message };
}

function messageOf(error: unknown): string {
  return error instanceof UserError ? error.message : `internal error: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * The advertised output schema: the tool's result, or `{"error": "..."}`.
 * MCP clients (the official SDK's among them) check structuredContent against
 * the output schema even on an isError result, so the failure shape has to be
 * part of it; the JSON Schema says "all the result's required fields, or error".
 */
function resultOrError(result: z.ZodObject) {
  const required = (z.toJSONSchema(result, { io: 'output' }) as { required?: string[] }).required ?? [];
  return result
    .partial()
    .extend({ error: z.string().optional() })
    .meta({ anyOf: [{ required }, { required: ['error'] }] });
}

/** A failed call's result: `{"error": "..."}`, flagged isError. */
export function errorResult(error: unknown) {
  const body = { error: boundedMessage(messageOf(error)) };
  return { isError: true, structuredContent: body, content: [{ type: 'text' as const, text: JSON.stringify(body) }] };
}

/**
 * The SDK answers arguments that fail the input schema (and unknown tools)
 * with a plain-text error result. The contract says every failure is an
 * `{"error": "..."}` object, so such results are reshaped on their way out.
 */
export function shapeToolErrors(transport: Transport): Transport {
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => send(reshape(message), options);
  return transport;
}

function reshape(message: JSONRPCMessage): JSONRPCMessage {
  // Protocol errors too are one bounded line (the SDK's can be a multi-line dump of its schema's issues).
  if ('error' in message) return { ...message, error: { ...message.error, message: boundedMessage(message.error.message) } };
  if (!('result' in message)) return message;
  const result = message.result as { isError?: boolean; structuredContent?: unknown; content?: { type: string; text?: string }[] };
  if (result.isError !== true || result.structuredContent !== undefined) return message;
  const text = result.content?.find((c) => c.type === 'text')?.text ?? 'unknown error';
  const body = text.includes(`for tool ${SrcIndexStatus.name}:`) ? srcFailure(boundedMessage(oneLine(text))) : { error: boundedMessage(oneLine(text)) };
  return { ...message, result: { ...result, structuredContent: body, content: [{ type: 'text', text: JSON.stringify(body) }] } };
}

/** "Input validation error: Invalid arguments for tool X: a at f\nb" -> "X: f: a; b". */
function oneLine(text: string): string {
  const plain = text.replace(/^MCP error -?\d+: /, '');
  const tool = /^Tool ([\s\S]+) not found$/.exec(plain);
  if (tool) return `unknown tool ${quote(tool[1]!)}: call tools/list for the tools this server has`;
  const m = /^Input validation error: Invalid arguments for tool (\S+): ([\s\S]*)$/.exec(plain);
  if (!m) return plain.split('\n').join('; ');
  const issues = m[2]!.split('\n').map((line) => {
    // The SDK appends " at <field>"; our messages usually name the field already.
    const at = /^(.*) at ([\w.[\]]+)$/.exec(line.trim());
    return at ? (at[1]!.includes(at[2]!) ? at[1]! : `${at[2]}: ${at[1]}`) : line.trim();
  });
  return `${m[1]}: ${issues.filter(Boolean).join('; ')}`;
}

export async function serveStdio(nav: Navigation, version: string): Promise<void> {
  const server = createMcpServer(nav, version);
  await server.connect(shapeToolErrors(new LineTransport()));
}
