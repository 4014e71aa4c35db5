// `sextant mcp`: one stdio MCP server for every repository in the registry.
// Tools are thin adapters: the protocol module of each request gives its name,
// description and zod schemas; the query layer answers.
import { z } from 'zod';
import { UserError } from '../errors.js';
import type { Navigation } from '../navigation/index.js';
import * as Definition from '../protocol/definition.js';
import * as DocumentSymbols from '../protocol/document-symbols.js';
import * as IndexStatus from '../protocol/index-status.js';
import * as References from '../protocol/references.js';
import * as WorkspaceSymbols from '../protocol/workspace-symbols.js';
import * as CallHierarchy from '../protocol/call-hierarchy.js';
import * as TypeHierarchy from '../protocol/type-hierarchy.js';
import { ToolServer, type ToolOutcome } from './tool-server.js';

interface ToolModule<P extends z.ZodType, R extends z.ZodObject> {
  name: string;
  description: string;
  Params: P;
  Result: R;
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** The MCP tools over `nav`, registered on `server` (a new one by default). */
export function createMcpServer(nav: Navigation, version: string, server = new ToolServer({ name: 'sextant', version })): ToolServer {

  const register = <P extends z.ZodType, R extends z.ZodObject>(
    tool: ToolModule<P, R>,
    handler: (params: z.infer<P>) => Promise<z.infer<R>>,
  ) => {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.Params,
        outputSchema: () => resultOrError(tool.Result),
        annotations: READ_ONLY,
      },
      async (args): Promise<ToolOutcome> => {
        const params = tool.Params.safeParse(args);
        if (!params.success) return { error: invalidArguments(tool.name, params.error) };
        try {
          return { result: await handler(params.data) };
        } catch (error) {
          return { error: errorMessage(error) };
        }
      },
    );
  };

  register(IndexStatus, (p) => nav.getIndexStatus(p));
  register(Definition, (p) => nav.goToDefinition(p));
  register(References, (p) => nav.findReferences(p));
  register(DocumentSymbols, (p) => nav.documentSymbols(p));
  register(WorkspaceSymbols, (p) => nav.workspaceSymbols(p));
  register(CallHierarchy, (p) => nav.callHierarchy(p));
  register(TypeHierarchy, (p) => nav.typeHierarchy(p));
  return server;
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

/** A failed call's message: a UserError's own, anything else flagged internal. */
function errorMessage(error: unknown): string {
  return error instanceof UserError ? error.message : `internal error: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Arguments that fail the input schema, in one line naming the tool:
 * "X: field: problem; other problem" (the messages usually name the field
 * already; where not, it is put in front).
 */
function invalidArguments(tool: string, error: z.ZodError): string {
  const issues = error.issues.flatMap((issue) => {
    const lines = issue.message.split('\n').map((line) => line.trim());
    const field = dotPath(issue.path);
    if (field === undefined) return lines;
    const last = lines.pop()!;
    return [...lines, last.includes(field) ? last : `${field}: ${last}`];
  });
  return `${tool}: ${issues.filter(Boolean).join('; ')}`;
}

/** a.b[0].c, as the SDK names an issue's field; undefined at the root. */
function dotPath(path: readonly PropertyKey[]): string | undefined {
  if (path.length === 0) return undefined;
  return path.reduce<string>((acc, seg, i) => (i === 0 ? String(seg) : typeof seg === 'number' ? `${acc}[${seg}]` : `${acc}.${String(seg)}`), '');
}

