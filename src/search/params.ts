// Validates a request against its protocol schema, for callers that did not
// come through MCP (which validates first): the CLI and library users.
import type { z } from 'zod';
import { UserError } from '../errors.js';

export function parseParams<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new UserError(parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; '));
}
