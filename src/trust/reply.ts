// The last step of every answer, shared by MCP tools and the CLI's `--json`:
// fit the answer to its byte budget, then wrap it in the `meta` envelope built
// from what is kept, so the envelope describes the reply actually sent.
import type { Meta } from '../protocol/meta.js';
import { budgetHint, DEFAULT_MAX_BYTES, fitToBudget, MAX_BYTES_CAP } from './budget.js';
import { buildMeta } from './envelope.js';

/** Room kept for the envelope when a reply is fitted to its budget (its signals list is capped). */
const ENVELOPE_RESERVE = 32 * 1024;

export function reply(
  answer: Record<string, unknown>,
  provenance: Meta['provenance'],
  maxBytes: number = DEFAULT_MAX_BYTES,
): Record<string, unknown> {
  const budget = Math.min(maxBytes, MAX_BYTES_CAP);
  const { result, cut } = fitToBudget(answer, budget, ENVELOPE_RESERVE);
  const body: Record<string, unknown> = cut ? { ...result, truncated: true, truncation_hint: budgetHint(cut, budget) } : result;
  body.meta = buildMeta(body, { provenance });
  return body;
}
