// sextant mcp: the MCP server on stdio, over every repository in the registry.
import type { CommandSpec, Parsed } from '../parse.js';
import { VERSION } from '../version.js';

export const spec: CommandSpec = {
  name: 'mcp',
  summary: 'Serve the MCP tools (getIndexStatus, goToDefinition, findReferences, documentSymbols, ...) on stdio.',
  usage: 'sextant mcp [--registry PATH]',
  details: ['One server answers for every repository in the registry; name the repository in each call (repo).'],
  options: {},
  maxPositionals: 0,
};

export async function run({ values }: Parsed): Promise<number> {
  // Loaded here, not with the module: `sextant --help` reads every command's spec.
  const [{ openRegistry }, { Navigation }, { serveStdio }] = await Promise.all([
    import('../../registry/open.js'),
    import('../../navigation/index.js'),
    import('../../mcp/server.js'),
  ]);
  const engine = await openRegistry({ registry: values.registry as string | undefined });
  await serveStdio(new Navigation(engine), VERSION);
  // Serve until the client closes stdin.
  await new Promise<void>((resolve) => process.stdin.once('close', resolve));
  await engine.close();
  return 0;
}
