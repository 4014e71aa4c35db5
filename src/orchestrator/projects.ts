// Which projects an indexer is given, chosen the way a language server picks
// the project of a file: each tracked file belongs to the nearest config
// (tsconfig.json before jsconfig.json in one folder) whose own file list
// includes it, or, where that config is a solution (`"files": []` with
// `references`, as Vite's and Nx's templates write them), to the first project
// it references that does; the files no config includes belong to an inferred
// project. Every config that owns files is indexed, each file by its owner only,
// in a program that knows the projects its config references, as a language
// server's does (project-references-patch.ts).
import { posix } from 'node:path';
import type * as ts from 'typescript';
import { loadTypescript } from '../syntax/load-typescript.js';
import type { IndexerManifest } from './manifests.js';
import { REFERENCES_KEY } from './project-references-patch.js';

/** One project as planned: its config (repository-relative; null when inferred) and the tracked files it owns. */
export interface PlannedProject {
  config: string | null;
  files: string[];
  /** How the indexer is given it: a config passed as it is (absolute), or the fileName of a generated one. */
  launch: { project: string } | { generated: string };
  /**
   * A config that means the same as the project's but lists no files of its
   * own (`files` is added): written outside the tree, it indexes just the
   * files it is given (see incremental.ts, narrowedConfig).
   */
  base: Record<string, unknown>;
}

/** A config that owns no files because it cannot be read, and why. */
export interface ProjectGap {
  config: string;
  reason: string;
}

export interface ProjectPlan {
  /** Config files to pass as they are (absolute paths). */
  projects: string[];
  /** Configs to write outside the tree and pass after `projects`. */
  generatedConfigs: { fileName: string; content: string }[];
  /** Every project that owns files, in the order they are indexed; the inferred one last. */
  planned: PlannedProject[];
  gaps: ProjectGap[];
  /**
   * Every config the plan read inside the repository (repository-relative):
   * found by name, referenced, or extended. A change to any of them can move
   * files between projects or change how they compile.
   */
  configInputs: string[];
}

// Loaded only when a repository has configs to read.
export const typescript = loadTypescript;

/** What scip-typescript adds to a jsconfig.json's options, as editors do (its main.ts, defaultCompilerOptions). */
const JSCONFIG_DEFAULTS = { allowJs: true, maxNodeModuleJsDepth: 2, allowSyntheticDefaultImports: true, skipLibCheck: true, noEmit: true };

interface ReadConfig {
  path: string;
  dir: string;
  /** Repository-relative files of the config's own list (include/exclude/files). */
  fileNames: Set<string>;
  /** Absolute files of its list, tracked or not. */
  absoluteFileNames: string[];
  /** The tracked configs it references, repository-relative, in its order. */
  references: string[];
  hasReferences: boolean;
  setsTypeRoots: boolean;
}

