// Builds the `meta` envelope of an answer from the answer itself, once, in
// the shared result path: tools do not fill it in one by one. What an answer
// says of itself (its commit, source, freshness, truncation) becomes the
// envelope's fields, and every piece of repository text it carries is scanned
// for instruction signals.
import type { Meta } from '../protocol/meta.js';
import { DEFAULT_SCAN_LIMITS, scanInstructionSignals, type ScanLimits, type ScanPiece } from './instruction-signals.js';

type Provenance = Meta['provenance'];

/** Fields whose strings are repository text, placed at the line of the object that holds them. */
const LINE_TEXT = new Set(['preview', 'signature', 'documentation', 'detail', 'text']);
/** Context lines: `before` ends the line above the match, `after` starts the line below. */
const CONTEXT = new Set(['before', 'after']);
/** Names and paths come from the repository too; a path reads as words. */
const NAME_TEXT = new Set(['name', 'container']);
const PATH_TEXT = new Set(['path']);

export interface EnvelopeOptions {
  /** Where the answer came from when it does not say (`source`): the tool's default. */
  provenance?: Provenance;
  limits?: ScanLimits;
  now?: Date;
}

export function buildMeta(result: Record<string, unknown>, options: EnvelopeOptions = {}): Meta {
  const pieces = repositoryText(result);
  const signals = scanInstructionSignals(pieces, options.limits ?? DEFAULT_SCAN_LIMITS);
  const source = typeof result.source === 'string' ? result.source : undefined;
  const meta: Meta = {
    generated_at: (options.now ?? new Date()).toISOString(),
    local_only: true,
    bounded: true,
    provenance: provenanceOf(source, result, options.provenance),
    coverage: coverageOf(source, result),
    confidence: confidenceOf(source, result),
    index_freshness: freshnessOf(result),
    truncated: truncatedOf(result),
    source_is_untrusted: pieces.length > 0,
    instruction_signals: signals,
  };
  const revision = typeof result.commit === 'string' ? result.commit : undefined;
  if (revision) meta.source_revision = revision;
  return meta;
}

function provenanceOf(source: string | undefined, result: Record<string, unknown>, fallback: Provenance | undefined): Provenance {
  if (source === 'lsp' || hasLspLocations(result)) return 'local-lsp';
  if (source === 'precise' || source === 'syntactic') return 'local-index';
  if (source === 'search') return 'local-analysis';
  return fallback ?? 'local-index';
}

function hasLspLocations(result: Record<string, unknown>): boolean {
  for (const key of ['references', 'definitions', 'matches']) {
    const list = result[key];
    if (Array.isArray(list) && list.some((l) => (l as { source?: unknown })?.source === 'lsp')) return true;
  }
  return false;
}

function coverageOf(source: string | undefined, result: Record<string, unknown>): Meta['coverage'] {
  if (result.partial === true) return 'approximate';
  if (source === 'precise') return 'precise';
  if (source === 'syntactic' || source === 'search' || source === 'lsp') return 'approximate';
  return 'unknown';
}

function confidenceOf(source: string | undefined, result: Record<string, unknown>): number {
  const base = source === 'precise' ? 0.95 : source === 'lsp' ? 0.9 : source === 'syntactic' ? 0.6 : source === 'search' ? 0.4 : 0.5;
  return freshnessOf(result) === 'stale' ? Math.round(base * 0.7 * 100) / 100 : base;
}

function freshnessOf(result: Record<string, unknown>): Meta['index_freshness'] {
  if (result.index_freshness === 'fresh' || result.index_freshness === 'stale') return result.index_freshness;
  if (result.stale === true) return 'stale';
  if (result.stale === false && result.freshness !== 'unknown') return 'fresh';
  return 'unknown';
}

function truncatedOf(result: Record<string, unknown>): boolean {
  return result.truncated === true || result.limit_clamped === true || result.depth_clamped === true;
}

/**
 * Every string of repository text in an answer, placed at its path and line
 * where the answer says them. A plain walk into one list: it runs on every
 * answer, and nested generators cost more than the scan of a small answer.
 */
function repositoryText(result: Record<string, unknown>): ScanPiece[] {
  const pieces: ScanPiece[] = [];
  walk(result, undefined, undefined, pieces);
  return pieces;
}

function walk(value: unknown, at: { path: string; line: number } | undefined, key: string | undefined, out: ScanPiece[]): void {
  if (typeof value === 'string') {
    if (!key || value.length === 0) return;
    if (LINE_TEXT.has(key)) out.push({ text: value, source: at ? at.path : key, line: at?.line ?? 1 });
    else if (NAME_TEXT.has(key)) out.push({ text: value, source: key });
    else if (PATH_TEXT.has(key)) out.push({ text: value, source: key, isPath: true });
    return;
  }
  if (Array.isArray(value)) {
    if (key && CONTEXT.has(key)) {
      const first = at ? (key === 'before' ? at.line - value.length : at.line + 1) : 1;
      for (let i = 0; i < value.length; i++) {
        if (typeof value[i] === 'string') out.push({ text: value[i] as string, source: at?.path ?? key, line: Math.max(1, first + i) });
      }
      return;
    }
    for (const item of value) walk(item, at, key, out);
    return;
  }
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const here = typeof obj.path === 'string' && typeof obj.line === 'number' ? { path: obj.path, line: obj.line } : at;
    for (const k in obj) {
      if (k !== 'meta') walk(obj[k], here, k, out);
    }
  }
}
