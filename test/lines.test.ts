// splitLines' fast path (no \r: a split on \n) cuts lines where the general one does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitLines } from '../src/lines.js';
import { prng } from './support/stats.js';

const general = (text: string) => text.split(/\r\n|\r|\n/);

test('lines end at \\n, \\r\\n and a lone \\r alike, whether or not the text has a \\r', () => {
  const cases = ['', '\n', 'a', 'a\n', 'a\nb', 'a\n\nb\n', 'a\r\nb', 'a\rb', 'a\r\n\r\nb\r', 'a\nb\r\nc\rd', '\r\n\n\r'];
  for (const text of cases) assert.deepEqual(splitLines(text), general(text), JSON.stringify(text));
  assert.deepEqual(splitLines('x\ny\n'), ['x', 'y', '']);
  assert.deepEqual(splitLines('x\r\ny\rz'), ['x', 'y', 'z']);
  // Random texts over an alphabet of line ends and two letters.
  const rng = prng(7);
  const alphabet = ['a', 'b', '\n', '\r', '\r\n'];
  for (let n = 0; n < 500; n++) {
    const text = Array.from({ length: Math.floor(rng() * 12) }, () => alphabet[Math.floor(rng() * alphabet.length)]).join('');
    assert.deepEqual(splitLines(text), general(text), JSON.stringify(text));
  }
});
