// Which project configs an indexer is given. The outermost config files win:
// nested ones (packages of a monorepo) are indexed through their parent's
// references when it has them, and on their own when no parent exists.
import { posix } from 'node:path';
import type { IndexerManifest } from './manifests.js';

export interface ProjectPlan {
  projects: string[];
  inferredConfig?: { fileName: string; content: string } | undefined;
}

export function planProjects(
  manifest: IndexerManifest,
  root: string,
  allFiles: readonly string[],
  languageFiles: readonly string[],
): ProjectPlan {
  const spec = manifest.projects;
  if (!spec) return { projects: [] };
  const configs = allFiles.filter((f) => spec.configFiles.includes(posix.basename(f)) && !f.split('/').includes('node_modules'));
  const dirs = new Set(configs.map((c) => posix.dirname(c)));
  const outermost = configs.filter((c) => {
    for (let d = posix.dirname(c); d !== '.';) {
      d = posix.dirname(d);
      if (dirs.has(d)) return false;
    }
    return true;
  });
  // One config per directory: tsconfig.json before jsconfig.json.
  const chosen = new Map<string, string>();
  for (const c of outermost.sort((a, b) => spec.configFiles.indexOf(posix.basename(a)) - spec.configFiles.indexOf(posix.basename(b)))) {
    if (!chosen.has(posix.dirname(c))) chosen.set(posix.dirname(c), c);
  }
  if (chosen.size > 0) return { projects: [...chosen.values()].sort().map((c) => posix.join(root, c)) };
  if (!spec.inferred) return { projects: [] };
  // No config in the repository: write one outside the tree that lists its files.
  const content = JSON.stringify(
    { compilerOptions: spec.inferred.compilerOptions, files: languageFiles.map((f) => posix.join(root, f)) },
    null,
    1,
  );
  return { projects: [], inferredConfig: { fileName: spec.inferred.fileName, content } };
}
