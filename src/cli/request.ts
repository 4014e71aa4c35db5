// A command's request checked against the same protocol schema the MCP tool
// advertises, so the command line has the same bounds and messages
// (lengths, whole numbers, exact fields) as MCP.
import type { z } from 'zod';
import { UsageError } from './parse.js';

export function request<S extends z.ZodType>(schema: S, value: z.input<S>): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new UsageError(
    parsed.error.issues
      .map((issue) => {
        const field = issue.path.join('.');
        return field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message;
      })
      .join('; '),
  );
}
