/**
 * The gate's evidence, shard by shard (gate.ts): the instance order cut into shards, evaluated up
 * to `parallelShards` at a time (or all at once through a batch backend), the parent's scores from
 * the cache where it has them, and every score checked against the declared range.
 */
import { RatchetError } from '../errors';
import { gateRow } from '../gates/gateTable';
import type { CodeGateName } from '../gates/gateTable';
import type { CodeGateContext, ProgramRef, ShardBatchEvaluator, ShardOutcome } from './gateTypes';

/** Scores of one shard, child and parent, the parent from the cache where it can be. */
export interface ShardScores {
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

/** What a walk of the child's shards gathered: its checked scores, the evaluator runs of each program, and the child's error when a shard found it incorrect. */
export interface ChildEvidence {
  childScores: Map<string, number>;
  ran: { child: number; parent: number };
  incorrect: string | undefined;
}

/** The evidence of a test that ran no shard (its verdict came before any). */
export function noEvidence(): ChildEvidence {
  return { childScores: new Map(), ran: { child: 0, parent: 0 }, incorrect: undefined };
}

/**
 * `walkShards` keeping what every code gate keeps: the runs of each shard, the child's scores, and
 * the error of the first shard that finds the child incorrect, where the walk ends. `consume` gets
 * each shard the child passed, its scores already in `childScores`, and ends the walk by returning true.
 */
export async function walkChildShards(ctx: CodeGateContext, child: ProgramRef, parent: ProgramRef, order: readonly string[], consume: (s: ShardScores, childScores: ReadonlyMap<string, number>) => Promise<boolean>): Promise<ChildEvidence> {
  const e = noEvidence();
  await walkShards(ctx, child, parent, order, async (s) => {
    e.ran.child += s.ran.child;
    e.ran.parent += s.ran.parent;
    if (!s.child.correct) {
      e.incorrect = s.child.error;
      return true;
    }
    childScoresOf(ctx, s, child, e.childScores);
    return consume(s, e.childScores);
  });
  return e;
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
