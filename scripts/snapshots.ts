// Golden snapshots: `npm run snapshots` compares, `npm run snapshots -- --update` rewrites.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderFixture } from '../test/support/snapshot.js';
import { PROJECT_ROOT } from '../test/support/paths.js';

export const SNAPSHOT_FIXTURES = ['ts-shapes', 'py-shapes'];
const SNAPSHOTS = join(PROJECT_ROOT, 'test', 'snapshots');

function snapshotPath(fixture: string, path: string): string {
  return join(SNAPSHOTS, fixture, `${path}.snap`);
}

function storedFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** One entry per file that differs from its stored snapshot (or is missing, or is no longer rendered). */
export async function compareSnapshots(fixture: string): Promise<string[]> {
  const rendered = await renderFixture(fixture);
  const problems: string[] = [];
  for (const [path, text] of rendered) {
    const file = snapshotPath(fixture, path);
    const stored = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    if (stored === undefined) problems.push(`${relative(PROJECT_ROOT, file)}: missing`);
    else if (stored !== text + '\n') problems.push(`${relative(PROJECT_ROOT, file)} differs:\n${diff(stored, text + '\n')}`);
  }
  for (const stored of storedFiles(join(SNAPSHOTS, fixture))) {
    if (!rendered.has(stored.replace(/\.snap$/, ''))) problems.push(`test/snapshots/${fixture}/${stored}: no longer rendered`);
  }
  return problems;
}

async function updateSnapshots(fixture: string): Promise<number> {
  const rendered = await renderFixture(fixture);
  rmSync(join(SNAPSHOTS, fixture), { recursive: true, force: true });
  for (const [path, text] of rendered) {
    const file = snapshotPath(fixture, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text + '\n');
  }
  return rendered.size;
}

/** The first few differing lines, enough to see what changed. */
function diff(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length) && out.length < 12; i++) {
    if (a[i] !== b[i]) out.push(`  line ${i + 1}:\n    - ${a[i] ?? '(none)'}\n    + ${b[i] ?? '(none)'}`);
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { update: { type: 'boolean' } }, strict: true });
  let failed = false;
  for (const fixture of SNAPSHOT_FIXTURES) {
    if (values.update) {
      console.log(`${fixture}: wrote ${await updateSnapshots(fixture)} snapshots`);
      continue;
    }
    const problems = await compareSnapshots(fixture);
    for (const p of problems) console.log(p);
    failed ||= problems.length > 0;
    if (problems.length === 0) console.log(`${fixture}: snapshots match`);
  }
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
