// The reply step (src/trust/reply.ts): budgets bound the reply as it is sent,
// and a small budget keeps as many whole items as fit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { ToolServer } from '../../src/mcp/tool-server.js';
import { jsonBytes, mcpResultBytes, reply } from '../../src/trust/reply.js';

const answer = () => ({
  repo: 'r',
  commit: 'c',
  source: 'precise',
  references: Array.from({ length: 400 }, (_, i) => ({ path: `src/f${i}.ts`, line: i + 1, preview: `const value${i} = compute("${i}");` })),
  total: 400,
});

test('a budget under the envelope reserve keeps the items that fit (it used to keep none)', () => {
  const full = jsonBytes(reply(answer(), 'local-index'));
  for (const budget of [4096, 8192, 16384]) {
    assert.ok(full > budget);
    const body = reply(answer(), 'local-index', budget) as { references: unknown[]; truncated: boolean; truncation_hint: string };
    assert.ok(jsonBytes(body) <= budget, `${jsonBytes(body)} bytes for a budget of ${budget}`);
    assert.ok(body.references.length > 0, `${budget}: no reference kept`);
    assert.ok(jsonBytes({ ...body, references: answer().references.slice(0, body.references.length + 5) }) > budget, 'as many as fit');
    assert.equal(body.truncated, true);
    assert.match(body.truncation_hint, /^the reply was cut to \d+ bytes \(\d+ references left out\): narrow the query/);
  }
});

test('an MCP reply, which carries the answer twice, is bounded as sent', () => {
  const body = reply(answer(), 'local-index', 16384, mcpResultBytes) as { references: unknown[] };
  assert.ok(mcpResultBytes(body) <= 16384);
  const text = JSON.stringify(body);
  const sent = JSON.stringify({ result: { content: [{ type: 'text', text }], structuredContent: body }, jsonrpc: '2.0', id: 123456 });
  assert.ok(Buffer.byteLength(sent) <= 16384, `${Buffer.byteLength(sent)} bytes sent`);
  assert.ok(body.references.length > 0);
});

test('an answer within its budget is not flagged', () => {
  const body = reply(answer(), 'local-index');
  assert.equal(body.truncated, undefined);
  assert.equal(body.truncation_hint, undefined);
  assert.equal((body.references as unknown[]).length, 400);
});

test('replies of many sizes and escapes fit their budget as sent (the fit converges)', () => {
  // Quotes and backslashes grow the text copy of an MCP result more than the answer: the fit must still end within budget.
  const lines = [
    '    return this._subscribe(subscriber);',
    '  "key": "value\\\\path", \'quoted\' `tpl`',
    'é'.repeat(40),
    '\t\t"\\"\\"\\"\\""',
    'x',
  ];
  let seed = 1;
  const rnd = (n: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * n);
  let cut = 0;
  for (let t = 0; t < 12; t++) {
    const matches = Array.from({ length: 200 + rnd(1800) }, (_, i) => ({
      path: `src/f${i % 50}.ts`,
      line: i + 1,
      preview: lines[rnd(lines.length)]!.repeat(1 + rnd(6)),
      before: Array.from({ length: rnd(11) }, () => lines[rnd(lines.length)]!),
      after: Array.from({ length: rnd(11) }, () => lines[rnd(lines.length)]!),
    }));
    for (const budget of [1 << 20, 65536, 8192]) {
      const body = reply({ matches, total: matches.length, source: 'search' }, 'local-analysis', budget, mcpResultBytes);
      assert.ok(mcpResultBytes(body) <= budget, `case ${t}: ${mcpResultBytes(body)} bytes for a budget of ${budget}`);
      if (body.truncated) cut++;
    }
  }
  assert.ok(cut >= 24, `${cut} replies were cut`);
});

test('a budget smaller than the reply with every list emptied is refused with the size that fits, not exceeded', () => {
  // A status-like answer: most of its bytes are fields, not list items.
  const wordy = () => ({ ...answer(), message: 'a field no cut can shorten. '.repeat(60) });
  const empty = jsonBytes(reply({ ...wordy(), references: [], total: 0 }, 'local-index'));
  assert.throws(
    () => reply(wordy(), 'local-index', 1024, jsonBytes),
    (error: Error) => {
      const m =
        /^max_bytes 1024 is too small for this reply: with every list emptied it still takes (\d+) bytes; pass max_bytes of at least \1$/.exec(
          error.message,
        );
      assert.ok(m, error.message);
      // The size named is the cut reply's (the hint it carries makes it larger than the bare empty answer), and it fits.
      const named = Number(m[1]);
      assert.ok(named > 1024 && named >= empty, `${named} bytes named, ${empty} for the empty answer`);
      const body = reply(wordy(), 'local-index', named, jsonBytes);
      assert.ok(jsonBytes(body) <= named);
      return true;
    },
  );
});

test('an MCP reply goes out as ASCII: the same value both ways, its escapes counted against the budget', async () => {
  // An ellipsis (a cut signature), accents and an astral character (a surrogate pair) in previews.
  const unicode = () => ({
    ...answer(),
    references: answer().references.map((r, i) => ({ ...r, preview: `${r.preview} // café … ${i % 7 === 0 ? '😀' : 'é'}` })),
  });
  for (const budget of [1 << 20, 16384]) {
    const body = reply(unicode(), 'local-index', budget, mcpResultBytes);
    const server = new ToolServer({ name: 'test', version: '0' });
    server.registerTool(
      'unicode',
      { description: 'x', inputSchema: z.object({}), outputSchema: () => z.object({}), annotations: {} },
      async () => ({ result: body }),
    );
    const line = (await server.answer({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'unicode', arguments: {} } }))!;
    assert.match(line, /^[\x00-\x7f]*$/, 'only ASCII on the wire');
    const { result } = JSON.parse(line) as { result: { content: { text: string }[]; structuredContent: unknown } };
    assert.deepEqual(result.structuredContent, body);
    assert.deepEqual(JSON.parse(result.content[0]!.text), body);
    assert.match(JSON.stringify(result.structuredContent), /café … 😀/, 'the characters themselves come back');
    // The budget is of the line as sent, escapes included.
    assert.ok(Buffer.byteLength(line) <= budget, `${Buffer.byteLength(line)} bytes sent for a budget of ${budget}`);
    assert.ok(mcpResultBytes(body) >= Buffer.byteLength(line), 'the measure covers what is sent');
  }
  // And a failure's message, which takes no budget: ASCII too.
  const server = new ToolServer({ name: 'test', version: '0' });
  const line = (await server.answer({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'naïve…', arguments: {} } }))!;
  assert.match(line, /^[\x00-\x7f]*$/);
  assert.match(
    (JSON.parse(line) as { result: { structuredContent: { error: string } } }).result.structuredContent.error,
    /unknown tool "naïve…"/,
  );
});
