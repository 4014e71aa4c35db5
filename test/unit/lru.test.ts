// The LRU cache the registry lookups keep rows in: bounded by entries, or by
// the weight of its values (lists of rows, by rows), evicting the least
// recently used first, where a hit on an entry in the younger half of the
// cache leaves it where it is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Lru } from '../../src/lru.js';

test('an LRU bounded by entries evicts the least recently used one', () => {
  const lru = new Lru<string, number>(2);
  lru.set('a', 1);
  lru.set('b', 2);
  assert.equal(lru.get('a'), 1); // 'a' is now the most recently used
  lru.set('c', 3);
  assert.equal(lru.get('b'), undefined);
  assert.equal(lru.get('a'), 1);
  assert.equal(lru.get('c'), 3);
});

test('an LRU bounded by weight evicts as many old entries as a heavy new one needs, and keeps none heavier than itself', () => {
  const lru = new Lru<string, number[]>(10, (rows) => rows.length);
  lru.set('a', [1, 2, 3]);
  lru.set('b', [1, 2, 3]);
  lru.set('c', [1, 2, 3]);
  assert.deepEqual(lru.get('a'), [1, 2, 3]); // 9 of 10: all kept; 'b' is now the oldest
  lru.set('d', [1, 2, 3, 4, 5]); // 14: 'b', then 'c', go
  assert.equal(lru.get('b'), undefined);
  assert.equal(lru.get('c'), undefined);
  assert.deepEqual(lru.get('a'), [1, 2, 3]);
  assert.deepEqual(lru.get('d'), [1, 2, 3, 4, 5]);
  lru.set('a', [1]); // replacing a value counts its new weight only: 6 of 10
  lru.set('e', [1, 2, 3, 4]);
  assert.deepEqual(lru.get('a'), [1]);
  assert.deepEqual(lru.get('e'), [1, 2, 3, 4]);
  lru.set('huge', Array.from({ length: 11 }, (_, i) => i));
  assert.equal(lru.get('huge'), undefined);
});

test('a hit in the younger half does not move its entry, and a hit survives at least half the cache in later inserts', () => {
  const lru = new Lru<string, number>(4);
  for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) lru.set(key, i);
  assert.equal(lru.get('c'), 2); // one insert since 'c' went in, fewer than half of 4: it stays before 'd'
  assert.equal(lru.get('a'), 0); // three since 'a': it moves to the young end (b, c, d, a)
  lru.set('e', 4); // evicts b
  assert.equal(lru.get('b'), undefined);
  lru.set('f', 5); // evicts c: read 3 inserts and moves ago, at least half of 4
  assert.equal(lru.get('c'), undefined);
  assert.deepEqual(['d', 'a', 'e', 'f'].map((k) => lru.get(k)), [3, 0, 4, 5]);
});

test('an LRU is full once its entries, or their weights, reach its capacity', () => {
  const byEntries = new Lru<string, number>(2);
  byEntries.set('a', 1);
  assert.equal(byEntries.full, false);
  byEntries.set('b', 2);
  assert.equal(byEntries.full, true);
  const byWeight = new Lru<string, number[]>(4, (rows) => rows.length);
  byWeight.set('a', [1, 2, 3]);
  assert.equal(byWeight.full, false);
  byWeight.set('b', [1]);
  assert.equal(byWeight.full, true);
});
