// A batch backend (a Slurm array job: all of a program's shards in one submission, their outcomes
// arriving in any order) against the shard-by-shard path the gate takes locally: the same
// decisions and the same journal, one submission per program under test holding every shard, the
// shards past a verdict cancelled, and a spent evaluation budget (cluster hours) ending the tests
// it cuts off without a decision.
import { describe, expect, it } from 'vitest';
import { scoreCache, testChild } from '../../../src/core/code/gate';
import type { CodeGateContext, ShardBatchEvaluator, ShardEvaluator, ShardOutcome } from '../../../src/core/code/gate';
import { runSearch } from '../../../src/core/code/search';
import type { ProgramBatchEvaluator, ProgramEvaluator } from '../../../src/core/code/search';
import { textHash } from '../../../src/core/code/novelty';
import { RatchetError } from '../../../src/core/errors';
import { hashSeed, SeededRandom } from '../../../src/core/random';
import type { EngineEvent } from '../../../src/core/journal/events';
import { isIncidental } from '../../../src/core/journal/eventClasses';
import { INSTANCES, SEED_PROGRAM, constantOf, proposer, spec } from './searchWorld';

/** 1 − |x − 0.8| per instance plus noise fixed by (program, instance): every evaluation of a pair gives the same score, however often it runs. */
function score(seed: number, text: string, id: string): number {
  const noise = new SeededRandom(hashSeed(seed, textHash(text), id)).next() - 0.5;
  return Math.min(1, Math.max(0, 0.9 - Math.abs(constantOf(text) - 0.8) + 0.3 * noise));
}

const evaluation = (seed: number, text: string, ids: readonly string[] | undefined) => {
  const instances = Object.fromEntries((ids ?? INSTANCES).map((id) => [id, score(seed, text, id)]));
  const values = Object.values(instances);
  return { correct: true, score: values.reduce((a, b) => a + b, 0) / values.length, instances };
};

const local =
  (seed: number): ProgramEvaluator =>
  async (text, ids) =>
    evaluation(seed, text, ids);

/**
 * The batch backend: each submission's shards finish in an order drawn from `releaseSeed`, one per
 * turn of the event loop, across every submission in flight; an aborted signal cancels the rest.
 */
function cluster(seed: number, releaseSeed: number) {
  const queue: { finish: () => void; cancel: (reason: unknown) => void }[] = [];
  const submissions: { hash: string; shards: number; cancelled: number }[] = [];
  const order = new SeededRandom(releaseSeed);
  let stopped = false;
  const evaluateShards: ProgramBatchEvaluator = (text, shards, signal) => {
    const submission = { hash: textHash(text), shards: shards.length, cancelled: 0 };
    submissions.push(submission);
    return shards.map(
      (ids) =>
        new Promise((resolve, reject) => {
          const task = {
            finish: () => resolve(evaluation(seed, text, ids)),
            cancel: (reason: unknown) => {
              submission.cancelled++;
              reject(reason as Error);
            },
          };
          queue.push(task);
          signal.addEventListener('abort', () => {
            const i = queue.indexOf(task);
            if (i >= 0) queue.splice(i, 1)[0]!.cancel(signal.reason);
          });
        }),
    );
  };
  const pump = async () => {
    while (!stopped) {
      await new Promise((r) => setImmediate(r));
      if (queue.length > 0) queue.splice(order.int(queue.length), 1)[0]!.finish();
    }
  };
  void pump();
  return { evaluateShards, submissions, stop: () => (stopped = true) };
}

async function search(o: { batch?: ReturnType<typeof cluster>; evaluationBudget?: () => string | undefined; evaluateShards?: ProgramBatchEvaluator }) {
  const events: EngineEvent[] = [];
  const s = spec('pace+', 16);
  const outcome = await runSearch({
    spec: { ...s, concurrency: 2, evaluator: { ...s.evaluator, shards: true, shardSize: 5 } },
    seedText: SEED_PROGRAM,
    llm: proposer(3, false),
    evaluate: local(3),
    ...(o.batch ? { evaluateShards: o.batch.evaluateShards } : {}),
    ...(o.evaluateShards ? { evaluateShards: o.evaluateShards } : {}),
    ...(o.evaluationBudget ? { evaluationBudget: o.evaluationBudget } : {}),
    random: new SeededRandom(3),
    emit: async (e) => void events.push({ ...e, runId: 'r', at: 0 } as EngineEvent),
    signal: new AbortController().signal,
  });
  return { outcome, events };
}

/**
 * The journal without its incidental events, each decision without its incumbent calls: which test
 * fills the parent's cache first depends on which finishes first, here as in the local walk with
 * several evaluator slots (searchConcurrency.test.ts compares the same shape).
 */
const journaled = (events: readonly EngineEvent[]) => events.filter((e) => !isIncidental(e)).map((e) => (e.type === 'decision' ? { ...e, record: { ...e.record, incumbentCalls: 0 } } : e));
const decisions = (events: readonly EngineEvent[]) => events.flatMap((e) => (e.type === 'decision' ? [e.record] : []));

