// The literals read from a regex prefilter files and lines, so they must be
// required by every match: a literal claimed but not required would hide
// matches. Checked against the real engine on lines built to match.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RE2JS } from 're2js';
import { satisfies, type TextQuery } from '../../src/registry/text-query.js';
import { requiredLiterals } from '../../src/search/regex-literals.js';

const show = (q: TextQuery): string =>
  q.op === 'all' ? '*' : q.op === 'literal' ? JSON.stringify(q.text) : `${q.op}(${q.items.map(show).join(', ')})`;

test('literals are read from concatenations, alternations, groups and repetitions', () => {
  const cases: [string, string][] = [
    ['foobar', '"foobar"'],
    ['foo.*bar', 'and("foo", "bar")'],
    ['(foo|bar)baz', 'or("foobaz", "barbaz")'],
    ['switchMap|concatMap', 'or("switchMap", "concatMap")'],
    ['export (class|interface) \\w+', 'or("export class ", "export interface ")'],
    ['z(a+bc)', '*'],
    ['abc+d', '"abc"'],
    ['(abc)+def', 'and("abc", "def")'],
    ['ab?cde', '"cde"'],
    ['\\bnull\\b', '"null"'],
    ['a\\.b\\(c', '"a.b(c"'],
    ['[A-Z]{5,}', '*'],
    ['(?i)foo', '*'],
    ['(?:get|set)Value', 'or("getValue", "setValue")'],
    ['fo', '*'],
    ['x*', '*'],
  ];
  for (const [pattern, expected] of cases) assert.equal(show(requiredLiterals(pattern)), expected, pattern);
});

test('whatever the engine matches satisfies the literals read from the pattern', () => {
  const lines = [
    'const x = foobar(1);',
    'zaaabc',
    'abcccd and abcd',
    'abcabcdef',
    'acde abcde',
    'export interface Foo {}',
    'export class Bar extends Baz',
    'if (a == null) return',
    'a.b(c)',
    'getValue setValue',
    'FOO BAR',
    'concatMap(x => x)',
    '',
  ];
  const patterns = [
    'foobar',
    'foo.*bar',
    '(foo|bar)baz',
    'z(a+bc)',
    'abc+d',
    '(abc)+def',
    'ab?cde',
    '\\bnull\\b',
    'a\\.b\\(c',
    'export (class|interface) \\w+',
    '(?:get|set)Value',
    'switchMap|concatMap',
    'c+d',
    '(a|ab)(c|bcd)',
    '^$',
  ];
  let matched = 0;
  for (const pattern of patterns) {
    for (const caseSensitive of [true, false]) {
      const re = RE2JS.compile(pattern, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
      const required = requiredLiterals(pattern);
      for (const line of lines) {
        if (!re.matcher(line).find()) continue;
        matched++;
        assert.ok(
          satisfies(required, caseSensitive ? line : line.toLowerCase(), !caseSensitive),
          `${pattern} on ${JSON.stringify(line)} requires ${show(required)}`,
        );
      }
    }
  }
  assert.ok(matched > 20);
});
