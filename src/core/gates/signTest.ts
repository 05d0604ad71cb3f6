/**
 * Fixed-n paired sign test = exact one-sided McNemar (GATES.md 6.1): with W wins and L losses
 * among the D = W + L discordant items, p = P(Bin(D, ½) ≥ W) = 2^{−D} Σ_{j=W..D} C(D, j); commit iff
 * p ≤ α. Valid only when the n is fixed in advance and nobody stops early; its p-values are not
 * e-values, so it cannot feed e-LOND.
 */
import type { Decision, Schedule } from './record';
import type { RunLedger } from './thresholds';
import { RatchetError } from '../errors';
import { checkAlpha, gammaAt } from './thresholds';
import { screenedGamma } from './schedules';
import { logChoose, logSumExp } from './logMath';

const EXACT_MAX_D = 50;

/** Exact one-sided p-value P(Bin(W + L, ½) ≥ W), summed in log space. */
export function signTestPValue(wins: number, losses: number): number {
  const d = wins + losses;
  if (wins <= 0) return 1;
  if (d <= EXACT_MAX_D) {
    // Up to D = 50 every C(D, j)·(D − j) and the sum are integers below 2^53, and dividing by 2^D is
    // exact, so p is correctly rounded — no spurious p > α at a boundary.
    let c = 1;
    let sum = 0;
    for (let j = 0; j <= d; j++) {
      if (j >= wins) sum += c;
      c = (c * (d - j)) / (j + 1);
    }
    return sum / 2 ** d;
  }
  const terms: number[] = [];
  for (let j = wins; j <= d; j++) terms.push(logChoose(d, j));
  return Math.min(1, Math.exp(logSumExp(terms) - d * Math.LN2));
}

export interface SignTestResult {
  decision: Decision;
  reason: 'p-value';
  statistic: { wins: number; losses: number; ties: number; pValue: number; level: number };
}

/** Commit iff p ≤ level (α, or a run-level level such as LORD++'s α_t or α-spending's αγ_t). */
export function signTest(wins: number, losses: number, ties: number, level: number): SignTestResult {
  const pValue = signTestPValue(wins, losses);
  return { decision: pValue <= level ? 'commit' : 'reject', reason: 'p-value', statistic: { wins, losses, ties, pValue, level } };
}

/**
 * The level the next candidate's p-value is compared with, by the run's schedule (GATES.md 4.5):
 * α per candidate; α-spending on p-values is Bonferroni, αγ_t (0 once a declared horizon is spent:
 * nothing more can commit), or α/(j(j+1)) for the j-th candidate a screen lets through. e-LOND is
 * refused: it needs e-values, and a fixed-n p-value is not one (GATES.md 6.1). The engine's gate and `ratchet gate sign` both take their level from here.
 */
export function signTestLevel(schedule: Schedule, alpha: number, ledger: RunLedger, horizonT?: number): number {
  checkAlpha(alpha);
  if (schedule === 'per-candidate') return alpha;
  if (schedule === 'fwer-spend') return alpha * gammaAt(ledger.tested + 1, horizonT);
  if (schedule === 'fwer-screened') return alpha * screenedGamma(ledger.tested + 1);
  throw new RatchetError('badInput', 'The sign test gives p-values, and e-LOND needs e-values (GATES.md 6.1): use schedule per-candidate or fwer-spend with the sign test, or gate pace+ for e-LOND.', {
    field: 'gate.schedule',
  });
}

/** The sign test on paired differences Δ_i = Y_C − Y_I (the sign of Δ for continuous scores). */
export function signTestOnDeltas(deltas: readonly number[], level: number): SignTestResult {
  let wins = 0;
  let losses = 0;
  for (const d of deltas) {
    if (d > 0) wins++;
    else if (d < 0) losses++;
  }
  return signTest(wins, losses, deltas.length - wins - losses, level);
}

/** Fewest straight wins (no losses) the sign test needs at level α: ⌈log₂(1/α)⌉ (5 at α = 0.05). */
export function signTestMinWins(alpha: number): number {
  checkAlpha(alpha);
  let w = 1;
  while (signTestPValue(w, 0) > alpha) w++;
  return w;
}
