/**
 * The end-of-run report on the held-out test split: the starting prompt and the final incumbent
 * scored on the same items, each with a 95 % interval, and their paired difference. Reported
 * beside each other so a user sees generalisation rather than dev-set luck (GATES.md 4.8 #8).
 */
import type { ScoreInterval } from '../journal/payloadTypes';

const Z = 1.959963984540054;

/** Wilson interval for a mean of scores in [0, 1] (exact for 0/1 outcomes, conservative otherwise). */
export function meanInterval(scores: readonly number[]): ScoreInterval {
  const n = scores.length;
  if (n === 0) return { mean: 0, lo: 0, hi: 1 };
  const p = scores.reduce((a, b) => a + b, 0) / n;
  const denom = 1 + (Z * Z) / n;
  const centre = (p + (Z * Z) / (2 * n)) / denom;
  const half = (Z * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n))) / denom;
  return { mean: p, lo: Math.max(0, centre - half), hi: Math.min(1, centre + half) };
}

/** Normal-approximation interval for the mean paired difference, clipped to [−1, 1]. */
export function differenceInterval(a: readonly number[], b: readonly number[]): ScoreInterval {
  const d = a.map((x, i) => x - b[i]!);
  const n = d.length;
  if (n === 0) return { mean: 0, lo: -1, hi: 1 };
  const mean = d.reduce((s, x) => s + x, 0) / n;
  const variance = n > 1 ? d.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1) : 1;
  const half = Z * Math.sqrt(variance / n);
  return { mean, lo: Math.max(-1, mean - half), hi: Math.min(1, mean + half) };
}

/**
 * Student-t interval for a mean of scores in [0, 1] (graded scores, where Wilson's binomial
 * model does not hold), clipped to [0, 1]. One score gives no spread: the whole range.
 */
export function tMeanInterval(scores: readonly number[]): ScoreInterval {
  const n = scores.length;
  if (n === 0) return { mean: 0, lo: 0, hi: 1 };
  const mean = scores.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { mean, lo: 0, hi: 1 };
  const variance = scores.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1);
  const half = tQuantile975(n - 1) * Math.sqrt(variance / n);
  return { mean, lo: Math.max(0, mean - half), hi: Math.min(1, mean + half) };
}

/** Student's t 97.5 % quantiles for 1…7 degrees of freedom, from the standard table. */
const T975_SMALL = [12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624];

/**
 * The 97.5 % quantile of Student's t with `df` degrees of freedom: the table up to 7, then the
 * Cornish–Fisher expansion around the normal quantile (within 0.001 of the exact value from 8 on).
 */
export function tQuantile975(df: number): number {
  if (df < 1) return T975_SMALL[0]!;
  if (df <= T975_SMALL.length) return T975_SMALL[Math.floor(df) - 1]!;
  const z = Z;
  const z3 = z ** 3;
  const z5 = z ** 5;
  const z7 = z ** 7;
  return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3);
}