export function planProjects(
  manifest: IndexerManifest,
  root: string,
  allFiles: readonly string[],
  languageFiles: readonly string[],
): ProjectPlan {
  const plan: ProjectPlan = { projects: [], generatedConfigs: [], planned: [], gaps: [], configInputs: [] };
  const spec = manifest.projects;
  if (!spec) return plan;
  const tracked = new Set(allFiles);
  // Deepest first; in one folder, tsconfig.json before jsconfig.json before a referenced config.
  const rank = (c: string) => {
    const i = spec.configFiles.indexOf(posix.basename(c));
    return i < 0 ? spec.configFiles.length : i;
  };
  const nearestFirst = (a: string, b: string) => depth(b) - depth(a) || rank(a) - rank(b) || a.localeCompare(b);
  const named = allFiles
    .filter((f) => spec.configFiles.includes(posix.basename(f)) && !f.split('/').includes('node_modules'))
    .sort(nearestFirst);

  // The configs found by name, then those they reference (`tsconfig.app.json`), each read once.
  const read = new Map<string, ReadConfig>();
  const inputs = new Set<string>();
  const extendedCache = new Map<string, ts.ExtendedConfigCacheEntry>();
  const pending = [...named];
  for (let path = pending.shift(); path !== undefined; path = pending.shift()) {
    if (read.has(path) || plan.gaps.some((g) => g.config === path)) continue;
    inputs.add(path);
    const config = readConfig(root, path, tracked, extendedCache);
    if ('reason' in config) plan.gaps.push({ config: path, reason: config.reason });
    else {
      read.set(path, config);
      pending.push(...config.references);
    }
  }
  const prefix = `${root}/`;
  for (const extended of extendedCache.keys()) {
    const path = extended.startsWith(prefix) ? extended.slice(prefix.length) : null;
    if (path !== null && tracked.has(path)) inputs.add(path);
  }
  plan.configInputs = [...inputs].sort();
  const configs = [...read.values()].sort((a, b) => nearestFirst(a.path, b.path));

  // Where a language server looks for a file's project from each config found by name: the config
  // itself, then the projects it references, depth first.
  const searched = new Map<ReadConfig, ReadConfig[]>();
  const searchOrder = (config: ReadConfig, seen = new Set<ReadConfig>()): ReadConfig[] => {
    if (seen.has(config)) return [];
    seen.add(config);
    return [config, ...config.references.flatMap((r) => (read.has(r) ? searchOrder(read.get(r)!, seen) : []))];
  };
  for (const path of named) if (read.has(path)) searched.set(read.get(path)!, searchOrder(read.get(path)!));

  // Owner of each file: the nearest enclosing config found by name that lists it, itself or through
  // its references (configs are sorted deepest first), else any config listing it from elsewhere
  // (`include: ["../shared"]`).
  const owner = new Map<string, ReadConfig>();
  for (const file of languageFiles) {
    let chosen: ReadConfig | undefined;
    for (const [config, order] of searched) {
      if (config.dir !== '.' && !file.startsWith(`${config.dir}/`)) continue;
      chosen = order.find((c) => c.fileNames.has(file));
      if (chosen) break;
    }
    chosen ??= configs.find((c) => c.fileNames.has(file));
    if (chosen) owner.set(file, chosen);
  }
  const owned = new Map<ReadConfig, string[]>();
  for (const [file, config] of owner) {
    const files = owned.get(config);
    if (files) files.push(file);
    else owned.set(config, [file]);
  }

  for (const config of configs) {
    const files = owned.get(config);
    if (!files) continue;
    // Written outside the tree, extending the original, so every option (paths, baseUrl, lib) still
    // resolves from where the user wrote it.
    const base = {
      extends: posix.join(root, config.path),
      compilerOptions: {
        ...(posix.basename(config.path) === 'jsconfig.json' ? JSCONFIG_DEFAULTS : {}),
        // Types of node_modules/@types are found from the config's folder, not from where the copy is.
        ...(config.setsTypeRoots ? {} : { typeRoots: typeRootsFrom(posix.join(root, config.dir)) }),
      },
      include: [],
      // scip-typescript would index each referenced project again: they are passed apart, for its program only.
      references: [],
      ...(config.references.length > 0 ? { [REFERENCES_KEY]: config.references.map((r) => posix.join(root, r)) } : {}),
    };
    const sharesFiles = [...config.fileNames].some((f) => owner.has(f) && owner.get(f) !== config);
    if (!sharesFiles && !config.hasReferences) {
      const project = posix.join(root, config.path);
      plan.planned.push({ config: config.path, files: files.sort(), launch: { project }, base });
      plan.projects.push(project);
      continue;
    }
    // Its own list less what nearer configs own.
    const othersOwn = new Set([...owner].filter(([, c]) => c !== config).map(([f]) => posix.join(root, f)));
    const derived = { ...base, files: config.absoluteFileNames.filter((f) => !othersOwn.has(f)) };
    const fileName = `project-${plan.generatedConfigs.length + 1}.json`;
    plan.planned.push({ config: config.path, files: files.sort(), launch: { generated: fileName }, base });
    plan.generatedConfigs.push({ fileName, content: JSON.stringify(derived, null, 1) });
  }

  const remainder = languageFiles.filter((f) => !owner.has(f));
  if (remainder.length > 0 && spec.inferred) {
    const base = { compilerOptions: { ...spec.inferred.compilerOptions, typeRoots: typeRootsFrom(root) } };
    plan.planned.push({ config: null, files: [...remainder].sort(), launch: { generated: spec.inferred.fileName }, base });
    const content = JSON.stringify({ ...base, files: remainder.map((f) => posix.join(root, f)) }, null, 1);
    plan.generatedConfigs.push({ fileName: spec.inferred.fileName, content });
  }
  return plan;
}

/** A config's file list by the compiler's own rules, or why it cannot be used. */
function readConfig(
  root: string,
  path: string,
  tracked: ReadonlySet<string>,
  extendedCache: Map<string, ts.ExtendedConfigCacheEntry>,
): ReadConfig | { reason: string } {
  const tsc = typescript();
  const absolute = posix.join(root, path);
  const read = tsc.readConfigFile(absolute, tsc.sys.readFile);
  if (read.error) return { reason: `${path} cannot be read: ${message(read.error)}` };
  const options = posix.basename(path) === 'jsconfig.json' ? JSCONFIG_DEFAULTS : {};
  const parsed = tsc.parseJsonConfigFileContent(
    read.config,
    tsc.sys,
    posix.dirname(absolute),
    options,
    absolute,
    undefined,
    undefined,
    extendedCache,
  );
  // No inputs (TS18003) only means the config owns nothing; any other error stops scip-typescript from indexing it.
  const error = parsed.errors.find((e) => e.code !== 18003);
  if (error) return { reason: `${path} has an error: ${message(error)}` };
  const prefix = `${root}/`;
  const fileNames = new Set(parsed.fileNames.filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length)));
  // A reference names a config or the folder of its tsconfig.json; one outside the repository or not
  // tracked is not read (never outside the root).
  const references = (parsed.projectReferences ?? [])
    .map((r) => posix.normalize(tsc.resolveProjectReferencePath(r)))
    .filter((f) => f.startsWith(prefix) && tracked.has(f.slice(prefix.length)))
    .map((f) => f.slice(prefix.length));
  return {
    path,
    dir: posix.dirname(path),
    fileNames,
    absoluteFileNames: parsed.fileNames,
    references,
    hasReferences: (parsed.projectReferences?.length ?? 0) > 0,
    setsTypeRoots: parsed.options.typeRoots !== undefined,
  };
}

function message(diagnostic: ts.Diagnostic): string {
  return typescript().flattenDiagnosticMessageText(diagnostic.messageText, ' ').split('\n')[0]!.slice(0, 300);
}

/** node_modules/@types of a folder and its ancestors, as the compiler looks them up by default. */
function typeRootsFrom(dir: string): string[] {
  const roots: string[] = [];
  for (let d = dir; ; d = posix.dirname(d)) {
    roots.push(posix.join(d, 'node_modules', '@types'));
    if (posix.dirname(d) === d) return roots;
  }
}

function depth(path: string): number {
  return path.split('/').length;
}
