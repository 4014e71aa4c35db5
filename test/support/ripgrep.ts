// ripgrep, the reference code search is compared against: the binary the
// @vscode/ripgrep package ships inside npm (no download at install), run over
// exactly the files git tracks.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rgPath } from '@vscode/ripgrep';
import { tempDir } from './repos.js';

export function ripgrepBinary(): string {
  if (!existsSync(rgPath)) throw new Error(`@vscode/ripgrep's rg is missing at ${rgPath}: run npm install`);
  return rgPath;
}

export interface RgQuery {
  query: string;
  regex?: boolean;
  case_sensitive?: boolean;
  /** A glob as searchCode takes it. */
  path?: string;
  extensions?: string[];
}

/** The tracked files a query covers, chosen by git itself: pathspec globs and extensions. */
export function trackedFor(root: string, q: Pick<RgQuery, 'path' | 'extensions'>): string[] {
  const specs: string[] = [];
  if (q.path) specs.push(q.path.includes('/') ? `:(glob)${q.path}` : `:(glob)**/${q.path}`);
  const all = execFileSync('git', ['ls-files', '-z', '--', ...specs], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  if (!q.extensions) return all;
  const suffixes = q.extensions.map((e) => `.${e.replace(/^\./, '').toLowerCase()}`);
  return all.filter((p) => suffixes.some((s) => p.toLowerCase().endsWith(s)));
}

/** `rg --no-ignore` over those files: the set of "path:line" that match. */
export function ripgrepLines(root: string, q: RgQuery): Set<string> {
  const files = trackedFor(root, q);
  const out = new Set<string>();
  if (files.length === 0) return out;
  const args = ['--no-config', '--no-ignore', '--line-number', '--with-filename', '--no-heading', '--null', '--color=never'];
  args.push(q.case_sensitive ? '--case-sensitive' : '--ignore-case');
  if (!q.regex) args.push('--fixed-strings');
  const r = spawnSync(ripgrepBinary(), [...args, '-e', q.query, '--', ...files], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed (${r.status}): ${r.stderr}`);
  for (const line of r.stdout.split('\n')) {
    if (!line) continue;
    const nul = line.indexOf('\0');
    const rest = line.slice(nul + 1);
    out.add(`${line.slice(0, nul)}:${rest.slice(0, rest.indexOf(':'))}`);
  }
  return out;
}

/**
 * An environment where no indexer and no ctags is installed: repositories index
 * as search-only, in seconds, so the search tier is tested apart from the others.
 */
export function searchOnlyEnv(): { SEXTANT_INDEXERS: string; SEXTANT_CTAGS: string } {
  const dir = join(tempDir('sextant-indexers-'), 'indexers');
  mkdirSync(dir, { recursive: true });
  for (const [name, languages] of [
    ['scip-typescript', ['typescript', 'javascript']],
    ['scip-python', ['python']],
  ] as const) {
    writeFileSync(
      join(dir, `${name}.json`),
      JSON.stringify({ name, languages, command: { path: join(dir, 'not-installed') }, args: [], timeoutSeconds: 60, recovery: {} }),
    );
  }
  return { SEXTANT_INDEXERS: dir, SEXTANT_CTAGS: join(dir, 'not-installed') };
}
