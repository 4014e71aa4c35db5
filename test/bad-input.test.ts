// Bad input gets a clear error that names the fix, and changes nothing.
// Over MCP: `{"error": "..."}` with isError true (never a protocol error),
// and the same server keeps answering correctly afterwards. On the CLI: one
// line on stderr, nothing on stdout, a non-zero exit.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { renderUsage } from '../src/cli/main.js';
import { MAX_PATH_LENGTH, MAX_QUERY_LENGTH, MAX_REPO_LENGTH, MAX_SYMBOL_LENGTH } from '../src/protocol/limits.js';
import { SEXTANT_BIN } from './support/paths.js';
import { at, where } from './support/positions.js';
import { fixtureRepo, git, removeDir, tempDir } from './support/repos.js';
import { indexOrThrow, mcpSession, sextant, testHome, toolError, type McpSession } from './support/sextant.js';
import { registryExists, registryFingerprint } from './support/registry.js';

const { home, env } = testHome();
const repo = 'ts-shapes';
let root: string;
let session: McpSession;
/** The registry's content right after indexing, to compare with at the end. */
let registryBefore: string;
const scratch = tempDir('sextant-bad-input-');

before(async () => {
  root = fixtureRepo('ts-shapes');
  indexOrThrow(root, env);
  registryBefore = registryFingerprint(home);
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

  describe('overlong and malformed arguments: a short one-line error naming the limit, quickly', () => {
    const huge = 'x'.repeat(1_000_000);
    const hugePath = 'src/' + 'a/'.repeat(500_000) + 'main.ts';
    // Just under the limit: it reaches the lookup, whose "did you mean" must not build a pattern from it.
    const longPath = 'src/' + 'ab/'.repeat(Math.floor((MAX_PATH_LENGTH - 20) / 3)) + 'main.ts';
    const position = { path: 'src/main.ts', line: 4, column: 17 };
    const tooLong = (field: string, max: number) => new RegExp(`: ${field} is too long \\(\\d+ characters\\): at most ${max} characters`);
    const cases: [string, string, () => Record<string, unknown>, RegExp][] = [
      ['a huge repo (status)', 'getIndexStatus', () => ({ repo: huge }), tooLong('repo', MAX_REPO_LENGTH)],
      ['a huge repo_path', 'getIndexStatus', () => ({ repo, repo_path: huge }), tooLong('repo_path', MAX_PATH_LENGTH)],
      [
        'a repo one past the limit',
        'goToDefinition',
        () => ({ repo: 'r'.repeat(MAX_REPO_LENGTH + 1), symbol: 'make' }),
        tooLong('repo', MAX_REPO_LENGTH),
      ],
      ['a huge repo (definition)', 'goToDefinition', () => ({ repo: huge, symbol: 'make' }), tooLong('repo', MAX_REPO_LENGTH)],
      ['a huge path (definition)', 'goToDefinition', () => ({ repo, ...position, path: hugePath }), tooLong('path', MAX_PATH_LENGTH)],
      ['a huge symbol (definition)', 'goToDefinition', () => ({ repo, symbol: huge }), tooLong('symbol', MAX_SYMBOL_LENGTH)],
      [
        'a symbol one past the limit',
        'findReferences',
        () => ({ repo, symbol: 's'.repeat(MAX_SYMBOL_LENGTH + 1) }),
        tooLong('symbol', MAX_SYMBOL_LENGTH),
      ],
      ['a huge path (references)', 'findReferences', () => ({ repo, ...position, path: hugePath }), tooLong('path', MAX_PATH_LENGTH)],
      ['a huge path (document symbols)', 'documentSymbols', () => ({ repo, path: hugePath }), tooLong('path', MAX_PATH_LENGTH)],
      ['a huge repo (document symbols)', 'documentSymbols', () => ({ repo: huge, path: 'src/main.ts' }), tooLong('repo', MAX_REPO_LENGTH)],
      ['a huge query', 'workspaceSymbols', () => ({ repo, query: huge }), tooLong('query', MAX_QUERY_LENGTH)],
      [
        'a query of spaces past the limit',
        'workspaceSymbols',
        () => ({ repo, query: ' '.repeat(MAX_QUERY_LENGTH + 1) }),
        tooLong('query', MAX_QUERY_LENGTH),
      ],
      [
        'a huge path (calls)',
        'callHierarchy',
        () => ({ repo, ...position, path: hugePath, direction: 'incoming' }),
        tooLong('path', MAX_PATH_LENGTH),
      ],
      [
        'a huge path (types)',
        'typeHierarchy',
        () => ({ repo, ...position, path: hugePath, direction: 'supertypes' }),
        tooLong('path', MAX_PATH_LENGTH),
      ],
      [
        'a file in another folder',
        'documentSymbols',
        () => ({ repo, path: 'lib/main.ts' }),
        /"lib\/main\.ts" is not a file of ts-shapes@\w+ \(did you mean "src\/main\.ts"\?\)/,
      ],
      [
        'a long path that is no file',
        'documentSymbols',
        () => ({ repo, path: longPath }),
        /"src\/ab\/ab.{80,}…" \(\d+ characters\) is not a file of ts-shapes@/,
      ],
      [
        'a long unknown repository',
        'findReferences',
        () => ({ repo: 'n'.repeat(MAX_REPO_LENGTH), symbol: 'make' }),
        /unknown repository "n{100}…" \(128 characters\)/,
      ],
      [
        'a long unknown symbol',
        'typeHierarchy',
        () => ({ repo, symbol: 'q'.repeat(MAX_SYMBOL_LENGTH), direction: 'subtypes' }),
        /unknown argument "symbol"/,
      ],
      [
        'a huge unknown argument name',
        'goToDefinition',
        () => ({ repo, symbol: 'make', [huge]: 1 }),
        /unknown argument "x{100}…" \(1000000 characters\): the arguments are repo, path/,
      ],
      [
        'many unknown arguments',
        'documentSymbols',
        () => ({ repo, path: 'src/main.ts', ...Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`extra${i}`, i])) }),
        /unknown arguments "extra0", "extra1", "extra2", "extra3", "extra4" and 995 more: the arguments are repo, path, max_bytes$/,
      ],
      ['a huge tool name', huge, () => ({ repo }), /unknown tool "x{100}…" \(1000000 characters\): call tools\/list/],
      ['a huge string where a number goes', 'goToDefinition', () => ({ repo, ...position, line: huge }), /line must be a whole number/],
      ['a negative line', 'goToDefinition', () => ({ repo, ...position, line: -4 }), /line must be >= 1/],
      ['a huge line', 'findReferences', () => ({ repo, ...position, line: 1e300 }), /line must be a whole number/],
      ['a line past the safe integers', 'findReferences', () => ({ repo, ...position, line: 2 ** 53 + 2 }), /line must be a whole number/],
      ['NaN (sent as null) for a column', 'goToDefinition', () => ({ repo, ...position, column: NaN }), /column must be a whole number/],
      ['a negative limit', 'workspaceSymbols', () => ({ repo, query: 'area', limit: -1 }), /limit must be >= 1/],
      ['a huge limit that is no integer', 'findReferences', () => ({ repo, symbol: 'make', limit: 1e300 }), /limit must be a whole number/],
      [
        'a depth given as text',
        'callHierarchy',
        () => ({ repo, ...position, direction: 'incoming', depth: 'deep' }),
        /depth must be a whole number/,
      ],
      ['a path given as an array', 'documentSymbols', () => ({ repo, path: ['src/main.ts'] }), /path must be a string/],
      ['a symbol given as an object', 'goToDefinition', () => ({ repo, symbol: { name: 'make' } }), /symbol must be a string/],
      ['a path with a newline', 'documentSymbols', () => ({ repo, path: 'src/\nmain.ts' }), /"src\/\\nmain\.ts" is not a file/],
    ];
    for (const [what, tool, args, expected] of cases) {
      test(`${what}: {"error"} of one short line, well within 3 s`, async () => {
        const started = Date.now();
        const error = await toolError(session, tool, args());
        // A bound on a hang, not a speed measurement: such input must be refused, not worked on.
        assert.ok(Date.now() - started < 3000, `answered after ${Date.now() - started} ms`);
        assert.ok(error.length <= 400, `a ${error.length}-character error: ${error.slice(0, 300)}`);
        assert.match(error, expected);
        await stillServes();
      });
    }
  });

  test('an unknown exact name is an answer, not an error: found false, with what to try', async () => {
    const r = await session.call('goToDefinition', { repo, symbol: 'Make' });
    assert.equal(r.isError, false);
    assert.equal(r.result.found, false);
    assert.match(r.result.message, /case-sensitive/);
  });
});

