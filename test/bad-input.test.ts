// Bad input gets a clear error that names the fix, and changes nothing.
// Over MCP: `{"error": "..."}` with isError true (never a protocol error),
// and the same server keeps answering correctly afterwards. On the CLI: one
// line on stderr, nothing on stdout, a non-zero exit.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { at, where } from './support/positions.js';
import { fixtureRepo, git, removeDir, tempDir } from './support/repos.js';
import { indexOrThrow, mcpSession, registryFile, sextant, testHome, toolError, type McpSession } from './support/sextant.js';

const { home, env } = testHome();
const repo = 'ts-shapes';
let root: string;
let session: McpSession;
const scratch = tempDir('sextant-bad-input-');

before(async () => {
  root = fixtureRepo('ts-shapes');
  indexOrThrow(root, env);
  session = await mcpSession(env);
});

after(async () => {
  await session?.close();
  removeDir(join(root, '..'));
  removeDir(scratch);
  removeDir(home);
});

/** A correct question with a known answer: main.ts:4 `make('circle', 1)` fits the two overloads on geometry.ts lines 31-32. */
async function stillServes(): Promise<void> {
  const r = await session.call('goToDefinition', { repo, ...at(root, 'src/main.ts', 4, 'make(') });
  assert.equal(r.isError, false, JSON.stringify(r.result));
  assert.deepEqual(
    r.result.definitions.map((d: any) => where(d).line),
    [31, 32],
  );
}

