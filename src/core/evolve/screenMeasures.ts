/** What a screened schedule's screen (screenRunner.ts) measures on one feedback item, scored or reward-free. */
import type { DataItem } from '../data/item';
import { pairedDelta } from '../gates/pace';
import { bothOrderVerdict } from '../gates/pairwise';
import type { GateContext } from './gateContext';
import { judgeItem } from './gateJudge';
import { outcomeOf } from './pairedScores';
import type { ScreenMeasure } from './screenRunner';
import type { Version } from './versions';

/**
 * A screen's item, scored: both versions on it (each output memoised, so a repeat is free); no
 * reading when the judging scorer gave either of them no grade.
 */
export async function scoredDelta(ctx: GateContext, cand: Version, inc: Version, item: DataItem): Promise<ScreenMeasure> {
  const [c, i] = await Promise.all([ctx.evaluator.evaluate(cand.hash, cand.text, item, ctx.signal), ctx.evaluator.evaluate(inc.hash, inc.text, item, ctx.signal)]);
  const [yC, yI] = [outcomeOf(c), outcomeOf(i)];
  return { delta: yC === undefined || yI === undefined ? undefined : pairedDelta(yI, yC, ctx.scores), candidateCall: !c.memo, incumbentCall: !i.memo };
}

/**
 * A screen's item, reward-free: both outputs, the validator in both orders, as reward-free PACE
 * measures a dev item; no reading when the validator did not answer in either order.
 */
export async function judgedDelta(ctx: GateContext, cand: Version, inc: Version, item: DataItem): Promise<ScreenMeasure> {
  const [c, i] = await Promise.all([ctx.evaluator.evaluate(cand.hash, cand.text, item, ctx.signal), ctx.evaluator.evaluate(inc.hash, inc.text, item, ctx.signal)]);
  const [childFirst, parentFirst] = await Promise.all([judgeItem(ctx, c.input, c.output, i.output), judgeItem(ctx, c.input, i.output, c.output)]);
  const both = bothOrderVerdict(childFirst.verdict, parentFirst.verdict);
  return { delta: both.outcome === 'abstained' ? undefined : both.delta, candidateCall: !c.memo, incumbentCall: !i.memo };
}
