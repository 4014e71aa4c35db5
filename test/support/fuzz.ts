// Property-based fuzzing of the MCP server: arguments generated from each
// tool's advertised input schema (read from tools/list, so a new tool is
// fuzzed without a line here), mixed with hostile values and real names from
// the indexed repository so that many calls reach the query layer; malformed
// JSON-RPC frames for the raw stdio transport; and the invariants every reply
// must keep. Everything is drawn from one seeded generator, so a failing run
// is replayed by its seed.

/** mulberry32: small, fast, and the same sequence on every machine for a seed. */
export class Rng {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}

/** Real names from the indexed repositories, so generated calls find something. */
export interface FuzzCorpus {
  repos: string[];
  /** Repository-relative paths of indexed files. */
  paths: string[];
  /** Identifiers and where one occurs (1-based line and column). */
  positions: { path: string; line: number; column: number; name: string }[];
  /** Absolute directories: repository roots and folders in them. */
  directories: string[];
  /** An absolute file outside every repository root, holding the sentinel token. */
  outsideFile: string;
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}

/** What a generated call tries: arguments that fit the schema, or one of the ways of not fitting it. */
export type CallShape = 'valid' | 'hostile-value' | 'wrong-type' | 'extra-field' | 'missing-required' | 'all-hostile';

/** Strings an attacker or a confused client would send; built lazily (some are large). */
function hostileStrings(corpus: FuzzCorpus): (() => string)[] {
  const outsideDir = corpus.outsideFile.replace(/\/[^/]*$/, '');
  const outsideName = corpus.outsideFile.slice(outsideDir.length + 1);
  const outsideBase = outsideDir.slice(outsideDir.lastIndexOf('/') + 1);
  return [
    () => 'x'.repeat(1_000_000),
    () => 'é'.repeat(300_000),
    () => 'a'.repeat(4097),
    () => 'a'.repeat(1001),
    () => 'a'.repeat(129),
    () => '',
    () => ' ',
    () => '\u0000',
    () => 'src/\u0000main.ts',
    () => '\x01\x02\x07\x08\x1b[31mred\x1b[0m\x7f',
    () => 'line one\r\nline two\nline three',
    () => '\t\v\f',
    () => '../../../etc/passwd',
    () => '/etc/passwd',
    () => '/etc/',
    () => '/',
    () => '..',
    () => '.',
    () => '~/.ssh/id_rsa',
    () => corpus.outsideFile,
    () => outsideDir,
    () => `../${outsideBase}/${outsideName}`,
    () => `src/../../${outsideBase}/${outsideName}`,
    () => `../../../../../../../../${corpus.outsideFile}`,
    () => '../'.repeat(2000) + 'etc/passwd',
    () => 'file:///etc/passwd',
    () => '..\\..\\..\\windows\\win.ini',
    () => '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    () => '/proc/self/environ',
    () => '/dev/zero',
    () => '\u202Egnp.exe\u202C',
    () => '\u200B\u200C\u200D\u2060\uFEFF',
    () => '\uD800',
    () => 'a\uDFFFb',
    () => 'x\uD83D',
    () => '👩‍👩‍👧‍👦🏴󠁧󠁢󠁳󠁣󠁴󠁿',
    () => 'e\u0301'.repeat(2000),
    () => '\uFFFF\uFFFE',
    () => '\u{10FFFF}',
    () => 'مرحبا بالعالم',
    () => '*',
    () => '**',
    () => '**/*',
    () => '*'.repeat(5000),
    () => '*'.repeat(4000),
    () => '%'.repeat(4000),
    () => '[a-'.repeat(1300),
    () => '%',
    () => '_',
    () => '%_%_%_%_%_%_%'.repeat(200),
    () => '['.repeat(3),
    () => '{a,b,{c,d}}'.repeat(100),
    () => '(a+)+$',
    () => '(?:',
    () => '\\',
    () => '.*'.repeat(2000),
    () => '(((((((((((((((((((((((((a)))))))))))))))))))))))))'.repeat(20),
    () => 'a{1000}{1000}',
    () => '[[:alpha:]]\\p{Greek}\\b\\B',
    () => "'; drop table files; --",
    () => '"',
    () => "'",
    () => '${HOME}$(id)`id`',
    () => '__proto__',
    () => 'constructor',
    () => 'toString',
    () => 'NaN',
    () => '-1',
    () => '1e309',
  ];
}

