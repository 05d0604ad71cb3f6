/**
 * The code-search gate: whether a child program beats its parent, decided by a paired,
 * anytime-valid test on the evaluator's instances rather than by one evaluation and a strict `>`
 * (what ShinkaEvolve and OpenEvolve do, and why a lucky child becomes their elite for good).
 *
 * - `pace+` / `pace` (GATES.md 3, 4.4): the instances in an order fixed before the first
 *   evaluation (orderSeed = hashSeed(runSeed, child hash), as for prompt candidates), continuous
 *   paired differences Δ = (S_child − S_parent) / (hi − lo) ∈ [−1, 1] over the declared score
 *   range, the e-process updated strictly in that order, commit at the threshold, futility stop.
 *   The parent's per-instance scores come from the cache when it has them (4.3).
 * - `greedy`: the baseline every peer uses — the child's mean over all instances strictly above
 *   the parent's. Also the rule for a declared deterministic single-score evaluator, where one
 *   evaluation is the truth and no statistics are needed.
 * - `pairwise` (#13): the child evaluated on every instance as for greedy, then the validator
 *   compares the two programs — diffs, public metrics, feedback — in both orders
 *   (programJudge.ts); a consistent child win commits. Like the prompt runs' Direct pairwise gate
 *   it has no e-process and controls no error rate: a verdict is not evidence (GATES.md 7.4).
 *
 * Shards, so evidence can stop early: the order is cut into shards of `shardSize` instances,
 * evaluated up to `parallelShards` at a time, and consumed in order as they finish; the verdict
 * aborts the shards still running. An evaluator that cannot run a subset has one shard (all).
 * A child that any shard reports incorrect is rejected on the spot (reason `incorrect`).
 *
 * A backend that runs a program's shards together (a Slurm array job: `evaluateBatch`) is handed
 * every shard of the child, and the parent's missing instances shard by shard, at the start; the
 * outcomes are still consumed strictly in the pre-fixed order, so the decision is the one the
 * shard-by-shard walk takes, and the verdict aborts (cancels) the shards not yet consumed.
 */
import { RatchetError } from '../errors';
import { gateRow } from '../gates/gateTable';
import type { CodeGateName, PaceGateName } from '../gates/gateTable';
import { gateConfigHash, paceConfig, startPaceTest } from '../gates/pace';
import type { PaceStep, PaceTest } from '../gates/pace';
import type { DecisionRecord, Population, Schedule } from '../gates/record';
import { advanceLedger, candidateThreshold } from '../gates/thresholds';
import type { RunLedger } from '../gates/thresholds';
import { hashSeed, seededPermutation } from '../random';
import { judgeGateConfigHash } from '../gates/pairwise';
import { comparePrograms } from './programJudge';
import type { ProgramComparison, ProgramView } from './programJudge';
import { JudgeTally } from '../gates/abstentions';
import type { ChatMessage, ChatResponse } from '../llm/types';

export type { CodeGateName };

export interface ProgramRef {
  id: string;
  /** Content hash: seeds the child's instance order and keys the score cache. */
  hash: string;
}

/** One evaluator call on some instances: every requested instance scored, or the program is incorrect. */
export type ShardOutcome = { correct: true; scores: Readonly<Record<string, number>> } | { correct: false; error: string };

export type ShardEvaluator = (program: ProgramRef, instanceIds: readonly string[], signal: AbortSignal) => Promise<ShardOutcome>;

/**
 * Starts a program's shards all at once (one cluster submission); element i settles with shard i's
 * outcome, in whatever order they finish. Aborting the signal cancels every shard not yet settled.
 */
export type ShardBatchEvaluator = (program: ProgramRef, shards: readonly (readonly string[])[], signal: AbortSignal) => readonly Promise<ShardOutcome>[];

export interface CodeGateSpec {
  name: CodeGateName;
  alpha: number;
  schedule: Schedule;
  horizon?: number;
  population: Population;
}

