// Golden snapshots of symbols, reference kinds and hierarchies on the fixture
// projects, one per language. Regenerate with `npm run snapshots -- --update`
// after a deliberate change, and read the diff.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareSnapshots, SNAPSHOT_FIXTURES } from '../scripts/snapshots.js';

for (const fixture of SNAPSHOT_FIXTURES) {
  test(`snapshots of ${fixture} match test/snapshots/${fixture}`, async () => {
    const differences = await compareSnapshots(fixture);
    assert.deepEqual(differences, [], `run \`npm run snapshots -- --update\` if these changes are intended:\n${differences.join('\n')}`);
  });
}
