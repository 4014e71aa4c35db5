// The last step of every answer, shared by MCP tools and the CLI's `--json`:
// fit the answer to its byte budget, then wrap it in the `meta` envelope built
// from what is kept, so the envelope describes the reply actually sent.
import { UserError } from '../errors.js';
import type { Meta } from '../protocol/meta.js';
import { budgetHint, DEFAULT_MAX_BYTES, fitToBudget, MAX_BYTES_CAP } from './budget.js';
import { buildMeta } from './envelope.js';
import { asciiJson, keepSerialized } from './serialized.js';

/** The bytes a reply takes as it is sent. */
export type ReplySize = (body: Record<string, unknown>) => number;

/** A reply printed as its JSON (the CLI's `--json`). */
export const jsonBytes: ReplySize = (body) => Buffer.byteLength(JSON.stringify(body), 'utf8');

/** The JSON-RPC line around a tool result, past its two copies of the answer. */
const MCP_FRAME_BYTES = 256;

/**
 * An MCP tool result carries the answer twice, as structuredContent and as
 * its JSON in a text block (escaped once more), so its line is over twice the
 * answer's JSON: the budget bounds that line.
 */
export const mcpResultBytes: ReplySize = (body) => {
  // Sent as ASCII (see asciiJson): a character is a byte, and the budget counts the escapes.
  const json = asciiJson(JSON.stringify(body));
  const quoted = JSON.stringify(json);
  // reply() returns the body it measured last unchanged: the transport sends these strings.
  keepSerialized(body, json, quoted);
  return json.length + quoted.length + MCP_FRAME_BYTES;
};

export function reply(
  answer: Record<string, unknown>,
  provenance: Meta['provenance'],
  maxBytes: number = DEFAULT_MAX_BYTES,
  size: ReplySize = jsonBytes,
): Record<string, unknown> {
  const budget = Math.min(maxBytes, MAX_BYTES_CAP);
  // Nearly every answer fits whole: measured once with its envelope, it needs
  // no fitting (fitToBudget would serialise it once more to find that out).
  // The reply is then what the first fit below would have made.
  if (!('meta' in answer)) {
    const whole: Record<string, unknown> = { ...answer };
    whole.meta = buildMeta(whole, { provenance });
    if (size(whole) <= budget) return whole;
  }
  // The room the answer's JSON may take: the whole budget at first, then what
  // is left once the envelope and the reply's own framing are measured.
  let room = budget;
  for (let fit = 0; ; fit++) {
    const { result, cut } = fitToBudget(answer, room);
    const dropped = cut !== null && Object.values(cut).some((n) => n > 0);
    const body: Record<string, unknown> = dropped
      ? { ...result, truncated: true, truncation_hint: budgetHint(cut, budget) }
      : { ...result };
    body.meta = buildMeta(body, { provenance });
    const sent = size(body);
    if (sent <= budget) return body;
    // Every list emptied and still over: what is left (the envelope, a status's fields) cannot be cut by items.
    if (room <= 0)
      throw new UserError(
        `max_bytes ${maxBytes} is too small for this reply: with every list emptied it still takes ${sent} bytes; ` +
          `pass max_bytes of at least ${sent}`,
      );
    // What the reply came out over, in bytes of the answer's JSON (a reply
    // grows faster than its answer when it carries it twice), and a margin
    // that doubles with each fit: whole items and the envelope do not shrink
    // in proportion, and the loop must end (two fits suffice in practice).
    room -= Math.ceil(((sent - budget) * room) / sent) + (64 << fit);
  }
}
