// sextant mcp: the MCP server on stdio, over every repository in the registry.
import type { CommandSpec, Parsed } from '../parse.js';
import { VERSION } from '../version.js';

export const spec: CommandSpec = {
  name: 'mcp',
  summary: 'Serve the MCP tools (getIndexStatus, goToDefinition, findReferences, documentSymbols, ...) on stdio.',
  usage: 'sextant mcp [--registry PATH]',
  details: [
    'One server answers for every repository in the registry; name the repository in each call (repo).',
    'A query on a registered repository with no index starts reindexing it in the background and says so',
    '(auto_reindex_triggered, job_id); SEXTANT_AUTO_REINDEX=0 turns that off.',
    'Answers follow edits made in the worktree since the index (adjusted, dropped_locations); when HEAD has no index, the',
    'nearest indexed ancestor answers (nearest_commit), within SEXTANT_NEAREST_COMMITS commits (default 50).',
  ],
  options: {},
  maxPositionals: 0,
};

export async function run({ values }: Parsed): Promise<number> {
  // The server answers the handshake and tools/list at once, while the tools
  // load: a client spends that time on its own start (validators for the
  // tools' output schemas). Loaded here, not with the module: `sextant --help`
  // reads every command's spec.
  const { ToolServer } = await import('../../mcp/tool-server.js');
  const server = new ToolServer({ name: 'sextant', version: VERSION });
  const served = server.listen(process.stdin, process.stdout);
  let engine;
  try {
    engine = await server.loading(async () => {
      const [{ openRegistry }, { Navigation }, { createMcpServer }, { autoReindexer }] = await Promise.all([
        import('../../registry/open.js'),
        import('../../navigation/index.js'),
        import('../../mcp/server.js'),
        import('../../orchestrator/jobs.js'),
      ]);
      const engine = await openRegistry({ registry: values.registry as string | undefined });
      createMcpServer(new Navigation(engine, { autoReindex: autoReindexer(engine) }), VERSION, server);
      return engine;
    });
  } catch (error) {
    // Nothing to serve: stop reading, so that the process ends with the error.
    process.stdin.destroy();
    throw error;
  }
  // Serve until the client closes stdin.
  await served;
  await engine.close();
  return 0;
}
