// Per-candidate validity by seeded simulation (GATES.md 1.2, 4.1, 4.4): under the null the commit
// rate of every bettor must stay within α + 3 standard errors, SE = √(α(1−α)/N), N = 20,000
// simulated candidates per (bettor, α). Binary: discordant pairs only (ties do not move the
// wealth), n = 40. Continuous: both versions draw i.i.d. skewed scores, so E[Δ] = 0 exactly.
import { describe, expect, it } from 'vitest';
import type { BettorSpec, ScoreMode } from '../../../src/core/gates/eprocess';
import { CONTINUOUS_GRID, DEFAULT_GRID } from '../../../src/core/gates/eprocess';
import { paceConfig, startPaceTest } from '../../../src/core/gates/pace';
import { EMPTY_LEDGER } from '../../../src/core/gates/thresholds';
import { SeededRandom, hashSeed } from '../../../src/core/random';

const N = 20_000;
const N_ITEMS = 40;
const ALPHAS = [0.01, 0.05, 0.1];

const binaryBettors: [string, BettorSpec][] = [
  ['fixed λ=0.5', { kind: 'fixed', lambda: 0.5 }],
  ['fixed λ=0.85', { kind: 'fixed', lambda: 0.85 }],
  ['grid mixture', { kind: 'mixture', lambdas: DEFAULT_GRID }],
  ['aGRAPA', { kind: 'agrapa' }],
  ['ONS standard', { kind: 'ons' }],
  ['ONS λ1=0.5 c=0.8', { kind: 'ons', lambda1: 0.5, cap: 0.8 }],
  ['Beta mixture', { kind: 'beta' }],
];
const continuousBettors: [string, BettorSpec][] = [
  ['fixed λ=0.5', { kind: 'fixed', lambda: 0.5 }],
  ['grid mixture in [0, c]', { kind: 'mixture', lambdas: CONTINUOUS_GRID }],
  ['aGRAPA regularised', { kind: 'agrapa' }],
  ['ONS standard', { kind: 'ons' }],
  ['ONS λ1=0.5 c=0.75', { kind: 'ons', lambda1: 0.5, cap: 0.75 }],
];

/** Null draws of Δ: fair coin flips (binary) or the difference of two i.i.d. skewed scores. */
function nullDelta(scores: ScoreMode, rng: SeededRandom): number {
  if (scores === 'binary') return rng.next() < 0.5 ? 1 : -1;
  const score = (): number => rng.next() ** 2; // skewed towards 0, mean 1/3
  return score() - score();
}

function commitRate(scores: ScoreMode, bettor: BettorSpec, alpha: number, label: string): number {
  const cfg = paceConfig('pace+', { alpha, scores, bettor });
  const rng = new SeededRandom(hashSeed('null-validity', scores, label, alpha));
  let commits = 0;
  for (let c = 0; c < N; c++) {
    const test = startPaceTest(cfg, EMPTY_LEDGER, N_ITEMS);
    while (!test.verdict) test.observe(nullDelta(scores, rng));
    if (test.verdict.decision === 'commit') commits++;
  }
  return commits / N;
}

describe.each([
  ['binary', binaryBettors],
  ['continuous', continuousBettors],
] as const)('null validity, %s scores', (scores, bettors) => {
  it.each(bettors.flatMap(([label, spec]) => ALPHAS.map((alpha) => ({ label, spec, alpha }))))('$label at α = $alpha commits ≤ α + 3 SE', ({ label, spec, alpha }) => {
    const rate = commitRate(scores, spec, alpha, label);
    const bound = alpha + 3 * Math.sqrt((alpha * (1 - alpha)) / N);
    expect(rate).toBeLessThanOrEqual(bound);
  });
});

describe('the simulation can detect an invalid gate', () => {
  it('a bet that ignores the sign of Δ (|Δ| as evidence) commits far above α', () => {
    // Guards against a vacuous harness: feeding |Δ| instead of Δ must blow the bound.
    const cfg = paceConfig('pace+', { alpha: 0.05 });
    const rng = new SeededRandom(hashSeed('null-validity', 'broken'));
    let commits = 0;
    for (let c = 0; c < 2000; c++) {
      const test = startPaceTest(cfg, EMPTY_LEDGER, N_ITEMS);
      while (!test.verdict) test.observe(Math.abs(nullDelta('binary', rng)));
      if (test.verdict.decision === 'commit') commits++;
    }
    expect(commits / 2000).toBeGreaterThan(0.5);
  });
});