export interface CodeGateContext {
  gate: CodeGateSpec;
  runSeed: number;
  /** The evaluator's instance ids (for a single noisy score: its repeated seeds). */
  instances: readonly string[];
  /** The range every instance score lies in, declared by the run spec; Δ is scaled by it. */
  range: { lo: number; hi: number };
  /** Instances per evaluator call; `instances.length` when the evaluator runs whole. */
  shardSize: number;
  /** Evaluator calls of one test running at once. */
  parallelShards: number;
  evaluate: ShardEvaluator;
  /** A backend that takes a program's shards in one submission; when given, it runs every shard instead of `evaluate`. */
  evaluateBatch?: ShardBatchEvaluator;
  /** Per-instance scores already known, by program hash (the parent's, from earlier tests). */
  cache: ScoreCache;
  /** Each e-process step as it happens (the journal's `wealth/step`). */
  onStep?: (instanceId: string, step: PaceStep) => Promise<void>;
  /** The validator, for gate `pairwise` (required by it, unread by the others). */
  pairwise?: PairwiseValidator;
  signal: AbortSignal;
}

/** What gate `pairwise` asks the validator with, and how it shows it a program. */
export interface PairwiseValidator {
  /** One judge call: the validator role's chat, seeded by the caller. */
  ask(messages: ChatMessage[], signal: AbortSignal): Promise<ChatResponse>;
  /** One line: the program file and what its evaluator scores. */
  task: string;
  /** A program as the validator sees it, given its scores on every instance. */
  view(program: ProgramRef, scores: ReadonlyMap<string, number>): ProgramView;
}

export interface ScoreCache {
  get(hash: string, instanceId: string): number | undefined;
  set(hash: string, instanceId: string, score: number): void;
}

export interface CodeGateResult {
  record: DecisionRecord;
  ledgerAfter: RunLedger;
  /** The child's scores measured in this test, by instance. */
  childScores: Map<string, number>;
  /** Why the child is incorrect, when a shard said so. */
  incorrect?: string;
  /** Instances the evaluator ran, child and parent (cached parent scores not counted). */
  evaluations: { child: number; parent: number };
  /** Gate `pairwise`: the validator's both-order comparison of a correct child with its parent. */
  comparison?: ProgramComparison;
}

export function scoreCache(): ScoreCache {
  const m = new Map<string, number>();
  const key = (hash: string, id: string) => `${hash}\n${id}`;
  return { get: (h, id) => m.get(key(h, id)), set: (h, id, s) => void m.set(key(h, id), s) };
}

export async function testChild(ctx: CodeGateContext, child: ProgramRef, parent: ProgramRef, ledger: RunLedger): Promise<CodeGateResult> {
  const { lo, hi } = ctx.range;
  if (!(Number.isFinite(lo) && Number.isFinite(hi) && hi > lo)) {
    throw new RatchetError('badInput', `The evaluator's score range must be two finite numbers lo < hi, got [${lo}, ${hi}].`, { field: 'evaluator.scoreRange' });
  }
  const orderSeed = hashSeed(ctx.runSeed, child.hash);
  const order = seededPermutation(ctx.instances.length, orderSeed).map((i) => ctx.instances[i]!);
  switch (ctx.gate.name) {
    case 'greedy':
      return greedy(ctx, child, parent, ledger, order, orderSeed);
    case 'pairwise':
      return pairwise(ctx, child, parent, ledger, order, orderSeed);
    case 'pace':
    case 'pace+':
      return pace(ctx, ctx.gate.name, child, parent, ledger, order, orderSeed);
  }
}

/** Scores of one shard, child and parent, the parent from the cache where it can be. */
interface ShardScores {
  ids: readonly string[];
  child: ShardOutcome;
  parent: Map<string, number>;
  ran: { child: number; parent: number };
}

/**
 * Runs the shards of `order` at most `parallel` at a time and hands them to `consume` strictly in
 * order; `consume` returning true (a verdict) aborts what is still running and ends the walk.
 */
async function walkShards(ctx: CodeGateContext, child: ProgramRef, parent: ProgramRef, order: readonly string[], consume: (s: ShardScores) => Promise<boolean>): Promise<void> {
  const size = Math.max(1, Math.min(ctx.shardSize, order.length));
  const shards: string[][] = [];
  for (let i = 0; i < order.length; i += size) shards.push(order.slice(i, i + size));
  const stop = new AbortController();
  const onAbort = () => stop.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const started: Promise<ShardScores>[] = [];
  const start = (i: number) => {
    const p = evaluateShard(ctx, child, parent, shards[i]!, stop.signal);
    p.catch(() => undefined); // consumed (or deliberately abandoned) below
    started.push(p);
  };
  try {
    if (ctx.evaluateBatch) {
      started.push(...evaluateBatch(ctx, ctx.evaluateBatch, child, parent, shards, stop.signal));
      for (const p of started) p.catch(() => undefined);
      for (const p of started) if (await consume(await p)) return;
      return;
    }
    for (let i = 0; i < Math.min(Math.max(1, ctx.parallelShards), shards.length); i++) start(i);
    for (let i = 0; i < shards.length; i++) {
      const scores = await started[i]!;
      if (await consume(scores)) return;
      if (started.length < shards.length) start(started.length);
    }
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    // The shards still running are past the verdict: their evidence is not needed.
    stop.abort(new RatchetError('cancelled', 'The gate decided before this shard finished.'));
  }
}

