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
 * Shards (gateShards.ts), so evidence can stop early: the order is cut into shards of `shardSize` instances,
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
import type { CodeGateName, PaceGateName } from '../gates/gateTable';
import { gateConfigHash, paceConfig, startPaceTest } from '../gates/pace';
import type { PaceTest } from '../gates/pace';
import type { DecisionRecord } from '../gates/record';
import { advanceLedger, candidateThreshold } from '../gates/thresholds';
import type { RunLedger } from '../gates/thresholds';
import { hashSeed, seededPermutation } from '../random';
import { judgeGateConfigHash } from '../gates/pairwise';
import { comparePrograms } from './programJudge';
import { JudgeTally } from '../gates/abstentions';
import { noEvidence, walkChildShards } from './gateShards';
import type { ChildEvidence } from './gateShards';
import type { ProgramComparison } from './programJudge';
import type { CodeGateContext, CodeGateResult, ProgramRef, ScoreCache } from './gateTypes';

export type { CodeGateName };
export type { CodeGateContext, CodeGateResult, CodeGateSpec, PairwiseValidator, ProgramRef, ScoreCache, ShardBatchEvaluator, ShardEvaluator, ShardOutcome } from './gateTypes';

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
  const evidence = test.verdict
    ? noEvidence()
    : await walkChildShards(ctx, child, parent, order, async (s, childScores) => {
        for (const id of s.ids) {
          const step = test.observe((childScores.get(id)! - s.parent.get(id)!) / (ctx.range.hi - ctx.range.lo));
          await ctx.onStep?.(id, step);
          if (test.verdict) return true;
        }
        return false;
      });
  return finish(test, child, parent, ledger, orderSeed, evidence);
}

function finish(test: PaceTest, child: ProgramRef, parent: ProgramRef, ledger: RunLedger, orderSeed: number, evidence: ChildEvidence): CodeGateResult {
  const s = test.summary();
  const { ran, incorrect } = evidence;
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
  return gateResult(record, ledger, evidence);
}

/** A test's result from its record and the evidence it consumed. */
function gateResult(record: DecisionRecord, ledger: RunLedger, e: ChildEvidence, comparison?: ProgramComparison): CodeGateResult {
  return {
    record,
    ledgerAfter: advanceLedger(ledger, record.decision),
    childScores: e.childScores,
    ...(e.incorrect === undefined ? {} : { incorrect: e.incorrect }),
    evaluations: e.ran,
    ...(comparison ? { comparison } : {}),
  };
}

/** Every instance of both programs, shard by shard; stops at the first shard that finds the child incorrect. */
type AllScores = Awaited<ReturnType<typeof allScores>>;

async function allScores(ctx: CodeGateContext, child: ProgramRef, parent: ProgramRef, order: readonly string[]) {
  const parentScores = new Map<string, number>();
  const { childScores, ran, incorrect } = await walkChildShards(ctx, child, parent, order, async (s) => {
    for (const [id, y] of s.parent) parentScores.set(id, y);
    return false;
  });
  const mean = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0) / Math.max(1, m.size);
  const wins = [...childScores].filter(([id, y]) => y > parentScores.get(id)!).length;
  const losses = [...childScores].filter(([id, y]) => y < parentScores.get(id)!).length;
  return { childScores, parentScores, childMean: mean(childScores), parentMean: mean(parentScores), wins, losses, ran, incorrect };
}

async function greedy(ctx: CodeGateContext, child: ProgramRef, parent: ProgramRef, ledger: RunLedger, order: readonly string[], orderSeed: number): Promise<CodeGateResult> {
  return wholeRunTest(ctx, child, parent, ledger, order, orderSeed, async ({ childScores, childMean, parentMean, wins, losses, incorrect }) => {
    const commit = incorrect === undefined && childMean > parentMean;
    return {
      own: { gate: 'greedy', configHash: 'greedy', wins, losses, ties: childScores.size - wins - losses, decision: commit ? 'commit' : 'reject', reason: incorrect === undefined ? 'greedy' : 'incorrect' },
    };
  });
}

/**
 * Gate `pairwise`: a correct child's and its parent's programs before the validator in both orders;
 * a consistent child win commits. The record is the prompt runs' Direct pairwise record: one match,
 * its outcome the wins / losses / ties, reason `validator`, no wealth.
 */
async function pairwise(ctx: CodeGateContext, child: ProgramRef, parent: ProgramRef, ledger: RunLedger, order: readonly string[], orderSeed: number): Promise<CodeGateResult> {
  const v = ctx.pairwise;
  if (!v) throw new RatchetError('internal', 'Gate pairwise was given no validator.');
  return wholeRunTest(ctx, child, parent, ledger, order, orderSeed, async ({ childScores, parentScores, incorrect }) => {
    const comparison = incorrect === undefined ? await comparePrograms((messages) => v.ask(messages, ctx.signal), v.task, v.view(child, childScores), v.view(parent, parentScores)) : undefined;
    const outcome = comparison?.outcome.outcome;
    const tally = new JudgeTally();
    if (comparison) tally.addAnswers(comparison.childFirst, comparison.parentFirst);
    return {
      own: {
        gate: 'pairwise',
        configHash: judgeGateConfigHash('pairwise', ctx.gate.alpha),
        wins: outcome === 'child' ? 1 : 0,
        losses: outcome === 'parent' ? 1 : 0,
        ties: outcome === 'tie' || outcome === 'inconsistent' ? 1 : 0,
        decision: outcome === 'child' ? 'commit' : 'reject',
        reason: incorrect !== undefined ? 'incorrect' : outcome === 'abstained' ? 'abstained' : 'validator',
      },
      amend: (record) => tally.onto(outcome === 'abstained' ? { ...record, unjudged: 1 } : record),
      ...(comparison ? { comparison } : {}),
    };
  });
}

/** What a whole-run gate decided on the scores of every instance: its part of the record, anything it adds to it, and the validator's comparison. */
interface WholeRunVerdict {
  own: WholeRunOwn;
  amend?: (record: DecisionRecord) => DecisionRecord;
  comparison?: ProgramComparison;
}

type WholeRunOwn = Pick<DecisionRecord, 'gate' | 'configHash' | 'wins' | 'losses' | 'ties' | 'decision' | 'reason'>;

/** A gate that evaluates the child on every instance, then decides at once by `decide` (greedy, pairwise). */
async function wholeRunTest(ctx: CodeGateContext, child: ProgramRef, parent: ProgramRef, ledger: RunLedger, order: readonly string[], orderSeed: number, decide: (scores: AllScores) => Promise<WholeRunVerdict>): Promise<CodeGateResult> {
  const scores = await allScores(ctx, child, parent, order);
  const { own, amend = (r) => r, comparison } = await decide(scores);
  return gateResult(amend(wholeRunRecord(ctx, child, parent, ledger, orderSeed, scores, own)), ledger, scores, comparison);
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
  own: WholeRunOwn,
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
