// sextant mcp: the MCP server on stdio, over every repository in the registry.
import { openRegistry } from '../../registry/open.js';
import { Navigation } from '../../navigation/index.js';
import { serveStdio } from '../../mcp/server.js';
import { autoReindexer } from '../../orchestrator/jobs.js';
import type { CommandSpec, Parsed } from '../parse.js';
import { VERSION } from '../version.js';

export const spec: CommandSpec = {
  name: 'mcp',
  summary: 'Serve the MCP tools (getIndexStatus, goToDefinition, findReferences, searchCode, findFiles, ...) on stdio.',
  usage: 'sextant mcp [--registry PATH]',
  details: [
    'One server answers for every repository in the registry; name the repository in each call (repo).',
    'A query on a registered repository with no index starts reindexing it in the background and says so',
    '(auto_reindex_triggered, job_id); SEXTANT_AUTO_REINDEX=0 turns that off.',
  ],
  options: {},
  maxPositionals: 0,
};

export async function run({ values }: Parsed): Promise<number> {
  const engine = await openRegistry({ registry: values.registry as string | undefined });
  await serveStdio(new Navigation(engine, { autoReindex: autoReindexer(engine) }), VERSION);
  // Serve until the client closes stdin.
  await new Promise<void>((resolve) => process.stdin.once('close', resolve));
  await engine.close();
  return 0;
}
