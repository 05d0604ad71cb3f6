/**
 * What a pull-request check asks of a changed file, and how the gate's answer reads as a pass or a
 * failure (docs/gates.md, "Pull-request check").
 *
 * The gate tests one question: is the candidate better than the incumbent (H0: E[Δ] ≤ 0, Δ =
 * candidate − incumbent)? `better` asks it of head against base; `not-worse` asks it of base
 * against head — "base is better" is "head is worse", so a regression is shown with the same
 * anytime-valid test and the same α, and a head that is not worse fails with probability ≤ α.
 */
import type { JudgeVerdict } from '../judgeEdit/judgeEdit';

export const CHECK_POLICIES = ['better', 'not-worse'] as const;
export type CheckPolicy = (typeof CHECK_POLICIES)[number];

export function isCheckPolicy(x: unknown): x is CheckPolicy {
  return typeof x === 'string' && (CHECK_POLICIES as readonly string[]).includes(x);
}

/** Which version the gate's test takes as its candidate; the other is its incumbent. */
export function candidateSide(policy: CheckPolicy): 'head' | 'base' {
  return policy === 'better' ? 'head' : 'base';
}

export type CheckVerdict = 'better' | 'not shown better' | 'worse' | 'not shown worse' | 'undecided';

export interface CheckOutcome {
  verdict: CheckVerdict;
  passed: boolean;
}

/**
 * The gate's verdict on its candidate as the check's. Under `not-worse` only a commit (base shown
 * better) fails; a test a budget stopped early showed nothing worse, so it passes, and says so.
 */
export function checkOutcome(policy: CheckPolicy, judged: JudgeVerdict): CheckOutcome {
  if (policy === 'better') {
    if (judged === 'commit') return { verdict: 'better', passed: true };
    return { verdict: judged === 'reject' ? 'not shown better' : 'undecided', passed: false };
  }
  if (judged === 'commit') return { verdict: 'worse', passed: false };
  return { verdict: judged === 'reject' ? 'not shown worse' : 'undecided', passed: true };
}

/** Δ of head against base from the test's Δ of candidate against incumbent. */
export function headDelta(policy: CheckPolicy, delta: number): number {
  return candidateSide(policy) === 'head' ? delta : -delta;
}

/** The verdict in plain words, for the report's first column. */
export function verdictWords(policy: CheckPolicy, o: CheckOutcome): string {
  switch (o.verdict) {
    case 'better':
      return 'Better: head is shown better than base.';
    case 'not shown better':
      return 'Not shown better: the evidence did not reach the line, so the change is not proven to help.';
    case 'worse':
      return 'Worse: head is shown worse than base.';
    case 'not shown worse':
      return 'Not shown worse: no evidence that head is worse than base.';
    case 'undecided':
      return policy === 'better' ? 'Undecided: the budget stopped the test before it could show head better.' : 'Not shown worse (the budget stopped the test early).';
  }
}
