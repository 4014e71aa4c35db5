// The advertised output schemas are zod's rendering rewritten to compile
// cheaply in MCP clients (src/mcp/lean-schema.ts). The rewrites must not
// change what a schema accepts: every subschema of every tool's output
// schema, compiled by the validator the official client uses, gives the same
// verdict before and after on values chosen to fall on each side of its
// keywords (types, null, every enum and const value and near misses,
// integers and fractions, negatives, empty objects and arrays). Integers
// beyond ±2^53 - 1 are left out: dropping zod's bounds at them is the one
// change, and no JavaScript number sextant writes is there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { z } from 'zod';
import { leanSchema } from '../../src/mcp/lean-schema.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { Navigation } from '../../src/navigation/index.js';

type Schema = Record<string, unknown>;

const rendered = createMcpServer(undefined as unknown as Navigation, '0')
  .definitions()
  .map(([name, config]) => ({ name, schema: z.toJSONSchema(config.outputSchema(), { target: 'draft-7', io: 'output' }) as Schema }));

/** A schema and every schema inside it (under properties, items, unions and definitions). */
function subschemas(schema: unknown, out: Schema[] = []): Schema[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return out;
  const s = schema as Schema;
  out.push(s);
  for (const key of ['items', 'additionalProperties', 'propertyNames', 'not']) subschemas(s[key], out);
  for (const key of ['anyOf', 'allOf', 'oneOf']) if (Array.isArray(s[key])) for (const b of s[key] as unknown[]) subschemas(b, out);
  for (const key of ['properties', 'definitions', '$defs'])
    if (typeof s[key] === 'object' && s[key] !== null) for (const v of Object.values(s[key] as Schema)) subschemas(v, out);
  return out;
}

/** The values a schema names (enum and const), and a near miss of each string. */
function namedValues(schema: Schema): unknown[] {
  const values = subschemas(schema).flatMap((s) => [...(Array.isArray(s.enum) ? s.enum : []), ...('const' in s ? [s.const] : [])]);
  return [...values, ...values.filter((v): v is string => typeof v === 'string').map((v) => `${v}x`)];
}

const PROBES: unknown[] = [null, true, false, 0, 1, -1, 0.5, 1.5, 2 ** 31, -(2 ** 31), '', 'x', [], {}, [null], [1], ['x']];

test('every subschema of every output schema accepts exactly what zod rendered it to accept', () => {
  const validator = new AjvJsonSchemaValidator();
  let compared = 0;
  for (const { name, schema } of rendered) {
    const probes = [...PROBES, ...namedValues(schema)];
    // A subschema with a $ref (a recursive shape) cannot be compiled alone: the whole schema, which holds its definition, is compared.
    for (const sub of subschemas(schema).filter((s) => s === schema || !JSON.stringify(s).includes('"$ref"'))) {
      const before = validator.getValidator(sub as never);
      const after = validator.getValidator(leanSchema(sub) as never);
      for (const value of probes) {
        assert.equal(after(value).valid, before(value).valid, `${name}: ${JSON.stringify(sub)} on ${JSON.stringify(value)}`);
        compared++;
      }
    }
  }
  assert.ok(compared > 10_000, `${compared} verdicts compared`);
});

test('the rewrites take out the bounds and unions zod writes, and keep every property and requirement', () => {
  for (const { name, schema } of rendered) {
    const lean = leanSchema(schema);
    const text = JSON.stringify(lean);
    assert.ok(!text.includes(String(Number.MAX_SAFE_INTEGER)), `${name}: no ±MAX_SAFE_INTEGER bound left`);
    const count = (s: unknown, key: string) => subschemas(s).filter((x) => key in x).length;
    assert.ok(count(lean, 'anyOf') <= count(schema, 'anyOf'), `${name}: no union added`);
    // Objects keep their properties, required lists and closedness.
    for (const key of ['properties', 'required', 'additionalProperties'])
      assert.equal(count(lean, key), count(schema, key), `${name}: every ${key} kept`);
  }
  const unions = (schemas: unknown[]) => schemas.flatMap((s) => subschemas(s)).filter((x) => 'anyOf' in x).length;
  const all = rendered.map((r) => r.schema);
  assert.ok(unions(all.map(leanSchema)) < unions(all) / 2, 'most unions of a type with null, or of value sets, became one keyword');
});
