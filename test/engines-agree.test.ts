// The two registry engines give the same answers. The same repositories, real
// TypeScript (rxjs), real Python (requests) and Go and shell in the syntactic
// and search tiers, are indexed into a SQLite file and into a Postgres
// database, and every tool is asked the same questions at positions drawn from
// the source through the official MCP client: the answers are equal but for
// what names the registry and when the index was made.
//
// This is what lets test files whose subject is not the engine run on SQLite
// alone (scripts/engine-tests.ts): the questions they ask reach the registry
// through these same tools, held equal here on both engines.
import assert from 'node:assert/strict';
import { extname } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { requestsRepo, rxjsRepo } from './support/corpus.js';
import { linesOf, trackedFiles, type Position } from './support/positions.js';
import { fixtureRepo, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, testHome, type McpSession } from './support/sextant.js';
import { prng, shuffle } from './support/stats.js';

interface Corpus {
  slug: string;
  root: () => string;
  /** Extensions of the files positions are drawn from. */
  extensions: string[];
  positions: number;
}

const CORPORA: Corpus[] = [
  { slug: 'rxjs', root: rxjsRepo, extensions: ['.ts'], positions: 60 },
  { slug: 'requests', root: requestsRepo, extensions: ['.py'], positions: 40 },
  { slug: 'go-shell', root: () => fixtureRepo('go-shell'), extensions: ['.go', '.sh'], positions: 20 },
];

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;
/** Lines of comments and docstrings, whose words name nothing an index holds. */
const PROSE = /^\s*(\*|\/\/|\/\*|#|"""|:param|:return)|^\s*[A-Z][a-z]+ [a-z]+ [a-z]+/;
const KEYWORDS = new Set(
  (
    'const let var function return import export from new this typeof instanceof void null undefined true false ' +
    'def self not and None True False elif else with raise try except class pass yield lambda ' +
    'func package type struct interface range echo then done fi'
  ).split(' '),
);

/** Identifiers in the source, drawn with a seed: uses as well as declarations, whatever the index holds. */
function drawPositions(root: string, extensions: string[], count: number, seed: number): Position[] {
  const all: Position[] = [];
  for (const path of trackedFiles(root).filter((p) => extensions.includes(extname(p)))) {
    linesOf(root, path).forEach((text, i) => {
      if (PROSE.test(text)) return;
      for (const m of text.matchAll(IDENTIFIER)) {
        if (m[0].length > 2 && !KEYWORDS.has(m[0])) all.push({ path, line: i + 1, column: m.index! + 1 });
      }
    });
  }
  return shuffle(all, prng(seed)).slice(0, count);
}

/**
 * What may differ between the engines' answers: `meta` (when it was
 * generated), where the registry is and its size, how long a search took and
 * how many files it read (what each engine's substring index gave it:
 * SQLite's trigrams, which keep no positions, narrow less than Postgres's
 * ILIKE), the server process that answered (each session has its own), and
 * the times (`*_at`) of the runs that made each index, one per engine.
 */
const ENGINE_OWN = new Set(['meta', 'registry', 'registry_bytes', 'duration_ms', 'files_searched', 'pid', 'uptime_s']);

function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !ENGINE_OWN.has(k) && !k.endsWith('_at'))
      .map(([k, v]) => [k, comparable(v)]),
  );
}

