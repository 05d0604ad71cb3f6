/**
 * Tests one candidate against the incumbent with the run's gate and returns the decision record.
 * Every gate here follows GATES.md: the item order is a seeded permutation fixed before the first
 * evaluation (A2: orderSeed = hashSeed(runSeed, candidate hash), the incumbent's under a screened
 * schedule: devOrderSeed); items are evaluated a batch at a
 * time in parallel but the e-process is updated strictly in that order, and the first crossing
 * decides (4.7); the incumbent's outcomes come from the outcome cache (4.3). Under a screened
 * schedule a gate with error control first screens the candidate on feedback items (screenRunner.ts).
 */
import type { DataItem } from '../data/item';
import type { GateSpec } from '../run/specTypes';
import type { EngineEvent, EventOf } from '../journal/events';
import type { LlmClient } from '../ports';
import type { ModelSpec } from '../run/specTypes';
import type { DecisionRecord, ScreenSummary } from '../gates/record';
import type { RunLedger } from '../gates/thresholds';
import type { ScoreMode } from '../gates/eprocess';
import type { OutcomeCache } from '../gates/incumbentCache';
import type { ScoredGateName } from '../gates/gateTable';
import { gateConfigHash, startPaceTest, paceConfig, pairedDelta, paceDecisionRecord } from '../gates/pace';
import type { PaceConfig, PaceGateName, PaceStep, PaceTest } from '../gates/pace';
import { isPaceGate } from '../gates/gateTable';
import { screenCandidate, screenOrder, screens } from './screenRunner';
import type { ScreenMeasure } from './screenRunner';
import { bothOrderVerdict, childMatchScore, judgeGateConfigHash, observeVerdicts } from '../gates/pairwise';
import { JudgeTally } from '../gates/abstentions';
import { advanceLedger, candidateThreshold } from '../gates/thresholds';
import { signTest, signTestLevel, signTestPValue } from '../gates/signTest';
import { hashSeed, seededPermutation, sha256Hex } from '../random';
import type { Evaluation, Evaluator } from './evaluator';
import { itemJudgeCall, judge, promptJudgeCall, verdictEvent } from './judge';
import type { JudgeCall } from './judge';
import type { JudgeAnswer } from './judge';
import type { Version } from './versions';
import type { EventPayload } from '../journal/control';

export type Emit = (e: EventPayload<EngineEvent>) => Promise<void>;

export interface GateContext {
  emit: Emit;
  evaluator: Evaluator;
  llm: LlmClient;
  validator: ModelSpec;
  dev: readonly DataItem[];
  /** The feedback split: what a screened schedule's screen compares on (never the dev items). */
  feedback: readonly DataItem[];
  gate: GateSpec;
  scores: ScoreMode;
  outcomes: OutcomeCache;
  runSeed: number;
  /** Items evaluated at once; the e-process still advances in the pre-fixed order. */
  batchSize: number;
  rubric: { text: string; version: number };
  signal: AbortSignal;
}

export interface TestResult {
  record: DecisionRecord;
  ledgerAfter: RunLedger;
  /** The candidate's outcomes measured in its test: its cache entries if it is committed (4.3). */
  candidateOutcomes: Map<string, number>;
  /** Both-order verdicts (pairwise gates): the child's Elo score against each opponent. */
  matches: { opponentId: string; childScore: number }[];
  /** The judge's rationales in this test, for Adaptive Focus's rubric refresh. */
  rationales: string[];
}

/** Size of the dev minibatch the Direct pairwise gate shows the judge per comparison. */
export const DIRECT_MINIBATCH = 6;

export async function testCandidate(ctx: GateContext, cand: Version, incumbent: Version, ledger: RunLedger): Promise<TestResult> {
  const screened = screens(ctx.gate);
  const orderSeed = devOrderSeed(ctx.runSeed, cand, incumbent, screened);
  const order = seededPermutation(ctx.dev.length, orderSeed).map((i) => ctx.dev[i]!);
  if (!screened) return devTest(ctx, cand, incumbent, ledger, order, orderSeed);
  const measure = ctx.gate.name === 'pace-rf' ? judgedDelta : scoredDelta;
  const feedbackOrder = screenOrder(ctx.runSeed, cand, ctx.feedback, (item) => ctx.evaluator.has(incumbent.hash, item.id));
  const screen = await screenCandidate(feedbackOrder, ctx.batchSize, (item) => measure(ctx, cand, incumbent, item));
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
      return greedy(ctx, cand, incumbent, ledger, order, orderSeed);
    case 'sign':
      return sign(ctx, cand, incumbent, ledger, order, orderSeed);
    case 'pairwise':
    case 'focus':
    case 'elo':
      return direct(ctx, cand, incumbent, [incumbent], ledger, order, orderSeed);
  }
}

