// Incremental runs: no SCIP indexer indexes only what changed, but an indexer
// given several projects can be given fewer, and a project can be given fewer
// files. A project none of whose files changed since the repository's current
// index is not indexed again: its files keep the documents that index gave
// them (documents are content-addressed, so a file whose text is unchanged
// keeps a valid document). A project with few changed files is given just
// those (narrowedConfig: scip-typescript indexes exactly the files a config
// lists, while its program still loads what they import), and its other files
// keep their documents, as long as the changed files' surface (surfaceChange)
// is what it was: other files refer to it by symbol name. Otherwise the
// project runs whole, and the report says why (ProjectReport.fallback).
// Anything that can change what an unchanged file means — a deleted or
// renamed file, a changed config or package manifest, an indexer that did not
// succeed last time, documents derived by another version of sextant — makes every project run. References from an unchanged
// project to a changed one keep pointing at symbols by name, as SCIP links
// documents; only a renamed symbol leaves them behind until the next full run.
import { posix } from 'node:path';
import type { Engine } from '../registry/engine.js';
import type { IndexerManifest } from './manifests.js';
import { typescript, type PlannedProject, type ProjectPlan } from './projects.js';
import { isLocalSymbol } from '../scip/symbol.js';
import { DERIVATION_VERSION } from './prepare.js';

export interface PreviousIndex {
  /** Each file of the current index: its blob and its document. */
  files: Map<string, { blob: string; document: number | null }>;
  /** The indexers that built it, with how they ended and the derivation version of their documents (absent before it was recorded). */
  tools: { name: string; version: string | null; status: string; derivation?: number }[];
}

export async function loadPrevious(engine: Engine, indexId: number | null): Promise<PreviousIndex | null> {
  if (indexId === null) return null;
  const index = await engine.db.selectFrom('indexes').select('tools').where('id', '=', indexId).executeTakeFirst();
  if (!index) return null;
  const rows = await engine.db
    .selectFrom('index_files')
    .select(['path', 'blob_sha', 'document_id'])
    .where('index_id', '=', indexId)
    .execute();
  return {
    files: new Map(rows.map((r) => [r.path, { blob: r.blob_sha, document: r.document_id }])),
    tools: JSON.parse(index.tools),
  };
}

export interface CarryOver {
  /** Indexes into plan.planned of the projects to run. */
  run: Set<number>;
  /** The files of each project to run that changed since the previous index. */
  changed: Map<number, string[]>;
  /** Files of the other projects, with the document each keeps. */
  documents: Map<string, number>;
  /** Version of the indexer that built the kept documents. */
  version: string | null;
}

/** Why every project runs: null when there is nothing to carry over from (a first index). */
export interface NoCarryOver {
  reason: string | null;
}

/** Which projects of `plan` must run again, and the documents the others keep; else why all must run. */
export function planCarryOver(
  manifest: IndexerManifest,
  plan: ProjectPlan,
  previous: PreviousIndex | null,
  files: ReadonlyMap<string, string>,
): CarryOver | NoCarryOver {
  if (!previous || !manifest.projects) return { reason: null };
  const before = previous.tools.find((t) => t.name === manifest.name);
  if (!before) return { reason: `${manifest.name} did not index the previous commit` };
  if (before.status !== 'ok') return { reason: `${manifest.name} ended ${before.status} on the previous commit` };
  // Kept documents keep what was derived from them: derived otherwise, they are derived again.
  if (before.derivation !== DERIVATION_VERSION)
    return {
      reason: `the previous index's documents were derived by another version of sextant (derivation ${before.derivation ?? 'unrecorded'}, now ${DERIVATION_VERSION})`,
    };
  const changed = new Set<string>();
  for (const [path, sha] of files) if (previous.files.get(path)?.blob !== sha) changed.add(path);
  for (const path of previous.files.keys()) if (!files.has(path)) return { reason: `${path} was deleted or renamed` };
  // A config by its name (one may have appeared), any config the plan read (a referenced or extended one), or a manifest.
  const shaping = new Set([...manifest.projects.configFiles, 'package.json']);
  const read = new Set(plan.configInputs);
  for (const path of changed) if (shaping.has(posix.basename(path)) || read.has(path)) return { reason: `${path} changed` };

  const run = new Set<number>();
  const changedIn = new Map<number, string[]>();
  const documents = new Map<string, number>();
  plan.planned.forEach((project, i) => {
    const edited = project.files.filter((f) => changed.has(f));
    if (edited.length > 0) {
      run.add(i);
      changedIn.set(i, edited);
      return;
    }
    for (const f of project.files) {
      const document = previous.files.get(f)?.document;
      if (document != null) documents.set(f, document);
    }
  });
  return { run, changed: changedIn, documents, version: before.version };
}

