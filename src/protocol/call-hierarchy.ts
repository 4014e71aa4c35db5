// callHierarchy: who calls a function or method (incoming), and what it calls (outgoing).
import { z } from 'zod';
import * as limits from './limits.js';
import { arg, HierarchyItem, Location, params, positionArgs, Provenance, IndexMissing, FreshnessFields, Partial } from './common.js';

export const name = 'callHierarchy';
export const { MAX_DEPTH, LIMIT, CAP } = limits.callHierarchy;
export const description =
  'Call hierarchy of the function, method or constructor at a position (path, line, column; 1-based): ' +
  'direction "incoming" lists its callers grouped by the innermost enclosing function (or the file, for top-level code), ' +
  'with the call ranges; "outgoing" lists what it calls. depth (default 1, at most 5) follows callers of callers; cycles are cut. ' +
  'Only calls are listed unless include_references is true, which adds mere mentions (a function passed as a value), each range marked with its kind. ' +
  'At a library function no indexed repository defines (JSON.parse), incoming lists its callers in the project asked in. ' +
  'Needs a precise index: in a language indexed syntactic it explains instead; in the lsp tier (C through clangd) the live server answers one level.';

export const Params = params({
  ...positionArgs(),
  direction: z
    .enum(['incoming', 'outgoing'], { error: 'direction must be "incoming" (callers) or "outgoing" (callees)' })
    .describe('incoming: who calls it; outgoing: what it calls'),
  depth: arg.depth(MAX_DEPTH),
  include_references: z
    .boolean({ error: 'include_references must be true or false' })
    .default(false)
    .describe('Also list references that are not calls (a function passed as a callback)'),
  limit: arg.limit(LIMIT, CAP),
});
export type Params = z.infer<typeof Params>;

export const CallItem = HierarchyItem;
export type CallItem = z.infer<typeof CallItem>;

export const CallRange = Location.extend({ kind: z.enum(['call', 'reference']) });
export type CallRange = z.infer<typeof CallRange>;

export interface Call {
  from?: CallItem;
  to?: CallItem;
  ranges: CallRange[];
  /** The next level (depth > 1). */
  calls?: Call[];
  /** Set when this item already appears above it: not expanded again. */
  cycle?: boolean;
}

export const Call: z.ZodType<Call> = z.object({
  from: CallItem.optional(),
  to: CallItem.optional(),
  ranges: z.array(CallRange),
  get calls() {
    return z.array(Call).optional();
  },
  cycle: z.boolean().optional(),
});

export const Result = z.object({
  ...Provenance,
  ...IndexMissing,
  ...FreshnessFields,
  item: CallItem,
  direction: z.enum(['incoming', 'outgoing']),
  depth: z.int(),
  depth_clamped: z.boolean().optional(),
  calls: z.array(Call),
  /** Calls listed at every level. */
  total: z.int(),
  truncated: z.boolean(),
  limit: z.int(),
  limit_clamped: z.boolean().optional(),
  /** References that are not calls, left out because include_references is false. */
  references_omitted: z.int(),
  notes: z.array(z.string()),
  ...Partial,
});
export type Result = z.infer<typeof Result>;
