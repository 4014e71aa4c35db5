import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayName, ownerSymbol, parseSymbol, SymbolSyntaxError } from '../../src/scip/symbol.js';

test('parses package fields and descriptors of a scip-typescript symbol', () => {
  const s = 'scip-typescript npm rxjs 7.8.2 src/internal/`Observable.ts`/Observable#pipe().';
  const p = parseSymbol(s);
  assert.equal(p.scheme, 'scip-typescript');
  assert.equal(p.manager, 'npm');
  assert.equal(p.packageName, 'rxjs');
  assert.equal(p.version, '7.8.2');
  assert.deepEqual(
    p.descriptors.map((d) => [d.name, d.suffix]),
    [
      ['src', 'namespace'],
      ['internal', 'namespace'],
      ['Observable.ts', 'namespace'],
      ['Observable', 'type'],
      ['pipe', 'method'],
    ],
  );
  assert.equal(displayName(p), 'pipe');
  assert.equal(ownerSymbol(s, p), 'scip-typescript npm rxjs 7.8.2 src/internal/`Observable.ts`/Observable#');
});

test('reads escaped spaces, backticked names, parameters, type parameters and disambiguators', () => {
  const p = parseSymbol('scip-python python my  pkg _ `a.b`/f(+1).(x)[T]');
  assert.equal(p.packageName, 'my pkg');
  assert.deepEqual(
    p.descriptors.map((d) => [d.name, d.suffix, d.disambiguator]),
    [
      ['a.b', 'namespace', undefined],
      ['f', 'method', '+1'],
      ['x', 'parameter', undefined],
      ['T', 'type-parameter', undefined],
    ],
  );
  assert.equal(parseSymbol('a b c d `we``ird`.').descriptors[0]!.name, 'we`ird');
  assert.equal(parseSymbol('a . . . x.').packageName, '');
});

test('treats local symbols as local and names constructors plainly', () => {
  assert.equal(parseSymbol('local 12').local, true);
  assert.equal(displayName(parseSymbol('scip-typescript npm p 1 a/`<constructor>`().')), 'constructor');
});

test('rejects malformed symbols', () => {
  assert.throws(() => parseSymbol('scip-typescript npm rxjs'), SymbolSyntaxError);
  assert.throws(() => parseSymbol('a b c d x?'), SymbolSyntaxError);
  assert.throws(() => parseSymbol('a b c d `open'), SymbolSyntaxError);
  assert.throws(() => parseSymbol('a b c d `we``'), SymbolSyntaxError);
  assert.throws(() => parseSymbol('a b c d f(+1'), SymbolSyntaxError);
  assert.throws(() => parseSymbol('a  b c d'), SymbolSyntaxError);
});

test('gives each descriptor its offset in the symbol, past escapes', () => {
  const s = 'a  b c d e `x y`/`q``r`#m(1).';
  assert.deepEqual(
    parseSymbol(s).descriptors.map((d) => [s.slice(d.offset), d.name]),
    [
      ['`x y`/`q``r`#m(1).', 'x y'],
      ['`q``r`#m(1).', 'q`r'],
      ['m(1).', 'm'],
    ],
  );
});
