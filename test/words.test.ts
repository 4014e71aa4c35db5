// The word under a cursor, where no index says what is there (src/navigation/words.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isReservedWord, nameAt, wholeWord } from '../src/navigation/words.js';

describe('names read from text', () => {
  test('the name under a column, or just before it; none on punctuation, whitespace or a number', () => {
    const line = 'const app = this.app; x = 42 + $ref.a_b;';
    assert.deepEqual(nameAt(line, line.indexOf('app;') + 1), { text: 'app', start: line.indexOf('app;') });
    // A cursor right after a name is on it.
    assert.deepEqual(nameAt(line, line.indexOf(';')), { text: 'app', start: line.indexOf('app;') });
    assert.equal(nameAt(line, line.indexOf('=')), undefined);
    assert.equal(nameAt(line, line.indexOf('42') + 1), undefined);
    assert.deepEqual(nameAt(line, line.indexOf('a_b') + 2), { text: 'a_b', start: line.indexOf('a_b') });
  });

  test('$ is part of a name in JavaScript and TypeScript only', () => {
    const line = 'x = $ref.y';
    assert.deepEqual(nameAt(line, 6, 'javascript'), { text: '$ref', start: 4 });
    assert.deepEqual(nameAt(line, 6), { text: 'ref', start: 5 });
    const js = wholeWord('ref', 'javascript');
    assert.equal(js.exec('$ref ref')?.index, 5);
    const plain = wholeWord('ref');
    assert.equal(plain.exec('$ref ref')?.index, 1);
  });

  test('a whole word is not part of a longer name, and special characters in it are literal', () => {
    const pattern = wholeWord('a.b');
    assert.deepEqual(
      [...'a.b axb a.bc a.b'.matchAll(pattern)].map((m) => m.index),
      [0, 13],
    );
    assert.deepEqual(
      [...'port ports sport port_ (port)'.matchAll(wholeWord('port'))].map((m) => m.index),
      [0, 24],
    );
  });

  test("each language's reserved words are no names; contextual keywords and unknown languages reserve nothing", () => {
    for (const word of ['this', 'return', 'typeof', 'await']) assert.ok(isReservedWord(word, 'typescript'), word);
    for (const word of ['type', 'get', 'of', 'from', 'require']) assert.ok(!isReservedWord(word, 'javascript'), word);
    for (const word of ['def', 'None', 'lambda', 'self']) assert.equal(isReservedWord(word, 'python'), word !== 'self', word);
    assert.ok(!isReservedWord('return', 'go'));
    assert.ok(!isReservedWord('return', null));
  });
});
