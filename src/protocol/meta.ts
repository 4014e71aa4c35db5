// The provenance envelope every successful answer carries, as the SRC
// contract spells it (reference/src-get_index_status.txt): what the answer is
// built from, how fresh and complete it is, and whether it carries repository
// text, with the instruction signals found in that text.
import { z } from 'zod';
import { SIGNAL_KINDS } from '../trust/instruction-signals.js';

export const PROVENANCES = ['local-analysis', 'local-filesystem', 'local-index', 'local-lsp'] as const;
export const COVERAGES = ['precise', 'approximate', 'unknown'] as const;
export const FRESHNESS = ['fresh', 'stale', 'unknown'] as const;

const count = () => z.int().min(0);

export const InstructionSignal = z.strictObject({
  kind: z.enum(SIGNAL_KINDS),
  line: z.int().positive(),
  column: count(),
  offset: count(),
  confidence: z.number().min(0).max(1),
  reason: z.string(),
  source: z.string().optional(),
});

export const InstructionSignals = z.strictObject({
  detected: z.boolean(),
  count: count(),
  kinds: z.array(z.enum(SIGNAL_KINDS)),
  signals: z.array(InstructionSignal),
  scanned_bytes: count(),
  scan_truncated: z.boolean(),
});

export const Meta = z.strictObject({
  generated_at: z.string(),
  local_only: z.literal(true),
  bounded: z.literal(true),
  provenance: z.enum(PROVENANCES),
  coverage: z.enum(COVERAGES).optional(),
  confidence: z.number().min(0).max(1).optional(),
  index_freshness: z.enum(FRESHNESS).optional(),
  source_revision: z.string().optional(),
  truncated: z.boolean().optional(),
  source_is_untrusted: z.boolean().optional(),
  instruction_signals: InstructionSignals.optional(),
});
export type Meta = z.infer<typeof Meta>;
