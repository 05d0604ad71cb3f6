/** The greedy gates (greedy, greedy-re): no error control, totals compared over every dev item. */
import type { DataItem } from '../data/item';
import type { DecisionRecord } from '../gates/record';
import type { RunLedger } from '../gates/thresholds';
import { judgeGateConfigHash } from '../gates/pairwise';
import { advanceLedger } from '../gates/thresholds';
import type { GateContext, TestResult } from './gateContext';
import { allPairs } from './pairedScores';
import type { Version } from './versions';

/** GATES.md 2: evaluate on every dev item, compare totals; `rescoreIncumbent` (greedy-re) measures the incumbent afresh instead of reading the outcome cache. */
export async function greedyGate(ctx: GateContext, cand: Version, inc: Version, ledger: RunLedger, order: DataItem[], orderSeed: number, rescoreIncumbent: boolean): Promise<TestResult> {
  const { pairs, candidateOutcomes, incumbentCalls, wins, losses, ties, unjudged, tally } = await allPairs(ctx, cand, inc, order, rescoreIncumbent);
  const incScore = pairs.reduce((s, p) => s + p.yI, 0);
  const candScore = pairs.reduce((s, p) => s + p.yC, 0);
  const commit = candScore > incScore;
  const decision = commit ? 'commit' : 'reject';
  const record: DecisionRecord = {
    candidateId: cand.id,
    parentId: cand.parentId,
    incumbentId: inc.id,
    gate: ctx.gate.name,
    configHash: judgeGateConfigHash(ctx.gate.name, ctx.gate.alpha),
    alpha: ctx.gate.alpha,
    schedule: 'per-candidate',
    ledgerBefore: { ...ledger },
    threshold: 0,
    orderSeed,
    itemsConsumed: order.length,
    wins,
    losses,
    ties,
    ...(unjudged > 0 ? { unjudged } : {}),
    logWealth: 0,
    decision,
    reason: 'greedy',
    candidateCalls: order.length,
    incumbentCalls,
    statistic: { candidateScore: candScore, incumbentScore: incScore },
  };
  return { record: tally.onto(record), ledgerAfter: advanceLedger(ledger, decision), candidateOutcomes, matches: [], rationales: [] };
}
