// The CI template's script (scripts/ci/sextant-publish.sh) end to end, as a
// CI job runs it: on a real repository (requests, from Debian), it detects the
// language, runs the shipped indexer and publishes to SEXTANT_REGISTRY. Two
// pushes are published — the first commit, then two commits pushed together
// (CI indexes the tip) — and a query at the commit in between answers from
// its nearest published ancestor, flagged.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { requestsRepo } from './support/corpus.js';
import { PROJECT_ROOT } from './support/paths.js';
import { commitAll, git, removeDir } from './support/repos.js';
import { mcpSession, registryFile, testHome } from './support/sextant.js';

const SCRIPT = join(PROJECT_ROOT, 'scripts', 'ci', 'sextant-publish.sh');

function ciJob(repo: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(SCRIPT, [repo], { env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the CI template script', () => {
  let repo = '';
  const { home, env: base } = testHome();
  const env = { ...base, SEXTANT_REGISTRY: registryFile(home), SEXTANT_REPO: 'requests' };
  const commits: string[] = [];

  before(() => {
    repo = requestsRepo();
    commits.push(git(repo, 'rev-parse', 'HEAD').trim());
  });
  after(() => {
    removeDir(dirname(repo));
    removeDir(home);
  });

  test('refuses to run without SEXTANT_REGISTRY, naming it', () => {
    const { SEXTANT_REGISTRY: _, ...without } = env;
    const r = ciJob(repo, without);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /SEXTANT_REGISTRY/);
  });

  test('publishes two pushes; a query at the unpublished commit between them answers from the nearest published one', async () => {
    const first = ciJob(repo, env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, new RegExp(`published requests at ${commits[0]!.slice(0, 12)} from scip-python: upload 1 completed`));
    // Two commits pushed together: CI runs on the tip only.
    appendFileSync(join(repo, 'requests', 'api.py'), '\n\ndef ping(url):\n    return head(url)\n');
    commits.push(commitAll(repo, 'add ping'));
    appendFileSync(join(repo, 'requests', 'api.py'), '\n\ndef pong(url):\n    return ping(url)\n');
    commits.push(commitAll(repo, 'add pong'));
    const second = ciJob(repo, env);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, new RegExp(`published requests at ${commits[2]!.slice(0, 12)} from scip-python: upload 2 completed`));
    assert.equal(git(repo, 'status', '--porcelain'), '', 'the job leaves the checkout as it found it');

    const session = await mcpSession(env);
    try {
      const status = await session.ok('getIndexStatus', { repo: 'requests' });
      assert.deepEqual(
        status.uploads.map((u: any) => [u.commit, u.state, u.with_root]),
        [
          [commits[2], 'completed', true],
          [commits[0], 'completed', true],
        ],
      );
      const at = (commit: string) => session.ok('goToDefinition', { repo: 'requests', symbol: 'head', commit });
      const middle = await at(commits[1]!);
      assert.deepEqual(middle.nearest_commit, { requested: commits[1], commit: commits[0], distance: 1 });
      assert.ok(middle.found);
      assert.equal(middle.definitions[0].path, 'requests/api.py');
      const tip = await at(commits[2]!);
      assert.equal(tip.nearest_commit, undefined);
      assert.equal(tip.commit, commits[2]);
      // ping exists from the second commit on: the tip's index knows it, the nearest one of the middle commit does not.
      const ping = await session.ok('findReferences', { repo: 'requests', symbol: 'ping', commit: commits[2] });
      assert.equal(ping.references.length, 2);
      const pingBefore = await session.call('findReferences', { repo: 'requests', symbol: 'ping', commit: commits[1] });
      assert.equal(pingBefore.result.references?.length ?? 0, 0);
      assert.equal(pingBefore.result.nearest_commit?.distance, 1);
    } finally {
      await session.close();
    }
  });
});
