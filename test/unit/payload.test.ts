// A document's occurrences as stored (packed Int32 records) and as read in
// place: every accessor gives what was written, and an occurrence becomes
// the object it was only when asked for.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeOccurrences, Occurrences, type Occurrence } from '../../src/registry/payload.js';

const written: Occurrence[] = [
  { range: [0, 0, 0, 6], symbol: 0, roles: 0x1, refKind: 0, memberAccess: false, argumentCount: -1, enclosing: [0, 0, 4, 1] },
  { range: [2, 4, 2, 10], symbol: 1, roles: 0x80, refKind: 1, memberAccess: true, argumentCount: 2, enclosing: undefined },
  // Spans lines: a template literal, a multi-line name.
  { range: [3, 8, 5, 2], symbol: 2, roles: 0x8, refKind: 4, memberAccess: true, argumentCount: 254, enclosing: undefined },
  { range: [7, 0, 7, 0], symbol: 1, roles: 0, refKind: 3, memberAccess: false, argumentCount: 0, enclosing: undefined },
];

test('occurrences read in place are the occurrences written, field by field', () => {
  const occ = new Occurrences(encodeOccurrences(written));
  assert.equal(occ.length, written.length);
  written.forEach((o, i) => {
    assert.deepEqual(occ.at(i), o, `occurrence ${i}`);
    assert.deepEqual(occ.range(i), o.range);
    assert.equal(occ.startLine(i), o.range[0]);
    assert.equal(occ.endLine(i), o.range[2]);
    assert.equal(occ.symbol(i), o.symbol);
    assert.equal(occ.roles(i), o.roles);
    assert.equal(occ.refKind(i), o.refKind);
    assert.equal(occ.memberAccess(i), o.memberAccess);
  });
  assert.deepEqual([...occ], written, 'iterated in order');
});

test('a position is inside a range from its start up to, not including, its end; at its end only there', () => {
  const occ = new Occurrences(encodeOccurrences(written));
  assert.equal(occ.where(1, 2, 4), 'inside');
  assert.equal(occ.where(1, 2, 9), 'inside');
  assert.equal(occ.where(1, 2, 10), 'at-end');
  assert.equal(occ.where(1, 2, 3), undefined);
  assert.equal(occ.where(1, 1, 5), undefined);
  assert.equal(occ.where(2, 4, 0), 'inside', 'a line in the middle of a range spanning lines');
  assert.equal(occ.where(2, 5, 2), 'at-end');
  assert.equal(occ.where(2, 3, 7), undefined);
  assert.equal(occ.where(3, 7, 0), 'at-end', 'an empty range only ends');
});

test('a payload read from a Buffer slice at any offset reads the same', () => {
  const bytes = encodeOccurrences(written);
  // Registry rows come back as Buffers that may sit at an odd offset in a larger pool.
  const pool = Buffer.alloc(bytes.length + 3);
  bytes.copy(pool, 3);
  const occ = new Occurrences(pool.subarray(3));
  assert.deepEqual([...occ], written);
});

test('a payload that is not a whole number of occurrences is refused', () => {
  const bytes = encodeOccurrences(written);
  assert.throws(() => new Occurrences(bytes.subarray(0, bytes.length - 4)), /corrupt payload: not a whole number of occurrences/);
});
