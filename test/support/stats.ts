// Seeded sampling and precision/recall, for differential tests.

import assert from 'node:assert/strict';

/** mulberry32: a small seeded generator, so a sample is the same on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * A stratified sample: for each stratum, `quota` items drawn one at a time
 * from its files in a shuffled round, so no file dominates a stratum.
 */
export function drawStratified<S extends string, T>(
  candidates: Map<S, Map<string, T[]>>,
  quotas: Record<S, number>,
  random: () => number,
): T[] {
  const drawn: T[] = [];
  for (const [stratum, quota] of Object.entries(quotas) as [S, number][]) {
    const byFile = candidates.get(stratum);
    assert.ok(byFile, `no ${stratum} in the corpus`);
    const files = shuffle([...byFile.keys()].sort(), random);
    const taken = new Set<T>();
    for (let i = 0; taken.size < quota && i < quota * files.length; i++) {
      const left = byFile.get(files[i % files.length]!)!.filter((t) => !taken.has(t));
      if (left.length === 0) continue;
      const t = left[Math.floor(random() * left.length)]!;
      taken.add(t);
      drawn.push(t);
    }
  }
  return drawn;
}

/** One answer held against the reference answer. */
export interface Score {
  /** In both. */
  both: number;
  /** The size of the answer under test. */
  sextant: number;
  /** The size of the reference answer (the language server's, within the repository). */
  server: number;
}

export function score(
  sextant: { has(k: string): boolean; keys(): Iterable<string>; readonly size: number },
  server: { has(k: string): boolean; readonly size: number },
): Score {
  let both = 0;
  for (const k of sextant.keys()) if (server.has(k)) both++;
  return { both, sextant: sextant.size, server: server.size };
}

export interface Summary {
  microPrecision: number;
  microRecall: number;
  macroPrecision: number;
  macroRecall: number;
}

/** Micro (pooled) and macro (mean over the answers where defined) precision and recall. */
export function summarize(scores: readonly Score[]): Summary {
  const sum = (f: (s: Score) => number) => scores.reduce((n, s) => n + f(s), 0);
  const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN);
  return {
    microPrecision: sum((s) => s.both) / sum((s) => s.sextant),
    microRecall: sum((s) => s.both) / sum((s) => s.server),
    macroPrecision: mean(scores.filter((s) => s.sextant > 0).map((s) => s.both / s.sextant)),
    macroRecall: mean(scores.filter((s) => s.server > 0).map((s) => s.both / s.server)),
  };
}

export const fmt = (x: number) => x.toFixed(3);

/** "precision 0.912 micro / 0.880 macro, recall ..." */
export function formatSummary(s: Summary): string {
  return `precision ${fmt(s.microPrecision)} micro / ${fmt(s.macroPrecision)} macro, recall ${fmt(s.microRecall)} micro / ${fmt(s.macroRecall)} macro`;
}
