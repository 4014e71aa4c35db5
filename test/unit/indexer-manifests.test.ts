// Indexer manifests (src/orchestrator/manifests.ts): the built-in ones load,
// one of your own under SEXTANT_INDEXERS replaces the built-in of its name,
// and one that is not of the manifest's shape is refused in one line naming
// the file, the field and what it must be.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UserError } from '../../src/errors.js';
import { loadManifests } from '../../src/orchestrator/manifests.js';
import { SEXTANT_BIN } from '../support/paths.js';
import { fixtureRepo, removeDir, tempDir } from '../support/repos.js';
import { testHome } from '../support/sextant.js';

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

/** A SEXTANT_INDEXERS directory holding `manifest` as gopls.json. */
function withManifest(manifest: unknown): { dir: string; file: string } {
  const dir = tempDir('sextant-manifests-');
  dirs.push(dir);
  const file = join(dir, 'gopls.json');
  writeFileSync(file, typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  return { dir, file };
}

const GOOD = {
  name: 'scip-go',
  languages: ['go'],
  command: { path: 'scip-go' },
  args: ['--output', '{output}'],
  timeoutSeconds: 600,
};

test('the built-in manifests load whole: commands, projects and recovery hints', () => {
  const typescript = loadManifests({}).find((m) => m.name === 'scip-typescript')!;
  assert.deepEqual(typescript.command, { npm: '@sourcegraph/scip-typescript', bin: 'scip-typescript' });
  assert.deepEqual(typescript.projects?.configFiles, ['tsconfig.json', 'jsconfig.json']);
  assert.equal(typescript.projects?.inferred?.compilerOptions.allowJs, true);
  assert.match(typescript.recovery.timeout ?? '', /--timeout/);
  assert.ok(typescript.timeoutSeconds > 0);
});

test('a manifest of your own adds an indexer, and one of a built-in name replaces it; recovery hints are optional', () => {
  const added = withManifest(GOOD);
  const go = loadManifests({ SEXTANT_INDEXERS: added.dir }).find((m) => m.name === 'scip-go');
  assert.deepEqual(go, { ...GOOD, recovery: {} });
  const replaced = withManifest({ ...GOOD, name: 'scip-typescript', languages: ['typescript'], recovery: { missing: 'install it' } });
  const manifests = loadManifests({ SEXTANT_INDEXERS: replaced.dir });
  assert.deepEqual(
    manifests.filter((m) => m.name === 'scip-typescript'),
    [{ ...GOOD, name: 'scip-typescript', languages: ['typescript'], recovery: { missing: 'install it' } }],
  );
});

test('a manifest not of the shape is refused in one line: the file, the field, what it must be, and the fix', () => {
  const cases: [unknown, RegExp][] = [
    ['{ "name": ', /is not valid JSON .*: fix it$/],
    [[GOOD], /: manifest: expected an object: fix it$/],
    [{ ...GOOD, timeout: 60 }, /: manifest: unknown key "timeout" \(expected name, languages, .*\): fix it$/],
    [{ ...GOOD, name: 'scip go' }, /: name: expected letters, digits, "_", "\." and "-" only: fix it$/],
    [{ ...GOOD, languages: [] }, /: languages: expected at least 1 string: fix it$/],
    [{ ...GOOD, languages: ['go', 7] }, /: languages\.1: expected a string, not 7: fix it$/],
    [{ ...GOOD, command: { path: 'scip-go', npm: 'x' } }, /: command: expected either "npm" and "bin" .* or "path" .*: fix it$/],
    [{ ...GOOD, command: { npm: 'scip-go' } }, /: command: expected either "npm" and "bin"/],
    [{ ...GOOD, command: 'scip-go' }, /: command: expected an object: fix it$/],
    [{ ...GOOD, args: '--output' }, /: args: expected an array of strings, not a string: fix it$/],
    [{ ...GOOD, timeoutSeconds: 0 }, /: timeoutSeconds: expected a positive number, not 0: fix it$/],
    [{ ...GOOD, timeoutSeconds: '60' }, /: timeoutSeconds: expected a positive number, not a string: fix it$/],
    [{ ...GOOD, name: undefined }, /: name: expected a string, not undefined: fix it$/],
    [{ ...GOOD, projects: { configFiles: [] } }, /: projects\.configFiles: expected at least 1 string: fix it$/],
    [
      { ...GOOD, projects: { configFiles: ['go.mod'], inferred: { fileName: 'x' } } },
      /: projects\.inferred\.compilerOptions: expected an object/,
    ],
    [{ ...GOOD, recovery: { missing: 'a', later: 'b' } }, /: recovery: unknown key "later"/],
    [{ ...GOOD, recovery: { failed: null } }, /: recovery\.failed: expected a string, not null: fix it$/],
    // Quoted, not echoed whole.
    [{ ...GOOD, ['k'.repeat(100_000)]: 1 }, /: manifest: unknown key "k+…" \(100000 characters\) \(expected name, .*\): fix it$/],
  ];
  for (const [manifest, message] of cases) {
    const { dir, file } = withManifest(manifest);
    assert.throws(
      () => loadManifests({ SEXTANT_INDEXERS: dir }),
      (error: Error) => {
        assert.ok(error instanceof UserError, `${error.message} is a user's error`);
        assert.ok(error.message.startsWith(`indexer manifest ${file}`), error.message);
        assert.doesNotMatch(error.message, /\n/);
        assert.ok(error.message.length < file.length + 400, `${error.message.length} characters`);
        assert.match(error.message, message);
        return true;
      },
      JSON.stringify(manifest),
    );
  }
});

/** Module hooks (node's `register`) that append each module file loaded to `out`, installed by `--import` of the file returned. */
function recordingLoads(dir: string, out: string): string {
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';\n` +
      `export async function load(url, context, next) {\n` +
      `  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(out)}, url + '\\n');\n` +
      `  return next(url, context);\n}\n`,
  );
  writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`);
  return pathToFileURL(join(dir, 'register.mjs')).href;
}

test("`sextant index` reads the manifests without loading zod, the MCP protocol's schema library", () => {
  const dir = tempDir('sextant-loaded-');
  dirs.push(dir);
  const loaded = join(dir, 'modules');
  writeFileSync(loaded, '');
  const { env } = testHome();
  const run = spawnSync(
    process.execPath,
    ['--import', recordingLoads(dir, loaded), SEXTANT_BIN, 'index', fixtureRepo('ts-shapes'), '--json'],
    {
      env,
      encoding: 'utf8',
    },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).outcome, 'indexed');
  const files = readFileSync(loaded, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((url) => fileURLToPath(url));
  assert.ok(
    files.some((f) => f.endsWith(join('bundle', 'main.js'))),
    `the hooks saw the CLI load: ${files.length} modules`,
  );
  const zod = files.filter((f) => /\bZodType\b/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(zod, [], 'no module loaded defines zod');
});
