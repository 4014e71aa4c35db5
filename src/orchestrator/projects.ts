// Which projects an indexer is given, chosen the way a language server picks
// the project of a file: each tracked file belongs to the nearest config
// (tsconfig.json before jsconfig.json in one folder) whose own file list
// includes it, and the files no config includes belong to an inferred project.
// Every config that owns files is indexed, each file by its owner only.
import { posix } from 'node:path';
import type * as ts from 'typescript';
import { loadTypescript } from '../syntax/load-typescript.js';
import type { IndexerManifest } from './manifests.js';

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
  hasReferences: boolean;
  setsTypeRoots: boolean;
}

export function planProjects(
  manifest: IndexerManifest,
  root: string,
  allFiles: readonly string[],
  languageFiles: readonly string[],
): ProjectPlan {
  const plan: ProjectPlan = { projects: [], generatedConfigs: [], planned: [], gaps: [] };
  const spec = manifest.projects;
  if (!spec) return plan;
  const rank = (c: string) => spec.configFiles.indexOf(posix.basename(c));
  const configPaths = allFiles
    .filter((f) => spec.configFiles.includes(posix.basename(f)) && !f.split('/').includes('node_modules'))
    .sort((a, b) => depth(b) - depth(a) || rank(a) - rank(b) || a.localeCompare(b));

  const configs: ReadConfig[] = [];
  for (const path of configPaths) {
    const read = readConfig(root, path);
    if ('reason' in read) plan.gaps.push({ config: path, reason: read.reason });
    else configs.push(read);
  }

  // Owner of each file: the nearest enclosing config listing it (configs are sorted deepest first),
  // else any config listing it from elsewhere (`include: ["../shared"]`).
  const owner = new Map<string, ReadConfig>();
  for (const file of languageFiles) {
    const listing = configs.filter((c) => c.fileNames.has(file));
    const chosen = listing.find((c) => c.dir === '.' || file.startsWith(`${c.dir}/`)) ?? listing[0];
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
      references: [],
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
function readConfig(root: string, path: string): ReadConfig | { reason: string } {
  const tsc = typescript();
  const absolute = posix.join(root, path);
  const read = tsc.readConfigFile(absolute, tsc.sys.readFile);
  if (read.error) return { reason: `${path} cannot be read: ${message(read.error)}` };
  const options = posix.basename(path) === 'jsconfig.json' ? JSCONFIG_DEFAULTS : {};
  const parsed = tsc.parseJsonConfigFileContent(read.config, tsc.sys, posix.dirname(absolute), options, absolute);
  // No inputs (TS18003) only means the config owns nothing; any other error stops scip-typescript from indexing it.
  const error = parsed.errors.find((e) => e.code !== 18003);
  if (error) return { reason: `${path} has an error: ${message(error)}` };
  const prefix = `${root}/`;
  const fileNames = new Set(parsed.fileNames.filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length)));
  return {
    path,
    dir: posix.dirname(path),
    fileNames,
    absoluteFileNames: parsed.fileNames,
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
