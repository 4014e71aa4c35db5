// Whether a changed file spells a name: the test that decides if a language
// server is asked about files an answer from the index did not go through.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { spells } from '../src/navigation/changed-elsewhere.js';

describe('spells', () => {
  test('finds a name only as a whole identifier', () => {
    assert.equal(spells('import { largest } from "./geometry";', 'largest'), true);
    assert.equal(spells('shapes.largest(1)', 'largest'), true);
    assert.equal(spells('largestOf(x); the_largest; largest2', 'largest'), false);
    assert.equal(spells('a largestOf and then largest', 'largest'), true, 'a later whole occurrence after a partial one');
  });

  test('treats $ and non-ASCII letters as parts of identifiers, as TypeScript does', () => {
    assert.equal(spells('$store.get()', 'store'), false);
    assert.equal(spells('use$(x)', 'use'), false);
    assert.equal(spells('const $ = jQuery; $(x)', '$'), true);
    assert.equal(spells('éta + 1', 'ta'), false);
  });

  test('spells no empty name', () => {
    assert.equal(spells('anything', ''), false);
  });
});