/** Numbers at and past every boundary a schema can state, and the ones JSON gets wrong. */
function boundaryNumbers(schema: JsonSchema): number[] {
  const lo = schema.minimum ?? 0;
  const hi = schema.maximum ?? Number.MAX_SAFE_INTEGER;
  return [
    lo,
    lo - 1,
    lo + 1,
    hi,
    hi + 1,
    hi - 1,
    0,
    -1,
    1,
    2,
    5,
    10,
    100,
    2000,
    5000,
    2 ** 31,
    2 ** 31 - 1,
    2 ** 53,
    -(2 ** 53),
    1e21,
    1e308,
    0.5,
    -0,
  ];
}

/** A value of the wrong type for anything, some of them large or deep. */
function wrongTypes(rng: Rng): unknown {
  return rng.pick<() => unknown>([
    () => null,
    () => true,
    () => 0,
    () => -1.5,
    () => 'string',
    () => [],
    () => [1, 'two', null],
    () => ({}),
    () => ({ nested: { deeper: ['x'] } }),
    () => Array.from({ length: 10_000 }, (_, i) => i),
    () => Array.from({ length: 2000 }, () => 'src/main.ts'),
    () => deep(2000),
    () => ({ __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } }),
  ])();
}

function deep(levels: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { v };
  return v;
}

/** A value the schema accepts, leaning on real names from the corpus. */
function validValue(name: string, schema: JsonSchema, rng: Rng, corpus: FuzzCorpus, position: FuzzCorpus['positions'][number]): unknown {
  if (schema.enum) return rng.pick(schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'boolean') return rng.chance(0.5);
  if (type === 'integer' || type === 'number') {
    if (name === 'line') return rng.chance(0.8) ? position.line : rng.int(1, 200);
    if (name === 'column') return rng.chance(0.8) ? position.column : rng.int(1, 120);
    if (name === 'max_bytes') return rng.pick([1024, 2048, 4096, 65536, 524288, 1048576, 2 ** 31]);
    if (name.startsWith('modified_')) return rng.pick([0, 1_700_000_000, Math.floor(Date.now() / 1000), -1]);
    const lo = schema.minimum ?? 0;
    const hi = Math.min(schema.maximum ?? 100, 10_000);
    return rng.chance(0.3) ? rng.pick([lo, hi]) : rng.int(lo, Math.min(hi, lo + 50));
  }
  if (type === 'array') {
    const n = rng.int(1, 3);
    return Array.from({ length: n }, () => validValue(name, schema.items ?? { type: 'string' }, rng, corpus, position));
  }
  if (type === 'string') return validString(name, rng, corpus, position);
  return null;
}

function validString(name: string, rng: Rng, corpus: FuzzCorpus, position: FuzzCorpus['positions'][number]): string {
  switch (name) {
    case 'repo':
    case 'repos':
    case 'repo_names':
      return rng.chance(0.9) ? rng.pick(corpus.repos) : rng.pick(['nope', 'ts', 'shapes', 'a-b_c.d']);
    case 'path':
      return rng.chance(0.7) ? position.path : rng.pick([...corpus.paths, 'src', 'src/**/*.ts', '*.ts', 'main', 'src/mian.ts']);
    case 'symbol':
      return position.name;
    case 'query':
      return rng.chance(0.7) ? position.name : rng.pick(['export', 'function', 'return', '\\w+\\(', 'class \\w+', 'a', 'e']);
    case 'name':
      return rng.pick([position.path.slice(position.path.lastIndexOf('/') + 1), 'main', '.ts', 'shape', 'py']);
    case 'directory':
    case 'repo_path':
      return rng.chance(0.8) ? rng.pick(corpus.directories) : rng.pick(['.', '/tmp', '/etc', 'src']);
    case 'extensions':
      return rng.pick(['ts', '.ts', 'py', '.py', 'json', 'md']);
    default:
      return rng.pick([position.name, 'x', '1']);
  }
}

function hostileValue(schema: JsonSchema, rng: Rng, corpus: FuzzCorpus): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if ((type === 'integer' || type === 'number') && rng.chance(0.7)) return rng.pick(boundaryNumbers(schema));
  if (type === 'array' && rng.chance(0.6)) {
    // Long lists of short strings, or short lists of any: a list of 500 one-megabyte strings is a 500 MB message.
    const n = rng.pick([0, 1, 3, 500]);
    return Array.from({ length: n }, () => {
      const s = rng.pick(hostileStrings(corpus))();
      return n > 3 ? s.slice(0, 5000) : s;
    });
  }
  if (rng.chance(0.75)) return rng.pick(hostileStrings(corpus))();
  return wrongTypes(rng);
}

