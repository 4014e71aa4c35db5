// Incremental runs: no SCIP indexer indexes only what changed, but an indexer
// given several projects can be given fewer. A project none of whose files
// changed since the repository's current index is not indexed again: its
// files keep the documents that index gave them (documents are content-
// addressed, so a file whose text is unchanged keeps a valid document).
// Anything that can change what an unchanged file means — a deleted or
// renamed file, a changed config or package manifest, an indexer that did not
// succeed last time — makes every project run. References from an unchanged
// project to a changed one keep pointing at symbols by name, as SCIP links
// documents; only a renamed symbol leaves them behind until the next full run.
import { posix } from 'node:path';
import type { Engine } from '../registry/engine.js';
import type { IndexerManifest } from './manifests.js';
import type { ProjectPlan } from './projects.js';

export interface PreviousIndex {
  /** Each file of the current index: its blob and its document. */
  files: Map<string, { blob: string; document: number | null }>;
  /** The indexers that built it, with how they ended. */
  tools: { name: string; version: string | null; status: string }[];
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
  /** Files of the other projects, with the document each keeps. */
  documents: Map<string, number>;
  /** Version of the indexer that built the kept documents. */
  version: string | null;
}

/** Which projects of `plan` must run again, and the documents the others keep; null when all must run. */
export function planCarryOver(
  manifest: IndexerManifest,
  plan: ProjectPlan,
  previous: PreviousIndex | null,
  files: ReadonlyMap<string, string>,
): CarryOver | null {
  if (!previous || plan.planned.length < 2 || !manifest.projects) return null;
  const before = previous.tools.find((t) => t.name === manifest.name);
  if (!before || before.status !== 'ok') return null;
  const changed = new Set<string>();
  for (const [path, sha] of files) if (previous.files.get(path)?.blob !== sha) changed.add(path);
  for (const path of previous.files.keys()) if (!files.has(path)) return null;
  const shaping = new Set([...manifest.projects.configFiles, 'package.json']);
  for (const path of changed) if (shaping.has(posix.basename(path))) return null;

  const run = new Set<number>();
  const documents = new Map<string, number>();
  plan.planned.forEach((project, i) => {
    if (project.files.some((f) => changed.has(f))) {
      run.add(i);
      return;
    }
    for (const f of project.files) {
      const document = previous.files.get(f)?.document;
      if (document != null) documents.set(f, document);
    }
  });
  return { run, documents, version: before.version };
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