async function evaluateShard(ctx: CodeGateContext, child: ProgramRef, parent: ProgramRef, ids: readonly string[], signal: AbortSignal): Promise<ShardScores> {
  const missing = ids.filter((id) => ctx.cache.get(parent.hash, id) === undefined);
  const [childOutcome, parentOutcome] = await Promise.all([ctx.evaluate(child, ids, signal), missing.length > 0 ? ctx.evaluate(parent, missing, signal) : Promise.resolve<ShardOutcome>(NOTHING)]);
  return shardScores(ctx, parent, ids, missing, childOutcome, parentOutcome);
}

const NOTHING: ShardOutcome = { correct: true, scores: {} };

/**
 * Every shard at once through a batch backend: the child's shards in one submission, the parent's
 * missing instances (as the cache has them now) in another, shard by shard.
 */
function evaluateBatch(ctx: CodeGateContext, batch: ShardBatchEvaluator, child: ProgramRef, parent: ProgramRef, shards: readonly string[][], signal: AbortSignal): Promise<ShardScores>[] {
  const missing = shards.map((ids) => ids.filter((id) => ctx.cache.get(parent.hash, id) === undefined));
  const childOutcomes = batch(child, shards, signal);
  const asked = missing.flatMap((m, i) => (m.length > 0 ? [i] : []));
  const parentOutcomes =
    asked.length > 0
      ? batch(
          parent,
          asked.map((i) => missing[i]!),
          signal,
        )
      : [];
  return shards.map(async (ids, i) => {
    const k = asked.indexOf(i);
    const [childOutcome, parentOutcome] = await Promise.all([childOutcomes[i]!, k < 0 ? NOTHING : parentOutcomes[k]!]);
    return shardScores(ctx, parent, ids, missing[i]!, childOutcome, parentOutcome);
  });
}

function shardScores(ctx: CodeGateContext, parent: ProgramRef, ids: readonly string[], missing: readonly string[], childOutcome: ShardOutcome, parentOutcome: ShardOutcome): ShardScores {
  if (!parentOutcome.correct) {
    // A parent is a program the evaluator passed before: failing now means the evaluator is not
    // repeatable (or the machine misbehaves), which no test can paper over.
    throw new RatchetError('badInput', `The parent ${parent.id} passed the evaluator before and failed it now: ${parentOutcome.error}`, { programId: parent.id });
  }
  for (const id of missing) {
    const s = parentOutcome.scores[id];
    if (s === undefined) throw new RatchetError('badInput', `The evaluator returned no score for instance ${id} of ${parent.id}.`, { instanceId: id });
    ctx.cache.set(parent.hash, id, checkScore(ctx, s, id));
  }
  return { ids, child: childOutcome, parent: new Map(ids.map((id) => [id, ctx.cache.get(parent.hash, id)!])), ran: { child: ids.length, parent: missing.length } };
}

function checkScore(ctx: CodeGateContext, s: number, id: string): number {
  const { lo, hi } = ctx.range;
  // Greedy and pairwise never scale a difference, so only finiteness matters to them.
  const inRange = !scalesScores(ctx.gate.name) || (s >= lo && s <= hi);
  if (!(Number.isFinite(s) && inRange)) {
    throw new RatchetError('badInput', `Instance ${id} scored ${s}, outside the evaluator's declared score range [${lo}, ${hi}].`, { field: 'evaluator.scoreRange', instanceId: id });
  }
  return s;
}

function childScoresOf(ctx: CodeGateContext, s: ShardScores, child: ProgramRef, into: Map<string, number>): void {
  if (!s.child.correct) return;
  for (const id of s.ids) {
    const y = s.child.scores[id];
    if (y === undefined) throw new RatchetError('badInput', `The evaluator returned no score for instance ${id} of ${child.id}.`, { instanceId: id });
    into.set(id, checkScore(ctx, y, id));
  }
}

