/**
 * Commit thresholds for candidate t of a run and the run ledger they depend on (GATES.md 4.5, 4.6;
 * the screened default in docs/gates.md).
 *
 * The stopped wealth of each test is an e-value, so thresholds may depend on anything before the
 * test: per candidate `1/α`, α-spending `1/(α γ_t)` (FWER), e-LOND `1/(α γ_t (R_{t−1} + 1))` (FDR
 * under arbitrary dependence, Xu & Ramdas 2024), screened α-spending `j(j+1)/α` for the j-th
 * candidate that reaches a dev-set test (FWER).
 */
import type { Decision, Schedule } from './record';
import { RatchetError } from '../errors';
import { screenedGamma } from './schedules';

/**
 * Persisted per run and never reset inside it (4.7): candidates tested and commits so far. A
 * candidate dropped by a screen before its dev-set test is not counted: no α was spent on it.
 */
export interface RunLedger {
  readonly tested: number;
  readonly commits: number;
}

export const EMPTY_LEDGER: RunLedger = Object.freeze({ tested: 0, commits: 0 });

/**
 * γ_t for the 1-based candidate index t: `1/T` within a declared horizon T, 0 past it (the budget
 * Σγ ≤ 1 is spent), else the open-ended `6/(π² t²)` whose sum over all t is exactly 1 (4.5).
 */
export function gammaAt(t: number, horizonT?: number): number {
  if (!Number.isInteger(t) || t < 1) throw new RatchetError('internal', `Candidate index must be a positive integer, got ${t}.`);
  if (horizonT !== undefined) return t <= horizonT ? 1 / horizonT : 0;
  return 6 / (Math.PI * Math.PI * t * t);
}

/**
 * The threshold the next candidate's wealth must reach (GATES.md 4.6 `threshold`). Infinity when
 * a declared horizon is used up: nothing more can be committed under that run-level guarantee.
 */
export function candidateThreshold(schedule: Schedule, alpha: number, ledger: RunLedger, horizonT?: number): number {
  checkAlpha(alpha);
  if (horizonT !== undefined && !(Number.isInteger(horizonT) && horizonT >= 1)) {
    throw new RatchetError('badInput', `The candidate horizon T must be a positive integer, got ${horizonT}.`);
  }
  if (schedule === 'per-candidate') return 1 / alpha;
  if (schedule === 'fwer-screened') return 1 / (alpha * screenedGamma(ledger.tested + 1));
  const gamma = gammaAt(ledger.tested + 1, horizonT);
  if (gamma === 0) return Infinity;
  return schedule === 'fwer-spend' ? 1 / (alpha * gamma) : 1 / (alpha * gamma * (ledger.commits + 1));
}

/**
 * The ledger after one more tested candidate. Every test counts, infeasible ones included
 * (4.6 increments `tested` before the feasibility check); a deduplicated candidate that was never
 * tested (A5) must not be passed here.
 */
export function advanceLedger(ledger: RunLedger, decision: Decision): RunLedger {
  return { tested: ledger.tested + 1, commits: ledger.commits + (decision === 'commit' ? 1 : 0) };
}

/** Throws RatchetError('badInput') unless 0 < α < 1 — every threshold of GATES.md 4.5 needs it. */
export function checkAlpha(alpha: number): void {
  if (!(Number.isFinite(alpha) && alpha > 0 && alpha < 1)) {
    throw new RatchetError('badInput', `α must be a number in (0, 1), got ${alpha}.`, { alpha });
  }
}