describe('a batch backend (every shard of a program in one submission)', () => {
  it('makes the decisions and journals the events of the shard-by-shard walk, whatever order the shards finish in', async () => {
    const reference = await search({});
    expect(decisions(reference.events).some((d) => d.decision === 'commit')).toBe(true);
    expect(decisions(reference.events).some((d) => d.decision === 'reject')).toBe(true);
    for (const releaseSeed of [1, 2, 3]) {
      const batch = cluster(3, releaseSeed);
      try {
        const r = await search({ batch });
        expect(journaled(r.events)).toEqual(journaled(reference.events));
        // A child's test submits every shard of its order at once (30 instances / 5); once it is a
        // parent, the instances the cache lacks (it committed before its last) go in later ones.
        const hashes = new Map(r.events.flatMap((e) => (e.type === 'candidate/proposed' ? [[e.candidateId, e.contentHash]] : [])));
        for (const d of decisions(r.events)) expect(batch.submissions.find((s) => s.hash === hashes.get(d.candidateId))?.shards).toBe(6);
        // A verdict before the last shard cancels the shards not consumed.
        const early = decisions(r.events).filter((d) => d.itemsConsumed <= 20).length;
        expect(early).toBeGreaterThan(0);
        expect(batch.submissions.filter((s) => s.cancelled > 0).length).toBeGreaterThan(0);
      } finally {
        batch.stop();
      }
    }
  });

  it('testChild: a batch gives the record the shard-by-shard walk gives, and the verdict aborts the shards not consumed', async () => {
    const ids = INSTANCES;
    const text = (x: number) => SEED_PROGRAM.replace('0.10', x.toFixed(2));
    const texts = new Map([text(0.1), text(0.7)].map((t) => [textHash(t), t]));
    const one: ShardEvaluator = async (program, shard) => ({ correct: true, scores: evaluation(4, texts.get(program.hash)!, shard).instances });
    const aborted: number[] = [];
    const batch: ShardBatchEvaluator = (program, shards, signal) =>
      shards.map(
        (shard, i) =>
          new Promise<ShardOutcome>((resolve) => {
            signal.addEventListener('abort', () => aborted.push(i));
            void one(program, shard, signal).then(resolve);
          }),
      );
    const context = (over: Partial<CodeGateContext>): CodeGateContext => ({
      gate: { name: 'pace+', alpha: 0.05, schedule: 'per-candidate', population: 'infinite' },
      runSeed: 9,
      instances: ids,
      range: { lo: 0, hi: 1 },
      shardSize: 3,
      parallelShards: 2,
      evaluate: one,
      cache: scoreCache(),
      signal: new AbortController().signal,
      ...over,
    });
    const child = { id: 'p1', hash: textHash(text(0.7)) };
    const parent = { id: 'p0', hash: textHash(text(0.1)) };
    const walked = await testChild(context({}), child, parent, { tested: 0, commits: 0 });
    const batched = await testChild(context({ evaluateBatch: batch }), child, parent, { tested: 0, commits: 0 });
    expect(batched.record).toEqual(walked.record);
    expect(batched.record.decision).toBe('commit');
    expect(batched.record.itemsConsumed).toBeLessThan(ids.length);
    // Each abort listener that fired belongs to one of the 10 shards, child's or parent's: the verdict aborted them all at once.
    expect(aborted.length).toBe(2 * 10);
  });

  it('a spent evaluation budget stops the search: the tests it cut off are not decided, and nothing is proposed after', async () => {
    let spent: string | undefined;
    let submitted = 0;
    const inner = cluster(3, 1);
    try {
      const evaluateShards: ProgramBatchEvaluator = (text, shards, signal) => {
        submitted++;
        // The third submission finds the cluster budget spent, as the Slurm backend does: it refuses.
        if (submitted >= 3) {
          spent = '0.01 of 0.01 cluster hours';
          return shards.map(() => Promise.reject(new RatchetError('budgetExhausted', `The run's budget is spent (${spent}).`, { budget: spent })));
        }
        return inner.evaluateShards(text, shards, signal);
      };
      const r = await search({ evaluateShards, evaluationBudget: () => spent });
      const stopped = r.events.filter((e) => e.type === 'candidate/stopped');
      expect(stopped.length).toBeGreaterThan(0);
      expect(stopped[0]).toMatchObject({ reason: 'budget', budget: '0.01 of 0.01 cluster hours' });
      expect(r.events.at(-1)?.type).toBe('run/finished');
      // Proposals in flight when it ran out still finish; none is launched after.
      expect(r.outcome.proposals).toBeLessThan(16);
      const stoppedIds = new Set(stopped.map((e) => (e.type === 'candidate/stopped' ? e.candidateId : '')));
      expect(decisions(r.events).filter((d) => stoppedIds.has(d.candidateId))).toEqual([]);
    } finally {
      inner.stop();
    }
  });
});
