// A judge that does not answer (#25, docs/gates.md "Abstentions"): an item without an outcome is
// consumed without a bet, counted as unjudged — never a tie — and the test stays valid for the
// null on the items the judge answers, even when whether it answers depends on the item's outcome.
// Checked by seeded simulation with bands from the maths: a commit rate under that null above
// α + 3 standard errors (SE = √(α(1−α)/N)) fails; the power of a real edit with abstentions that
// do not depend on the outcome is the exact PACE+ commit probability of the thinned world.
import { describe, expect, it } from 'vitest';
import { ABSTENTION_WARNING_SHARE, JudgeTally, abstentionWarning } from '../../../src/core/gates/abstentions';
import type { ScoreMode } from '../../../src/core/gates/eprocess';
import { paceConfig, paceDecisionRecord, startPaceTest } from '../../../src/core/gates/pace';
import type { PaceTest } from '../../../src/core/gates/pace';
import { EMPTY_LEDGER } from '../../../src/core/gates/thresholds';
import { SeededRandom, hashSeed, seededPermutation } from '../../../src/core/random';
import { binomialLower, binomialUpper, paceCommitProbability } from '../../integration/bands';

const N_ITEMS = 40;

/** One item: its Δ, and whether the judge answered for it (abstention probability by Δ). */
type World = { pWin: number; pLoss: number; abstain: Record<'-1' | '0' | '1', number> };

function runTest(test: PaceTest, world: World, rng: SeededRandom, scores: ScoreMode): void {
  for (let k = 0; k < N_ITEMS && !test.verdict; k++) {
    const u = rng.next();
    const binary = u < world.pWin ? 1 : u < world.pWin + world.pLoss ? -1 : 0;
    // Continuous: a discordant item's Δ spread over [½, 1] with the same sign, the same law either way.
    const delta = scores === 'binary' || binary === 0 ? binary : binary * (0.5 + 0.5 * rng.next());
    if (rng.next() < world.abstain[String(binary) as '-1' | '0' | '1']) test.abstain();
    else test.observe(delta);
  }
}

function commitRate(world: World, runs: number, seed: number, scores: ScoreMode = 'binary'): number {
  const rng = new SeededRandom(seed);
  let commits = 0;
  for (let r = 0; r < runs; r++) {
    const test = startPaceTest(paceConfig('pace+', { scores }), EMPTY_LEDGER, N_ITEMS);
    runTest(test, world, rng, scores);
    if (test.verdict?.decision === 'commit') commits++;
  }
  return commits / runs;
}

