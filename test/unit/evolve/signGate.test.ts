// The evolve loop's `sign` gate (GATES.md 6.1) on crafted outcomes: the fixed-n sign test on every
// dev item in the seeded order, never an early stop, and the same decision and p-value as
// `ratchet gate sign` on the same outcomes.
import { describe, expect, it } from 'vitest';
import { auditOutcomes } from '../../../src/cli/commands/gate';
import type { DataItem } from '../../../src/core/data/item';
import { testCandidate } from '../../../src/core/evolve/gateRunner';
import type { Emit, GateContext } from '../../../src/core/evolve/gateContext';
import type { Evaluation, Evaluator } from '../../../src/core/evolve/evaluator';
import { makeVersion } from '../../../src/core/evolve/versions';
import type { Version } from '../../../src/core/evolve/versions';
import type { GateName } from '../../../src/core/gates/record';
import { OutcomeCache } from '../../../src/core/gates/incumbentCache';
import { signTestPValue } from '../../../src/core/gates/signTest';
import { EMPTY_LEDGER } from '../../../src/core/gates/thresholds';
import type { RunLedger } from '../../../src/core/gates/thresholds';
import type { LlmClient } from '../../../src/core/ports';
import { SeededRandom, hashSeed, seededPermutation } from '../../../src/core/random';
import type { GateSpec } from '../../../src/core/run/specTypes';
import runSpecSchema from '../../../schemas/run-spec.schema.json';

const RUN_SEED = 11;
const INCUMBENT = makeVersion('v0', 'You answer questions.', undefined);

const items = (n: number): DataItem[] => Array.from({ length: n }, (_, i) => ({ id: `d${i + 1}`, vars: { q: String(i) }, source: { file: 'dev.jsonl', line: i + 1 } }));

function gateSpec(over: Partial<GateSpec> = {}): GateSpec {
  return {
    name: 'sign',
    alpha: 0.05,
    lambda: 0.5,
    lambdas: [0.3, 0.5, 0.7, 0.85],
    schedule: 'per-candidate',
    horizon: 30,
    population: 'infinite',
    focus: { refreshEvery: 5 },
    elo: { k: 32, matches: 2, temperature: 173.7, soft: true },
    ...over,
  };
}

/** Outcomes by version hash and item id; the fake evaluator answers from it and counts its calls. */
type Table = Map<string, Map<string, number>>;

function harness(dev: DataItem[], table: Table, gate: GateSpec, opts: { batchSize?: number; cacheIncumbent?: boolean } = {}) {
  const calls: { hash: string; itemId: string }[] = [];
  const events: Parameters<Emit>[0][] = [];
  const evaluator = {
    evaluate: async (hash: string, _text: string, item: DataItem): Promise<Evaluation> => {
      calls.push({ hash, itemId: item.id });
      const score = table.get(hash)?.get(item.id);
      if (score === undefined) throw new Error(`no outcome for ${hash} on ${item.id}`);
      return { itemId: item.id, input: item.id, output: String(score), score, reason: undefined, tokenLogprobs: undefined, memo: false };
    },
  } as unknown as Evaluator;
  const outcomes = new OutcomeCache('eval-config');
  if (opts.cacheIncumbent ?? true) for (const [id, y] of table.get(INCUMBENT.hash)!) outcomes.set(INCUMBENT.hash, id, y);
  const ctx: GateContext = {
    emit: async (e) => void events.push(e),
    evaluator,
    llm: {} as LlmClient,
    validator: {},
    dev,
    feedback: [],
    gate,
    scores: 'binary',
    outcomes,
    runSeed: RUN_SEED,
    batchSize: opts.batchSize ?? 4,
    rubric: { text: '', version: 0 },
    signal: new AbortController().signal,
  };
  return { ctx, calls, events };
}

/** The pre-fixed order the gate runner uses for this candidate (A2). */
const orderOf = (cand: Version, dev: DataItem[]) => seededPermutation(dev.length, hashSeed(RUN_SEED, cand.hash)).map((i) => dev[i]!.id);

/** Incumbent/candidate outcomes that give `wins`, `losses` and ties in the given item order. */
function craft(cand: Version, orderIds: string[], deltas: number[]): Table {
  const inc = new Map<string, number>();
  const c = new Map<string, number>();
  orderIds.forEach((id, k) => {
    const d = deltas[k]!;
    inc.set(id, d > 0 ? 0 : d < 0 ? 1 : k % 2);
    c.set(id, d > 0 ? 1 : d < 0 ? 0 : k % 2);
  });
  return new Map([
    [INCUMBENT.hash, inc],
    [cand.hash, c],
  ]);
}

/** The same outcomes as the `ratchet gate` input: one line per item, in the order the gate used. */
function outcomesJsonl(cand: Version, orderIds: string[], table: Table): string {
  return orderIds.map((id) => JSON.stringify({ candidateId: cand.id, id, incumbent: table.get(INCUMBENT.hash)!.get(id), candidate: table.get(cand.hash)!.get(id) })).join('\n');
}

