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
    'Languages with a language server but no SCIP indexer (C and C++ through clangd) are answered by the server,',
    'started on first use and kept warm: SEXTANT_LSP_IDLE_SECONDS (600), SEXTANT_LSP_MAX_SERVERS (4),',
    'SEXTANT_LSP_MAX_MEMORY_MB (2048 per server) and SEXTANT_LSP_REQUEST_SECONDS (20 per request) bound them;',
    'a request waits SEXTANT_LSP_WAIT_SECONDS (half the budget) for a loading server, then answers partial.',
    'SEXTANT_LSP=0 turns the lsp tier off: answers come from the indexes alone.',
    'After its first answer about a repository, the server reads and hashes that repository\'s worktree files (at most',
    '20,000) in the background, only while no call is being answered: a first answer in a file then costs what later ones do.',
    'A SQLite registry is read through a memory map (its pages count in the server\'s resident memory, shared with the OS\'s',
    'cache), and once no call has come for 10 ms the server collects its young garbage, so that answers are not stopped for it.',
  ],
  options: {},
  maxPositionals: 0,
};

export async function run({ values }: Parsed): Promise<number> {
  // The server answers the handshake and tools/list at once, while the tools
  // load: a client spends that time on its own start (validators for the
  // tools' output schemas). Loaded here, not with the module: `sextant --help`
  // reads every command's spec.
  // The performance marks time the start for the benchmark's cold start breakdown (scripts/bench-cold.ts).
  const { ToolServer } = await import('../../mcp/tool-server.js');
  const server = new ToolServer({ name: 'sextant', version: VERSION });
  const served = server.listen(process.stdin, process.stdout);
  performance.mark('sextant:listening');
  let loaded;
  try {
    loaded = await server.loading(async () => {
      // zod compiles a parser (new Function) for each object schema the first
      // time it parses with it: 0.25 µs faster a parse after that, but about
      // 10 ms of a cold server's start and first call (the language-server
      // manifests, the call's arguments), for arguments a few fields deep.
      // Set before the tools' modules build their schemas: a schema reads it when made.
      (await import('zod')).z.config({ jitless: true });
      const [{ openRegistry }, { Navigation }, { createMcpServer, warmUp }, { autoReindexer }, { lspPoolFromEnv }, { IdleCollector }] = await Promise.all([
        import('../../registry/open.js'),
        import('../../navigation/index.js'),
        import('../../mcp/server.js'),
        import('../../orchestrator/jobs.js'),
        import('../../lsp/pool.js'),
        import('../../mcp/idle-collector.js'),
      ]);
      performance.mark('sextant:modules');
      const engine = await openRegistry({ registry: values.registry as string | undefined, mapped: true });
      performance.mark('sextant:registry');
      // The server is long-lived: the language servers of the lsp tier stay warm in it between calls.
      const live = lspPoolFromEnv();
      const nav = new Navigation(engine, { autoReindex: autoReindexer(engine), live, serving: true });
      createMcpServer(nav, VERSION, server);
      performance.mark('sextant:ready');
      server.whenIdle(warmUp);
      // A repository asked about is primed once, in the background and only while no call is being answered:
      // its worktree files are hashed ahead of the questions (Navigation.prime).
      const collector = IdleCollector.create(() => server.busy);
      if (collector) server.onQuiet(() => collector.poke());
      const primed = new Set<string>();
      server.onAnswered(({ repo }) => {
        if (typeof repo !== 'string' || primed.has(repo)) return;
        primed.add(repo);
        // Forgotten when there was nothing to prime, so that names of no repository do not pile up.
        const forget = () => primed.delete(repo);
        const pause = () => server.idle().then(() => collector?.poke());
        void nav.prime(repo, pause).then((files) => files === 0 && forget(), forget);
      });
      return { engine, live, nav };
    });
  } catch (error) {
    // Nothing to serve: stop reading, so that the process ends with the error.
    process.stdin.destroy();
    throw error;
  }
  // Serve until the client closes stdin.
  await served;
  await loaded.nav.close();
  await loaded.live?.close();
  await loaded.engine.close();
  return 0;
}
