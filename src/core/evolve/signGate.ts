/** The sign gate: a fixed-n paired sign test over every dev item (GATES.md 6.1). */
import type { DataItem } from '../data/item';
import type { GateSpec } from '../run/specTypes';
import type { DecisionRecord } from '../gates/record';
import type { RunLedger } from '../gates/thresholds';
import { advanceLedger } from '../gates/thresholds';
import { signTest, signTestLevel, signTestPValue } from '../gates/signTest';
import { sha256Hex } from '../random';
import type { GateContext, TestResult } from './gateContext';
import { allPairs } from './pairedScores';
import type { Version } from './versions';

/**
 * GATES.md 6.1, the fixed-n paired sign test: the candidate on every dev item (the incumbent's
 * outcomes from the cache), no early stop — its level holds only for an n fixed in advance — then
 * one exact p-value, decided by the same functions as `ratchet gate sign`. Level α per candidate,
 * αγ_t under fwer-spend; e-LOND is refused (p-values are not e-values). A dev set too small for
 * the p-value ever to reach the level (n straight wins: p = 2^−n) is rejected as infeasible before
 * anything is paid for, as PACE does.
 */
export async function signGate(ctx: GateContext, cand: Version, inc: Version, ledger: RunLedger, order: DataItem[], orderSeed: number): Promise<TestResult> {
  const level = signTestLevel(ctx.gate.schedule, ctx.gate.alpha, ledger, ctx.gate.horizon);
  const feasible = order.length > 0 && signTestPValue(order.length, 0) <= level;
  const measured = feasible ? await allPairs(ctx, cand, inc, order, false) : undefined;
  const wins = measured?.wins ?? 0;
  const losses = measured?.losses ?? 0;
  const ties = measured?.ties ?? 0;
  const t = signTest(wins, losses, ties, level);
  const decision = feasible ? t.decision : 'reject';
  const record: DecisionRecord = {
    candidateId: cand.id,
    parentId: cand.parentId,
    incumbentId: inc.id,
    gate: 'sign',
    configHash: signConfigHash(ctx.gate),
    alpha: ctx.gate.alpha,
    schedule: ctx.gate.schedule,
    ledgerBefore: { ...ledger },
    threshold: 0,
    orderSeed,
    itemsConsumed: measured ? order.length : 0,
    wins,
    losses,
    ties,
    ...(measured && measured.unjudged > 0 ? { unjudged: measured.unjudged } : {}),
    logWealth: 0,
    decision,
    reason: feasible ? t.reason : 'infeasible',
    candidateCalls: measured ? order.length : 0,
    incumbentCalls: measured?.incumbentCalls ?? 0,
    statistic: { ...t.statistic },
  };
  return { record: measured ? measured.tally.onto(record) : record, ledgerAfter: advanceLedger(ledger, decision), candidateOutcomes: measured?.candidateOutcomes ?? new Map(), matches: [], rationales: [] };
}

export function signConfigHash(g: GateSpec): string {
  return sha256Hex(JSON.stringify({ gate: 'sign', alpha: g.alpha, schedule: g.schedule, horizon: g.horizon })).slice(0, 16);
}
