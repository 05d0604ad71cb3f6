/**
 * Log-space helpers for the e-processes (GATES.md 4.7: keep log-wealth, use log1p and
 * log-sum-exp, compare `logE ≥ log(thr)` without tolerance). Wealth after a few dozen wins
 * overflows nothing, but products of many small factors underflow and the e-LOND thresholds
 * reach 10⁴–10⁵, so every comparison is done on logs.
 */

/** log Σ exp(xs), stable for large and very negative entries; −∞ for an empty list. */
export function logSumExp(xs: readonly number[]): number {
  let max = -Infinity;
  for (const x of xs) if (x > max) max = x;
  if (max === -Infinity || max === Infinity) return max;
  let sum = 0;
  for (const x of xs) sum += Math.exp(x - max);
  return max + Math.log(sum);
}

/** log of the weighted mean Σ w_g exp(x_g) with weights given as logs (Σ w_g = 1). */
export function logWeightedSumExp(xs: readonly number[], logWeights: readonly number[]): number {
  let max = -Infinity;
  for (let g = 0; g < xs.length; g++) {
    const v = xs[g]! + logWeights[g]!;
    if (v > max) max = v;
  }
  if (max === -Infinity || max === Infinity) return max;
  let sum = 0;
  for (let g = 0; g < xs.length; g++) sum += Math.exp(xs[g]! + logWeights[g]! - max);
  return max + Math.log(sum);
}

/** logMeanExp(v) = logSumExp(v) − log(v.length) (GATES.md 4.6). */
export function logMeanExp(xs: readonly number[]): number {
  return logSumExp(xs) - Math.log(xs.length);
}

// ln(k!) grows by one table entry per new k; D (discordant pairs) stays in the hundreds.
const logFactorials: number[] = [0];

/** ln(k!) for an integer k ≥ 0, exact summation of logs (no Stirling error at small k). */
export function logFactorial(k: number): number {
  for (let j = logFactorials.length; j <= k; j++) logFactorials.push(logFactorials[j - 1]! + Math.log(j));
  return logFactorials[k]!;
}

/** ln C(n, k); −∞ outside 0 ≤ k ≤ n. */
export function logChoose(n: number, k: number): number {
  if (k < 0 || k > n) return -Infinity;
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

/** Logistic function σ(x) = 1/(1 + e^{−x}), without overflow for large |x|. */
export function sigmoid(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

/** clip(x, lo, hi) as in the bet formulas of GATES.md 4.1. */
export function clip(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
