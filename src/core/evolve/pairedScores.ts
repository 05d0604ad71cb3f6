/**
 * Both versions' scored outcomes on a dev item, the incumbent's from the outcome cache when it has
 * one (GATES.md 4.3), and their journaling in the pre-fixed order: what the scored gates measure.
 */
import type { DataItem } from '../data/item';
import type { EngineEvent } from '../journal/events';
import { JudgeTally } from '../gates/abstentions';
import type { Evaluation } from './evaluator';
import type { GateContext } from './gateContext';
import type { Version } from './versions';
import type { EventPayload } from '../journal/control';

/**
 * Evaluations of one batch run concurrently, so their 'item/evaluated' events are emitted after
 * the batch, in the pre-fixed order: the journal is the same on every run of the same seed, which
 * is what lets a resume check the replayed events one by one.
 */
async function emitEvaluated(ctx: GateContext, v: Version, e: Evaluation): Promise<void> {
  if (e.memo) return;
  await ctx.emit(evaluatedEvent(v.id, e));
}

/** The journal's record of one evaluation: an abstained grade is marked so, its score field a placeholder no face reads as a score. */
export function evaluatedEvent(candidateId: string, e: Evaluation): EventPayload<EngineEvent> {
  return {
    type: 'item/evaluated',
    candidateId,
    itemId: e.itemId,
    score: e.score ?? 0,
    cached: false,
    output: e.output,
    ...(e.thinking === undefined ? {} : { thinking: e.thinking }),
    ...(e.abstained === undefined ? {} : { abstained: e.abstained }),
  };
}

/**
 * Both outcomes of one item, the incumbent's from the cache when it has one (4.3). `yI`/`yC` are
 * undefined when the judging scorer abstained on that side: the pair is then left out of the test
 * (docs/gates.md), and an abstained grade is never cached as an outcome.
 */
export async function scoredPair(ctx: GateContext, cand: Version, inc: Version, item: DataItem, rescoreIncumbent: boolean) {
  const c = ctx.evaluator.evaluate(cand.hash, cand.text, item, ctx.signal);
  let yI = rescoreIncumbent ? undefined : ctx.outcomes.get(inc.hash, item.id);
  let incEval: Evaluation | undefined;
  if (yI === undefined) {
    incEval = await ctx.evaluator.evaluate(inc.hash, inc.text, item, ctx.signal);
    yI = outcomeOf(incEval);
    if (yI !== undefined) ctx.outcomes.set(inc.hash, item.id, yI);
  }
  const candEval = await c;
  return { item, yI, yC: outcomeOf(candEval), candEval, incEval };
}

/** An evaluation's outcome: its score (0 without a scorer), undefined when the judge gave no grade. */
export function outcomeOf(e: Evaluation): number | undefined {
  return e.abstained !== undefined ? undefined : (e.score ?? 0);
}

/** Counts the judge's grades a scored test used (the llm-rubric scorer's; none for other scorers). */
export function countGrades(tally: JudgeTally, p: Awaited<ReturnType<typeof scoredPair>>): void {
  for (const e of [p.incEval, p.candEval]) if (e?.judgedBy !== undefined) tally.add(e.abstained !== undefined, e.judgedBy);
}

export async function emitPair(ctx: GateContext, cand: Version, inc: Version, p: Awaited<ReturnType<typeof scoredPair>>): Promise<void> {
  if (p.incEval) await emitEvaluated(ctx, inc, p.incEval);
  await emitEvaluated(ctx, cand, p.candEval);
}

/** Both versions' outcomes on every item of `order`, a batch at a time, journaled in that order. */
export async function allPairs(ctx: GateContext, cand: Version, inc: Version, order: DataItem[], rescoreIncumbent: boolean) {
  const pairs: Awaited<ReturnType<typeof scoredPair>>[] = [];
  let incumbentCalls = 0;
  for (let start = 0; start < order.length; start += ctx.batchSize) {
    const batch = order.slice(start, start + ctx.batchSize);
    const measured = await Promise.all(batch.map((item) => scoredPair(ctx, cand, inc, item, rescoreIncumbent)));
    for (const p of measured) {
      await emitPair(ctx, cand, inc, p);
      if (p.incEval) incumbentCalls++;
      pairs.push(p);
    }
  }
  const tally = new JudgeTally();
  for (const p of pairs) countGrades(tally, p);
  const judged = pairs.filter((p): p is typeof p & { yI: number; yC: number } => p.yI !== undefined && p.yC !== undefined);
  const candidateOutcomes = new Map(pairs.flatMap((p) => (p.yC === undefined ? [] : [[p.item.id, p.yC] as const])));
  let wins = 0;
  let losses = 0;
  for (const { yI, yC } of judged) {
    if (yC > yI) wins++;
    else if (yC < yI) losses++;
  }
  return { pairs: judged, candidateOutcomes, incumbentCalls, wins, losses, ties: judged.length - wins - losses, unjudged: pairs.length - judged.length, tally };
}
