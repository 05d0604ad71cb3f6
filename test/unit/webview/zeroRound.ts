/**
 * A `zero/round` event as core/zero/rounds.ts journals it, with the counts a test chooses: the
 * written tasks are exactly the kept, held-out and dropped ones (every task meets one fate), the
 * histograms count the judged pool, the two reliabilities are each pair type's.
 */
import type { EventOf } from '../../../src/core/journal/events';
import type { HistogramBin } from '../../../src/core/journal/payloadTypes';
import type { Reliability } from '../../../src/core/journal/payloadTypes';
import type { Exemplar } from '../../../src/core/journal/payloadTypes';

export interface RoundShape {
  kept?: number;
  heldOut?: number;
  notInTopK?: number;
  lowDispersion?: number;
  duplicate?: number;
  empty?: number;
  unclosedTag?: number;
  unjudged?: number;
  role?: Partial<Reliability>;
  amplification?: Partial<Reliability>;
  exemplars?: Exemplar[];
  exemplarsUsed?: string[];
  runId?: string;
  at?: number;
}

export function bins(counts: readonly number[], hi = 1): HistogramBin[] {
  return counts.map((count, i) => ({ lo: (i * hi) / counts.length, hi: ((i + 1) * hi) / counts.length, count }));
}

export function reliability(type: Reliability['type'], over: Partial<Reliability> = {}): Reliability {
  return { type, pairs: 4, right: 3, wrong: 1, split: 0, ties: 0, agreement: 0.75, lo: 0.3, hi: 0.95, ...over };
}

export function exemplar(pairId: string, over: Partial<Exemplar> = {}): Exemplar {
  return { pairId, type: 'roleAsymmetry', judgement: 'wrong', task: `task of ${pairId}`, better: `better answer to ${pairId}`, worse: `worse answer to ${pairId}`, betterSlot: 'A', ...over };
}

export function zeroRound(round: number, shape: RoundShape = {}): EventOf<'zero/round'> {
  const n = { kept: 3, heldOut: 2, notInTopK: 1, lowDispersion: 2, duplicate: 1, empty: 1, unclosedTag: 0, unjudged: 0, ...shape };
  const task = (kind: string) => (_: unknown, i: number) => ({ id: `r${round}-${kind}-${i}`, text: `What is ${round} + ${i}? (${kind})`, difficulty: 0.5, dispersion: 0.4 });
  const pool = n.kept + n.notInTopK + n.lowDispersion;
  return {
    type: 'zero/round',
    runId: shape.runId ?? 'run-1',
    at: shape.at ?? 1_000 + round,
    round,
    requested: 12,
    written: pool + n.heldOut + n.duplicate + n.empty + n.unclosedTag + n.unjudged,
    discarded: {
      format: { missingTag: 0, unclosedTag: n.unclosedTag, notJson: 0, missingVariable: 0, empty: n.empty, overLength: 0 },
      duplicate: n.duplicate,
      unjudged: n.unjudged,
      lowDispersion: n.lowDispersion,
      notInTopK: n.notInTopK,
    },
    kept: Array.from({ length: n.kept }, task('kept')),
    heldOut: Array.from({ length: n.heldOut }, task('held')),
    tooEasy: Math.ceil(n.lowDispersion / 2),
    tooHard: Math.floor(n.lowDispersion / 2),
    difficultyHistogram: bins([n.lowDispersion, 0, 0, 0, 0, n.kept + n.notInTopK, 0, 0, 0, 0]),
    dispersionHistogram: bins([n.lowDispersion, 0, 0, 0, 0, 0, 0, 0, n.notInTopK, n.kept], 0.5),
    reliability: [reliability('roleAsymmetry', shape.role), reliability('amplification', shape.amplification)],
    exemplarsUsed: shape.exemplarsUsed ?? [],
    exemplars: shape.exemplars ?? [],
  };
}
