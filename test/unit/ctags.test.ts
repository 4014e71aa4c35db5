// Definitions from the real universal-ctags across languages: kinds in
// sextant's words, names found on their lines, and nesting by ctags' scopes
// whether a language qualifies them with '.' or '::'.
import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { definitionsFromTags, runCtags, type CtagsTag, type SyntaxDefinition } from '../../src/syntax/ctags.js';

const sources: Record<string, string> = {
  'lib.rs': [
    'pub mod shapes {',
    '    pub struct Point { pub x: i32 }',
    '    impl Point {',
    '        pub fn new(x: i32) -> Self { Point { x } }',
    '    }',
    '    pub trait Area { fn area(&self) -> f64; }',
    '    impl Area for Point { fn area(&self) -> f64 { 0.0 } }',
    '}',
  ].join('\n'),
  'klass.cpp': [
    'namespace ns {',
    'class Klass {',
    '  int field;',
    ' public:',
    '  void method() {}',
    '};',
    '}',
    'static int helper(int x) { return x; }',
  ].join('\n'),
  'Outer.java': ['package a.b;', 'public class Outer {', '  class Inner { void run() {} }', '}'].join('\n'),
  'm.rb': ['module M', '  class C', '    def m; end', '  end', 'end'].join('\n'),
};

async function parse(): Promise<Map<string, SyntaxDefinition[]>> {
  const out = new Map<string, SyntaxDefinition[]>();
  const files = Object.keys(sources).map((path) => ({ path }));
  const outcome = await runCtags('ctags', files, {
    timeoutMs: 30_000,
    read: async (f) => sources[f.path]!,
    onFile: async (f, tags: CtagsTag[]) => {
      const language = f.path.endsWith('.rb') ? 'ruby' : f.path.endsWith('.rs') ? 'rust' : 'other';
      out.set(f.path, definitionsFromTags(tags, sources[f.path]!.split('\n'), language));
    },
  });
  assert.equal(outcome.status, 'ok', outcome.reason ?? '');
  return out;
}

/** "name:kind<parent name" for each definition: what the outline shows. */
function outline(defs: SyntaxDefinition[]): string[] {
  return defs.map((d) => `${d.name}:${d.kind}${d.parent === null ? '' : `<${defs[d.parent]!.name}@${defs[d.parent]!.line + 1}`}`);
}

test('ctags definitions nest by scope in Rust, C++, Java and Ruby, with kinds in sextant words', async () => {
  const parsed = await parse();
  assert.deepEqual(outline(parsed.get('lib.rs')!), [
    'shapes:module',
    'Point:struct<shapes@1',
    'x:field<Point@2',
    // An impl block is listed by its header; its methods belong to it, not to the struct of the same name.
    'impl Point:namespace<shapes@1',
    'new:method<impl Point@3',
    'Area:trait<shapes@1',
    'area:method<Area@6',
    'impl Area for Point:namespace<shapes@1',
    'area:method<impl Area for Point@7',
  ]);
  assert.deepEqual(outline(parsed.get('klass.cpp')!), [
    'ns:namespace',
    'Klass:class<ns@1',
    'field:field<Klass@2',
    'method:method<Klass@2',
    'helper:function',
  ]);
  // The package clause is the file itself, not an entry in it.
  assert.deepEqual(outline(parsed.get('Outer.java')!), ['Outer:class', 'Inner:class<Outer@2', 'run:method<Inner@3']);
  assert.deepEqual(outline(parsed.get('m.rb')!), ['M:module', 'C:class<M@1', 'm:method<C@2']);
});

test('a name is placed on its line as a whole word, and a span runs to the end ctags gives', async () => {
  const cpp = (await parse()).get('klass.cpp')!;
  const helper = cpp.find((d) => d.name === 'helper')!;
  const line = sources['klass.cpp']!.split('\n')[helper.line]!;
  assert.equal(line.slice(helper.startChar, helper.endChar), 'helper');
  const klass = cpp.find((d) => d.name === 'Klass')!;
  assert.deepEqual([klass.line, klass.spanEndLine], [1, 5]);
  assert.equal(klass.signature, 'class Klass');
});

test('a copy that disappears before ctags reads it fails the run instead of passing for a file without definitions', async () => {
  // ctags warns "cannot open input file" and exits 0; here the first copy is removed while the second is written.
  const files = [{ path: 'a.go' }, { path: 'b.go' }];
  let seen = 0;
  const outcome = await runCtags('ctags', files, {
    timeoutMs: 30_000,
    read: async (f) => {
      if (f.path === 'b.go') {
        const work = readdirSync(tmpdir()).filter((d) => d.startsWith(`sextant-${process.pid}-ctags-`));
        for (const dir of work) rmSync(join(tmpdir(), dir, 'f0.go'), { force: true });
      }
      return 'package a\n\nfunc A() {}\n';
    },
    onFile: async () => {
      seen++;
    },
  });
  assert.equal(outcome.status, 'failed');
  assert.match(outcome.reason!, /could not open 1 of its 2 input files/);
  assert.ok(seen <= 2);
});

test('a missing program is reported, not thrown', async () => {
  const outcome = await runCtags('/nonexistent/ctags', [{ path: 'a.go' }], {
    timeoutMs: 5000,
    read: async () => '',
    onFile: async () => {},
  });
  assert.equal(outcome.status, 'failed');
  assert.match(outcome.reason!, /could not start/);
});
