// The syntactic tier of `sextant index`: languages that ended search-only
// (no SCIP indexer, or it failed) get their definitions from universal-ctags.
// Syntax documents are content-addressed by blob, language and parser, so a
// file parsed once is never parsed again; they become visible when the index
// that lists them is published.
import { createHash } from 'node:crypto';
import { isAbsolute } from 'node:path';
import type { WorktreeFile } from '../freshness/worktree.js';
import type { Engine } from '../registry/engine.js';
import {
  deleteSyntaxDocuments,
  existingSyntaxDocuments,
  writeSyntaxDocuments,
  type PreparedSyntaxDocument,
} from '../registry/syntactic.js';
import { chunks, type RegistryWriter } from '../registry/writer.js';
import { CTAGS_DERIVATION, ctagsVersion, definitionsFromTags, runCtags } from '../syntax/ctags.js';
import type { Progress } from '../progress.js';
import type { IndexerReport, LanguageReport } from './index-repository.js';
import { languageOf } from '../languages.js';
import { resolveCommand } from './manifests.js';
import { splitLines } from '../lines.js';

export const CTAGS = 'universal-ctags';
/** ctags reads a few megabytes a second per core at worst; a whole run is bounded by this unless --timeout says otherwise. */
const TIMEOUT_SECONDS = 600;
const BATCH_DOCUMENTS = 200;
const MISSING_RECOVERY = 'apt-get install universal-ctags (or set SEXTANT_CTAGS to its path)';

export interface SyntacticInput {
  engine: Engine;
  writer: RegistryWriter;
  files: readonly WorktreeFile[];
  /** Updated in place: a search-only language whose files ctags read becomes syntactic. */
  languages: Record<string, LanguageReport>;
  env: NodeJS.ProcessEnv;
  timeoutSeconds?: number | undefined;
  progress: Progress;
}

export interface SyntacticResult {
  /** The syntax document of each file of a syntactic language. */
  ids: Map<string, number>;
  /** What ctags did; null when no language needed it. */
  report: IndexerReport | null;
  definitions: number;
}

