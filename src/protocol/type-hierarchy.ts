// typeHierarchy: what a type extends or implements (supertypes), and what extends or implements it (subtypes).
import { z } from 'zod';
import * as limits from './limits.js';
import { arg, HierarchyItem, params, positionArgs, Provenance, IndexMissing, FreshnessFields } from './common.js';

export const name = 'typeHierarchy';
export const { MAX_DEPTH } = limits.typeHierarchy;
export const description =
  'Type hierarchy of the class, interface or type at a position (path, line, column; 1-based): direction "supertypes" lists what it ' +
  'extends or implements, "subtypes" what extends or implements it, across files and every repository in the registry. ' +
  'On a method it lists the methods it overrides, or that override it. depth (default 1, at most 5) follows further levels.';

export const Params = params({
  ...positionArgs(),
  direction: z
    .enum(['supertypes', 'subtypes'], { error: 'direction must be "supertypes" or "subtypes"' })
    .describe('supertypes: what it extends or implements; subtypes: what extends or implements it'),
  depth: arg.depth(MAX_DEPTH),
});
export type Params = z.infer<typeof Params>;

export type TypeItem = HierarchyItem & {
  /** The next level (depth > 1). */
  types?: TypeItem[];
};

export const TypeItem: z.ZodType<TypeItem> = HierarchyItem.extend({
  get types() {
    return z.array(TypeItem).optional();
  },
});

export const Result = z.object({
  ...Provenance,
  ...IndexMissing,
  ...FreshnessFields,
  item: TypeItem,
  direction: z.enum(['supertypes', 'subtypes']),
  depth: z.int(),
  depth_clamped: z.boolean().optional(),
  types: z.array(TypeItem),
  /** What the answer says of itself: a root defined outside the indexed code. */
  message: z.string().optional(),
});
export type Result = z.infer<typeof Result>;