describe('over MCP', () => {
  const line4 = () => at(root, 'src/main.ts', 4, 'make(');
  // [tool, arguments, what the error must say (the problem and the fix)]
  const cases: [string, string, () => Record<string, unknown>, RegExp][] = [
    [
      'unknown repository',
      'goToDefinition',
      () => ({ repo: 'nope', symbol: 'make' }),
      /unknown repository "nope".*ts-shapes.*sextant index/,
    ],
    ['unknown repository (references)', 'findReferences', () => ({ repo: 'nope', symbol: 'make' }), /unknown repository "nope"/],
    ['unknown repository (symbols)', 'documentSymbols', () => ({ repo: 'nope', path: 'src/main.ts' }), /unknown repository "nope"/],
    [
      'a ../ path',
      'goToDefinition',
      () => ({ repo, path: '../outside.ts', line: 1, column: 1 }),
      /leaves the repository: pass a path inside it/,
    ],
    [
      'a ../ path hidden in the middle',
      'documentSymbols',
      () => ({ repo, path: 'src/../../ts-shapes/src/main.ts' }),
      /leaves the repository/,
    ],
    [
      'an absolute path',
      'goToDefinition',
      () => ({ repo, path: join(root, 'src/main.ts'), line: 1, column: 1 }),
      /is absolute: pass it relative/,
    ],
    ['an absolute path outside', 'documentSymbols', () => ({ repo, path: '/etc/passwd' }), /is absolute/],
    ['a path with backslashes', 'documentSymbols', () => ({ repo, path: 'src\\main.ts' }), /'\/' separators/],
    [
      'a file that is not in the index',
      'documentSymbols',
      () => ({ repo, path: 'src/mian.ts' }),
      /not a file of ts-shapes@.*repository-relative path/,
    ],
    [
      'a line past the end of the file',
      'goToDefinition',
      () => ({ repo, path: 'src/main.ts', line: 99, column: 1 }),
      /line 99 is past the end of src\/main\.ts \(\d+ lines\): pass a line between 1 and \d+/,
    ],
    [
      'a column past the end of the line',
      'findReferences',
      () => ({ repo, path: 'src/main.ts', line: 1, column: 500 }),
      /column 500 is past the end of line 1 of src\/main\.ts.*pass a column between 1 and \d+/,
    ],
    ['a line of 0', 'goToDefinition', () => ({ ...line4(), repo, line: 0 }), /line must be >= 1/],
    ['a line given as a string', 'goToDefinition', () => ({ ...line4(), repo, line: '4' }), /line must be a whole number/],
    ['a fractional column', 'findReferences', () => ({ ...line4(), repo, column: 1.5 }), /column must be a whole number/],
    ['repo given as a number', 'goToDefinition', () => ({ repo: 7, symbol: 'make' }), /repo is required: the repository name/],
    ['repo missing', 'documentSymbols', () => ({ path: 'src/main.ts' }), /repo is required/],
    ['path missing', 'documentSymbols', () => ({ repo }), /path must be a string/],
    [
      'include_declaration not a boolean',
      'findReferences',
      () => ({ repo, symbol: 'make', include_declaration: 'no' }),
      /include_declaration must be true or false/,
    ],
    [
      'an unknown kind',
      'findReferences',
      () => ({ repo, symbol: 'make', kind: 'calls' }),
      /kind must be one of call, type, import, identifier, write/,
    ],
    ['a limit of 0', 'findReferences', () => ({ repo, symbol: 'make', limit: 0 }), /limit must be >= 1 \(at most 2000\)/],
    [
      'a mistyped argument name',
      'goToDefinition',
      () => ({ repo, path: 'src/main.ts', lin: 4, column: 17 }),
      /unknown argument "lin": the arguments are repo, path, line, column, symbol/,
    ],
    [
      'an unknown argument',
      'getIndexStatus',
      () => ({ repo, verbose: true }),
      /unknown argument "verbose": the arguments are repo, repo_path/,
    ],
    ['neither a position nor a symbol', 'goToDefinition', () => ({ repo }), /pass path, line and column \(a position\), or symbol/],
    ['half a position', 'findReferences', () => ({ repo, path: 'src/main.ts', line: 4 }), /pass path, line and column/],
    [
      'both a position and a symbol',
      'goToDefinition',
      () => ({ ...line4(), repo, symbol: 'make' }),
      /either path\+line\+column or symbol, not both/,
    ],
    ['repo_path that is not a git worktree', 'getIndexStatus', () => ({ repo, repo_path: scratch }), /not inside a git repository/],
    ['an unknown tool', 'goToImplementation', () => ({ repo }), /goToImplementation.*tools\/list/],
  ];

  for (const [what, tool, args, expected] of cases) {
    test(`${what}: {"error"} with isError, and the server keeps serving`, async () => {
      assert.match(await toolError(session, tool, args()), expected);
      await stillServes();
    });
  }

  test('an unknown exact name is an answer, not an error: found false, with what to try', async () => {
    const r = await session.call('goToDefinition', { repo, symbol: 'Make' });
    assert.equal(r.isError, false);
    assert.equal(r.result.found, false);
    assert.match(r.result.message, /case-sensitive/);
  });
});

