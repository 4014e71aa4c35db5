// `sextant index` (and a freshness check) must leave the user's tree exactly
// as it found it: no config file written next to the sources (scip-typescript
// needs a tsconfig.json; when the repository has none, sextant writes one
// elsewhere), no cache directories, no rewritten git index.
//
// The snapshot covers every entry under the repository root, .git and
// ignored files included, with size, mtime, ctime and content hash, and the
// mtime of every directory (a file created and deleted again still changes
// its directory's mtime). Nothing is excluded: git's own stat-cache refresh
// (`git status` rewriting .git/index) is a write sextant can avoid by asking
// git not to take optional locks, so it is held to that too.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { commitAll, fixtureRepo, git, removeDir, tempDir } from './support/repos.js';
import { indexOrThrow, sextant, testHome } from './support/sextant.js';

type Snapshot = Map<string, string>;

function snapshot(root: string): Snapshot {
  const out: Snapshot = new Map();
  const walk = (rel: string) => {
    const full = join(root, rel);
    const st = lstatSync(full, { bigint: true });
    const times = `mtime=${st.mtimeNs} ctime=${st.ctimeNs} mode=${st.mode.toString(8)}`;
    if (st.isDirectory()) {
      out.set(rel + '/', times);
      for (const name of readdirSync(full).sort()) walk(rel ? `${rel}/${name}` : name);
    } else if (st.isSymbolicLink()) {
      out.set(rel, `symlink -> ${readlinkSync(full)} ${times}`);
    } else {
      const sha = createHash('sha256').update(readFileSync(full)).digest('hex');
      out.set(rel, `size=${st.size} sha256=${sha} ${times}`);
    }
  };
  walk('');
  return out;
}

/** Entries that differ, one line each, so a failure says exactly what was touched. */
function differences(before: Snapshot, after: Snapshot): string[] {
  const diff: string[] = [];
  for (const [path, was] of before) {
    const now = after.get(path);
    if (now === undefined) diff.push(`removed ${path}`);
    else if (now !== was) diff.push(`changed ${path}: ${was} -> ${now}`);
  }
  for (const path of after.keys()) if (!before.has(path)) diff.push(`added ${path}`);
  return diff;
}

/** Runs `action` and asserts the tree under `root` is byte-for-byte and stat-for-stat unchanged. */
function assertUntouched(root: string, action: () => void): void {
  const was = snapshot(root);
  // Sanity: the snapshot really covers .git and ignored files.
  assert.ok(
    [...was.keys()].some((p) => p.startsWith('.git/')),
    'the snapshot includes .git',
  );
  action();
  assert.deepEqual(differences(was, snapshot(root)), []);
}

const { home, env } = testHome();
const repos: string[] = [];

after(() => {
  for (const r of repos) removeDir(join(r, '..'));
  removeDir(home);
});

test('indexing a TypeScript repository with ignored and untracked files leaves every file, .git included, untouched', () => {
  const root = fixtureRepo('ts-shapes');
  repos.push(root);
  // Ignored build output and dependencies, and an untracked (not ignored) source file.
  writeFileSync(join(root, '.gitignore'), 'dist/\nnode_modules/\n*.log\n');
  commitAll(root, 'ignore build output');
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'main.js'), 'console.log(1);\n');
  mkdirSync(join(root, 'node_modules', 'left-pad'), { recursive: true });
  writeFileSync(join(root, 'node_modules', 'left-pad', 'index.js'), 'module.exports = 1;\n');
  writeFileSync(join(root, 'debug.log'), 'noise\n');
  writeFileSync(join(root, 'src', 'draft.ts'), 'export const draft = 1;\n');
  assert.match(git(root, 'status', '--porcelain'), /\?\? src\/draft\.ts/);

  assertUntouched(root, () => {
    const report = indexOrThrow(root, env);
    assert.equal(report.languages.typescript.tier, 'precise');
    // The untracked file was indexed from the worktree, without touching it.
    assert.equal(report.dirty, true);
  });
});

test('indexing a TypeScript repository without a tsconfig.json leaves no tsconfig.json (or anything else) behind', () => {
  const root = join(tempDir(), 'no-tsconfig');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'greet.ts'), 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n');
  writeFileSync(join(root, 'src', 'main.ts'), "import { greet } from './greet';\n\nconsole.log(greet('world'));\n");
  writeFileSync(join(root, 'package.json'), '{ "name": "no-tsconfig", "version": "0.0.0" }\n');
  git(root, 'init', '-q', '-b', 'main');
  commitAll(root, 'initial');
  repos.push(root);

  assertUntouched(root, () => {
    const report = indexOrThrow(root, env);
    // It was really indexed (through a config sextant wrote elsewhere), not skipped.
    assert.equal(report.languages.typescript.tier, 'precise');
    assert.equal(report.languages.typescript.indexed_files, 2);
  });
  assert.deepEqual(
    readdirSync(root).filter((f) => /config\.json$/.test(f)),
    [],
  );
});

test('indexing a Python repository and checking its freshness leave the tree untouched', () => {
  const root = fixtureRepo('py-shapes');
  repos.push(root);
  assertUntouched(root, () => {
    const report = indexOrThrow(root, env);
    assert.equal(report.languages.python.tier, 'precise');
    // getIndexStatus with repo_path reads the worktree too.
    const status = sextant(['status', 'py-shapes', '--path', root, '--json'], { env });
    assert.equal(status.code, 0, status.stderr);
    assert.equal(JSON.parse(status.stdout).freshness, 'fresh');
  });
});
