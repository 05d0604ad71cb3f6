/** The Direct pairwise gates (pairwise, focus, elo): the validator compares whole prompts on a dev minibatch. */
import type { DataItem } from '../data/item';
import type { DecisionRecord } from '../gates/record';
import type { RunLedger } from '../gates/thresholds';
import { bothOrderVerdict, childMatchScore, judgeGateConfigHash } from '../gates/pairwise';
import { JudgeTally } from '../gates/abstentions';
import { advanceLedger, candidateThreshold } from '../gates/thresholds';
import type { Evaluation } from './evaluator';
import type { GateContext, TestResult } from './gateContext';
import { askJudge, emitVerdicts } from './gateJudge';
import { promptJudgeCall } from './judge';
import type { JudgeAnswer } from './judge';
import type { Version } from './versions';

/** Size of the dev minibatch the Direct pairwise gate shows the judge per comparison. */
export const DIRECT_MINIBATCH = 6;

async function outputsOn(ctx: GateContext, v: Version, items: readonly DataItem[]) {
  return Promise.all(items.map((item) => ctx.evaluator.evaluate(v.hash, v.text, item, ctx.signal)));
}

function judgePrompts(ctx: GateContext, a: Version, aOut: Evaluation[], b: Version, bOut: Evaluation[]): Promise<JudgeAnswer> {
  return askJudge(ctx, promptJudgeCall(ctx.rubric.text, { prompt: a.text, outputs: aOut }, { prompt: b.text, outputs: bOut }));
}

/**
 * The Direct pairwise gate (pairwise, focus, elo): the judge compares the child with each opponent
 * on a dev minibatch, in both orders; the child is committed only on a consistent "child is better"
 * against the first opponent (its parent or the incumbent). No error control: an Elo gain is not
 * evidence (GATES.md 7.4) — the UI says so.
 */
export async function directGate(ctx: GateContext, cand: Version, gateOpponent: Version, opponents: readonly Version[], ledger: RunLedger, order: DataItem[], orderSeed: number): Promise<TestResult> {
  const batch = order.slice(0, Math.min(DIRECT_MINIBATCH, order.length));
  const childOut = await outputsOn(ctx, cand, batch);
  const matches: TestResult['matches'] = [];
  const rationales: string[] = [];
  const judged = new JudgeTally();
  let gateOutcome: ReturnType<typeof bothOrderVerdict> | undefined;
  const tally = { wins: 0, losses: 0, ties: 0, unjudged: 0 };
  for (const opp of opponents) {
    const oppOut = await outputsOn(ctx, opp, batch);
    const [childFirst, parentFirst] = await Promise.all([judgePrompts(ctx, cand, childOut, opp, oppOut), judgePrompts(ctx, opp, oppOut, cand, childOut)]);
    await emitVerdicts(ctx, cand, opp, undefined, childFirst, parentFirst);
    rationales.push(childFirst.rationale, parentFirst.rationale);
    judged.addAnswers(childFirst, parentFirst);
    const outcome = bothOrderVerdict(childFirst.verdict, parentFirst.verdict);
    // A comparison the judge did not answer is no match: no rating moves on it (docs/gates.md).
    const childScore = childMatchScore(outcome);
    if (childScore !== undefined) matches.push({ opponentId: opp.id, childScore });
    if (opp === gateOpponent) gateOutcome = outcome;
    if (outcome.outcome === 'child') tally.wins++;
    else if (outcome.outcome === 'parent') tally.losses++;
    else if (outcome.outcome === 'abstained') tally.unjudged++;
    else tally.ties++;
  }
  const decision = gateOutcome?.outcome === 'child' ? 'commit' : 'reject';
  const { unjudged, ...counts } = tally;
  const record: DecisionRecord = {
    candidateId: cand.id,
    parentId: cand.parentId,
    incumbentId: gateOpponent.id,
    gate: ctx.gate.name,
    configHash: judgeGateConfigHash(ctx.gate.name, ctx.gate.alpha),
    alpha: ctx.gate.alpha,
    schedule: 'per-candidate',
    ledgerBefore: { ...ledger },
    threshold: candidateThreshold('per-candidate', ctx.gate.alpha, ledger),
    orderSeed,
    itemsConsumed: batch.length,
    ...counts,
    ...(unjudged > 0 ? { unjudged } : {}),
    logWealth: 0,
    decision,
    reason: gateOutcome?.outcome === 'abstained' ? 'abstained' : 'validator',
    candidateCalls: batch.length,
    incumbentCalls: 0,
    rubricVersion: ctx.rubric.version,
  };
  return { record: judged.onto(record), ledgerAfter: advanceLedger(ledger, decision), candidateOutcomes: new Map(), matches, rationales: rationales.filter(Boolean) };
}
