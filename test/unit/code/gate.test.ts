// The code-search gate by seeded simulation: programs whose per-instance scores are noisy draws
// around a quality. In a null world (child as good as its parent) PACE+ commits at most α per
// child — within α + 3·SE, SE = √(α(1−α)/R), a band a valid gate leaves with probability about
// 0.1 % — while greedy's one-evaluation `>` commits about half the time. Shards stop early.
import { describe, expect, it } from 'vitest';
import { scoreCache, testChild } from '../../../src/core/code/gate';
import type { CodeGateContext, CodeGateName, PairwiseValidator, ProgramRef, ShardEvaluator } from '../../../src/core/code/gate';
import { RatchetError } from '../../../src/core/errors';
import { hashSeed, SeededRandom } from '../../../src/core/random';

const INSTANCES = Array.from({ length: 40 }, (_, i) => `inst-${String(i + 1).padStart(3, '0')}`);
const LEDGER = { tested: 0, commits: 0 };

/** Quality by program id; a score is the instance's difficulty plus quality plus fresh noise, in [0, 1]. */
function world(quality: Record<string, number>, seed: number) {
  const difficulty = new Map(INSTANCES.map((id, i) => [id, 0.2 + 0.6 * new SeededRandom(hashSeed(seed, 'd', i)).next()]));
  let draws = 0;
  const calls: { program: string; ids: readonly string[]; signal: AbortSignal }[] = [];
  const evaluate: ShardEvaluator = async (program, ids, signal) => {
    calls.push({ program: program.id, ids, signal });
    const scores: Record<string, number> = {};
    const r = new SeededRandom(hashSeed(seed, program.hash, draws++));
    for (const id of ids) {
      const noise = 0.25 * (r.next() + r.next() + r.next() - 1.5);
      scores[id] = Math.min(1, Math.max(0, difficulty.get(id)! + (quality[program.id] ?? 0) + noise));
    }
    return { correct: true, scores };
  };
  return { evaluate, calls };
}

function context(name: CodeGateName, evaluate: ShardEvaluator, over: Partial<CodeGateContext> = {}): CodeGateContext {
  return {
    gate: { name, alpha: 0.05, schedule: 'per-candidate', population: 'infinite' },
    runSeed: 7,
    instances: INSTANCES,
    range: { lo: 0, hi: 1 },
    shardSize: 5,
    parallelShards: 2,
    evaluate,
    cache: scoreCache(),
    signal: new AbortController().signal,
    ...over,
  };
}

const ref = (id: string): ProgramRef => ({ id, hash: `hash-${id}` });

describe('code gate in a null world (child as good as its parent)', () => {
  const R = 600;
  const SE = Math.sqrt((0.05 * 0.95) / R);

  it(`PACE+ commits at most α + 3·SE of ${R} neutral children; greedy commits about half`, async () => {
    let paceCommits = 0;
    let greedyCommits = 0;
    for (let c = 0; c < R; c++) {
      const w = world({ parent: 0, child: 0 }, c);
      const child = { id: 'child', hash: `child-${c}` };
      if ((await testChild(context('pace+', w.evaluate), child, ref('parent'), LEDGER)).record.decision === 'commit') paceCommits++;
      if ((await testChild(context('greedy', w.evaluate), child, ref('parent'), LEDGER)).record.decision === 'commit') greedyCommits++;
    }
    expect(paceCommits / R).toBeLessThanOrEqual(0.05 + 3 * SE);
    // Greedy's `>` on one evaluation: a neutral child wins it with probability about 1/2.
    expect(greedyCommits / R).toBeGreaterThan(0.4);
  });
});

describe('code gate with a real improvement', () => {
  it('PACE+ commits a child that is +0.15 better on most seeds, stopping before the last instance', async () => {
    let commits = 0;
    let consumed = 0;
    for (let c = 0; c < 200; c++) {
      const w = world({ parent: 0, child: 0.15 }, c);
      const r = await testChild(context('pace+', w.evaluate), { id: 'child', hash: `better-${c}` }, ref('parent'), LEDGER);
      if (r.record.decision === 'commit') commits++;
      consumed += r.record.itemsConsumed;
    }
    expect(commits / 200).toBeGreaterThan(0.8);
    expect(consumed / 200).toBeLessThan(INSTANCES.length);
  });
});

