// Output budgets: no reply grows without bound. A reply over its budget is
// cut at whole items of its largest lists (never mid-item), flagged
// `truncated`, and told how to narrow the query.
/** No reply exceeds this, whatever the caller asks. */
export const MAX_BYTES_CAP = 1024 * 1024;
/**
 * The budget bounds a reply as sent, and an MCP result carries its answer
 * twice (structured and as text): the default is the cap, which leaves an
 * answer about half of it (the 512 KiB it had when only one copy counted).
 */
export const DEFAULT_MAX_BYTES = MAX_BYTES_CAP;
export const MIN_MAX_BYTES = 1024;

export interface Budgeted {
  result: Record<string, unknown>;
  /** Items dropped per list, when the budget cut the reply. */
  cut: Record<string, number> | null;
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/**
 * Fits a result into `limit` bytes of JSON. Lists are cut largest first; a
 * list of nested items (a hierarchy) is cut at its top level, so every item
 * kept is whole.
 */
export function fitToBudget(result: Record<string, unknown>, limit: number): Budgeted {
  if (bytes(result) <= limit) return { result, cut: null };
  const out: Record<string, unknown> = { ...result };
  const cut: Record<string, number> = {};
  const lists = Object.keys(out)
    .filter((k) => Array.isArray(out[k]) && (out[k] as unknown[]).length > 0)
    .sort((a, b) => bytes(out[b]) - bytes(out[a]));
  for (const key of lists) {
    const full = out[key] as unknown[];
    // Binary search for the longest prefix that fits.
    let lo = 0;
    let hi = full.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      out[key] = full.slice(0, mid);
      if (bytes(out) <= limit) lo = mid;
      else hi = mid - 1;
    }
    out[key] = full.slice(0, lo);
    cut[key] = full.length - lo;
    if (bytes(out) <= limit) break;
  }
  return { result: out, cut };
}

export function budgetHint(cut: Record<string, number>, maxBytes: number): string {
  const dropped = Object.entries(cut)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  return (
    `the reply was cut to ${maxBytes} bytes (${dropped} left out): narrow the query ` +
    '(a kind, a path, a smaller limit or depth) or raise max_bytes, at most ' +
    MAX_BYTES_CAP
  );
}
