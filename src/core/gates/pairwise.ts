/**
 * Pairwise (judge) verdicts turned into paired differences, and reward-free PACE (GATES.md 5).
 *
 * The frozen judge sees each item twice with anonymised slots: v₁ = J(A = child, B = parent),
 * v₂ = J(A = parent, B = child). Only a consistent preference counts; an inconsistent pair (the
 * judge followed the slot, not the content) or a tie verdict is a tie. Under a null where the
 * child's outputs are distributed like the parent's, swapping labels maps "consistently child" onto
 * "consistently parent", so P(Δ = +1) = P(Δ = −1) whatever the judge's position bias.
 */
import type { PaceConfig, PaceStep, PaceTest } from './pace';
import type { RunLedger } from './thresholds';
import { RatchetError } from '../errors';
import { sha256Hex } from '../random';
import { sigmoid } from './logMath';
import { paceConfig, startPaceTest } from './pace';

/** What the judge picked: the content in slot A, in slot B, or a tie verdict. */
export type JudgeVerdict = 'A' | 'B' | 'tie';
/** A verdict, or none: the judge, asked twice, wrote nothing that reads as one (#25). Never a tie. */
export type JudgeReading = JudgeVerdict | 'abstained';
/** `abstained`: either order has no verdict, so the pair says nothing (docs/gates.md, abstentions). */
export type PairOutcome = 'child' | 'parent' | 'inconsistent' | 'tie' | 'abstained';

export interface BothOrderResult {
  outcome: PairOutcome;
  delta: -1 | 0 | 1;
}

/** The config hash of a gate whose decision is a judge's, not an e-process's: its name and α, for prompt and code runs alike. */
export function judgeGateConfigHash(gate: string, alpha: number): string {
  return sha256Hex(JSON.stringify({ gate, alpha })).slice(0, 16);
}

/**
 * The both-order table of GATES.md 5: (A, B) → child (Δ = +1); (B, A) → parent (Δ = −1); else a
 * tie — unless either order abstained: then the pair is `abstained`, which a gate skips rather than
 * counting as a tie (docs/gates.md). Its Δ of 0 is the factor a skipped item contributes.
 */
export function bothOrderVerdict(childFirst: JudgeReading, parentFirst: JudgeReading): BothOrderResult {
  if (childFirst === 'abstained' || parentFirst === 'abstained') return { outcome: 'abstained', delta: 0 };
  if (childFirst === 'tie' || parentFirst === 'tie') return { outcome: 'tie', delta: 0 };
  if (childFirst === 'A' && parentFirst === 'B') return { outcome: 'child', delta: 1 };
  if (childFirst === 'B' && parentFirst === 'A') return { outcome: 'parent', delta: -1 };
  return { outcome: 'inconsistent', delta: 0 };
}

/**
 * The Elo match score of the child from a both-order verdict (7.1): consistent child 1, parent 0,
 * else ½; undefined when the judge abstained — no match was played, so no rating moves.
 */
export function childMatchScore(r: BothOrderResult): number | undefined {
  if (r.outcome === 'abstained') return undefined;
  return r.outcome === 'child' ? 1 : r.outcome === 'parent' ? 0 : 0.5;
}

/** P(slot A) from the log-probabilities of the two verdict tokens, normalised over those two (7.2). */
export function twoTokenProbability(logProbA: number, logProbB: number): number {
  return sigmoid(logProbA - logProbB);
}

/**
 * Continuous reward-free Δ (GATES.md 5): ½[(p₁(child) − p₁(parent)) + (p₂(child) − p₂(parent))]
 * with p(parent) = 1 − p(child) in each order, i.e. p₁(child) + p₂(child) − 1 ∈ [−1, 1].
 * `pChildWhenFirst` = P(judge prefers the child | child in slot A), `pChildWhenSecond` likewise with
 * the child in slot B.
 */
export function judgeProbabilityDelta(pChildWhenFirst: number, pChildWhenSecond: number): number {
  for (const p of [pChildWhenFirst, pChildWhenSecond]) {
    if (!(Number.isFinite(p) && p >= 0 && p <= 1)) throw new RatchetError('badInput', `A judge probability must lie in [0, 1], got ${p}.`);
  }
  return pChildWhenFirst + pChildWhenSecond - 1;
}

export interface PairwiseStats {
  pairs: number;
  child: number;
  parent: number;
  inconsistent: number;
  ties: number;
  /** inconsistent / pairs: a high rate signals position bias (8.2 logs it). */
  inconsistentRate: number;
  tieRate: number;
  /** Share of non-tie single verdicts that chose slot A; ½ for a judge without position bias. */
  slotARate: number;
}

/** Position-bias and tie-rate statistics over both-order verdict pairs (child first, parent first). */
export function pairwiseStats(pairs: readonly (readonly [JudgeVerdict, JudgeVerdict])[]): PairwiseStats {
  const counts = { child: 0, parent: 0, inconsistent: 0, tie: 0, abstained: 0 };
  let slotA = 0;
  let decided = 0;
  for (const [v1, v2] of pairs) {
    counts[bothOrderVerdict(v1, v2).outcome]++;
    for (const v of [v1, v2]) {
      if (v === 'tie') continue;
      decided++;
      if (v === 'A') slotA++;
    }
  }
  const n = pairs.length;
  return {
    pairs: n,
    child: counts.child,
    parent: counts.parent,
    inconsistent: counts.inconsistent,
    ties: counts.tie,
    inconsistentRate: n === 0 ? 0 : counts.inconsistent / n,
    tieRate: n === 0 ? 0 : counts.tie / n,
    slotARate: decided === 0 ? 0.5 : slotA / decided,
  };
}

/**
 * Starts reward-free PACE+ (section 5): the PACE+ defaults with gate 'pace-rf'. Use
 * `scores: 'continuous'` for the judge-probability variant.
 */
export function startRewardFreeTest(overrides: Partial<Omit<PaceConfig, 'gate'>>, ledger: RunLedger, n: number): PaceTest {
  return startPaceTest(paceConfig('pace-rf', overrides), ledger, n);
}

/** Feeds one item's both-order verdicts into a (binary) reward-free test; an abstention in either order consumes the item unjudged. */
export function observeVerdicts(test: PaceTest, childFirst: JudgeReading, parentFirst: JudgeReading): PaceStep & { outcome: PairOutcome } {
  const r = bothOrderVerdict(childFirst, parentFirst);
  return { ...(r.outcome === 'abstained' ? test.abstain() : test.observe(r.delta)), outcome: r.outcome };
}

/** Feeds one item's judge probabilities into a continuous reward-free test. */
export function observeJudgeProbabilities(test: PaceTest, pChildWhenFirst: number, pChildWhenSecond: number): PaceStep {
  return test.observe(judgeProbabilityDelta(pChildWhenFirst, pChildWhenSecond));
}