describe('an item the judge did not answer', () => {
  it('is consumed without a bet and counted as unjudged, not as a tie', () => {
    const test = startPaceTest(paceConfig('pace+'), EMPTY_LEDGER, 10);
    test.observe(1);
    const step = test.abstain();
    expect(step).toMatchObject({ k: 2, delta: 0, bet: 0, abstained: true });
    expect(step.logWealth).toBe(test.logWealth());
    test.observe(0);
    expect(test.summary()).toMatchObject({ itemsConsumed: 3, wins: 1, losses: 0, ties: 1, unjudged: 1 });
    for (let i = 0; i < 7 && !test.verdict; i++) test.abstain();
    const record = paceDecisionRecord(test, { candidateId: 'c1', parentId: 'v0', incumbentId: 'v0', orderSeed: 1, candidateCalls: 10, incumbentCalls: 0 });
    expect(record).toMatchObject({ wins: 1, ties: 1, unjudged: record.itemsConsumed - 2, decision: 'reject' });
  });

  it("keeps PACE+ valid for the null on the answered items, even when the judge abstains more on the candidate's losses", () => {
    // P(win, answered) = 0.10 × 0.9 = 0.09 = P(loss, answered) = 0.18 × 0.5: the boundary of the null
    // on answered items, while over all items the candidate is worse (E[Δ] = −0.08).
    const world: World = { pWin: 0.1, pLoss: 0.18, abstain: { '1': 0.1, '-1': 0.5, '0': 0.3 } };
    const runs = 20_000;
    const se = Math.sqrt((0.05 * 0.95) / runs);
    expect(commitRate(world, runs, 11)).toBeLessThanOrEqual(0.05 + 3 * se);
    // Continuous scores with aGRAPA: its mean and variance learn from the observed Δs only.
    const fewer = 4000;
    expect(commitRate(world, fewer, 12, 'continuous')).toBeLessThanOrEqual(0.05 + 3 * Math.sqrt((0.05 * 0.95) / fewer));
  });

  it('keeps the finite-population null valid: an abstention enters as Δ = 0, so the null is Σ over the answered items ≤ 0', () => {
    // One dev set of 40 items read in a random order each time: answered, 5 wins, 5 losses and 15
    // ties (Σ = 0, the boundary of the null); unanswered, 1 win, 6 losses and 8 ties.
    const population = [
      ...Array.from({ length: 5 }, () => ({ delta: 1, answered: true })),
      ...Array.from({ length: 5 }, () => ({ delta: -1, answered: true })),
      ...Array.from({ length: 15 }, () => ({ delta: 0, answered: true })),
      { delta: 1, answered: false },
      ...Array.from({ length: 6 }, () => ({ delta: -1, answered: false })),
      ...Array.from({ length: 8 }, () => ({ delta: 0, answered: false })),
    ];
    const runs = 4000;
    let commits = 0;
    for (let r = 0; r < runs; r++) {
      const test = startPaceTest(paceConfig('pace+', { population: 'finite' }), EMPTY_LEDGER, population.length);
      for (const item of seededPermutation(population.length, hashSeed('abstentions finite', r)).map((i) => population[i]!)) {
        if (test.verdict) break;
        if (item.answered) test.observe(item.delta);
        else test.abstain();
      }
      if (test.verdict?.decision === 'commit') commits++;
    }
    expect(commits / runs).toBeLessThanOrEqual(0.05 + 3 * Math.sqrt((0.05 * 0.95) / runs));
  });

  it('costs a real edit only the items it takes: the exact commit probability of the thinned world', () => {
    // Abstentions independent of the outcome (30 %): each item is a win with probability 0.3 × 0.7.
    const world: World = { pWin: 0.3, pLoss: 0.02, abstain: { '1': 0.3, '-1': 0.3, '0': 0.3 } };
    const runs = 4000;
    const p = paceCommitProbability(N_ITEMS, 0.3 * 0.7, 0.02 * 0.7);
    const commits = Math.round(commitRate(world, runs, 14) * runs);
    expect(commits).toBeGreaterThanOrEqual(binomialLower(runs, p));
    expect(commits).toBeLessThanOrEqual(binomialUpper(runs, p));
  });
});

describe('the judge tally and its warning', () => {
  const record = (answers: number, abstained: number) =>
    new JudgeTally().onto({
      candidateId: 'c3',
      parentId: 'v0',
      incumbentId: 'v0',
      gate: 'pace-rf',
      configHash: 'h',
      alpha: 0.05,
      schedule: 'per-candidate',
      ledgerBefore: EMPTY_LEDGER,
      threshold: 20,
      orderSeed: 1,
      itemsConsumed: 20,
      wins: 0,
      losses: 0,
      ties: 0,
      unjudged: abstained,
      logWealth: 0,
      decision: 'reject',
      reason: 'futile',
      candidateCalls: 20,
      incumbentCalls: 0,
      judge: { answers, abstained, model: 'llama3.1' },
    });

  it("warns over 10 % of a test's judge answers missing, naming the model, and not at or under it", () => {
    expect(ABSTENTION_WARNING_SHARE).toBe(0.1);
    expect(abstentionWarning(record(40, 4))).toBeUndefined();
    expect(abstentionWarning(record(40, 5))).toBe(
      "The judge (model llama3.1) did not answer 5 of 40 times in c3's test, even when asked again; 5 of 20 items were left out of the test, not counted as ties. A judge that does not follow the answer format weakens every test: try another validator model, or read its answers in the run's journal.",
    );
  });

  it('counts answers and abstentions, keeping the first model named', () => {
    const t = new JudgeTally();
    t.addAnswers({ verdict: 'A', model: 'm1' }, { verdict: 'abstained', model: 'm2' });
    t.add(false, undefined);
    expect([t.answers, t.abstained, t.model]).toEqual([3, 1, 'm1']);
  });
});