/** Whether the gate scales score differences by the declared range (the PACE gates' Δ), so every score must lie in it. */
export function scalesScores(name: CodeGateName): boolean {
  return gateRow(name).pace;
}

async function pace(ctx: CodeGateContext, name: Extract<CodeGateName, PaceGateName>, child: ProgramRef, parent: ProgramRef, ledger: RunLedger, order: readonly string[], orderSeed: number): Promise<CodeGateResult> {
  const g = ctx.gate;
  const cfg = paceConfig(name, {
    alpha: g.alpha,
    scores: 'continuous',
    schedule: g.schedule,
    population: g.population,
    ...(g.horizon === undefined ? {} : { horizonT: g.horizon }),
  });
  const test = startPaceTest(cfg, ledger, order.length);
  const childScores = new Map<string, number>();
  const ran = { child: 0, parent: 0 };
  let incorrect: string | undefined;
  if (!test.verdict) {
    await walkShards(ctx, child, parent, order, async (s) => {
      ran.child += s.ran.child;
      ran.parent += s.ran.parent;
      if (!s.child.correct) {
        incorrect = s.child.error;
        return true;
      }
      childScoresOf(ctx, s, child, childScores);
      for (const id of s.ids) {
        const step = test.observe((childScores.get(id)! - s.parent.get(id)!) / (ctx.range.hi - ctx.range.lo));
        await ctx.onStep?.(id, step);
        if (test.verdict) return true;
      }
      return false;
    });
  }
  return finish(test, child, parent, ledger, orderSeed, childScores, ran, incorrect);
}

function finish(test: PaceTest, child: ProgramRef, parent: ProgramRef, ledger: RunLedger, orderSeed: number, childScores: Map<string, number>, ran: { child: number; parent: number }, incorrect: string | undefined): CodeGateResult {
  const s = test.summary();
  const verdict = incorrect !== undefined ? { decision: 'reject' as const, reason: 'incorrect' as const } : (s.verdict ?? { decision: 'reject' as const, reason: 'budget' as const });
  const record: DecisionRecord = {
    candidateId: child.id,
    parentId: parent.id,
    incumbentId: parent.id,
    gate: test.config.gate,
    configHash: gateConfigHash(test.config),
    alpha: s.alpha,
    schedule: s.schedule,
    ledgerBefore: { tested: ledger.tested, commits: ledger.commits },
    threshold: s.threshold,
    orderSeed,
    itemsConsumed: s.itemsConsumed,
    wins: s.wins,
    losses: s.losses,
    ties: s.ties,
    logWealth: s.logWealth,
    decision: verdict.decision,
    reason: verdict.reason,
    candidateCalls: ran.child,
    incumbentCalls: ran.parent,
    statistic: { evidence: Math.exp(s.logWealth), initialLogBest: test.initialLogBest },
    scores: 'continuous',
    bettor: test.config.bettor.kind,
    population: test.config.population,
  };
  return { record, ledgerAfter: advanceLedger(ledger, verdict.decision), childScores, ...(incorrect === undefined ? {} : { incorrect }), evaluations: ran };
}

/** Every instance of both programs, shard by shard; stops at the first shard that finds the child incorrect. */
async function allScores(ctx: CodeGateContext, child: ProgramRef, parent: ProgramRef, order: readonly string[]) {
  const childScores = new Map<string, number>();
  const parentScores = new Map<string, number>();
  const ran = { child: 0, parent: 0 };
  let incorrect: string | undefined;
  await walkShards(ctx, child, parent, order, async (s) => {
    ran.child += s.ran.child;
    ran.parent += s.ran.parent;
    if (!s.child.correct) {
      incorrect = s.child.error;
      return true;
    }
    childScoresOf(ctx, s, child, childScores);
    for (const [id, y] of s.parent) parentScores.set(id, y);
    return false;
  });
  const mean = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0) / Math.max(1, m.size);
  const wins = [...childScores].filter(([id, y]) => y > parentScores.get(id)!).length;
  const losses = [...childScores].filter(([id, y]) => y < parentScores.get(id)!).length;
  return { childScores, parentScores, childMean: mean(childScores), parentMean: mean(parentScores), wins, losses, ran, incorrect };
}