describe('shards', () => {
  it('a verdict aborts the shards still running and evaluates less than the whole child', async () => {
    const w = world({ parent: 0, child: 0.5 }, 1);
    const r = await testChild(context('pace+', w.evaluate, { shardSize: 4, parallelShards: 3 }), ref('child'), ref('parent'), LEDGER);
    expect(r.record.decision).toBe('commit');
    expect(r.evaluations.child).toBeLessThan(INSTANCES.length);
    const childCalls = w.calls.filter((c) => c.program === 'child');
    // Every shard started after the one that decided was told to stop.
    const decidedAt = Math.ceil(r.record.itemsConsumed / 4);
    expect(childCalls.slice(decidedAt).every((c) => c.signal.aborted)).toBe(true);
    expect(childCalls.slice(0, decidedAt).length).toBe(decidedAt);
  });

  it('consumes instances strictly in the child’s pre-fixed order, whatever order shards finish in', async () => {
    const w = world({ parent: 0, child: 0 }, 3);
    const seen: string[] = [];
    const reversed: ShardEvaluator = async (p, ids, signal) => {
      // Later shards answer first.
      await new Promise((r) => setTimeout(r, ids.includes(INSTANCES[0]!) ? 5 : 0));
      return w.evaluate(p, ids, signal);
    };
    const a = await testChild(context('pace+', reversed, { onStep: async (id) => void seen.push(id) }), ref('child'), ref('parent'), LEDGER);
    const b = await testChild(context('pace+', w.evaluate, { shardSize: 40, parallelShards: 1 }), ref('child'), ref('parent'), LEDGER);
    expect(a.record.orderSeed).toBe(b.record.orderSeed);
    expect(seen.length).toBe(a.record.itemsConsumed);
    const { seededPermutation } = await import('../../../src/core/random');
    const order = seededPermutation(INSTANCES.length, a.record.orderSeed).map((i) => INSTANCES[i]);
    expect(seen).toEqual(order.slice(0, seen.length));
  });

  it('the parent is evaluated once per instance across its children', async () => {
    const w = world({ parent: 0, c1: 0, c2: 0 }, 5);
    const ctx = context('pace+', w.evaluate, { shardSize: 40 });
    const first = await testChild(ctx, ref('c1'), ref('parent'), LEDGER);
    const second = await testChild(ctx, ref('c2'), ref('parent'), LEDGER);
    expect(first.evaluations.parent).toBe(first.record.itemsConsumed > 0 ? INSTANCES.length : 0);
    expect(second.evaluations.parent).toBe(0);
  });
});

