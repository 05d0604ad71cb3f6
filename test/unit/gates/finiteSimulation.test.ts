// Finite-population PACE by seeded simulation (GATES.md 1.2): dev sets of n = 40 fixed items,
// candidates' item orders drawn as the gate runner draws them (seededPermutation of a seed hashed
// from the run and the candidate). Validity: on dev sets with Σ Δ ≤ 0 the commit rate over R orders
// stays within α + 3·SE, SE = √(α(1−α)/R) — a valid gate's rate is ≤ α, and a binomial count over
// R orders exceeds α by 3 SE with probability about 0.1 %. Power: on dev sets with Σ Δ > 0 it
// commits, and more often than the population test once a test uses most of the dev set.
import { describe, expect, it } from 'vitest';
import type { BettorSpec } from '../../../src/core/gates/eprocess';
import { CONTINUOUS_GRID } from '../../../src/core/gates/eprocess';
import type { PaceConfig } from '../../../src/core/gates/pace';
import { paceConfig } from '../../../src/core/gates/pace';
import { population, simulate, validityBound } from './finitePopulation';

const R = 10_000;

const finite = (gate: 'pace' | 'pace+', overrides: Partial<Omit<PaceConfig, 'gate'>> = {}): PaceConfig => paceConfig(gate, { ...overrides, population: 'finite' });

describe('finite-population validity, n = 40, R = 10,000 orders each', () => {
  it.each([
    // wins, losses, ties: Σ Δ = 0 with ties, without ties, mostly ties; Σ Δ = −1.
    [10, 10, 20],
    [20, 20, 0],
    [5, 5, 30],
    [15, 16, 9],
  ])('PACE+ grid at α = 0.05: %i wins, %i losses, %i ties', (w, l, t) => {
    const { rates } = simulate([finite('pace+')], population(w, l, t), R, `grid-${w}-${l}-${t}`);
    expect(rates[0]).toBeLessThanOrEqual(validityBound(0.05, R));
  });

  it.each<[string, PaceConfig]>([
    ['PACE+ grid at α = 0.1', finite('pace+', { alpha: 0.1 })],
    ['paper PACE (λ = 0.5)', finite('pace')],
    ['aGRAPA', finite('pace+', { bettor: { kind: 'agrapa' } })],
    ['ONS', finite('pace+', { bettor: { kind: 'ons', lambda1: 0.5, cap: 0.8 } })],
    ['Beta mixture', finite('pace+', { bettor: { kind: 'beta' } })],
  ])('%s: 10 wins, 10 losses, 20 ties', (label, cfg) => {
    const { rates } = simulate([cfg], population(10, 10, 20), R, label);
    expect(rates[0]).toBeLessThanOrEqual(validityBound(cfg.alpha, R));
  });

  it.each<[string, BettorSpec]>([
    ['aGRAPA (the continuous default)', { kind: 'agrapa' }],
    ['grid in [0, c]', { kind: 'mixture', lambdas: CONTINUOUS_GRID }],
  ])('continuous scores, %s: 32 × +0.125, 4 × −1, 4 ties (Σ = 0)', (label, bettor) => {
    const values = [...Array<number>(32).fill(0.125), ...Array<number>(4).fill(-1), ...Array<number>(4).fill(0)];
    const { rates } = simulate([finite('pace+', { scores: 'continuous', bettor })], values, R, label);
    expect(rates[0]).toBeLessThanOrEqual(validityBound(0.05, R));
  });
});

describe('finite-population power, n = 40, R = 2,000 orders each', () => {
  const RP = 2000;

  it.each([
    // Σ Δ = +6, +10, +8: real gains on this dev set, too small for the population test to see often.
    [12, 6, 22],
    [14, 4, 22],
    [16, 8, 16],
  ])('%i wins, %i losses, %i ties: commits, and more often than the population test on the same orders', (w, l, t) => {
    const { rates, consumedShare, only } = simulate([finite('pace+'), paceConfig('pace+')], population(w, l, t), RP, `power-${w}-${l}-${t}`);
    const [fin, inf] = rates as [number, number];
    // The population test runs through most of the dev set before it stops, which is where
    // knowing that the remaining items must pay back the lead (m_k < 0) buys evidence.
    expect(consumedShare[1]).toBeGreaterThan(0.6);
    expect(fin).toBeGreaterThan(0.9);
    // Paired on the same orders: the finite test's extra commits outnumber the population test's.
    expect(fin).toBeGreaterThanOrEqual(inf);
    expect(only[0]).toBeGreaterThan(only[1]);
  });
});