async function greedy(ctx: CodeGateContext, child: ProgramRef, parent: ProgramRef, ledger: RunLedger, order: readonly string[], orderSeed: number): Promise<CodeGateResult> {
  const { childScores, childMean, parentMean, wins, losses, ran, incorrect } = await allScores(ctx, child, parent, order);
  const commit = incorrect === undefined && childMean > parentMean;
  const decision = commit ? ('commit' as const) : ('reject' as const);
  const record = wholeRunRecord(
    ctx,
    child,
    parent,
    ledger,
    orderSeed,
    { childScores, childMean, parentMean, ran },
    {
      gate: 'greedy',
      configHash: 'greedy',
      wins,
      losses,
      ties: childScores.size - wins - losses,
      decision,
      reason: incorrect === undefined ? 'greedy' : 'incorrect',
    },
  );
  return { record, ledgerAfter: advanceLedger(ledger, decision), childScores, ...(incorrect === undefined ? {} : { incorrect }), evaluations: ran };
}

/**
 * Gate `pairwise`: a correct child's and its parent's programs before the validator in both orders;
 * a consistent child win commits. The record is the prompt runs' Direct pairwise record: one match,
 * its outcome the wins / losses / ties, reason `validator`, no wealth.
 */
async function pairwise(ctx: CodeGateContext, child: ProgramRef, parent: ProgramRef, ledger: RunLedger, order: readonly string[], orderSeed: number): Promise<CodeGateResult> {
  const v = ctx.pairwise;
  if (!v) throw new RatchetError('internal', 'Gate pairwise was given no validator.');
  const { childScores, parentScores, childMean, parentMean, ran, incorrect } = await allScores(ctx, child, parent, order);
  const comparison = incorrect === undefined ? await comparePrograms((messages) => v.ask(messages, ctx.signal), v.task, v.view(child, childScores), v.view(parent, parentScores)) : undefined;
  const outcome = comparison?.outcome.outcome;
  const decision = outcome === 'child' ? ('commit' as const) : ('reject' as const);
  const record = wholeRunRecord(
    ctx,
    child,
    parent,
    ledger,
    orderSeed,
    { childScores, childMean, parentMean, ran },
    {
      gate: 'pairwise',
      configHash: judgeGateConfigHash('pairwise', ctx.gate.alpha),
      wins: outcome === 'child' ? 1 : 0,
      losses: outcome === 'parent' ? 1 : 0,
      ties: outcome === 'tie' || outcome === 'inconsistent' ? 1 : 0,
      decision,
      reason: incorrect !== undefined ? 'incorrect' : outcome === 'abstained' ? 'abstained' : 'validator',
    },
  );
  const tally = new JudgeTally();
  if (comparison) tally.addAnswers(comparison.childFirst, comparison.parentFirst);
  return {
    record: tally.onto(outcome === 'abstained' ? { ...record, unjudged: 1 } : record),
    ledgerAfter: advanceLedger(ledger, decision),
    childScores,
    ...(incorrect === undefined ? {} : { incorrect }),
    evaluations: ran,
    ...(comparison ? { comparison } : {}),
  };
}

/**
 * The record of a gate that evaluates the child on every instance and decides at once (greedy,
 * pairwise): no e-process, so no wealth and the per-candidate threshold; the two means as its
 * statistic. `own` is what the gate itself decided.
 */
function wholeRunRecord(
  ctx: CodeGateContext,
  child: ProgramRef,
  parent: ProgramRef,
  ledger: RunLedger,
  orderSeed: number,
  s: { childScores: Map<string, number>; childMean: number; parentMean: number; ran: { child: number; parent: number } },
  own: Pick<DecisionRecord, 'gate' | 'configHash' | 'wins' | 'losses' | 'ties' | 'decision' | 'reason'>,
): DecisionRecord {
  return {
    candidateId: child.id,
    parentId: parent.id,
    incumbentId: parent.id,
    gate: own.gate,
    configHash: own.configHash,
    alpha: ctx.gate.alpha,
    schedule: 'per-candidate',
    ledgerBefore: { tested: ledger.tested, commits: ledger.commits },
    threshold: candidateThreshold('per-candidate', ctx.gate.alpha, ledger),
    orderSeed,
    itemsConsumed: s.childScores.size,
    wins: own.wins,
    losses: own.losses,
    ties: own.ties,
    logWealth: 0,
    decision: own.decision,
    reason: own.reason,
    candidateCalls: s.ran.child,
    incumbentCalls: s.ran.parent,
    statistic: { childMean: s.childMean, parentMean: s.parentMean, difference: s.childMean - s.parentMean },
  };
}
