// An error caused by what the user asked for. Its message is one line that
// says what was wrong and how to fix it; it is shown as is, never with a stack.
export class UserError extends Error {
  override name = 'UserError';

  /** Fields a failed answer carries beside its message (e.g. the reindex job a query scheduled). */
  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** The command line's exit status for it. */
  get exitCode(): number {
    return 1;
  }
}

/**
 * A request the running language server does not implement (JSON-RPC "method not
 * found"), though it may advertise the capability: clangd 14 advertises a call
 * hierarchy but answers only incoming calls. Callers that know another way to
 * the answer say so; this message alone names the upgrade.
 */
export class MethodNotImplemented extends UserError {
  constructor(
    readonly server: string,
    readonly method: string,
  ) {
    super(`${server} does not implement ${method} in the version installed here: install a newer ${server} and ask again`);
  }
}

/** Longest piece of a caller's argument a message quotes. */
export const QUOTE_MAX = 100;
/** Longest error message any answer carries (a last bound on text echoed from elsewhere). */
export const MESSAGE_MAX = 2000;

/**
 * A caller's argument quoted for a message: JSON-escaped (so newlines and
 * control characters cannot break the one-line rule) and cut to QUOTE_MAX
 * characters with its full length said, so no message echoes unbounded input.
 * Every message that repeats what the caller passed goes through here.
 */
export function quote(value: string): string {
  if (value.length <= QUOTE_MAX) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, QUOTE_MAX)).slice(0, -1)}…" (${value.length} characters)`;
}

/** An error message on one line and within MESSAGE_MAX characters. */
export function boundedMessage(message: string): string {
  const line = message.replace(/\s*[\r\n]+\s*/g, '; ');
  return line.length <= MESSAGE_MAX ? line : `${line.slice(0, MESSAGE_MAX)}… (message cut at ${MESSAGE_MAX} characters)`;
}
