/**
 * The end-of-run report on the held-out test split: the starting prompt and the final incumbent
 * scored on the same items, each with a 95 % interval, and their paired difference. Reported
 * beside each other so a user sees generalisation rather than dev-set luck (GATES.md 4.8 #8).
 */
import type { ScoreInterval } from '../run/events';

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