/**
 * The seed of a candidate's dev-set order (A2), fixed before its first evaluation: the candidate's
 * (GATES.md 4.7), except under a screened schedule, where it is the incumbent's — every candidate
 * tested against one incumbent meets the dev items in the same order, so the incumbent's cached
 * outcomes (4.3) serve them all and it is evaluated once on the few items the tests reach, not
 * once more on each candidate's own first items. The order still depends on nothing measured, so
 * each test's wealth is an e-process as before (docs/gates.md, "Run-level default").
 */
export function devOrderSeed(runSeed: number, cand: Version, incumbent: Version, screened: boolean): number {
  return screened ? hashSeed(runSeed, incumbent.hash, 'dev') : hashSeed(runSeed, cand.hash);
}

/** Direct pairwise against several opponents (Elo matches); the gate is the match against the first. */
export async function testCandidateWithMatches(ctx: GateContext, cand: Version, parent: Version, others: readonly Version[], ledger: RunLedger): Promise<TestResult> {
  const orderSeed = hashSeed(ctx.runSeed, cand.hash);
  const order = seededPermutation(ctx.dev.length, orderSeed).map((i) => ctx.dev[i]!);
  return direct(ctx, cand, parent, [parent, ...others], ledger, order, orderSeed);
}

function paceFor(ctx: GateContext, name: PaceGateName, n: number, ledger: RunLedger): PaceTest {
  return startPaceTest(paceConfigFor(ctx, name), ledger, n);
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
async function scoredPair(ctx: GateContext, cand: Version, inc: Version, item: DataItem, rescoreIncumbent: boolean) {
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
function outcomeOf(e: Evaluation): number | undefined {
  return e.abstained !== undefined ? undefined : (e.score ?? 0);
}

/** Counts the judge's grades a scored test used (the llm-rubric scorer's; none for other scorers). */
function countGrades(tally: JudgeTally, p: Awaited<ReturnType<typeof scoredPair>>): void {
  for (const e of [p.incEval, p.candEval]) if (e?.judgedBy !== undefined) tally.add(e.abstained !== undefined, e.judgedBy);
}

async function emitPair(ctx: GateContext, cand: Version, inc: Version, p: Awaited<ReturnType<typeof scoredPair>>): Promise<void> {
  if (p.incEval) await emitEvaluated(ctx, inc, p.incEval);
  await emitEvaluated(ctx, cand, p.candEval);
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

async function paceScored(ctx: GateContext, name: Extract<PaceGateName, ScoredGateName>, cand: Version, inc: Version, ledger: RunLedger, order: DataItem[], orderSeed: number): Promise<TestResult> {
  const test = paceFor(ctx, name, order.length, ledger);
  const candidateOutcomes = new Map<string, number>();
  const tally = new JudgeTally();
  let candidateCalls = 0;
  let incumbentCalls = 0;
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
        candidateCalls++;
        if (p.incEval) incumbentCalls++;
      }
    },
  );
  const record = paceDecisionRecord(test, {
    candidateId: cand.id,
    parentId: cand.parentId,
    incumbentId: inc.id,
    orderSeed,
    candidateCalls,
    incumbentCalls,
  });
  return { record: tally.onto(record), ledgerAfter: test.ledgerAfter(), candidateOutcomes, matches: [], rationales: [] };
}

/**
 * A screen's item, scored: both versions on it (each output memoised, so a repeat is free); no
 * reading when the judging scorer gave either of them no grade.
 */
async function scoredDelta(ctx: GateContext, cand: Version, inc: Version, item: DataItem): Promise<ScreenMeasure> {
  const [c, i] = await Promise.all([ctx.evaluator.evaluate(cand.hash, cand.text, item, ctx.signal), ctx.evaluator.evaluate(inc.hash, inc.text, item, ctx.signal)]);
  const [yC, yI] = [outcomeOf(c), outcomeOf(i)];
  return { delta: yC === undefined || yI === undefined ? undefined : pairedDelta(yI, yC, ctx.scores), candidateCall: !c.memo, incumbentCall: !i.memo };
}

/**
 * A screen's item, reward-free: both outputs, the validator in both orders, as reward-free PACE
 * measures a dev item; no reading when the validator did not answer in either order.
 */