export interface GeneratedCall {
  shape: CallShape;
  args: Record<string, unknown>;
}

/** One call's arguments for a tool whose input schema is `schema`. */
export function generateArguments(schema: JsonSchema, rng: Rng, corpus: FuzzCorpus): GeneratedCall {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const position = rng.pick(corpus.positions);
  const args: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(properties)) {
    if (required.has(name) || rng.chance(0.4)) args[name] = validValue(name, prop, rng, corpus, position);
  }
  const names = Object.keys(properties);
  const roll = rng.next();
  const shape: CallShape =
    roll < 0.45 || names.length === 0
      ? 'valid'
      : roll < 0.72
        ? 'hostile-value'
        : roll < 0.82
          ? 'wrong-type'
          : roll < 0.88
            ? 'extra-field'
            : roll < 0.94
              ? 'missing-required'
              : 'all-hostile';
  switch (shape) {
    case 'hostile-value': {
      for (let i = rng.int(1, 2); i > 0; i--) {
        const name = rng.pick(names);
        args[name] = hostileValue(properties[name]!, rng, corpus);
      }
      break;
    }
    case 'wrong-type':
      args[rng.pick(names)] = wrongTypes(rng);
      break;
    case 'extra-field':
      args[rng.pick(['extra', 'repo ', 'Repo', '__proto__', 'x'.repeat(10_000), '\u0000', 'max_bytes2'])] = rng.chance(0.5)
        ? 1
        : rng.pick(hostileStrings(corpus))();
      break;
    case 'missing-required': {
      const req = [...required];
      if (req.length) delete args[rng.pick(req)];
      else args[rng.pick(names)] = wrongTypes(rng);
      break;
    }
    case 'all-hostile':
      for (const name of names) if (rng.chance(0.7)) args[name] = hostileValue(properties[name]!, rng, corpus);
      break;
    case 'valid':
      break;
  }
  return { shape, args };
}

/** A malformed or unusual line for the raw stdio transport, and whether it must be answered. */
export interface Frame {
  label: string;
  /** The bytes of the line, without its newline. */
  line: string | Buffer;
  /** The id whose reply must come; null when only an id-less error (or nothing) is due. */
  expectId: string | number | null;
}

/**
 * Frames every run sends once (the expensive ones among them), then generated
 * ones. Tool calls over raw frames reach arguments the SDK client would refuse
 * to send (a string, an array).
 */
