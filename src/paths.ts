// Files sextant ships beside its code (the SCIP schema, indexer manifests,
// the Python helper, package.json), found from the project root. The root is
// looked up rather than assumed at a fixed distance, because the same modules
// run from dist/src/... in tests and from a bundle in dist/bundle/.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'sextant') return dir;
    if (dirname(dir) === dir) throw new Error('cannot find the sextant package (package.json) above its code');
  }
}

export const PROJECT_ROOT = findProjectRoot();

export function projectFile(...parts: string[]): string {
  return join(PROJECT_ROOT, ...parts);
}