describe('malformed JSON-RPC frames to `sextant mcp`', () => {
  /** `sextant mcp` spoken to line by line, as a careless client would. */
  function rawServer() {
    const child = spawn(process.execPath, [SEXTANT_BIN, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const replies: any[] = [];
    let waiting: (() => void) | undefined;
    createInterface({ input: child.stdout }).on('line', (line) => {
      replies.push(JSON.parse(line));
      waiting?.();
    });
    return {
      replies,
      send: (line: string) => child.stdin.write(line + '\n'),
      /** Waits (at most 3 s) until `count` replies have come. */
      async until(count: number): Promise<void> {
        const deadline = Date.now() + 3000;
        while (replies.length < count) {
          assert.ok(
            Date.now() < deadline,
            `only ${replies.length} of ${count} replies within 3 s: ${JSON.stringify(replies).slice(0, 500)}`,
          );
          await new Promise<void>((resolve) => {
            waiting = resolve;
            setTimeout(resolve, 100);
          });
        }
      },
      stop: () => child.kill(),
      exitCode: () => child.exitCode,
    };
  }

  test('each bad frame gets a one-line JSON-RPC error, and the server keeps answering', async () => {
    const server = rawServer();
    try {
      server.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
        }),
      );
      await server.until(1);
      server.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      const frames: [string, number | null, number, RegExp][] = [
        [
          JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'oops' }),
          1,
          -32602,
          /params of "tools\/call" must be an object/,
        ],
        [
          JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'getIndexStatus', arguments: 'oops' } }),
          2,
          -32602,
          /arguments must be an object/,
        ],
        [
          JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'getIndexStatus', arguments: [repo] } }),
          3,
          -32602,
          /arguments must be an object/,
        ],
        ['this is not json', null, -32700, /parse error/],
        [
          JSON.stringify({
            jsonrpc: '2.0',
            id: 4,
            method: 'tools/call',
            params: { name: 'getIndexStatus', arguments: { repo: 'x'.repeat(20 * 1024 * 1024) } },
          }),
          // Too long to read, but its id shows at the start of the line: the client gets its answer.
          4,
          -32600,
          /dropped: messages are at most \d+ bytes/,
        ],
        [JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'no/such/method' }), 5, -32601, /not found/i],
        [JSON.stringify({ jsonrpc: '1.0', id: 6, method: 'tools/list' }), 6, -32600, /not a JSON-RPC 2\.0 message/],
      ];
      for (const [i, [frame, id, code, message]] of frames.entries()) {
        server.send(frame);
        await server.until(2 + i);
        const reply = server.replies[1 + i];
        assert.equal(reply.id, id, JSON.stringify(reply));
        assert.equal(reply.error?.code, code, JSON.stringify(reply));
        assert.match(reply.error.message, message);
        assert.doesNotMatch(reply.error.message, /\n/);
        assert.ok(reply.error.message.length <= 400, reply.error.message.slice(0, 400));
      }
      server.send(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'getIndexStatus', arguments: { repo } } }));
      await server.until(2 + frames.length);
      assert.equal(server.replies.at(-1).id, 9);
      assert.equal(server.replies.at(-1).result.structuredContent.status, 'indexed');
      assert.equal(server.exitCode(), null, 'the server is still running');
    } finally {
      server.stop();
    }
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

  test('def of an unknown name exits 1 with the reason on one line of stderr; with --json the answer is on stdout too', () => {
    fails(['def', 'Make', '--repo', repo], 1, /no definition named exactly "Make".*case-sensitive/);
    const r = sextant(['def', 'Make', '--repo', repo, '--json'], { env, cwd: scratch });
    assert.equal(r.code, 1);
    assert.equal(JSON.parse(r.stdout).found, false);
    assert.match(r.stderr, /^sextant def: no definition named exactly "Make".*\n$/);
  });

  test('with --json a failure is one JSON object on stdout, {error}, as an MCP tool failure is, saying what stderr says', () => {
    for (const [args, code] of [
      [['def', 'make', '--repo', 'nope', '--json'], 1],
      [['calls', 'src/main.ts:1:1', '--repo', repo, '--json'], 1],
      [['refs', 'make', '--repo', repo, '--limit', 'lots', '--json'], 2],
    ] as const) {
      const r = sextant([...args], { env, cwd: scratch });
      assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`);
      assert.deepEqual(JSON.parse(r.stdout), { error: r.stderr.trimEnd().replace(/^sextant \w+: /, '') });
    }
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
    // Names every object has are not commands either.
    fails(['constructor'], 2, /unknown command "constructor": run `sextant --help`/);
    fails(['toString'], 2, /unknown command "toString": run `sextant --help`/);
  });

  test('search of a named repository in an empty registry says to index one, not to pick from a list it does not give', () => {
    const empty = testHome();
    try {
      const r = sextant(['search', 'x', '--repo', 'nope'], { env: empty.env, cwd: scratch });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /no repository named "nope" is registered: the registry holds none yet: run `sextant index PATH`/);
    } finally {
      removeDir(empty.home);
    }
  });

  test('search and files: values past the bounds of their tools are usage errors (exit 2), as for the other commands', () => {
    fails(['search', 'make', '--repo', repo, '--context', '11'], 2, /context must be at most 10/);
    fails(['files', '--limit', '5001'], 2, /limit must be at most 5000/);
    fails(['files', '--path', 'p'.repeat(MAX_PATH_LENGTH + 1)], 2, /path is too long/);
  });

  test('a bare sextant is a usage error that prints the usage; sextant --help prints it too, as every command spec renders it', async () => {
    // The bundle serves the usage the build rendered (dist/bundle/usage.txt): it must be what the commands say today.
    const usage = (await renderUsage()) + '\n';
    const bare = sextant([], { env, cwd: scratch });
    assert.equal(bare.code, 2);
    assert.equal(bare.stdout, usage);
    const help = sextant(['--help'], { env, cwd: scratch });
    assert.equal(help.code, 0);
    assert.equal(help.stdout, usage);
    assert.match(usage, /^ {2}mcp {6}Serve the MCP tools/m);
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

  test('overlong arguments on the command line: one short line naming the limit, exit 2', () => {
    const huge = 'x'.repeat(100_000);
    const short = (args: string[], expected: RegExp) => {
      fails(args, 2, expected);
      const r = sextant(args, { env, cwd: scratch });
      assert.ok(r.stderr.length <= 400, `a ${r.stderr.length}-character error`);
    };
    short(['def', huge, '--repo', repo], /argument 1 is too long \(100000 characters\): at most \d+/);
    short(['def', 's'.repeat(MAX_SYMBOL_LENGTH + 1), '--repo', repo], /symbol is too long \(1001 characters\): at most 1000/);
    short(['refs', 'src/main.ts:4:17', '--repo', 'r'.repeat(MAX_REPO_LENGTH + 1)], /repo is too long \(129 characters\): at most 128/);
    short(['symbols', 'q'.repeat(MAX_QUERY_LENGTH + 1), '--repo', repo], /query is too long/);
    short(['status', 'r'.repeat(MAX_REPO_LENGTH + 1)], /repo is too long/);
    short(['status', repo, '--path', 'p'.repeat(MAX_PATH_LENGTH + 1)], /repo_path is too long/);
    short(['index', root, '--repo', huge], /argument 3 is too long/);
    short(['def', 'make', `--${huge}`], /argument 2 is too long/);
    short([`bogus${'y'.repeat(1000)}`], /unknown command "bogusy{95}…" \(1005 characters\)/);
    short(['def', 'src/main.ts:0:1', '--repo', repo], /line must be >= 1/);
    short(['def', `${'z'.repeat(1000)}:4`, '--repo', repo], /^sextant def: "z{100}…" \(1002 characters\) has a line but no column/);
  });

  test('the real registry was not touched by any of this', () => {
    assert.ok(registryExists(home));
    assert.equal(registryFingerprint(home), registryBefore, 'every table of the registry holds the same rows as right after indexing');
    const s = sextant(['status', repo, '--json'], { env });
    assert.equal(s.code, 0, s.stderr);
    assert.equal(JSON.parse(s.stdout).status, 'indexed');
  });
});