const cliOpts = (alpha: number, runLevel?: 'spending', horizon?: number) => ({
  alpha: String(alpha),
  scores: 'auto' as const,
  futility: true,
  population: 'infinite' as const,
  ...(runLevel ? { runLevel } : {}),
  ...(horizon === undefined ? {} : { horizon: String(horizon) }),
});

describe("the loop's sign gate on crafted outcomes", () => {
  it('commits exactly when the exact p-value is ≤ α, always after all n dev items, and agrees with `ratchet gate sign`', async () => {
    const random = new SeededRandom(2024);
    let commits = 0;
    for (let trial = 0; trial < 120; trial++) {
      const n = 8 + Math.floor(random.next() * 33); // ≥ 7: feasible at every α here
      const alpha = [0.05, 0.1, 0.01][trial % 3]!;
      const dev = items(n);
      const cand = makeVersion(`c${trial}`, `You answer questions. Hint ${trial}.`, 'v0');
      const order = orderOf(cand, dev);
      // Lean towards wins so both decisions occur often; put the wins first in the order half the
      // time, where a test that peeked would have committed early.
      const pWin = 0.35 + 0.65 * random.next();
      const pTie = 0.5 * random.next();
      let deltas = order.map(() => (random.next() < pTie ? 0 : random.next() < pWin ? 1 : -1));
      if (trial % 2 === 0) deltas = [...deltas].sort((a, b) => b - a);
      const table = craft(cand, order, deltas);
      const { ctx, calls, events } = harness(dev, table, gateSpec({ alpha }));
      const { record, candidateOutcomes } = await testCandidate(ctx, cand, INCUMBENT, EMPTY_LEDGER);

      const wins = deltas.filter((d) => d > 0).length;
      const losses = deltas.filter((d) => d < 0).length;
      const p = signTestPValue(wins, losses);
      expect(record).toMatchObject({ gate: 'sign', wins, losses, ties: n - wins - losses, itemsConsumed: n, candidateCalls: n, incumbentCalls: 0 });
      expect(record.decision).toBe(p <= alpha ? 'commit' : 'reject');
      expect(record.reason).toBe('p-value');
      expect(record.statistic).toEqual({ wins, losses, ties: n - wins - losses, pValue: p, level: alpha });
      if (record.decision === 'commit') commits++;
      // Every dev item evaluated once for the candidate, journaled in the pre-fixed order.
      expect(
        calls
          .filter((c) => c.hash === cand.hash)
          .map((c) => c.itemId)
          .sort(),
      ).toEqual([...order].sort());
      expect(events.flatMap((e) => (e.type === 'item/evaluated' && e.candidateId === cand.id ? [e.itemId] : []))).toEqual(order);
      expect(candidateOutcomes.size).toBe(n);

      const [cli] = auditOutcomes('sign', cliOpts(alpha), outcomesJsonl(cand, order, table));
      expect(cli!.json).toMatchObject({ decision: record.decision, pValue: p, level: alpha, wins, losses });
    }
    // Both decisions occurred, so the comparison above was not one-sided.
    expect(commits).toBeGreaterThan(20);
    expect(commits).toBeLessThan(100);
  });

  it('commits at p = α exactly (p ≤ α), not just below it', async () => {
    const dev = items(10);
    const cand = makeVersion('c1', 'four wins', 'v0');
    const table = craft(cand, orderOf(cand, dev), [1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
    for (const [alpha, decision] of [
      [1 / 16, 'commit'],
      [1 / 16 - 1e-9, 'reject'],
    ] as const) {
      const { ctx } = harness(dev, table, gateSpec({ alpha }));
      const { record } = await testCandidate(ctx, cand, INCUMBENT, EMPTY_LEDGER);
      expect(record).toMatchObject({ decision, statistic: { pValue: 1 / 16, level: alpha } });
    }
  });

  it('does not stop at the first item where p ≤ α: 5 straight wins then 3 losses is a reject', async () => {
    const dev = items(8);
    const cand = makeVersion('c1', 'prefix wins', 'v0');
    const order = orderOf(cand, dev);
    const table = craft(cand, order, [1, 1, 1, 1, 1, -1, -1, -1]);
    const { ctx, calls } = harness(dev, table, gateSpec(), { batchSize: 1 });
    const { record } = await testCandidate(ctx, cand, INCUMBENT, EMPTY_LEDGER);
    expect(signTestPValue(5, 0)).toBeLessThanOrEqual(0.05);
    expect(record).toMatchObject({ decision: 'reject', itemsConsumed: 8, wins: 5, losses: 3 });
    expect(record.statistic?.pValue).toBe(93 / 256);
    expect(calls.filter((c) => c.hash === cand.hash)).toHaveLength(8);
  });

  it('evaluates the incumbent on the items its cache lacks, once each', async () => {
    const dev = items(12);
    const cand = makeVersion('c1', 'all wins', 'v0');
    const order = orderOf(cand, dev);
    const { ctx, calls, events } = harness(
      dev,
      craft(
        cand,
        order,
        order.map(() => 1),
      ),
      gateSpec(),
      { cacheIncumbent: false },
    );
    const { record } = await testCandidate(ctx, cand, INCUMBENT, EMPTY_LEDGER);
    expect(record).toMatchObject({ decision: 'commit', incumbentCalls: 12, candidateCalls: 12 });
    expect(calls.filter((c) => c.hash === INCUMBENT.hash)).toHaveLength(12);
    expect(events.filter((e) => e.type === 'item/evaluated' && e.candidateId === 'v0')).toHaveLength(12);
  });

  it('under fwer-spend compares p with αγ_t, like `ratchet gate sign --run-level spending`', async () => {
    const dev = items(10);
    const cand = makeVersion('c3', 'six wins', 'v0');
    const order = orderOf(cand, dev);
    // 6 wins, 0 losses: p = 1/64 ≤ 0.05 but > 0.05/10.
    const table = craft(cand, order, [1, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
    const ledger: RunLedger = { tested: 2, commits: 0 };
    const { ctx } = harness(dev, table, gateSpec({ schedule: 'fwer-spend', horizon: 10 }));
    const { record, ledgerAfter } = await testCandidate(ctx, cand, INCUMBENT, ledger);
    expect(record).toMatchObject({ decision: 'reject', reason: 'p-value', schedule: 'fwer-spend', itemsConsumed: 10 });
    expect(record.statistic).toMatchObject({ pValue: 1 / 64, level: 0.05 * (1 / 10) });
    expect(ledgerAfter).toEqual({ tested: 3, commits: 0 });
    // γ_t = 1/T for every t ≤ T, so the CLI's first candidate has the same level.
    const [cli] = auditOutcomes('sign', cliOpts(0.05, 'spending', 10), outcomesJsonl(cand, order, table));
    expect(cli!.json).toMatchObject({ decision: 'reject', pValue: 1 / 64, level: 0.05 * (1 / 10) });
  });

  it('refuses e-LOND: its p-values are not e-values (GATES.md 6.1)', async () => {
    const dev = items(10);
    const cand = makeVersion('c1', 'x', 'v0');
    const { ctx, calls } = harness(dev, craft(cand, orderOf(cand, dev), Array(10).fill(1)), gateSpec({ schedule: 'e-lond' }));
    await expect(testCandidate(ctx, cand, INCUMBENT, EMPTY_LEDGER)).rejects.toThrow(/p-values.*e-LOND needs e-values/);
    expect(calls).toHaveLength(0);
  });

  it('rejects as infeasible, paying for nothing, when even n straight wins cannot reach α', async () => {
    // At α = 0.05 it takes 5 straight wins (p = 1/32); 4 dev items can never commit.
    const dev = items(4);
    const cand = makeVersion('c1', 'x', 'v0');
    const { ctx, calls } = harness(dev, craft(cand, orderOf(cand, dev), [1, 1, 1, 1]), gateSpec());
    const { record, ledgerAfter } = await testCandidate(ctx, cand, INCUMBENT, EMPTY_LEDGER);
    expect(record).toMatchObject({ decision: 'reject', reason: 'infeasible', itemsConsumed: 0, candidateCalls: 0 });
    expect(calls).toHaveLength(0);
    expect(ledgerAfter).toEqual({ tested: 1, commits: 0 });
    const five = items(5);
    const ok = harness(five, craft(cand, orderOf(cand, five), [1, 1, 1, 1, 1]), gateSpec());
    expect((await testCandidate(ok.ctx, cand, INCUMBENT, EMPTY_LEDGER)).record).toMatchObject({ decision: 'commit', itemsConsumed: 5 });
  });

  it('leaves greedy alone: a higher total commits whatever the p-value', async () => {
    const dev = items(10);
    const cand = makeVersion('c1', 'one win', 'v0');
    const table = craft(cand, orderOf(cand, dev), [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const { ctx } = harness(dev, table, gateSpec({ name: 'greedy' }));
    expect((await testCandidate(ctx, cand, INCUMBENT, EMPTY_LEDGER)).record).toMatchObject({ gate: 'greedy', decision: 'commit', reason: 'greedy' });
  });
});

describe('`ratchet evolve --gate`', () => {
  it('draws its choices from the run-spec schema, which names every gate', () => {
    const every: Record<GateName, true> = { 'pace+': true, pace: true, 'pace-rf': true, pairwise: true, focus: true, elo: true, greedy: true, 'greedy-re': true, sign: true };
    expect([...runSpecSchema.definitions.gateName.enum].sort()).toEqual(Object.keys(every).sort());
  });
});