/** How a project that must run is indexed: whole, or only some of its files while the others keep their documents. */
export type RunScope = { granularity: 'files'; files: string[]; changed: string[] } | { granularity: 'project'; reason: string | null };

/**
 * Up to this many changed files, and up to this fraction of their project's
 * files, are indexed alone. A narrowed run still pays the compiler's start-up
 * and the loading of all the files import; what it saves is the indexing of
 * the others, most of a project's run. The more files it is given, the less
 * it saves, and when a file's surface turns out changed the project runs whole
 * after it, paying both: an edit or a commit touching a handful of files
 * narrows, a branch switch or a sweeping change runs the project.
 */
const FEW_FILES = 16;
const FEW_FRACTION = 0.25;

/** For each project that must run: the files to give the indexer, or why the whole project. */
export async function chooseScopes(
  plan: ProjectPlan,
  carry: CarryOver,
  previous: PreviousIndex,
  readText: (path: string) => Promise<string | undefined>,
): Promise<Map<number, RunScope>> {
  const scopes = new Map<number, RunScope>();
  for (const i of carry.run) {
    const project = plan.planned[i]!;
    const changed = carry.changed.get(i)!;
    const added = changed.find((f) => previous.files.get(f)?.document == null);
    if (added) {
      scopes.set(i, { granularity: 'project', reason: `${added} had no document in the previous index (added, or not indexed)` });
      continue;
    }
    const edited = new Set(changed);
    const globals: string[] = [];
    for (const f of project.files) if (!edited.has(f) && declaresGlobals(await readText(f))) globals.push(f);
    const files = [...changed, ...globals];
    if (files.length > FEW_FILES || files.length > FEW_FRACTION * project.files.length) {
      const given = globals.length ? ` (${changed.length} changed, ${globals.length} declaring globals)` : ' changed';
      scopes.set(i, {
        granularity: 'project',
        reason: `${files.length} of its ${project.files.length} files${given}: files are indexed alone up to ${FEW_FILES} and a quarter of their project`,
      });
      continue;
    }
    scopes.set(i, { granularity: 'files', files, changed });
  }
  return scopes;
}

/**
 * Whether a file can change what other files' names mean without being
 * imported: a script (no import or export, so its declarations are global),
 * or a module that declares a global or augments a module. A program of a
 * few files keeps these, so that the files' names resolve as in the whole
 * project. Read from the text, erring toward keeping: an unreadable file is kept.
 */
