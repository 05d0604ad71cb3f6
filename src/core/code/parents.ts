/**
 * Parent-selection probabilities of code search, as pure functions of the candidates' recorded
 * mean scores, child counts, ranks or ratings. The program database decides *who* is a candidate
 * (correct programs only) and draws from these; ranking by recorded mean is a selection weight,
 * never a verdict that one program is better (that is the gate's job).
 *
 * Formulas follow ShinkaEvolve 9912af1 `shinka/database/parents.py`; the Bradley–Terry rule is
 * Ratchet's (GATES.md 7.3/7.6).
 */
import { RatchetError } from '../errors';
import { ELO_TAU, softmaxProbabilities } from '../gates/elo';
import { sigmoid } from '../gates/logMath';

/** Shinka `DatabaseConfig.parent_selection_lambda`: the sigmoid's sharpness. */
export const WEIGHTED_LAMBDA = 10;
/** Shinka `DatabaseConfig.exploitation_alpha`: 0 is uniform, larger is greedier. */
export const POWER_LAW_ALPHA = 1;
/** Shinka's floor on the MAD, so a pool of equal scores does not divide by zero. */
const MIN_SCALE = 1e-6;

/** Median, averaging the two middle values of an even count (numpy's `median`). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Shinka's weighted rule: α₀ = median score, scale = max(median |αᵢ − α₀|, 1e-6) (the MAD),
 * sᵢ = σ(λ (αᵢ − α₀)/scale), hᵢ = 1/(1 + childrenᵢ), pᵢ = sᵢhᵢ / Σ sⱼhⱼ; uniform when every
 * weight underflows to 0. The MAD makes λ mean the same on any score scale; hᵢ spreads children
 * over programs that have not been explored yet.
 */
export function weightedProbabilities(scores: readonly number[], children: readonly number[], lambda: number = WEIGHTED_LAMBDA): number[] {
  if (scores.length !== children.length) throw new RatchetError('internal', 'Weighted selection needs one child count per score.');
  if (scores.length === 0) return [];
  const alpha0 = median(scores);
  const scale = Math.max(median(scores.map((s) => Math.abs(s - alpha0))), MIN_SCALE);
  const w = scores.map((s, i) => sigmoid((lambda * (s - alpha0)) / scale) / (1 + children[i]!));
  return normalise(w);
}

/**
 * Shinka's power law over ranks: candidates sorted best first, pᵢ ∝ (i + 1)^(−α).
 * `n` is the number of ranked candidates; index 0 is the best.
 */
export function powerLawProbabilities(n: number, alpha: number = POWER_LAW_ALPHA): number[] {
  return normalise(Array.from({ length: n }, (_, i) => (i + 1) ** -alpha));
}

/**
 * Softmax over Elo-scale ratings with τ = 400/ln 10, i.e. pᵢ ∝ 10^{Rᵢ/400}: the Bradley–Terry
 * strength of each candidate (GATES.md 7.3), for runs whose gate is pairwise.
 */
export function ratingProbabilities(ratings: readonly number[], tau: number = ELO_TAU): number[] {
  return softmaxProbabilities(ratings, tau);
}

function normalise(weights: readonly number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  if (!(total > 0) || !Number.isFinite(total)) return weights.map(() => 1 / weights.length);
  return weights.map((x) => x / total);
}
