// Syntax facts from the indexer's own parse (src/orchestrator/syntax-facts-patch.ts,
// src/syntax/facts-file.ts): scip-typescript, started as sextant starts it,
// writes each file's facts beside its index, and they must be the facts
// sextant's own parse of the file gives (src/syntax/typescript.ts), which
// they replace.
import assert from 'node:assert/strict';
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadManifests, resolveCommand } from '../../src/orchestrator/manifests.js';
import { runIndexer } from '../../src/orchestrator/run-indexer.js';
import { FactsFileReader, writeFactsFrame, type IndexerFacts } from '../../src/syntax/facts-file.js';
import { SyntaxFacts } from '../../src/syntax/facts.js';
import { typescriptFacts } from '../../src/syntax/typescript.js';
import { tempDir } from '../support/repos.js';

/**
 * Files whose facts depend on how their doc comments were parsed: sextant's
 * parse reads them only where a tag gives facts, the indexer's program parses
 * all of them, and the facts must not tell the two apart.
 */
const FILES: Record<string, string> = {
  // A doc comment whose tags give no facts in TypeScript (no link, see or param): left unread.
  'src/returns.ts': [
    'export interface Shape { area(): number }',
    '/** @returns {Shape} the unit square */',
    'export function unit(): Shape { return { area: () => 1 }; }',
    'export const shapes = { unit, square(side: number): Shape { return { area: () => side * side }; } };',
  ].join('\n'),
  // Links and parameters: read.
  'src/links.ts': [
    "import { unit, type Shape } from './returns';",
    '/** Scales {@link Shape} shapes. @param factor how much @see unit */',
    'export function scale(shape: Shape, factor: number) { return shape.area() * factor; }',
    'export class Big extends Object { constructor() { super(); scale(unit(), 2); } }',
  ].join('\n'),
  // JavaScript typed by doc comments, with CommonJS exports.
  'lib/typed.js': [
    '/** @typedef {{ name: string }} Named */',
    '/** @param {Named} named @returns {string} */',
    'function greet(named) { return `hi ${named.name}`; }',
    'exports.greet = greet;',
    'module.exports.Greeter = class Greeter { hello() { return greet({ name: "x" }); } };',
  ].join('\n'),
  // JavaScript without a tag that gives facts.
  'lib/plain.js': [
    '/** Counts. */',
    "const { greet } = require('./typed');",
    'export default function count() { return greet.length; }',
  ].join('\n'),
};

function stage(): string {
  const root = tempDir('sextant-indexer-facts-');
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { allowJs: true, strict: true, noEmit: true, module: 'esnext', moduleResolution: 'bundler' },
      include: ['src', 'lib'],
    }),
  );
  return root;
}

test("scip-typescript started by sextant gives each indexed file's syntax facts with its document, as sextant's own parse finds them", async () => {
  const root = stage();
  const manifest = loadManifests().find((m) => m.name === 'scip-typescript')!;
  const received = new Map<string, IndexerFacts | undefined>();
  let spawned: { syntaxFacts: boolean } | undefined;
  const result = await runIndexer(
    {
      manifest,
      command: resolveCommand(manifest)!,
      root,
      slug: 'facts',
      projects: ['tsconfig.json'],
      timeoutMs: 120_000,
      onSpawn: (s) => (spawned = s),
    },
    async (document, _bytes, facts) => {
      received.set(document.relativePath, facts);
    },
  );
  assert.equal(result.status, 'ok', result.reason ?? '');
  assert.deepEqual(spawned, { syntaxFacts: true });
  assert.deepEqual([...received.keys()].sort(), Object.keys(FILES).sort(), 'a document per file');
  for (const [path, given] of received) {
    assert.ok(given, `${path} came with its facts`);
    const text = readFileSync(join(root, path), 'utf8');
    assert.equal(given.textLength, text.length, path);
    assert.deepEqual(
      new SyntaxFacts(given.data).toData(),
      typescriptFacts(path, text).toData(),
      `${path}: the indexer's facts are sextant's`,
    );
  }
  // The files give facts of every kind the comparison covers, so that it compares something.
  const data = Object.keys(FILES).map((path) => typescriptFacts(path, FILES[path]!).toData());
  for (const field of ['kinds', 'argumentCounts', 'declarations', 'aliases', 'moduleNames'] as const) {
    assert.ok(
      data.some((d) => d[field].length > 0),
      `some file has ${field}`,
    );
  }
});

test('the facts file is read as far as it is written: a frame cut by the end of what is there waits for its rest', () => {
  const dir = tempDir('sextant-facts-file-');
  const file = join(dir, 'facts');
  const written = join(dir, 'whole');
  // Two frames, as the indexer writes them, then copied over in pieces as a reader racing it would find them.
  const facts = Object.entries(FILES).slice(0, 2);
  const out = openSync(written, 'w');
  for (const [path, text] of facts) writeFactsFrame(out, { path, textLength: text.length, data: typescriptFacts(path, text).toData() });
  closeSync(out);
  const bytes = readFileSync(written);
  const reader = new FactsFileReader(file);
  assert.equal(reader.take(facts[0]![0]), undefined, 'no file yet');
  writeFileSync(file, bytes.subarray(0, 3));
  assert.equal(reader.take(facts[0]![0]), undefined, 'less than a length');
  const firstEnd = 4 + bytes.readUInt32LE(0);
  appendFileSync(file, bytes.subarray(3, firstEnd - 5));
  assert.equal(reader.take(facts[0]![0]), undefined, 'a frame cut short');
  appendFileSync(file, bytes.subarray(firstEnd - 5, firstEnd + 10));
  const first = reader.take(facts[0]![0]);
  assert.deepEqual(first && new SyntaxFacts(first.data).toData(), typescriptFacts(facts[0]![0], facts[0]![1]).toData());
  assert.equal(reader.take(facts[0]![0]), undefined, 'taken once');
  assert.equal(reader.take(facts[1]![0]), undefined, 'the second frame is not whole yet');
  appendFileSync(file, bytes.subarray(firstEnd + 10));
  assert.equal(reader.take(facts[1]![0])?.textLength, facts[1]![1].length);
  reader.close();
});
