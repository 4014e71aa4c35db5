// Previews of locations (src/navigation/locations.ts): a line up to the
// preview width whole, a longer one cut around the location it is about.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ELLIPSIS, location, preview } from '../../src/navigation/locations.js';

const WIDTH = 240;

test('a short line is its own preview, trailing space trimmed', () => {
  assert.equal(preview(['  const a = 1;   '], 0, 8), '  const a = 1;');
  assert.equal(preview(['x'.repeat(WIDTH)], 0, 200), 'x'.repeat(WIDTH));
  assert.equal(preview(['a'], 3), undefined);
});

test("a long line's preview shows the name at its column, with an ASCII ellipsis where the line goes on, and stays within the width", () => {
  // A minified bundle's line: the name sits 30,000 characters in.
  const before = 'a=1;'.repeat(7500);
  const line = `${before}exports.configure=function(){};${'b=2;'.repeat(5000)}`;
  const column = line.indexOf('configure');
  const p = preview([line], 0, column)!;
  assert.equal(p.length, WIDTH);
  assert.ok(p.startsWith(ELLIPSIS) && p.endsWith(ELLIPSIS), p);
  assert.match(p, /^[\x00-\x7f]*$/, 'ASCII only');
  assert.ok(p.includes('exports.configure=function(){};'), p);
  assert.ok(line.includes(p.slice(ELLIPSIS.length, -ELLIPSIS.length)), 'a slice of the line');
  // Near the start: no leading mark; near the end: no trailing one, and the end of the line is shown.
  const head = preview([line], 0, 3)!;
  assert.equal(head.length, WIDTH);
  assert.ok(!head.startsWith(ELLIPSIS) && head.endsWith(ELLIPSIS) && line.startsWith(head.slice(0, -ELLIPSIS.length)));
  const tail = preview([line], 0, line.length - 2)!;
  assert.equal(tail.length, WIDTH);
  assert.ok(tail.startsWith(ELLIPSIS) && !tail.endsWith(ELLIPSIS) && line.endsWith(tail.slice(ELLIPSIS.length)));
});

test("a location's preview is cut around the location's own column", () => {
  const line = 'x'.repeat(5000) + 'target' + 'y'.repeat(5000);
  const at = line.indexOf('target');
  const loc = location('r', 'dist/app.min.js', [0, at, 0, at + 6], [line]);
  assert.ok(loc.preview!.includes('target'), loc.preview);
  assert.equal(loc.column, at + 1);
});
