// The advertised output schemas, written so that MCP clients compile them
// cheaply. The official SDK client compiles a validator for every tool's
// output schema (ajv, generating code for each keyword) as soon as it lists
// the tools: on a cold start that compile, not sextant, was the longest step
// before the first answer. zod renders some shapes wordily; these rewrites
// say the same thing with fewer keywords. Each one accepts exactly the values
// the rendered schema accepts, but for integers beyond ±2^53 - 1, which zod's
// int() bounds exclude and which no JavaScript number sextant writes can be.

type Schema = Record<string, unknown>;

/** Keywords that hold for any value, not just for one type's values: a schema with one of them is not merged into a type list. */
const ANY_TYPE_KEYWORDS = ['enum', 'const', 'anyOf', 'allOf', 'oneOf', 'not', '$ref', 'if', 'then', 'else', 'type'];

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `schema` with every subschema rewritten (see the rules in `leanNode`). */
export function leanSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(leanSchema) as T;
  if (!isSchema(schema)) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    // enum and const hold values, not schemas: kept as they are.
    out[key] = key === 'enum' || key === 'const' ? value : leanSchema(value);
  }
  return leanNode(out) as T;
}

/** One schema whose subschemas are already rewritten. */
function leanNode(node: Schema): Schema {
  const type = node.type;
  // zod bounds every int() by ±Number.MAX_SAFE_INTEGER: no JSON number sextant writes is outside them.
  if (type === 'integer') {
    if (node.minimum === -Number.MAX_SAFE_INTEGER) delete node.minimum;
    if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  }
  // A const or an enum of values all of one JSON type already says that type.
  const ofType = (value: unknown) => (type === 'string' || type === 'boolean' || type === 'number') && typeof value === type;
  if ('const' in node && ofType(node.const)) delete node.type;
  if (Array.isArray(node.enum) && node.enum.length > 0 && node.enum.every(ofType)) delete node.type;
  if (Array.isArray(node.anyOf)) return leanAnyOf(node, node.anyOf as unknown[]);
  return node;
}

function leanAnyOf(node: Schema, branches: unknown[]): Schema {
  const { anyOf: _, ...rest } = node;
  const isNull = (b: unknown) => isSchema(b) && b.type === 'null' && Object.keys(b).length === 1;
  // Branches that are each a set of values (enum, const, null): one enum of them all.
  const values = (b: unknown): unknown[] | undefined => {
    if (isNull(b)) return [null];
    if (!isSchema(b) || Object.keys(b).length !== 1) return undefined;
    if (Array.isArray(b.enum)) return b.enum;
    return 'const' in b ? [b.const] : undefined;
  };
  const sets = branches.map(values);
  if (sets.every((s) => s !== undefined) && !('enum' in rest) && !('type' in rest)) return { ...rest, enum: sets.flat() };
  // One type or null: a type list. Keywords other than type, enum, const and
  // the combinators only constrain values of their own type, so null still passes them.
  if (branches.length === 2 && branches.some(isNull)) {
    const other = branches.find((b) => !isNull(b));
    if (isSchema(other) && typeof other.type === 'string' && other.type !== 'null') {
      const { type, ...keywords } = other;
      const clash = Object.keys(keywords).some((k) => ANY_TYPE_KEYWORDS.includes(k) || k in rest) || 'type' in rest;
      if (!clash) return { ...rest, type: [type, 'null'], ...keywords };
    }
  }
  return node;
}