export function fixedFrames(corpus: FuzzCorpus): Frame[] {
  const repo = corpus.repos[0]!;
  const call = (id: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
  return [
    { label: '20 MB line', line: 'z'.repeat(20 * 1024 * 1024), expectId: null },
    {
      label: '20 MB request',
      line: call('big-20mb', { name: 'searchCode', arguments: { query: 'q'.repeat(20 * 1024 * 1024) } }),
      // Too long to read, but its id leads the line.
      expectId: 'big-20mb',
    },
    {
      label: '9 MB search query',
      line: call('big-9mb', { name: 'searchCode', arguments: { query: 'q'.repeat(9 * 1024 * 1024) } }),
      expectId: 'big-9mb',
    },
    { label: '2 MB id', line: JSON.stringify({ jsonrpc: '2.0', id: 'i'.repeat(2 * 1024 * 1024), method: 'ping' }), expectId: null },
    {
      label: 'unknown method',
      line: JSON.stringify({ jsonrpc: '2.0', id: 'unknown-1', method: 'no/such/method', params: {} }),
      expectId: 'unknown-1',
    },
    { label: 'unknown method, no id', line: JSON.stringify({ jsonrpc: '2.0', method: 'no/such/method' }), expectId: null },
    {
      label: 'batch',
      line: JSON.stringify([
        { jsonrpc: '2.0', id: 'b1', method: 'ping' },
        { jsonrpc: '2.0', id: 'b2', method: 'tools/list' },
      ]),
      expectId: null,
    },
    { label: 'empty batch', line: '[]', expectId: null },
    {
      label: 'params "oops"',
      line: JSON.stringify({ jsonrpc: '2.0', id: 'oops-1', method: 'tools/call', params: 'oops' }),
      expectId: 'oops-1',
    },
    { label: 'params "oops", no id', line: JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: 'oops' }), expectId: null },
    { label: 'params array', line: JSON.stringify({ jsonrpc: '2.0', id: 'arr-1', method: 'tools/list', params: [1] }), expectId: 'arr-1' },
    { label: 'params null', line: JSON.stringify({ jsonrpc: '2.0', id: 'null-1', method: 'ping', params: null }), expectId: 'null-1' },
    {
      label: 'request without id',
      line: JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'registryStatus', arguments: {} } }),
      expectId: null,
    },
    { label: 'arguments "oops"', line: call('args-1', { name: 'goToDefinition', arguments: 'oops' }), expectId: 'args-1' },
    { label: 'arguments array', line: call('args-2', { name: 'goToDefinition', arguments: [repo] }), expectId: 'args-2' },
    { label: 'arguments null', line: call('args-3', { name: 'goToDefinition', arguments: null }), expectId: 'args-3' },
    { label: 'tool name a number', line: call('name-1', { name: 42, arguments: {} }), expectId: 'name-1' },
    { label: 'tool name missing', line: call('name-2', { arguments: { repo } }), expectId: 'name-2' },
    { label: 'unknown tool, huge name', line: call('name-3', { name: 'n'.repeat(100_000), arguments: {} }), expectId: 'name-3' },
    { label: 'no jsonrpc field', line: JSON.stringify({ id: 'v-1', method: 'ping' }), expectId: null },
    { label: 'jsonrpc 1.0', line: JSON.stringify({ jsonrpc: '1.0', id: 'v-2', method: 'ping' }), expectId: null },
    { label: 'method a number', line: JSON.stringify({ jsonrpc: '2.0', id: 'm-1', method: 7 }), expectId: null },
    { label: 'id an object', line: JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }), expectId: null },
    { label: 'id null', line: JSON.stringify({ jsonrpc: '2.0', id: null, method: 'ping' }), expectId: null },
    { label: 'fractional id', line: JSON.stringify({ jsonrpc: '2.0', id: 1.5, method: 'ping' }), expectId: 1.5 },
    { label: 'a response nobody asked for', line: JSON.stringify({ jsonrpc: '2.0', id: 'r-1', result: {} }), expectId: null },
    {
      label: 'an error nobody asked for',
      line: JSON.stringify({ jsonrpc: '2.0', id: 'r-2', error: { code: 1, message: 'x' } }),
      expectId: null,
    },
    {
      label: 'initialize again',
      line: JSON.stringify({ jsonrpc: '2.0', id: 'init-2', method: 'initialize', params: INITIALIZE }),
      expectId: 'init-2',
    },
    {
      label: 'cancel an unknown request',
      line: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'none' } }),
      expectId: null,
    },
    { label: 'resources/list', line: JSON.stringify({ jsonrpc: '2.0', id: 'res-1', method: 'resources/list' }), expectId: 'res-1' },
    { label: 'deep nesting', line: '['.repeat(200_000) + ']'.repeat(200_000), expectId: null },
    {
      label: 'deep params',
      line: JSON.stringify({
        jsonrpc: '2.0',
        id: 'deep-1',
        method: 'tools/call',
        params: { name: 'registryStatus', arguments: { x: deep(1500) } },
      }),
      expectId: 'deep-1',
    },
    { label: 'invalid UTF-8', line: Buffer.from([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x7d]), expectId: null },
    {
      label: 'two messages on one line',
      line: '{"jsonrpc":"2.0","id":"t1","method":"ping"}{"jsonrpc":"2.0","id":"t2","method":"ping"}',
      expectId: null,
    },
    { label: 'byte-order mark', line: '\uFEFF' + JSON.stringify({ jsonrpc: '2.0', id: 'bom-1', method: 'ping' }), expectId: null },
    { label: 'NUL in a line', line: '{"jsonrpc":"2.0",\u0000"id":"nul-1","method":"ping"}', expectId: null },
  ];
}

export const INITIALIZE = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sextant-fuzz', version: '0' } };

