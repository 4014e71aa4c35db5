// The matcher searches UTF-8 bytes, folding ASCII case itself. Checked here
// against the string engines it stands in for (JavaScript's RegExp with the
// `u` flag for literals, re2js on strings for regexes), on text where bytes and
// characters differ: multi-byte characters, the two non-ASCII characters whose
// case folds onto ASCII letters, CRLF line ends, empty matches.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RE2JS } from 're2js';
import { createMatcher } from '../../src/search/matcher.js';

const TEXT = [
  'Hello WORLD hello',
  'a \u212Aey (Kelvin sign), a key, a KEY\r',
  'cla\u017F\u017F Error extends Base; class FooError extends Base',
  'caf\u00E9 CAF\u00C9 \u00E9t\u00E9 -> \u{1F600} createRequire CreateRequire',
  '',
  'function fooAsync(x) { return function barAsync() {} }',
].join('\n');

/** Matches as [line, text] found by the matcher, in order. */
function found(query: string, regex: boolean, caseSensitive: boolean): [number, string][] {
  const bytes = Buffer.from(TEXT);
  const out: [number, string][] = [];
  createMatcher(query, { regex, caseSensitive }).scan(
    bytes,
    (span) => {
      const line = bytes.subarray(0, span.start).filter((b) => b === 0x0a).length;
      out.push([line, bytes.toString('utf8', span.start, span.end)]);
      return true;
    },
    () => false,
  );
  return out;
}

/** The same, line by line with the string engines. */
function expected(query: string, regex: boolean, caseSensitive: boolean): [number, string][] {
  const out: [number, string][] = [];
  const lines = TEXT.split('\n');
  lines.forEach((line, n) => {
    if (regex) {
      const m = RE2JS.compile(query, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE).matcher(line);
      let any = false;
      let empty = false;
      while (m.find()) {
        if (m.end() > m.start()) {
          any = true;
          out.push([n, m.group()!]);
        } else empty = true;
      }
      if (!any && empty) out.push([n, '']);
    } else {
      const re = new RegExp(query.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), caseSensitive ? 'gu' : 'giu');
      for (const m of line.matchAll(re)) out.push([n, m[0]]);
    }
  });
  return out;
}

test('literals found in bytes are those RegExp finds in the decoded lines', () => {
  for (const query of ['hello', 'key', 'KEY', 'class', 'error extends', 'caf\u00E9', '\u00C9T\u00C9', '\u{1F600} create', 'createrequire', 'e', '(x)'])
    for (const caseSensitive of [false, true])
      assert.deepEqual(found(query, false, caseSensitive), expected(query, false, caseSensitive), `${query} case ${caseSensitive}`);
});

test('regexes found on line bytes are those re2js finds in the decoded lines', () => {
  const queries = ['class \\w+Error extends', 'function \\w+Async\\(', 'k.y', '\\r$', 'x*', '^$', 'caf.', '(hello|key)', '\\bK\\w+'];
  for (const query of queries)
    for (const caseSensitive of [false, true])
      assert.deepEqual(found(query, true, caseSensitive), expected(query, true, caseSensitive), `${query} case ${caseSensitive}`);
});

test('a case-insensitive k or s finds the Kelvin sign and the long s', () => {
  assert.deepEqual(found('key', false, false).map(([, t]) => t), ['\u212Aey', 'key', 'KEY']);
  assert.deepEqual(found('class', false, false).map(([, t]) => t), ['cla\u017F\u017F', 'class']);
});