async function judgedDelta(ctx: GateContext, cand: Version, inc: Version, item: DataItem): Promise<ScreenMeasure> {
  const [c, i] = await Promise.all([ctx.evaluator.evaluate(cand.hash, cand.text, item, ctx.signal), ctx.evaluator.evaluate(inc.hash, inc.text, item, ctx.signal)]);
  const [childFirst, parentFirst] = await Promise.all([judgeItem(ctx, c.input, c.output, i.output), judgeItem(ctx, c.input, i.output, c.output)]);
  const both = bothOrderVerdict(childFirst.verdict, parentFirst.verdict);
  return { delta: both.outcome === 'abstained' ? undefined : both.delta, candidateCall: !c.memo, incumbentCall: !i.memo };
}

/**
 * One judgement under the frozen rubric and decoding of this test (A3): the call, and once more in
 * the same chat when its answer has no readable verdict (judge.ts).
 */
function askJudge(ctx: GateContext, call: JudgeCall): Promise<JudgeAnswer> {
  return judge((messages) => ctx.llm.chat({ role: 'validator', messages, temperature: ctx.validator.temperature ?? 0, logprobs: true, sampleIndex: 0 }, ctx.signal), call);
}

function judgeItem(ctx: GateContext, input: string, first: string, second: string): Promise<JudgeAnswer> {
  return askJudge(ctx, itemJudgeCall(ctx.rubric.text, input, first, second));
}

/** GATES.md 5: per dev item, both outputs, the judge in both orders, Δ into PACE+. */
async function paceRewardFree(ctx: GateContext, cand: Version, inc: Version, ledger: RunLedger, order: DataItem[], orderSeed: number): Promise<TestResult> {
  const test = paceFor(ctx, 'pace-rf', order.length, ledger);
  const rationales: string[] = [];
  const tally = new JudgeTally();
  let candidateCalls = 0;
  let incumbentCalls = 0;
  await sequentialTest(
    ctx,
    test,
    cand,
    order,
    async (item) => {
      const [c, p] = await Promise.all([ctx.evaluator.evaluate(cand.hash, cand.text, item, ctx.signal), ctx.evaluator.evaluate(inc.hash, inc.text, item, ctx.signal)]);
      candidateCalls++;
      if (!p.memo) incumbentCalls++;
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
  const record = paceDecisionRecord(test, {
    candidateId: cand.id,
    parentId: cand.parentId,
    incumbentId: inc.id,
    orderSeed,
    candidateCalls,
    incumbentCalls,
    rubricVersion: ctx.rubric.version,
  });
  return { record: tally.onto({ ...record, gate: ctx.gate.name }), ledgerAfter: test.ledgerAfter(), candidateOutcomes: new Map(), matches: [], rationales: rationales.filter(Boolean) };
}

async function emitVerdicts(ctx: GateContext, child: Version, parent: Version, itemId: string | undefined, childFirst: JudgeAnswer, parentFirst: JudgeAnswer) {
  await ctx.emit(verdictEvent(child.id, parent.id, itemId, 'child-first', childFirst));
  await ctx.emit(verdictEvent(child.id, parent.id, itemId, 'parent-first', parentFirst));
}

/** Both versions' outcomes on every item of `order`, a batch at a time, journaled in that order. */
async function allPairs(ctx: GateContext, cand: Version, inc: Version, order: DataItem[], rescoreIncumbent: boolean) {
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

/** GATES.md 2: evaluate on every dev item, compare totals. */
async function greedy(ctx: GateContext, cand: Version, inc: Version, ledger: RunLedger, order: DataItem[], orderSeed: number): Promise<TestResult> {
  const { pairs, candidateOutcomes, incumbentCalls, wins, losses, ties, unjudged, tally } = await allPairs(ctx, cand, inc, order, ctx.gate.name === 'greedy-re');
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

/**
 * GATES.md 6.1, the fixed-n paired sign test: the candidate on every dev item (the incumbent's
 * outcomes from the cache), no early stop — its level holds only for an n fixed in advance — then
 * one exact p-value, decided by the same functions as `ratchet gate sign`. Level α per candidate,
 * αγ_t under fwer-spend; e-LOND is refused (p-values are not e-values). A dev set too small for
 * the p-value ever to reach the level (n straight wins: p = 2^−n) is rejected as infeasible before
 * anything is paid for, as PACE does.
 */
async function sign(ctx: GateContext, cand: Version, inc: Version, ledger: RunLedger, order: DataItem[], orderSeed: number): Promise<TestResult> {
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

function signConfigHash(g: GateSpec): string {
  return sha256Hex(JSON.stringify({ gate: 'sign', alpha: g.alpha, schedule: g.schedule, horizon: g.horizon })).slice(0, 16);
}

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
async function direct(ctx: GateContext, cand: Version, gateOpponent: Version, opponents: readonly Version[], ledger: RunLedger, order: DataItem[], orderSeed: number): Promise<TestResult> {
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
