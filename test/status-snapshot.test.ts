// A status answer describes one moment of the registry. getIndexStatus reads
// the repository, its published index, its last run and its lock; SRC's
// get_index_status adds the index's document count. Read one after another,
// a publish landing between two reads paired commit A's index with the
// finished run that published B ("indexed B" beside "serving A"), or B's file
// count with A's document count. Here a real `sextant index` of commit B runs
// exactly there: a query hook (a kysely plugin on the server's own registry
// connection) starts it once the repository row has been read, and waits for
// it to publish. The answer must then be wholly A's or wholly B's.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { Navigation } from '../src/navigation/index.js';
import { openRegistry } from '../src/registry/open.js';
import type { Engine } from '../src/registry/engine.js';
import { commitAll, fixtureRepo, removeDir } from './support/repos.js';
import { indexOrThrow, registryFile, sextant, testHome } from './support/sextant.js';

const cleanup: string[] = [];
let root: string;
let env: NodeJS.ProcessEnv;
let home: string;
let a: Record<string, any>;
let commitB: string;

/**
 * Once armed, runs `publish` once, right after the first query that reads a
 * repository row (one with `current_index_id`) has returned, before the next
 * query of the request. Rows, not SQL, are looked at: lookups run queries
 * compiled once (src/registry/prepared.ts), which reach a plugin only as results.
 */
function afterRepoRead(publish: () => void): KyselyPlugin & { armed: boolean; fired: boolean } {
  const hook = {
    armed: false,
    fired: false,
    transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
      return node;
    },
    async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      const row = result.rows[0];
      if (hook.armed && !hook.fired && row && 'current_index_id' in row) {
        hook.fired = true;
        publish();
      }
      return result;
    },
  };
  return hook;
}

/** A Navigation over the registry whose every query passes the hook. */
async function hookedNavigation(hook: KyselyPlugin): Promise<{ nav: Navigation; engine: Engine }> {
  const engine = await openRegistry({ registry: registryFile(home) });
  return { nav: new Navigation({ ...engine, db: engine.db.withPlugin(hook) }), engine };
}

const publishB = () => {
  const r = sextant(['index', root, '--json'], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).commit, commitB);
};

before(() => {
  root = fixtureRepo('ts-shapes');
  cleanup.push(join(root, '..'));
  ({ home, env } = testHome());
  cleanup.push(home);
  a = indexOrThrow(root, env);
  // B has one more file (and document) than A, so counts tell the commits apart.
  writeFileSync(join(root, 'src', 'extra.ts'), 'export const extra = 1;\n');
  commitB = commitAll(root, 'add a file');
});

after(() => {
  for (const dir of cleanup) removeDir(dir);
});

test('getIndexStatus, with B published between its reads, answers wholly from one commit', async () => {
  const hook = afterRepoRead(publishB);
  const { nav, engine } = await hookedNavigation(hook);
  try {
    hook.armed = true;
    const status = await nav.getIndexStatus({ repo: 'ts-shapes' });
    assert.ok(hook.fired, 'B was published during the request');
    const run = status.last_index_run!;
    // A finished run that indexed is the run that published the index served: the same commit.
    assert.equal(run.state, 'finished');
    assert.equal(run.outcome, 'indexed');
    assert.equal(run.commit, status.commit, `serving ${status.commit} while the last run, finished, indexed ${run.commit}`);
    assert.equal(status.totalFiles, status.commit === a.commit ? a.files : a.files + 1);
    // The next request sees B.
    assert.equal((await nav.getIndexStatus({ repo: 'ts-shapes' })).commit, commitB);
  } finally {
    await engine.close();
  }
});

test("get_index_status, with B published between its reads, counts one commit's files and documents", async () => {
  // Back to A's files, as a third commit, so that the hook publishes a change again.
  const hook = afterRepoRead(() => {
    removeDir(join(root, 'src', 'extra.ts'));
    commitB = commitAll(root, 'remove the file again');
    publishB();
  });
  const { nav, engine } = await hookedNavigation(hook);
  try {
    const before = await nav.getIndexStatus({ repo: 'ts-shapes' });
    assert.equal(before.totalFiles, a.files + 1, 'B (with the extra file) is served before the request');
    hook.armed = true;
    const answer = await nav.srcIndexStatus({ directory: root }, root);
    assert.ok(hook.fired, 'the file was removed and published during the request');
    const data = answer.data!;
    const pairs = [
      [a.files + 1, a.documents + 1],
      [a.files, a.documents],
    ].map(([files, documents]) => `${files} files, ${documents} documents`);
    assert.ok(
      pairs.includes(`${data.totalFiles} files, ${data.totalChunks} documents`),
      `${data.totalFiles} files beside ${data.totalChunks} documents`,
    );
  } finally {
    await engine.close();
  }
});
