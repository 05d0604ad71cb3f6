/**
 * The PACE family's tests (pace, pace+, pace-rf): items measured a batch at a time, the e-process
 * fed strictly in the pre-fixed order, the first crossing deciding (GATES.md 4.7), every step journaled.
 */
import type { DataItem } from '../data/item';
import type { EventOf } from '../journal/events';
import type { RunLedger } from '../gates/thresholds';
import type { ScoredGateName } from '../gates/gateTable';
import { startPaceTest, paceConfig, pairedDelta, paceDecisionRecord } from '../gates/pace';
import type { DecisionMeta, PaceConfig, PaceGateName, PaceStep, PaceTest } from '../gates/pace';
import type { DecisionRecord } from '../gates/record';
import { observeVerdicts } from '../gates/pairwise';
import { JudgeTally } from '../gates/abstentions';
import type { GateContext, TestResult } from './gateContext';
import { emitVerdicts, judgeItem } from './gateJudge';
import { countGrades, emitPair, scoredPair } from './pairedScores';
import type { Version } from './versions';

/**
 * What both PACE tests here (scored, reward-free) keep around `sequentialTest`: the test, the tally
 * of the judges' answers, the calls paid for, and the decision record once the test is over.
 */
function paceRun(ctx: GateContext, name: PaceGateName, cand: Version, inc: Version, ledger: RunLedger, order: readonly DataItem[], orderSeed: number) {
  const test = startPaceTest(paceConfigFor(ctx, name), ledger, order.length);
  const tally = new JudgeTally();
  const calls = { candidate: 0, incumbent: 0 };
  const record = (extra: Pick<DecisionMeta, 'rubricVersion'> = {}): DecisionRecord =>
    paceDecisionRecord(test, { candidateId: cand.id, parentId: cand.parentId, incumbentId: inc.id, orderSeed, candidateCalls: calls.candidate, incumbentCalls: calls.incumbent, ...extra });
  return { test, tally, calls, record };
}

/** The PACE configuration a test of this gate and score mode runs under (also what a replay of its recorded outcomes uses). */
export function paceConfigFor(ctx: Pick<GateContext, 'gate' | 'scores'>, name: PaceGateName): PaceConfig {
  const g = ctx.gate;
  return paceConfig(name, {
    alpha: g.alpha,
    scores: name === 'pace-rf' ? 'binary' : ctx.scores,
    schedule: g.schedule,
    horizonT: g.horizon,
    population: g.population,
    ...(name === 'pace' ? { bettor: { kind: 'fixed', lambda: g.lambda } } : ctx.scores === 'binary' || name === 'pace-rf' ? { bettor: { kind: 'mixture', lambdas: g.lambdas } } : {}),
  });
}

/**
 * The shared shape of every PACE test here: measure a batch of items concurrently, then feed the
 * e-process strictly in the pre-fixed order, stopping at the first verdict (GATES.md 4.7).
 * `measure` does the paid work for one item; `observe` turns a measurement into the test's step
 * (emitting whatever the journal should hold first).
 */
async function sequentialTest<M>(
  ctx: GateContext,
  test: PaceTest,
  cand: Version,
  order: readonly DataItem[],
  measure: (item: DataItem) => Promise<M>,
  observe: (m: M) => Promise<PaceStep>,
  afterBatch: (batch: M[]) => Promise<void> = async () => undefined,
): Promise<void> {
  for (let start = 0; start < order.length && !test.verdict; start += ctx.batchSize) {
    const measured = await Promise.all(order.slice(start, start + ctx.batchSize).map(measure));
    await afterBatch(measured);
    for (let i = 0; i < measured.length && !test.verdict; i++) {
      const step = await observe(measured[i]!);
      await ctx.emit(wealthStepEvent(cand.id, order[start + i]!.id, step));
    }
  }
}

export async function paceScored(ctx: GateContext, name: Extract<PaceGateName, ScoredGateName>, cand: Version, inc: Version, ledger: RunLedger, order: DataItem[], orderSeed: number): Promise<TestResult> {
  const { test, tally, calls, record } = paceRun(ctx, name, cand, inc, ledger, order, orderSeed);
  const candidateOutcomes = new Map<string, number>();
  await sequentialTest(
    ctx,
    test,
    cand,
    order,
    (item) => scoredPair(ctx, cand, inc, item, false),
    async (p) => {
      countGrades(tally, p);
      if (p.yC !== undefined) candidateOutcomes.set(p.item.id, p.yC);
      if (p.yI === undefined || p.yC === undefined) return test.abstain();
      return test.observe(pairedDelta(p.yI, p.yC, ctx.scores));
    },
    // Every evaluation of the batch is paid for, so every one is journaled, in order.
    async (pairs) => {
      for (const p of pairs) {
        await emitPair(ctx, cand, inc, p);
        calls.candidate++;
        if (p.incEval) calls.incumbent++;
      }
    },
  );
  return { record: tally.onto(record()), ledgerAfter: test.ledgerAfter(), candidateOutcomes, matches: [], rationales: [] };
}

/** GATES.md 5: per dev item, both outputs, the judge in both orders, Δ into PACE+. */
export async function paceRewardFree(ctx: GateContext, cand: Version, inc: Version, ledger: RunLedger, order: DataItem[], orderSeed: number): Promise<TestResult> {
  const { test, tally, calls, record } = paceRun(ctx, 'pace-rf', cand, inc, ledger, order, orderSeed);
  const rationales: string[] = [];
  await sequentialTest(
    ctx,
    test,
    cand,
    order,
    async (item) => {
      const [c, p] = await Promise.all([ctx.evaluator.evaluate(cand.hash, cand.text, item, ctx.signal), ctx.evaluator.evaluate(inc.hash, inc.text, item, ctx.signal)]);
      calls.candidate++;
      if (!p.memo) calls.incumbent++;
      const [childFirst, parentFirst] = await Promise.all([judgeItem(ctx, c.input, c.output, p.output), judgeItem(ctx, c.input, p.output, c.output)]);
      return { item, childFirst, parentFirst };
    },
    async ({ item, childFirst, parentFirst }) => {
      rationales.push(childFirst.rationale, parentFirst.rationale);
      tally.addAnswers(childFirst, parentFirst);
      await emitVerdicts(ctx, cand, inc, item.id, childFirst, parentFirst);
      return observeVerdicts(test, childFirst.verdict, parentFirst.verdict);
    },
  );
  return { record: tally.onto({ ...record({ rubricVersion: ctx.rubric.version }), gate: ctx.gate.name }), ledgerAfter: test.ledgerAfter(), candidateOutcomes: new Map(), matches: [], rationales: rationales.filter(Boolean) };
}

/** The payload of a 'wealth/step' engine event (the loop adds runId and at). */
export function wealthStepEvent(candidateId: string, itemId: string, step: PaceStep): Omit<EventOf<'wealth/step'>, 'runId' | 'at'> {
  return {
    type: 'wealth/step',
    candidateId,
    k: step.k,
    itemId,
    delta: step.delta,
    logWealth: step.logWealth,
    logThreshold: step.logThreshold,
    logBest: step.logBest,
    ...(step.abstained ? { abstained: true } : {}),
  };
}
