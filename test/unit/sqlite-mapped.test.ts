// A SQLite registry opened for a long-lived reader (sextant mcp) is mapped
// into memory from the start; opened for anything else, it is mapped only
// once a search reads blob texts, so that indexing's resident memory does not
// count the registry pages it touches.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openRegistry } from '../../src/registry/open.js';
import { removeDir, tempDir } from '../support/repos.js';

async function mmapSize(mapped: boolean | undefined, search: boolean): Promise<number> {
  const dir = tempDir('sextant-mapped-');
  try {
    const engine = await openRegistry({ registry: join(dir, 'registry.db'), mapped });
    try {
      if (search) await engine.blobBytes(['0'.repeat(40)]);
      const { rows } = await sql<{ mmap_size: number }>`pragma mmap_size`.execute(engine.db);
      return Number(rows[0]!.mmap_size);
    } finally {
      await engine.close();
    }
  } finally {
    removeDir(dir);
  }
}

test("a reader's SQLite registry is mapped from the start, anyone else's once a search reads texts", async () => {
  assert.ok((await mmapSize(true, false)) > 0, 'mapped: true maps at open');
  assert.equal(await mmapSize(undefined, false), 0, 'not mapped by default');
  assert.ok((await mmapSize(undefined, true)) > 0, 'mapped once blob texts are read');
});
