/**
 * Tests one candidate against the incumbent with the run's gate and returns the decision record;
 * each gate's own test is in its module (paceGates.ts, greedyGate.ts, signGate.ts, directGate.ts).
 * Every gate follows GATES.md: the item order is a seeded permutation fixed before the first
 * evaluation (A2: orderSeed = hashSeed(runSeed, candidate hash), one per dev-set test under a
 * screened schedule: devOrderSeed); items are evaluated a batch at a
 * time in parallel but the e-process is updated strictly in that order, and the first crossing
 * decides (4.7); the incumbent's outcomes come from the outcome cache (4.3). Under a screened
 * schedule a gate with error control first screens the candidate on feedback items (screenRunner.ts).
 */
import type { DataItem } from '../data/item';
import type { DecisionRecord, ScreenSummary } from '../gates/record';
import type { RunLedger } from '../gates/thresholds';
import { gateConfigHash } from '../gates/pace';
import { isPaceGate } from '../gates/gateTable';
import { candidateThreshold } from '../gates/thresholds';
import { hashSeed, seededPermutation } from '../random';
import { directGate } from './directGate';
import type { GateContext, TestResult } from './gateContext';
import { greedyGate } from './greedyGate';
import { paceConfigFor, paceRewardFree, paceScored } from './paceGates';
import { screenCandidate, screenOrder, screens } from './screenRunner';
import { judgedDelta, scoredDelta } from './screenMeasures';
import { signConfigHash, signGate } from './signGate';
import type { Version } from './versions';

export async function testCandidate(ctx: GateContext, cand: Version, incumbent: Version, ledger: RunLedger): Promise<TestResult> {
  const screened = screens(ctx.gate);
  const orderSeed = devOrderSeed(ctx.runSeed, cand, incumbent, screened ? ledger : undefined);
  const order = seededPermutation(ctx.dev.length, orderSeed).map((i) => ctx.dev[i]!);
  if (!screened) return devTest(ctx, cand, incumbent, ledger, order, orderSeed);
  const measure = ctx.gate.name === 'pace-rf' ? judgedDelta : scoredDelta;
  const feedbackOrder = screenOrder(ctx.runSeed, cand, ctx.feedback, (item) => ctx.evaluator.has(incumbent.hash, item.id));
  const screen = await screenCandidate(feedbackOrder, ledger.tested, ctx.batchSize, (item) => measure(ctx, cand, incumbent, item));
  if (screen.verdict === 'drop') return screenedOut(ctx, cand, incumbent, ledger, orderSeed, screen);
  const result = await devTest(ctx, cand, incumbent, ledger, order, orderSeed);
  return { ...result, record: { ...result.record, screen } };
}

function devTest(ctx: GateContext, cand: Version, incumbent: Version, ledger: RunLedger, order: DataItem[], orderSeed: number): Promise<TestResult> {
  switch (ctx.gate.name) {
    case 'pace':
    case 'pace+':
      return paceScored(ctx, ctx.gate.name, cand, incumbent, ledger, order, orderSeed);
    case 'pace-rf':
      return paceRewardFree(ctx, cand, incumbent, ledger, order, orderSeed);
    case 'greedy':
    case 'greedy-re':
      return greedyGate(ctx, cand, incumbent, ledger, order, orderSeed, ctx.gate.name === 'greedy-re');
    case 'sign':
      return signGate(ctx, cand, incumbent, ledger, order, orderSeed);
    case 'pairwise':
    case 'focus':
    case 'elo':
      return directGate(ctx, cand, incumbent, [incumbent], ledger, order, orderSeed);
  }
}

/**
 * The seed of a candidate's dev-set order (A2), fixed before its first evaluation: the candidate's
 * (GATES.md 4.7), except under a screened schedule (`ledger` given), where it is keyed by the
 * incumbent and the number of dev-set tests the run made before this one — each dev-set test reads
 * the dev items in an order of its own, so a start that is bad for one edit is not met again by
 * each of its re-proposals (one order per incumbent did that: docs/gates.md, "Run-level default").
 * The count is the one the threshold already depends on; the order depends on nothing measured on
 * the dev set, so each test's wealth is an e-process as before.
 */
export function devOrderSeed(runSeed: number, cand: Version, incumbent: Version, ledger: RunLedger | undefined): number {
  return ledger ? hashSeed(runSeed, incumbent.hash, 'dev', ledger.tested) : hashSeed(runSeed, cand.hash);
}

/** Direct pairwise against several opponents (Elo matches); the gate is the match against the first. */
export async function testCandidateWithMatches(ctx: GateContext, cand: Version, parent: Version, others: readonly Version[], ledger: RunLedger): Promise<TestResult> {
  const orderSeed = hashSeed(ctx.runSeed, cand.hash);
  const order = seededPermutation(ctx.dev.length, orderSeed).map((i) => ctx.dev[i]!);
  return directGate(ctx, cand, parent, [parent, ...others], ledger, order, orderSeed);
}

/**
 * The decision record of a candidate the screen dropped: rejected before any dev item, with the
 * threshold it would have faced and the ledger unchanged — no α was spent on it (docs/gates.md).
 */
function screenedOut(ctx: GateContext, cand: Version, inc: Version, ledger: RunLedger, orderSeed: number, screen: ScreenSummary): TestResult {
  const name = ctx.gate.name;
  const pace = isPaceGate(name) ? paceConfigFor(ctx, name) : undefined;
  const record: DecisionRecord = {
    candidateId: cand.id,
    parentId: cand.parentId,
    incumbentId: inc.id,
    gate: name,
    configHash: pace ? gateConfigHash(pace) : signConfigHash(ctx.gate),
    alpha: ctx.gate.alpha,
    schedule: ctx.gate.schedule,
    ledgerBefore: { ...ledger },
    threshold: candidateThreshold(ctx.gate.schedule, ctx.gate.alpha, ledger, ctx.gate.horizon),
    orderSeed,
    itemsConsumed: 0,
    wins: 0,
    losses: 0,
    ties: 0,
    logWealth: 0,
    decision: 'reject',
    reason: 'screened',
    candidateCalls: 0,
    incumbentCalls: 0,
    screen,
  };
  return { record, ledgerAfter: ledger, candidateOutcomes: new Map(), matches: [], rationales: [] };
}
