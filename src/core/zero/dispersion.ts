/**
 * Which generated tasks teach something (J-Zero's filter): the Solver answers each task M times,
 * the judge scores each answer in [0, 1], and a task whose scores disagree is one the prompt
 * sometimes gets right — where an edit can show a difference. A task every answer passes, or every
 * answer fails, cannot tell a better prompt from a worse one, whatever its difficulty.
 *
 * - difficulty = 1 − mean score (the Challenger's reward);
 * - dispersion = the population standard deviation of the M scores (÷ M, not M − 1): it describes
 *   these M answers rather than estimating a spread, and its range is then fixed, [0, ½] for
 *   scores in [0, 1], whatever M — so histograms and thresholds mean the same every round;
 * - keep the top K by dispersion; ties broken by the task's position, so the same scores always
 *   keep the same tasks; a task of zero dispersion is never kept (it teaches nothing);
 * - too easy: every score at or above `easyAt` (1: all answers top-scored); too hard: every score at
 *   or below `hardAt` (0: all failed) — the Challenger's feedback for its next round.
 */
import { RatchetError } from '../errors';
import type { HistogramBin } from '../journal/payloadTypes';

/** Largest population standard deviation of values in [0, 1]: half at 0, half at 1. */
export const MAX_DISPERSION = 0.5;

export interface ScoredTask<T> {
  task: T;
  /** The judge's scores of the M answers, each in [0, 1]. */
  scores: readonly number[];
}

export type TaskBand = 'tooEasy' | 'tooHard' | 'mixed';

export interface TaskSpread<T> {
  task: T;
  difficulty: number;
  dispersion: number;
  band: TaskBand;
}

export interface BandThresholds {
  /** A task is too easy when every score is at or above this (1 = all top-scored). */
  easyAt?: number;
  /** A task is too hard when every score is at or below this (0 = all failed). */
  hardAt?: number;
}

export function taskSpread<T>(scored: ScoredTask<T>, bands: BandThresholds = {}): TaskSpread<T> {
  const { scores } = scored;
  if (scores.length === 0) throw new RatchetError('internal', 'A generated task needs at least one judged answer to measure its spread.');
  for (const s of scores) if (!(s >= 0 && s <= 1)) throw new RatchetError('internal', `A judge score must lie in [0, 1], got ${s}.`);
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  // Equal scores are exactly zero spread; the sum of squares of rounding errors is not.
  const alike = scores.every((s) => s === scores[0]);
  const dispersion = alike ? 0 : Math.sqrt(scores.reduce((a, s) => a + (s - mean) ** 2, 0) / scores.length);
  const easyAt = bands.easyAt ?? 1;
  const hardAt = bands.hardAt ?? 0;
  const band: TaskBand = scores.every((s) => s >= easyAt) ? 'tooEasy' : scores.every((s) => s <= hardAt) ? 'tooHard' : 'mixed';
  return { task: scored.task, difficulty: 1 - mean, dispersion, band };
}

/**
 * `bins` equal bins over [lo, hi]; a value on a boundary goes to the upper bin (0.3 in [0.3, 0.4),
 * not lost to rounding in 0.3/0.1), and the last bin includes `hi`, so a value at the top is counted.
 */
export function histogram(values: readonly number[], bins: number, lo: number, hi: number): HistogramBin[] {
  if (!(Number.isInteger(bins) && bins >= 1 && hi > lo)) throw new RatchetError('internal', `A histogram needs bins ≥ 1 over a non-empty range, got ${bins} over [${lo}, ${hi}].`);
  const width = (hi - lo) / bins;
  const out = Array.from({ length: bins }, (_, i) => ({ lo: lo + i * width, hi: i === bins - 1 ? hi : lo + (i + 1) * width, count: 0 }));
  for (const v of values) {
    if (!(v >= lo && v <= hi)) continue;
    out[Math.min(bins - 1, Math.floor((v - lo) / width + 1e-9))]!.count++;
  }
  return out;
}

export interface DispersionSelection<T> {
  /** The tasks kept, highest dispersion first. */
  kept: TaskSpread<T>[];
  /** Dispersion above zero but outside the top K. */
  notInTopK: TaskSpread<T>[];
  /** Zero dispersion: every answer scored alike. */
  lowDispersion: TaskSpread<T>[];
  tooEasy: TaskSpread<T>[];
  tooHard: TaskSpread<T>[];
  /** Over every task judged, kept or not: what the Zero-data tab and the report draw. */
  difficultyHistogram: HistogramBin[];
  dispersionHistogram: HistogramBin[];
}

export interface SelectionOptions extends BandThresholds {
  /** How many tasks to keep at most. */
  keep: number;
  /** Histogram bins (10 by default). */
  bins?: number;
}

/** Spreads every task, keeps the top K by dispersion, and summarises the round. */
export function selectByDispersion<T>(tasks: readonly ScoredTask<T>[], opts: SelectionOptions): DispersionSelection<T> {
  if (!(Number.isInteger(opts.keep) && opts.keep >= 0)) throw new RatchetError('badInput', `The number of tasks to keep must be a whole number ≥ 0, got ${opts.keep}.`);
  const spreads = tasks.map((t) => taskSpread(t, opts));
  const ranked = spreads
    .map((s, position) => ({ s, position }))
    .filter(({ s }) => s.dispersion > 0)
    .sort((a, b) => b.s.dispersion - a.s.dispersion || a.position - b.position)
    .map(({ s }) => s);
  const bins = opts.bins ?? 10;
  return {
    kept: ranked.slice(0, opts.keep),
    notInTopK: ranked.slice(opts.keep),
    lowDispersion: spreads.filter((s) => s.dispersion === 0),
    tooEasy: spreads.filter((s) => s.band === 'tooEasy'),
    tooHard: spreads.filter((s) => s.band === 'tooHard'),
    difficultyHistogram: histogram(
      spreads.map((s) => s.difficulty),
      bins,
      0,
      1,
    ),
    dispersionHistogram: histogram(
      spreads.map((s) => s.dispersion),
      bins,
      0,
      MAX_DISPERSION,
    ),
  };
}
