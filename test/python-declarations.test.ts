// Python's declarations as pyright counts them, where scip-python records
// fewer: a variable is declared by each of its assignments (an attribute whose
// type is declared, by that declaration alone), a builtin function is the
// standard library's, and a function defined in each branch of an `if` is a
// function twice. Every position here is asked of sextant and of pyright
// itself, on the same files, and the answers must be the same.
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { after, before, test } from 'node:test';
import { Pyright } from './support/pyright.js';
import { gitRepoOf, removeDir } from './support/repos.js';
import { sextant, testHome } from './support/sextant.js';

const { home, env } = testHome();
let root: string;

const TALLY = `import os


def tally(words, verbose=False):
    total = 0
    for word in words:
        total += len(word)
    if verbose:
        label = "long"
    else:
        label = "short"
    scratch = list(words)
    print(scratch)
    del scratch
    return total, label


class Counter:
    count = 0

    def __init__(self, start):
        self.count = start

    def bump(self):
        self.count += 1
        return self.count


def reset(c: Counter):
    c.count = 0
    return c.count


if os.environ.get("WINDOWS"):

    def home():
        return "C:/"

else:

    def home():
        return "/"


print(home(), tally(["a"]), reset(Counter(1)).bump())
`;

const MEMBERS = `def f(flag):
    hint: str = "a"
    if flag:
        hint = "b"
    return hint


class A:
    it: int

    def __init__(self):
        self.it = 1
        self.n: int = 0
        self.m = 0

    def step(self):
        self.it = 2
        self.n = 3
        self.m = 4
        return self.it + self.n + self.m
`;

const PLATFORMS = `import os


def slash():
    return "/"


if os.environ.get("WINDOWS"):

    def home():
        return "C:" + slash()

else:

    def home():
        return slash()
`;

const BUILTINS = `def sizes(items):
    if isinstance(items, dict):
        return len(items.keys())
    return len(items)


def named(x):
    return hasattr(x, "name") and len(x.name) > 0
`;

/** 1-based positions, and the definitions they must have (what pyright gave when this was written). */
const CASES: [string, string, number, number, string[]][] = [
  ['`total` after `total += ...`', 'tally.py', 15, 12, ['5:5', '7:9']],
  ['`label`, assigned in both branches', 'tally.py', 15, 19, ['9:9', '11:9']],
  ['a `for` target', 'tally.py', 7, 22, ['6:9']],
  ['a variable later deleted (`del` declares nothing)', 'tally.py', 13, 11, ['12:5']],
  ['`self.count`: the class attribute and what methods assign through self', 'tally.py', 26, 21, ['19:5', '22:14', '25:14']],
  ['`c.count`: an assignment through another object declares nothing', 'tally.py', 31, 14, ['19:5', '22:14', '25:14']],
  ['a function defined in each branch of an `if`', 'tally.py', 45, 7, ['36:9', '41:9']],
  ['the first assignment itself', 'tally.py', 5, 5, ['5:5', '7:9']],
  ['an annotated local and its other assignment', 'members.py', 5, 12, ['2:5', '4:9']],
  ['an attribute annotated in the class body: that declaration alone', 'members.py', 20, 21, ['9:5']],
  ['an attribute annotated where __init__ assigns it: that assignment alone', 'members.py', 20, 31, ['13:14']],
  ['an attribute never annotated: every assignment through self', 'members.py', 20, 41, ['14:14', '19:14']],
];

before(() => {
  root = gitRepoOf('tally', { 'tally.py': TALLY, 'members.py': MEMBERS, 'builtins_use.py': BUILTINS, 'platforms.py': PLATFORMS });
  const r = sextant(['index', root, '--json'], { env });
  assert.equal(r.code, 0, r.stderr);
});

after(() => {
  removeDir(dirname(root));
  removeDir(home);
});

test('goToDefinition of a Python name gives every assignment declaring it (of an attribute with a declared type, that declaration), as pyright does', async () => {
  const server = await Pyright.start(root);
  try {
    for (const [what, path, line, column, expected] of CASES) {
      const found = (await server.definition(path, line - 1, column - 1)).map((l) => `${l.line + 1}:${l.character + 1}`).sort();
      assert.deepEqual(found, [...expected].sort(), `pyright at ${path}:${line}:${column}, ${what}`);
      const r = sextant(['def', `${path}:${line}:${column}`, '--repo', 'tally', '--json'], { env });
      assert.equal(r.code, 0, r.stderr);
      const definitions = JSON.parse(r.stdout)
        .definitions.map((d: any) => `${d.line}:${d.column}`)
        .sort();
      assert.deepEqual(definitions, [...expected].sort(), `sextant at ${path}:${line}:${column}, ${what}`);
    }
  } finally {
    await server.stop();
  }
});

test("a builtin function scip-python gives a local of its own (`len`, `isinstance`) is the standard library's: its references are every use, as pyright's", async () => {
  const server = await Pyright.start(root);
  try {
    // pyright searches the files a client has open for the uses of what the standard library declares: all of them.
    for (const path of ['tally.py', 'members.py', 'builtins_use.py', 'platforms.py']) await server.definition(path, 0, 0);
    for (const [path, line, column, name] of [
      ['builtins_use.py', 3, 16, 'len'],
      ['builtins_use.py', 2, 8, 'isinstance'],
      ['builtins_use.py', 8, 12, 'hasattr'],
    ] as const) {
      const def = sextant(['def', `${path}:${line}:${column}`, '--repo', 'tally', '--json'], { env });
      assert.equal(def.code, 1, `${name}: nothing in the repository defines it`);
      assert.match(JSON.parse(def.stdout).message, /defined outside the indexed code \(package python-stdlib@/, name);
      const expected = (await server.references(path, line - 1, column - 1, true))
        .filter((l) => !l.path.startsWith('/'))
        .map((l) => `${l.path}:${l.line + 1}:${l.character + 1}`)
        .sort();
      const refs = sextant(['refs', `${path}:${line}:${column}`, '--repo', 'tally', '--json'], { env });
      assert.equal(refs.code, 0, refs.stderr);
      const found = JSON.parse(refs.stdout)
        .references.map((r: any) => `${r.path}:${r.line}:${r.column}`)
        .sort();
      assert.deepEqual(found, expected, name);
      assert.ok(found.length > 1 || name !== 'len', `${name}: every use, not the one asked at`);
    }
  } finally {
    await server.stop();
  }
});

test("a function defined in each branch of an `if` is the caller of the calls in its own body, in either branch, as pyright's call hierarchy says", async () => {
  const server = await Pyright.start(root);
  try {
    const [item] = await server.prepareCallHierarchy('platforms.py', 3, 4);
    const expected = (await server.incomingCalls(item!))
      .map((c) => `${c.from.name}@${c.from.selectionRange.start.line + 1}:${c.from.selectionRange.start.character + 1}`)
      .sort();
    assert.deepEqual(expected, ['home@10:9', 'home@15:9'], 'pyright');
    const r = sextant(['calls', 'platforms.py:4:5', '--repo', 'tally', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const callers = JSON.parse(r.stdout)
      .calls.map((c: any) => `${c.from.name}@${c.from.line}:${c.from.column}`)
      .sort();
    assert.deepEqual(callers, expected);
  } finally {
    await server.stop();
  }
});
