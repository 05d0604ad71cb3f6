/**
 * What a pull-request check asks of a changed file, and how the gate's answer reads as a pass or a
 * failure (docs/gates.md, "Pull-request check").
 *
 * The gate tests one question: is the candidate better than the incumbent (H0: E[Δ] ≤ 0, Δ =
 * candidate − incumbent)? `better` asks it of head against base; `not-worse` asks it of base
 * against head — "base is better" is "head is worse", so a regression is shown with the same
 * anytime-valid test and the same α, and a head that is not worse fails with probability ≤ α.
 */
import { RatchetError } from '../errors';
import { describeValue } from '../data/diagnostics';
import { isPlainObject } from '../data/item';
import type { JudgeVerdict } from '../judgeEdit/judgeEdit';
import type { SpecLocate } from '../setup/specSchema';

/** The policies and what each asks (the CLI's choices and the run spec's `check.require`, generated from here), strictest first. */
export const CHECK_POLICY_TABLE = [
  { name: 'better', description: 'head must be shown better' },
  { name: 'not-worse', description: 'fail only when head is shown worse' },
] as const;
export const CHECK_POLICIES = CHECK_POLICY_TABLE.map((p) => p.name);
export type CheckPolicy = (typeof CHECK_POLICY_TABLE)[number]['name'];

export function isCheckPolicy(x: unknown): x is CheckPolicy {
  return typeof x === 'string' && (CHECK_POLICIES as readonly string[]).includes(x);
}

/** The policy a file's test is held to, and where it was set: `file:line` of its run spec, or `--require`. */
export interface AppliedPolicy {
  policy: CheckPolicy;
  from: string;
}

/** Where the command's `--require` applies: the default for files whose run spec does not say. */
export const FLAG_SOURCE = '--require';

/**
 * A file's own `check: { require: … }` wins over the command's `--require`, which is the default:
 * the file's owner, who knows whether an edit of it must help or only must not hurt, decides, and
 * a reviewer sees that decision in the file's history.
 */
export function appliedPolicy(spec: { value: Record<string, unknown>; locate: SpecLocate } | undefined, fallback: CheckPolicy): AppliedPolicy {
  const check = spec?.value.check;
  if (!spec || check === undefined) return { policy: fallback, from: FLAG_SOURCE };
  const at = (path: (string | number)[]): string => {
    const l = spec.locate(path);
    return `${l.file}:${l.line}`;
  };
  if (!isPlainObject(check)) throw new RatchetError('badInput', `${at(['check'])}: check must be a mapping such as check: { require: better } (got ${describeValue(check)})`, { field: 'check' });
  const require = check.require;
  if (require === undefined) return { policy: fallback, from: FLAG_SOURCE };
  if (!isCheckPolicy(require)) throw new RatchetError('badInput', `${at(['check', 'require'])}: check.require must be one of ${CHECK_POLICIES.join(', ')} (got ${describeValue(require)})`, { field: 'check.require' });
  return { policy: require, from: at(['check', 'require']) };
}

/**
 * The policy that governs a change: the stricter of what the file's run spec asks at base and at
 * head. A pull request may tighten its own file's policy, never loosen it: a head that turns
 * `better` into `not-worse` would otherwise grade itself on the easier test. The loosening takes
 * effect once it is on the base branch (merged under the stricter policy). `base` is undefined where
 * the file had no readable run spec at base.
 */
export function governingPolicy(head: AppliedPolicy, base: AppliedPolicy | undefined): AppliedPolicy {
  if (base === undefined || strictness(base.policy) <= strictness(head.policy)) return head;
  return { policy: base.policy, from: `${base.from} at base (head asks only ${head.policy})` };
}

/** Larger is stricter: the table lists the strictest first. */
function strictness(policy: CheckPolicy): number {
  return CHECK_POLICIES.length - CHECK_POLICIES.indexOf(policy);
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