export async function indexSyntactic(input: SyntacticInput): Promise<SyntacticResult> {
  const eligible = Object.entries(input.languages)
    .filter(([, l]) => l.tier === 'search-only')
    .map(([language]) => language);
  const none: SyntacticResult = { ids: new Map(), report: null, definitions: 0 };
  if (eligible.length === 0) return none;

  const program = input.env.SEXTANT_CTAGS || 'ctags';
  const command = resolveCommand({ command: { path: program } }, input.env)?.[0];
  const version = command ? await ctagsVersion(command) : undefined;
  if (!command || !version) {
    const why = command
      ? `${command} is not universal-ctags`
      : `universal-ctags is not installed (no executable ${program}${isAbsolute(program) ? '' : ' on PATH'})`;
    for (const language of eligible) {
      const l = input.languages[language]!;
      l.reason = `${l.reason ?? 'no SCIP indexer'}; ${why}, so it has no syntactic definitions either`;
      l.recovery = `for definitions and symbols, ${MISSING_RECOVERY}; for precise navigation, ${l.recovery ?? 'add a SCIP indexer'}`;
    }
    return { ...none, report: { name: CTAGS, version: null, status: 'missing', reason: why, documents: 0, duration_ms: 0, projects: [] } };
  }

  const parser = `${CTAGS} ${version}`;
  const hashOf = (f: { sha: string; language: string }) =>
    createHash('sha256').update(`ctags\0${CTAGS_DERIVATION}\0${version}\0${f.language}\0${f.sha}`).digest('hex');
  const files = input.files
    .map((f) => ({ ...f, language: languageOf(f.path) ?? '' }))
    .filter((f) => eligible.includes(f.language))
    .map((f) => ({ ...f, hash: hashOf(f) }));
  const stored = await existingSyntaxDocuments(input.engine, [...new Set(files.map((f) => f.hash))]);
  const byHash = new Map<string, number>(stored);
  const definitionCounts = new Map<number, number>();
  // One parse per content: the first file with each new hash stands for the rest.
  const toParse = [...new Map(files.filter((f) => !byHash.has(f.hash)).map((f) => [f.hash, f])).values()];
  // Files whose text was not kept (binary, over the size cap) have nothing to parse.
  const kept = await blobsWithText(
    input.engine,
    toParse.map((f) => f.sha),
  );
  const readable = toParse.filter((f) => kept.has(f.sha));
  const textOf = async (f: { sha: string }) => (await input.writer.blobText(f.sha)) ?? '';

  input.progress.update(`${CTAGS}: reading ${readable.length} files…`);
  let pending: PreparedSyntaxDocument[] = [];
  const created: number[] = [];
  const flush = async () => {
    const written = await writeSyntaxDocuments(input.engine, pending);
    pending.forEach((d, i) => {
      const { id } = written[i]!;
      byHash.set(d.contentHash, id);
      definitionCounts.set(id, d.definitions.length);
      if (written[i]!.created) created.push(id);
    });
    pending = [];
  };
  const outcome = await runCtags(command, readable, {
    timeoutMs: (input.timeoutSeconds ?? TIMEOUT_SECONDS) * 1000,
    read: textOf,
    onFile: async (file, tags) => {
      const definitions = definitionsFromTags(tags, splitLines(await textOf(file)), file.language);
      pending.push({ contentHash: file.hash, language: file.language, parser, definitions });
      if (pending.length >= BATCH_DOCUMENTS) await flush();
    },
  });
  await flush();
  const report: IndexerReport = {
    name: CTAGS,
    version,
    status: outcome.status,
    reason: outcome.reason,
    documents: readable.length,
    duration_ms: Math.round(outcome.durationMs),
    projects: [],
  };
  if (outcome.status !== 'ok') {
    // What it wrote may be incomplete (files it could not open look empty): it must not be reused.
    await deleteSyntaxDocuments(input.engine, created);
    for (const language of eligible) {
      const l = input.languages[language]!;
      l.reason = `${l.reason ?? 'no SCIP indexer'}; ${outcome.reason}`;
    }
    return { ...none, report };
  }

  // Definition counts of documents stored by an earlier run.
  const reused = [...stored.values()].filter((id) => !definitionCounts.has(id));
  for (const [id, n] of await countDefinitions(input.engine, reused)) definitionCounts.set(id, n);
  const ids = new Map<string, number>();
  let definitions = 0;
  for (const language of eligible) {
    const mine = files.filter((f) => f.language === language && byHash.has(f.hash));
    const found = mine.reduce((sum, f) => sum + (definitionCounts.get(byHash.get(f.hash)!) ?? 0), 0);
    const l = input.languages[language]!;
    if (found === 0) {
      l.reason = `${l.reason ?? 'no SCIP indexer'}; ${CTAGS} found no definitions in its ${mine.length} readable files`;
      continue;
    }
    for (const f of mine) ids.set(f.path, byHash.get(f.hash)!);
    definitions += found;
    input.languages[language] = {
      ...l,
      tier: 'syntactic',
      indexer: CTAGS,
      indexed_files: mine.length,
      reason:
        `${l.reason ?? 'no SCIP indexer'}: definitions come from ${parser} (symbols and definition by name; ` +
        'references are whole-word text matches; call and type hierarchies need a precise index)',
      recovery: l.recovery,
    };
  }
  return { ids, report, definitions };
}

async function countDefinitions(engine: Engine, ids: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (const chunk of chunks(ids, engine.capabilities.maxParameters - 1)) {
    const rows = await engine.db.selectFrom('syntax_documents').select(['id', 'definition_count']).where('id', 'in', chunk).execute();
    for (const r of rows) counts.set(r.id, r.definition_count);
  }
  return counts;
}

async function blobsWithText(engine: Engine, shas: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunks([...new Set(shas)], engine.capabilities.maxParameters - 1)) {
    const rows = await engine.db.selectFrom('blobs').select('sha').where('sha', 'in', chunk).where('content', 'is not', null).execute();
    for (const r of rows) found.add(r.sha);
  }
  return found;
}