/** A generated garbage or near-miss frame. */
export function generatedFrame(rng: Rng, corpus: FuzzCorpus, n: number, toolNames: string[]): Frame {
  const id = `g-${n}`;
  const kind = rng.int(0, 7);
  if (kind === 0) {
    const bytes = Buffer.alloc(rng.int(1, 200));
    for (let i = 0; i < bytes.length; i++) bytes[i] = rng.int(0, 255) === 10 ? 32 : rng.int(0, 255);
    return { label: 'random bytes', line: Buffer.from(bytes.filter((b) => b !== 10)), expectId: null };
  }
  if (kind === 1)
    return {
      label: 'JSON scalar or array',
      line: rng.pick(['null', 'true', '42', '"str"', '[1,2]', '{}', '{"jsonrpc":"2.0"}', '{', '}']),
      expectId: null,
    };
  if (kind === 2) {
    // A valid request cut short.
    const full = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: rng.pick(toolNames), arguments: {} } });
    return { label: 'truncated request', line: full.slice(0, rng.int(1, full.length - 1)), expectId: null };
  }
  if (kind === 3)
    return {
      label: 'unknown method',
      line: JSON.stringify({ jsonrpc: '2.0', id, method: rng.pick(hostileStrings(corpus))() }),
      expectId: id,
    };
  if (kind === 4) {
    const params = wrongTypes(rng);
    const isObject = typeof params === 'object' && params !== null && !Array.isArray(params);
    return {
      label: 'tools/call with odd params',
      line: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
      expectId: isObject ? id : id,
    };
  }
  if (kind === 5) {
    const args = rng.chance(0.5) ? wrongTypes(rng) : rng.pick(hostileStrings(corpus))();
    return {
      label: 'tools/call with odd arguments',
      line: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: rng.pick(toolNames), arguments: args } }),
      expectId: id,
    };
  }
  if (kind === 6) {
    const method = rng.pick(['tools/list', 'ping', 'initialize', 'tools/call', 'completion/complete', 'logging/setLevel']);
    return {
      label: `${method} with odd params`,
      line: JSON.stringify({ jsonrpc: '2.0', id, method, params: wrongTypes(rng) }),
      expectId: id,
    };
  }
  return { label: 'hostile string line', line: rng.pick(hostileStrings(corpus))().replace(/\n/g, ' '), expectId: null };
}

/** What no reply may contain, and how large none may be. */
export interface Invariants {
  /** Text only the file outside every repository holds. */
  sentinel: string;
  /** Absolute paths of sextant's own code, which an error must not show. */
  ownPaths: string[];
  maxReplyBytes: number;
}

// A V8 stack frame: "    at f (/abs/file.js:1:2)", "at file:///x.js:1:2", "at async f (node:internal/...)".
const STACK_FRAME = /^\s+at \S|\bat (?:async )?(?:[\w$.<>[\]]+ )?\(?(?:file:\/\/|node:|\/)[^\s()]*:\d+:\d+\)?/m;

/** The invariants a reply (the whole JSON-RPC line as sent) breaks; empty when it keeps them all. */
export function replyViolations(line: string, inv: Invariants): string[] {
  const problems: string[] = [];
  const bytes = Buffer.byteLength(line, 'utf8');
  if (bytes > inv.maxReplyBytes) problems.push(`reply of ${bytes} bytes (more than ${inv.maxReplyBytes})`);
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    problems.push(`reply is not JSON: ${line.slice(0, 200)}`);
    return problems;
  }
  for (const text of strings(message)) {
    if (text.includes(inv.sentinel)) problems.push('reply contains the sentinel from a file outside every repository');
    if (text.includes('root:x:0:0')) problems.push("reply contains /etc/passwd's first line");
    if (/^internal error\b/.test(text)) problems.push(`an internal error, not a message about the input: ${clip(text)}`);
    if (text.includes('node:internal')) problems.push(`stack trace (node:internal): ${clip(text)}`);
    else if (STACK_FRAME.test(text)) problems.push(`stack frame: ${clip(text)}`);
    for (const own of inv.ownPaths) if (text.includes(own)) problems.push(`sextant's own path ${own} in: ${clip(text)}`);
  }
  return [...new Set(problems)];
}

function* strings(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const v of value) yield* strings(v);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      yield k;
      yield* strings(v);
    }
}

export function clip(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

/** Arguments as a short readable string for a violation report. */
export function describeArgs(args: unknown): string {
  return clip(
    JSON.stringify(args, (_k, v) => (typeof v === 'string' && v.length > 60 ? `${v.slice(0, 40)}…(${v.length} chars)` : v)) ?? 'undefined',
    400,
  );
}
