// The commit graph CI reports, in a real registry: ancestors by shortest
// distance through merges, the bound, and the nearest published one.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ancestorsWithin, nearestPublished, recordParents } from '../../src/registry/commit-graph.js';
import type { Engine } from '../../src/registry/engine.js';
import { openRegistry } from '../../src/registry/open.js';
import { removeDir } from '../support/repos.js';
import { registryFile, testHome } from '../support/sextant.js';

const sha = (n: number | string) => String(n).padStart(40, '0');
let dir = '';
let engine: Engine;
let repoId = 0;

before(async () => {
  dir = testHome().home;
  engine = await openRegistry({ registry: registryFile(dir) });
  const repo = await engine.db
    .insertInto('repos')
    .values({ slug: 'graph', root_path: null, current_index_id: null, created_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  repoId = repo.id;
  // A chain 0 <- 1 <- ... <- 60, and a merge 100 of 60 and a side branch 99 <- 98 (98's parent is 0).
  const edges = Array.from({ length: 60 }, (_, i) => ({ commit: sha(i + 1), parents: [sha(i)] }));
  edges.push({ commit: sha(100), parents: [sha(60), sha(99)] }, { commit: sha(99), parents: [sha(98)] }, { commit: sha(98), parents: [sha(0)] });
  await recordParents(engine.db, repoId, edges);
  await recordParents(engine.db, repoId, edges.slice(0, 3)); // reported twice: kept once
});

after(async () => {
  await engine.close();
  removeDir(dir);
});

async function publishAt(commit: string): Promise<number> {
  const { id } = await engine.db
    .insertInto('indexes')
    .values({
      repo_id: repoId,
      commit_sha: commit,
      dirty: 0,
      worktree_fingerprint: null,
      state: 'published',
      origin: 'ci',
      generated_at: new Date().toISOString(),
      languages: '{}',
      tools: '[]',
      total_files: 0,
      document_count: 0,
      occurrence_count: 0,
      definition_count: 0,
      storage_bytes: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

test('ancestors come with their shortest distance, through merges, within the bound', async () => {
  const from100 = await ancestorsWithin(engine.db, repoId, sha(100));
  assert.equal(from100.get(sha(100)), 0);
  assert.equal(from100.get(sha(60)), 1);
  assert.equal(from100.get(sha(99)), 1);
  // Through the side branch, 0 is 3 commits back; along the chain it would be 61.
  assert.equal(from100.get(sha(0)), 3);
  assert.equal(from100.get(sha(11)), 50);
  assert.equal(from100.has(sha(10)), false, 'beyond the bound of 50');
  assert.equal((await ancestorsWithin(engine.db, repoId, sha(100), 2)).size, 5);
  assert.deepEqual([...(await ancestorsWithin(engine.db, repoId, sha('f'))).entries()], [[sha('f'), 0]], 'an unknown commit is its own only ancestor');
});

test('the nearest published ancestor, or none beyond the bound', async () => {
  const base = await publishAt(sha(0));
  assert.equal(await nearestPublished(engine.db, repoId, sha(55)), undefined, '55 commits back is past the bound');
  const at50 = await nearestPublished(engine.db, repoId, sha(50));
  assert.deepEqual([at50?.index.id, at50?.distance], [base, 50]);
  const mid = await publishAt(sha(40));
  const at55 = await nearestPublished(engine.db, repoId, sha(55));
  assert.deepEqual([at55?.index.id, at55?.distance], [mid, 15]);
  const exact = await nearestPublished(engine.db, repoId, sha(40));
  assert.deepEqual([exact?.index.id, exact?.distance], [mid, 0]);
  assert.deepEqual((await nearestPublished(engine.db, repoId, sha(100)))?.distance, 3, 'through the merge, 0 is nearer than 40');
});
