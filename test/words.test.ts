// The word under a cursor, where no index says what is there (src/navigation/words.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isReservedWord, nameAt, nextWholeWord, type NameSyntax } from '../src/navigation/words.js';

/** Where every whole-word occurrence of `word` in `text` starts. */
function wholeWords(text: string, word: string, syntax?: NameSyntax): number[] {
  const out: number[] = [];
  for (let at = nextWholeWord(text, word, 0, syntax); at !== -1; at = nextWholeWord(text, word, at + word.length, syntax)) out.push(at);
  return out;
}

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
    assert.deepEqual(wholeWords('$ref ref', 'ref', 'javascript'), [5]);
    assert.deepEqual(wholeWords('$ref ref', 'ref'), [1, 5]);
  });

  test('a whole word is not part of a longer name, and special characters in it are literal', () => {
    assert.deepEqual(wholeWords('a.b axb a.bc a.b', 'a.b'), [0, 13]);
    assert.deepEqual(wholeWords('port ports sport port_ (port)', 'port'), [0, 24]);
    // A word within a longer one is skipped, and the search goes on past it.
    assert.deepEqual(wholeWords('aaa aa', 'aa'), [4]);
  });

  test('letters and digits of any script, astral ones too, join a name; other characters end it', () => {
    // é, the mathematical italic x (a letter outside the Basic Multilingual Plane, a surrogate pair) and the Arabic-Indic 1.
    const text = 'éport port𝑥 \u0661port (port)·port';
    assert.deepEqual(wholeWords(text, 'port'), [text.indexOf('(port)') + 1, text.lastIndexOf('port')]);
    assert.deepEqual(wholeWords('𝑥port port', 'port'), [7]);
    // A lone surrogate or a symbol beside the word is not part of a name.
    assert.deepEqual(wholeWords('\udc00port port→', 'port'), [1, 6]);
  });

  test("each language's reserved words are no names; contextual keywords and unknown languages reserve nothing", () => {
    for (const word of ['this', 'return', 'typeof', 'await']) assert.ok(isReservedWord(word, 'typescript'), word);
    for (const word of ['type', 'get', 'of', 'from', 'require']) assert.ok(!isReservedWord(word, 'javascript'), word);
    for (const word of ['def', 'None', 'lambda', 'self']) assert.equal(isReservedWord(word, 'python'), word !== 'self', word);
    assert.ok(!isReservedWord('return', 'go'));
    assert.ok(!isReservedWord('return', null));
  });
});
