// The serialisations of an MCP reply made while measuring it against its byte
// budget (reply.ts), kept by reply so that the transport (mcp/tool-server.ts)
// sends those strings instead of making them again: a call hierarchy's reply
// runs to hundreds of kB. A module of its own, with no imports: the transport
// loads before everything else at start-up.
const measured = new WeakMap<object, { json: string; quoted: string }>();

/** Records a reply's JSON and that JSON as a JSON string. The reply must not change afterwards. */
export function keepSerialized(body: object, json: string, quoted: string): void {
  measured.set(body, { json, quoted });
}

/** A reply's JSON, and that JSON as a JSON string, when they were recorded. */
export function serialized(body: unknown): { json: string; quoted: string } | undefined {
  return typeof body === 'object' && body !== null ? measured.get(body) : undefined;
}

/** A character past ASCII (JSON text has them only inside strings). */
const NON_ASCII = /[^\u0000-\u007f]/;
const EVERY_NON_ASCII = new RegExp(NON_ASCII.source, 'g');

/**
 * JSON text with every character past ASCII written as a \u escape: the same
 * value to any JSON reader. One such character (an accent or a dash in the
 * code a preview shows) makes a whole reply a two-byte string, which the
 * client decodes from UTF-8 the slow way: a 350 kB call hierarchy (its line
 * 700 kB) took 9-11 ms to decode and parse, 5 ms escaped. Answers' own cuts
 * are ASCII already (navigation/locations.ts: ELLIPSIS): over ASCII text this
 * is one scan.
 */
export function asciiJson(json: string): string {
  if (!NON_ASCII.test(json)) return json;
  return json.replace(EVERY_NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
