// Bundles the command line into dist/bundle/ so that `sextant` starts fast:
// loading hundreds of small modules from node_modules costs more than the
// work of a first query (a cold `sextant mcp` answers in about 60% of the
// time unbundled). Chunks are split at dynamic imports, so each command still
// loads only what it uses. Native and heavy packages stay external: the
// SQLite binding, and the TypeScript compiler and protobuf decoder that only
// indexing loads.
import { build } from 'esbuild';
import { projectFile } from '../src/paths.js';

await build({
  // The parsing worker is an entry of its own: it is started by file name
  // (`./syntax-worker.js` beside the code that starts it).
  entryPoints: {
    main: projectFile('dist', 'src', 'cli', 'main.js'),
    'syntax-worker': projectFile('dist', 'src', 'syntax', 'syntax-worker.js'),
  },
  outdir: projectFile('dist', 'bundle'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'typescript', 'protobufjs'],
  // Bundled CommonJS packages may call require(); ESM has none of its own.
  banner: {
    js: "import { createRequire as __sextantCreateRequire } from 'node:module'; const require = __sextantCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
