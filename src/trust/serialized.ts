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