describe('on the command line', () => {
  /** A failing CLI call: the exit code, and its one stderr line. */
  function fails(args: string[], code: number, expected: RegExp, cwd?: string): void {
    const r = sextant(args, { env, cwd: cwd ?? scratch });
    assert.equal(r.code, code, `sextant ${args.join(' ')}: exit ${r.code}, stderr ${r.stderr}`);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^sextant( \w+)?: /);
    assert.match(lines[0]!, expected);
  }

  test('def and refs: unknown repository, paths outside the repository, positions past the end', () => {
    fails(['def', 'make', '--repo', 'nope'], 1, /unknown repository "nope".*sextant index/);
    fails(['refs', 'make', '--repo', 'nope'], 1, /unknown repository "nope"/);
    fails(['def', '../outside.ts:1:1', '--repo', repo], 1, /leaves the repository/);
    fails(['def', '/etc/passwd:1:1', '--repo', repo], 1, /is absolute: pass it relative/);
    fails(['def', 'src/main.ts:99:1', '--repo', repo], 1, /line 99 is past the end of src\/main\.ts/);
    fails(['refs', 'src/main.ts:1:500', '--repo', repo], 1, /column 500 is past the end of line 1/);
    // Inside the worktree, a path that climbs out of it is refused too.
    fails(['def', '../../etc/passwd:1:1'], 1, /leaves the repository/, join(root, 'src'));
  });

  test('def and refs: missing or malformed arguments and unknown options are usage errors (exit 2)', () => {
    fails(['def', '--repo', repo], 2, /what to look up is missing \(usage: sextant def/);
    fails(['def', 'src/main.ts:4', '--repo', repo], 2, /has a line but no column: write PATH:LINE:COL/);
    fails(['def', 'make', '--repo'], 2, /--repo.*argument missing.*usage: sextant def/);
    fails(['def', 'make', '--repo', repo, '--bogus'], 2, /Unknown option '--bogus'.*sextant def --help/);
    fails(['def', 'make', 'extra', '--repo', repo], 2, /unexpected argument "extra"/);
    fails(['refs', 'make', '--repo', repo, '--kind', 'calls'], 2, /--kind must be one of/);
    fails(['refs', 'make', '--repo', repo, '--limit', 'lots'], 2, /--limit must be a whole number >= 1/);
    fails(['bogus'], 2, /unknown command "bogus": run `sextant --help`/);
  });

  test('def outside any repository without --repo says to pass --repo', () => {
    fails(['def', 'make'], 1, /not in a git repository: pass --repo NAME/);
  });

  test('index: a directory that is not a git repository, a repository without commits, a missing path, unknown options', () => {
    const plain = join(scratch, 'plain');
    mkdirSync(plain);
    writeFileSync(join(plain, 'a.ts'), 'export const a = 1;\n');
    fails(['index', plain], 1, /is not inside a git repository: run `git init` and commit/);
    const empty = join(scratch, 'empty');
    mkdirSync(empty);
    git(empty, 'init', '-q');
    writeFileSync(join(empty, 'a.ts'), 'export const a = 1;\n');
    fails(['index', empty], 1, /has no commits yet: commit something first/);
    fails(['index', join(scratch, 'nowhere')], 1, /does not exist: pass the path of a git repository/);
    fails(['index', root, '--bogus'], 2, /Unknown option '--bogus'.*sextant index --help/);
    fails(['index', root, '--timeout', '0'], 2, /--timeout must be a number of seconds > 0/);
    fails(['index', root, '--repo', 'two words'], 1, /not a usable repository name/);
    // None of them registered anything.
    const all = sextant(['status', '--all', '--json'], { env });
    assert.deepEqual(
      JSON.parse(all.stdout).map((s: any) => s.repo),
      [repo],
    );
  });

  describe('--registry naming a file that is not a SQLite database', () => {
    const fingerprint = (file: string) => {
      const st = statSync(file, { bigint: true });
      return { size: st.size, mtime: st.mtimeNs, sha: createHash('sha256').update(readFileSync(file)).digest('hex') };
    };

    for (const [what, content] of [
      ['a text file', 'These are my notes, not a database.\n'.repeat(50)],
      ['a one-byte file', '\n'],
    ] as const) {
      test(`${what}: every command fails with a clear message and leaves the file as it was`, () => {
        const dir = join(scratch, `registry-${content.length}`);
        mkdirSync(dir);
        const file = join(dir, 'notes.txt');
        writeFileSync(file, content);
        const was = fingerprint(file);
        for (const args of [
          ['index', root],
          ['status', '--all'],
          ['def', 'make', '--repo', repo],
          ['status', repo],
        ]) {
          fails([...args, '--registry', file], 1, /registry at .*notes\.txt.*(not a database|corrupt).*(--registry|move it away)/);
        }
        // `sextant mcp` refuses to start on it too.
        fails(['mcp', '--registry', file], 1, /not a database|corrupt/);
        assert.deepEqual(fingerprint(file), was);
        // No journal or WAL files were created beside it.
        assert.deepEqual(readdirSync(dir), ['notes.txt']);
      });
    }
  });

  test('the real registry was not touched by any of this', () => {
    assert.ok(existsSync(registryFile(home)));
    const s = sextant(['status', repo, '--json'], { env });
    assert.equal(s.code, 0, s.stderr);
    assert.equal(JSON.parse(s.stdout).status, 'indexed');
  });
});
