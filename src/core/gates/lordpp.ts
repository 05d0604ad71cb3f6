/**
 * LORD++ online FDR on p-values (GATES.md 6.2; Ramdas et al. 2017, Javanmard & Montanari 2018), a
 * baseline only: its guarantee needs independent null p-values, which shared dev items and the
 * incumbent chain break (4.5). Test t uses
 *   α_t = W₀ γ_t + (α − W₀) γ_{t−τ₁} + α Σ_{j≥2} γ_{t−τ_j},
 * τ_j = times of earlier commits, W₀ = α/2, and the Javanmard–Montanari shape
 * γ_j ∝ log(max(j, 2))/(j·e^{√log j}) renormalised to sum to 1 over the horizon T.
 */
import type { Decision } from './record';
import { RatchetError } from '../errors';
import { checkAlpha } from './thresholds';

/** γ_1..γ_T of the Javanmard–Montanari shape, summing to 1 (γ₁ = 0.339, γ₃₀ = 0.0088 for T = 30). */
export function lordGammas(horizonT: number): number[] {
  if (!(Number.isInteger(horizonT) && horizonT >= 1)) throw new RatchetError('badInput', `LORD++ needs a positive integer horizon T, got ${horizonT}.`);
  const raw = Array.from({ length: horizonT }, (_, i) => {
    const j = i + 1;
    return Math.log(Math.max(j, 2)) / (j * Math.exp(Math.sqrt(Math.log(j))));
  });
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((g) => g / total);
}

export interface LordState {
  /** Tests done so far; the next test is t = tested + 1. */
  readonly tested: number;
  /** 1-based indices of earlier commits, in order. */
  readonly commitTimes: readonly number[];
}

export const LORD_START: LordState = Object.freeze({ tested: 0, commitTimes: Object.freeze([]) as readonly number[] });

/** α_t for the next test; γ_j = 0 outside 1..T. */
export function lordLevel(alpha: number, gammas: readonly number[], state: LordState, w0: number = alpha / 2): number {
  checkAlpha(alpha);
  const t = state.tested + 1;
  const g = (j: number): number => (j >= 1 && j <= gammas.length ? gammas[j - 1]! : 0);
  let level = w0 * g(t);
  state.commitTimes.forEach((tau, idx) => {
    level += (idx === 0 ? alpha - w0 : alpha) * g(t - tau);
  });
  return level;
}

/** One LORD++ test: commit iff p ≤ α_t; returns the level used and the next state. */
export function lordStep(alpha: number, gammas: readonly number[], state: LordState, pValue: number, w0: number = alpha / 2): { decision: Decision; level: number; state: LordState } {
  const level = lordLevel(alpha, gammas, state, w0);
  const t = state.tested + 1;
  const decision: Decision = pValue <= level ? 'commit' : 'reject';
  return {
    decision,
    level,
    state: { tested: t, commitTimes: decision === 'commit' ? [...state.commitTimes, t] : state.commitTimes },
  };
}