export function declaresGlobals(text: string | undefined): boolean {
  if (text === undefined) return true;
  return !/^[ \t]*(?:import(?:\s*[*{'"]|\s+[\w$])|export\b)/m.test(text) || /\bdeclare\s+(?:global|module)\b/.test(text);
}

/** A config indexing only `files` of `project`, with the project's options. */
export function narrowedConfig(root: string, project: PlannedProject, files: readonly string[], fileName: string) {
  return { fileName, content: JSON.stringify({ ...project.base, files: files.map((f) => posix.join(root, f)) }, null, 1) };
}

/** The indexer's arguments for the projects that run: whole, or narrowed to their files. */
export function launchScopes(
  root: string,
  plan: ProjectPlan,
  scopes: ReadonlyMap<number, RunScope>,
): Pick<ProjectPlan, 'projects' | 'generatedConfigs'> {
  const whole = new Set([...scopes].filter(([, s]) => s.granularity === 'project').map(([i]) => i));
  const launch = narrowPlan(plan, whole);
  for (const [i, scope] of scopes) {
    if (scope.granularity === 'files')
      launch.generatedConfigs.push(narrowedConfig(root, plan.planned[i]!, scope.files, `files-${i + 1}.json`));
  }
  return launch;
}

/**
 * What other files may have used of a changed file and is no longer as it
 * was, or null. Other files' documents name a changed file's symbols by
 * their symbol strings, and show what sextant stores for them (kind,
 * signature — inferred types included — and documentation). So the file's
 * surface is its non-local definitions with those: if one is gone or differs,
 * others may be wrong. An added one cannot be referred to by other files
 * unless they mention its name (then as an unresolved name, which it would
 * now resolve): `mentions` finds a file of the project that does.
 */
export async function surfaceChange(
  engine: Engine,
  path: string,
  before: number,
  after: number,
  mentions: (names: string[]) => Promise<string | undefined>,
): Promise<string | null> {
  if (before === after) return null;
  const rows = await engine.db
    .selectFrom('definitions')
    .innerJoin('symbols', 'symbols.id', 'definitions.symbol_id')
    .select([
      'definitions.document_id',
      'symbols.symbol',
      'definitions.name',
      'definitions.kind',
      'definitions.signature',
      'definitions.documentation',
    ])
    .where('definitions.document_id', 'in', [before, after])
    .execute();
  const surface = (id: number) => {
    const described = new Map<string, { name: string; facts: string[] }>();
    for (const r of rows) {
      if (r.document_id !== id || isLocalSymbol(r.symbol)) continue;
      const entry = described.get(r.symbol) ?? { name: r.name, facts: [] };
      entry.facts.push(JSON.stringify([r.kind, r.signature, r.documentation]));
      described.set(r.symbol, entry);
    }
    return new Map([...described].map(([symbol, { name, facts }]) => [symbol, { name, facts: facts.sort().join('\n') }]));
  };
  const old = surface(before);
  const now = surface(after);
  for (const [symbol, { name, facts }] of old) {
    const current = now.get(symbol);
    if (!current) return `the surface of ${path} changed: it no longer defines ${name} (${symbol})`;
    if (current.facts !== facts) return `the surface of ${path} changed: ${name} (${symbol}) is not declared as it was`;
  }
  const added = [...new Set([...now].filter(([symbol]) => !old.has(symbol)).map(([, { name }]) => name))];
  const mentioning = added.length ? await mentions(added) : undefined;
  if (!mentioning) return null;
  const named = added.slice(0, 3).join(', ') + (added.length > 3 ? ', …' : '');
  return `the surface of ${path} changed: it now defines ${named}, which ${mentioning} mentions (naming nothing before)`;
}

/**
 * The statements by which a file exports what it does not declare: `export
 * { a as b }`, `export * from`, `export default expression`, `export =`.
 * Other files' documents name the symbols these lead to, not the file's own:
 * while their text is unchanged (and the definitions are, see surfaceChange)
 * they lead where they did. Compared as written, whitespace aside.
 */
export function exportAliases(text: string): string[] {
  const ts = typescript();
  const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, false);
  return source.statements
    .filter(
      (s) =>
        ts.isExportDeclaration(s) ||
        ts.isExportAssignment(s) ||
        ts.isNamespaceExportDeclaration(s) ||
        (ts.isImportEqualsDeclaration(s) && s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)),
    )
    .map((s) => s.getText(source).replace(/\s+/g, ' '))
    .sort();
}

/** The first of `files` whose text mentions one of `names` as a word, if any. */
export async function firstMention(
  files: readonly string[],
  names: readonly string[],
  readText: (path: string) => Promise<string | undefined>,
): Promise<string | undefined> {
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const word = new RegExp(`(?<![\\w$])(?:${escaped.join('|')})(?![\\w$])`);
  for (const f of files) {
    const text = await readText(f);
    // An unreadable file might mention anything.
    if (text === undefined || word.test(text)) return f;
  }
  return undefined;
}

/** The indexer's arguments for only the projects that run. */
export function narrowPlan(plan: ProjectPlan, run: ReadonlySet<number>): Pick<ProjectPlan, 'projects' | 'generatedConfigs'> {
  const kept = plan.planned.filter((_, i) => run.has(i));
  const projects = new Set(kept.flatMap((p) => ('project' in p.launch ? [p.launch.project] : [])));
  const generated = new Set(kept.flatMap((p) => ('generated' in p.launch ? [p.launch.generated] : [])));
  return {
    projects: plan.projects.filter((p) => projects.has(p)),
    generatedConfigs: plan.generatedConfigs.filter((g) => generated.has(g.fileName)),
  };
}

/** Occurrences and definitions of the kept documents, counted per file as a run counts them. */
export async function documentCounts(engine: Engine, ids: readonly number[]): Promise<{ occurrences: number; definitions: number }> {
  const unique = [...new Set(ids)];
  const byId = new Map<number, { occurrence_count: number; definition_count: number }>();
  const step = Math.max(1, engine.capabilities.maxParameters - 10);
  for (let i = 0; i < unique.length; i += step) {
    const rows = await engine.db
      .selectFrom('documents')
      .select(['id', 'occurrence_count', 'definition_count'])
      .where('id', 'in', unique.slice(i, i + step))
      .execute();
    for (const r of rows) byId.set(r.id, r);
  }
  let occurrences = 0;
  let definitions = 0;
  for (const id of ids) {
    occurrences += byId.get(id)?.occurrence_count ?? 0;
    definitions += byId.get(id)?.definition_count ?? 0;
  }
  return { occurrences, definitions };
}