describe('incorrect children and bad scores', () => {
  it('a child a shard reports incorrect is rejected as incorrect, and no further shard starts', async () => {
    const w = world({ parent: 0 }, 2);
    let childShards = 0;
    const evaluate: ShardEvaluator = async (p, ids, signal) => {
      if (p.id !== 'child') return w.evaluate(p, ids, signal);
      childShards++;
      return { correct: false, error: 'circle 3 overlaps circle 7' };
    };
    const r = await testChild(context('pace+', evaluate, { parallelShards: 1 }), ref('child'), ref('parent'), LEDGER);
    expect(r.record.decision).toBe('reject');
    expect(r.record.reason).toBe('incorrect');
    expect(r.incorrect).toBe('circle 3 overlaps circle 7');
    expect(childShards).toBe(1);
  });

  it('a score outside the declared range stops the test with a located error', async () => {
    const evaluate: ShardEvaluator = async (_p, ids) => ({ correct: true, scores: Object.fromEntries(ids.map((id) => [id, 2.6])) });
    const err = await testChild(context('pace+', evaluate), ref('child'), ref('parent'), LEDGER).catch((e: unknown) => e);
    expect(RatchetError.is(err) && err.code).toBe('badInput');
    expect((err as RatchetError).message).toMatch(/outside the evaluator's declared score range \[0, 1\]/);
    expect((err as RatchetError).details).toMatchObject({ field: 'evaluator.scoreRange' });
  });

  it('greedy on a deterministic single score commits a strict improvement only', async () => {
    const single =
      (score: Record<string, number>): ShardEvaluator =>
      async (p) => ({ correct: true, scores: { score: score[p.id]! } });
    const ctx = (s: Record<string, number>) => context('greedy', single(s), { instances: ['score'], range: { lo: 0, hi: 3 }, shardSize: 1 });
    expect((await testChild(ctx({ parent: 2.5, child: 2.6 }), ref('child'), ref('parent'), LEDGER)).record.decision).toBe('commit');
    expect((await testChild(ctx({ parent: 2.5, child: 2.5 }), ref('child'), ref('parent'), LEDGER)).record.decision).toBe('reject');
  });
});

describe('gate pairwise', () => {
  /**
   * A validator that reads each program's mean score from its metrics block and prefers the higher
   * (`biased`: answers A whatever it is shown). It reads only what the gate put between the data
   * delimiters, and answers on the tagged line, as the prompt asks.
   */
  function validator(biased: boolean): { pairwise: PairwiseValidator; calls: () => number } {
    let calls = 0;
    const pairwise: PairwiseValidator = {
      task: 'Improve solve.mjs; higher scores are better.',
      async ask(messages) {
        calls++;
        const hex = /DATA-([0-9a-f]{12})/.exec(messages[0]!.content)![1]!;
        const user = messages[1]!.content;
        const score = (slot: 'A' | 'B') => JSON.parse(new RegExp(`<<<DATA-${hex} program ${slot} metrics>>>\\n([\\s\\S]*?)\\n<<<END DATA-${hex}>>>`).exec(user)![1]!).score as number;
        const v = biased ? 'A' : score('A') > score('B') ? 'A' : score('A') < score('B') ? 'B' : 'tie';
        return { text: `Rationale: program ${v} scores higher.\nANSWER-${hex}: ${v}`, logprobs: undefined, finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1 }, model: 'judge' };
      },
      view(program, scores) {
        const ys = INSTANCES.map((id) => scores.get(id) ?? NaN);
        return { diff: `changes of ${program.id}`, metrics: { score: ys.reduce((a, b) => a + b, 0) / ys.length } };
      },
    };
    return { pairwise, calls: () => calls };
  }

  function pairwiseContext(evaluate: ShardEvaluator, biased = false) {
    const v = validator(biased);
    return { ctx: context('pairwise', evaluate, { pairwise: v.pairwise }), calls: v.calls };
  }

  it('commits a better child on a consistent win in both orders, after evaluating it on every instance', async () => {
    const w = world({ parent: 0, child: 0.3 }, 11);
    const { ctx, calls } = pairwiseContext(w.evaluate);
    const r = await testChild(ctx, ref('child'), ref('parent'), LEDGER);
    expect(r.record).toMatchObject({ gate: 'pairwise', decision: 'commit', reason: 'validator', wins: 1, losses: 0, ties: 0, logWealth: 0, itemsConsumed: INSTANCES.length });
    expect(r.evaluations.child).toBe(INSTANCES.length);
    expect([r.comparison!.childFirst.verdict, r.comparison!.parentFirst.verdict]).toEqual(['A', 'B']);
    expect(calls()).toBe(2);
  });

  it('rejects a worse child, and a child a judge with position bias prefers only in slot A', async () => {
    const worse = await testChild(pairwiseContext(world({ parent: 0, child: -0.3 }, 12).evaluate).ctx, ref('child'), ref('parent'), LEDGER);
    expect(worse.record).toMatchObject({ decision: 'reject', reason: 'validator', wins: 0, losses: 1 });
    const biased = await testChild(pairwiseContext(world({ parent: 0, child: 0.3 }, 13).evaluate, true).ctx, ref('child'), ref('parent'), LEDGER);
    expect(biased.comparison!.outcome.outcome).toBe('inconsistent');
    expect(biased.record).toMatchObject({ decision: 'reject', reason: 'validator', ties: 1 });
  });

  it('rejects an incorrect child as incorrect without asking the validator', async () => {
    const w = world({ parent: 0 }, 14);
    const evaluate: ShardEvaluator = async (p, ids, signal) => (p.id === 'child' ? { correct: false, error: 'solve() threw' } : w.evaluate(p, ids, signal));
    const { ctx, calls } = pairwiseContext(evaluate);
    const r = await testChild(ctx, ref('child'), ref('parent'), LEDGER);
    expect(r.record).toMatchObject({ gate: 'pairwise', decision: 'reject', reason: 'incorrect' });
    expect(r.comparison).toBeUndefined();
    expect(calls()).toBe(0);
  });
});
