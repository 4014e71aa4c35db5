// What goToDefinition and the hierarchies say of a symbol no index defines
// (src/navigation/definitions.ts, undefinedSymbolMessage).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { undefinedSymbolMessage } from '../../src/navigation/definitions.js';

test("a JSON module (`require('./meta/applicator.json')`) is named as a file the indexer does not index, not as another package", () => {
  const json = 'scip-typescript npm ajv 8.20.0 dist/refs/json-schema-2019-09/meta/`applicator.json`/';
  assert.equal(
    undefinedSymbolMessage([json]),
    'the symbol is the module dist/refs/json-schema-2019-09/meta/applicator.json (package ajv@8.20.0), a file the indexer ' +
      'does not index (not TypeScript or JavaScript): read the file itself (findFiles, searchCode)',
  );
});

test('a TypeScript module or a member of another package is still outside the indexed code', () => {
  for (const symbol of [
    'scip-typescript npm lodash 4.17.21 `map.js`/',
    'scip-typescript npm typescript 5.9.3 lib/`lib.es5.d.ts`/Array#map().',
  ]) {
    assert.match(
      undefinedSymbolMessage([symbol]),
      /^the symbol is defined outside the indexed code \(package (lodash@4\.17\.21|typescript@5\.9\.3)\)/,
    );
  }
});
