// Bundles the command line into dist/bundle/ so that `sextant` starts fast:
// loading hundreds of small modules from node_modules costs more than the
// work of a first query (a cold `sextant mcp` answers in about 60% of the
// time unbundled). Chunks are split at dynamic imports, so each command still
// loads only what it uses. Native and heavy packages stay external: the
// SQLite binding, and the TypeScript compiler and protobuf decoder that only
// indexing loads. The tools' JSON Schemas are rendered here once, so that
// `sextant mcp` answers tools/list without converting zod schemas at start,
// and so is `sextant --help`, which would otherwise load every command.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build, type Plugin } from 'esbuild';
import { PREBUILT_USAGE, renderUsage } from '../src/cli/main.js';
import { createMcpServer } from '../src/mcp/server.js';
import { PREBUILT_TOOLS } from '../src/mcp/tool-server.js';
import type { Navigation } from '../src/navigation/index.js';
import { projectFile } from '../src/paths.js';

// Chunk names change with their contents: old ones would pile up.
rmSync(projectFile('dist', 'bundle'), { recursive: true, force: true });
/**
 * zod re-exports its error messages in some 40 languages (about half of its
 * code) as `z.locales`; sextant words its own messages and uses none of them,
 * so that namespace is left empty. zod's default English messages are imported
 * apart and stay.
 */
const withoutZodLocales: Plugin = {
  name: 'without-zod-locales',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[/\\]zod[/\\]v4[/\\](classic|core)[/\\]/.test(args.importer) ? { path: 'zod-locales', namespace: 'empty' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/** Gives a chunk the require() of CommonJS; kept only in the chunks that use it (below). */
const REQUIRE_BANNER =
  "import { createRequire as __sextantCreateRequire } from 'node:module'; const require = __sextantCreateRequire(import.meta.url);";

await build({
  // The parsing worker is an entry of its own: it is started by file name
  // (`./syntax-worker.js` beside the code that starts it).
  entryPoints: {
    main: projectFile('dist', 'src', 'cli', 'main.js'),
    'syntax-worker': projectFile('dist', 'src', 'syntax', 'syntax-worker.js'),
    // Loaded into indexers that run on node, by file name beside the code that starts them.
    'indexer-preload': projectFile('dist', 'src', 'orchestrator', 'indexer-preload.js'),
  },
  outdir: projectFile('dist', 'bundle'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'typescript', 'protobufjs'],
  // Bundled CommonJS packages may call require(); ESM has none of its own.
  banner: { js: REQUIRE_BANNER },
  // Parsing the bundle is most of a cold start: whitespace and comments out
  // (names stay, so stack traces still read).
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [withoutZodLocales],
  logLevel: 'warning',
});

// esbuild gives every chunk the banner, but few use require (its shim for
// bundled CommonJS, and code that loads a package at run time): the others
// lose it, and with it an import and a createRequire each, about 45 of them
// before a cold `sextant mcp` answers. A chunk keeps it when `require`
// appears in it as a name of its own (not a property, not part of a longer
// name), including in text, which only keeps a banner that was not needed.
for (const file of readdirSync(projectFile('dist', 'bundle')).filter((f) => f.endsWith('.js'))) {
  const path = projectFile('dist', 'bundle', file);
  const text = readFileSync(path, 'utf8');
  if (!text.startsWith(REQUIRE_BANNER)) throw new Error(`${file} does not start with the require banner: the bundle's options changed`);
  const body = text.slice(REQUIRE_BANNER.length);
  if (!/(?<![\w$.])require(?![\w$])/.test(body)) writeFileSync(path, body);
}

// Node resolves every import between chunks (about 170 before a cold `sextant
// mcp` answers) and, for each, looks for the nearest package.json to learn
// the module format: this one answers at the chunks' own folder, instead of
// two folders up. It says what the project's own says (ES modules) and has
// no name, so it is not taken for the project's (src/paths.ts).
writeFileSync(projectFile('dist', 'bundle', 'package.json'), '{"type":"module"}\n');

// Rendering the schemas calls no tool: the query layer is never reached.
const tools = await createMcpServer(undefined as unknown as Navigation, '').renderTools();
writeFileSync(projectFile('dist', 'bundle', PREBUILT_TOOLS), JSON.stringify(tools));
writeFileSync(projectFile('dist', 'bundle', PREBUILT_USAGE), await renderUsage());