describe('SQLite and Postgres registries answer every tool alike', () => {
  const cleanup: string[] = [];
  const roots = new Map<string, string>();
  const sessions: McpSession[] = [];

  before(async () => {
    const homes = (['sqlite', 'postgres'] as const).map((engine) => testHome(engine));
    for (const corpus of CORPORA) {
      const root = corpus.root();
      roots.set(corpus.slug, root);
      cleanup.push(root);
      for (const { env } of homes) indexOrThrow(root, env, '--repo', corpus.slug);
    }
    for (const { home, env } of homes) {
      cleanup.push(home);
      // Without the lsp tier: its answers come from a live server, not from either registry.
      sessions.push(await mcpSession({ ...env, SEXTANT_LSP: '0' }));
    }
  });

  after(async () => {
    for (const session of sessions) await session.close();
    for (const dir of cleanup) removeDir(dir);
  });

  /** Asks both registries; their answers (or errors) must be equal. Returns SQLite's. */
  async function same(tool: string, args: Record<string, unknown>): Promise<{ isError: boolean; result: any }> {
    const [sqlite, postgres] = await Promise.all(sessions.map((s) => s.call(tool, args)));
    assert.deepEqual(comparable(postgres), comparable(sqlite), `${tool} ${JSON.stringify(args)}`);
    return sqlite!;
  }

  for (const [n, corpus] of CORPORA.entries()) {
    test(`${corpus.slug}: definitions, references, call and type hierarchies and outlines at ${corpus.positions} positions`, async () => {
      const root = roots.get(corpus.slug)!;
      const positions = drawPositions(root, corpus.extensions, corpus.positions, 0xe9 + n);
      assert.equal(positions.length, corpus.positions, 'enough identifiers to draw from');
      let found = 0;
      for (const p of positions) {
        const at = { repo: corpus.slug, ...p };
        const def = await same('goToDefinition', at);
        if (!def.isError && def.result.definitions?.length > 0) found++;
        await same('findReferences', { ...at, include_declaration: true, limit: 100 });
        for (const direction of ['incoming', 'outgoing']) await same('callHierarchy', { ...at, direction, depth: 2, limit: 50 });
        for (const direction of ['supertypes', 'subtypes']) await same('typeHierarchy', { ...at, direction, depth: 2 });
      }
      for (const path of new Set(positions.map((p) => p.path))) await same('documentSymbols', { repo: corpus.slug, path });
      // Equal answers are only worth something if they say something.
      assert.ok(found >= corpus.positions / 3, `${corpus.slug}: ${found} of ${corpus.positions} positions found a definition`);
    });

    test(`${corpus.slug}: workspace symbols, code and file search, status`, async () => {
      const root = roots.get(corpus.slug)!;
      const repo = corpus.slug;
      const words = drawPositions(root, corpus.extensions, 20, 0x5e + n).map((p) => {
        const line = linesOf(root, p.path)[p.line - 1]!;
        return line.slice(p.column - 1).match(IDENTIFIER)![0];
      });
      let hits = 0;
      for (const [i, word] of words.entries()) {
        const symbols = await same('workspaceSymbols', { repo, query: word, limit: 50 });
        hits += symbols.result.symbols?.length ?? 0;
        await same('workspaceSymbols', { repo, query: word.slice(0, 3), limit: 20 });
        await same('searchCode', { repo, query: word, limit: 30, context: 1 });
        await same('searchCode', {
          repo,
          query: i % 2 ? `${word}\\s*\\(` : `^\\s*(def|func|function|class)\\s+${word.slice(0, 2)}`,
          regex: true,
          limit: 30,
        });
        await same('searchCode', { query: word, limit: 20 });
        await same('findFiles', { repos: [repo], name: word.slice(0, 4) });
      }
      await same('findFiles', { repos: [repo], extensions: corpus.extensions, sort: 'size', desc: true, limit: 40 });
      await same('findFiles', { repos: [repo], kind: 'dir', sort: 'path', offset: 2, limit: 30 });
      await same('findFiles', { repos: [repo], path: '^[a-z]+/[^/]+$', regex: true, sort: 'extension', limit: 30 });
      await same('countFiles', { repos: [repo] });
      await same('countFiles', { repos: [repo], extensions: corpus.extensions });
      await same('getIndexStatus', { repo });
      await same('registryStatus', {});
      assert.ok(hits > 0, `${repo}: workspaceSymbols found none of ${words.join(', ')}`);
    });
  }
});
