// Writes wrappers that run compiled test files against a Postgres registry:
// dist/engine-tests/postgres/<file>. A wrapper selects the engine
// (test/support/registry.ts reads it) and imports the real file, so that one
// `node --test` run covers both engines and prints one summary.
//
// Every test file runs on SQLite; those in ON_POSTGRES, whose subject is the
// registry engine, run against a Postgres server too. `--sqlite` leaves the
// wrappers out, and the files that open both engines themselves
// (`npm run test:sqlite`, on a machine without Postgres).
//
// Prints the files of that run, the slowest first: the test runner starts
// them in the order given, and a slow file started last would run alone at
// the end while the other cores idle. `npm test` runs three files at a time
// on this project's two-core machines: about a fifth of the suite's time is
// spent waiting (language servers starting, heartbeats, watchers settling),
// which a third file fills.
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { projectFile } from '../src/paths.js';

const tests = projectFile('dist', 'test');
const out = projectFile('dist', 'engine-tests', 'postgres');
rmSync(out, { recursive: true, force: true });

/**
 * Test files that take 20 s or more alone on one engine (real indexers over
 * large corpora, language servers, long sessions), slowest first by the
 * larger of their CPU and wall times, measured file by file (three files
 * share two cores: a file's CPU is what it holds of them); named by their
 * path under test/ without `.test.ts`, as in the sets below.
 */
const SLOW = [
  'publish',
  'engines-agree',
  'incremental',
  'held-out-monorepo',
  'edits',
  'index',
  'held-out-factory',
  'lsp-edited-real',
  'interrupt',
  'lsp-edited',
  'ci-template',
  'reindex',
  'large-files',
  'hierarchy',
  'concurrent-publish',
  'syntactic',
  'leases',
  'bad-input',
  'fuzz',
  'load',
  'atomic-publish',
  'python-declarations',
  'index-corpus',
  'mcp',
  'lsp-tier',
  'lsp-index',
  'envelope',
  'registry-engines',
];
/**
 * Files whose subject is the registry engine, which run against Postgres as
 * well as SQLite: publishing, its atomicity, concurrent publishers (with
 * readers asking throughout) and interrupted ones; write locks, leases, jobs
 * and garbage collection; status; the search tables (each engine
 * has its own text index: FTS5 trigrams, pg_trgm); references across the
 * repositories of one registry; migrations and the commit graph.
 *
 * Every other file reaches the registry through the tools' questions, and
 * engines-agree holds the two engines' answers to those equal, tool by tool,
 * on real TypeScript and Python and on the syntactic and search tiers: those
 * files run on SQLite alone (on both engines the suite took CI past its 20
 * minutes). So do `sextant watch` (its locks and publishes are interrupt's and
 * publish's on Postgres), reindex (its jobs, joined, failed when their process
 * or lease is gone and started anew, are leases' on Postgres), load (readers
 * during a publish are concurrent-publish's on Postgres: four clients asking
 * throughout get the finished index's answers or none, never part of one)
 * and search over MCP (the engine's search is search-index's and
 * search-differential's).
 */
const ON_POSTGRES = new Set([
  'publish',
  'atomic-publish',
  'concurrent-publish',
  'interrupt',
  'leases',
  'registry-engines',
  'status-snapshot',
  'search-index',
  'search-differential',
  'files-differential',
  'cross-repo',
  'unit/migrations',
  'unit/commit-graph',
]);
/** Files that open a registry on each engine themselves: run once, and not with `--sqlite`. */
const BOTH_ENGINES = new Set(['engines-agree']);
const postgres = !process.argv.includes('--sqlite');

/** A test file's name in the sets above. */
const nameOf = (file: string) =>
  relative(tests, file)
    .split('\\')
    .join('/')
    .replace(/\.test\.js$/, '');

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : name.endsWith('.test.js') ? [path] : [];
  });

const found = walk(tests)
  .sort()
  .map((file) => ({ file, name: nameOf(file) }));
// A name above that names no file (a file renamed or removed) would silently change what runs where.
for (const name of [...SLOW, ...ON_POSTGRES, ...BOTH_ENGINES]) {
  if (!found.some((f) => f.name === name))
    throw new Error(`scripts/engine-tests.ts names test/${name}.test.ts, which does not exist: update its lists`);
}
const files = found.filter(({ name }) => postgres || !BOTH_ENGINES.has(name));
const wrappers: typeof files = [];
for (const { file, name } of postgres ? files.filter(({ name }) => ON_POSTGRES.has(name)) : []) {
  const wrapper = join(out, relative(tests, file));
  mkdirSync(dirname(wrapper), { recursive: true });
  const target = relative(dirname(wrapper), file).split('\\').join('/');
  writeFileSync(
    wrapper,
    `// Generated by scripts/engine-tests.ts: ${relative(projectFile(), file)} against a Postgres registry.\n` +
      `process.env.SEXTANT_TEST_REGISTRY_ENGINE = 'postgres';\n` +
      `await import('./${target}');\n`,
  );
  wrappers.push({ file: wrapper, name });
}

const rank = (name: string) => {
  const i = SLOW.indexOf(name);
  return i < 0 ? SLOW.length : i;
};
// The slowest first, each slow file's two engines next to each other, then the rest in name order.
const run = [...files, ...wrappers].sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
process.stdout.write(run.map((f) => relative(projectFile(), f.file)).join('\n') + '\n');
