// Run-level thresholds and the ledger (GATES.md 4.5, 4.6).
import { describe, expect, it } from 'vitest';
import { EMPTY_LEDGER, advanceLedger, candidateThreshold, gammaAt } from '../../../src/core/gates/thresholds';
import { screenedGamma } from '../../../src/core/gates/schedules';
import { signTestLevel } from '../../../src/core/gates/signTest';

describe('γ_t', () => {
  it('is 1/T within a declared horizon and 0 past it', () => {
    expect([1, 30, 31].map((t) => gammaAt(t, 30))).toEqual([1 / 30, 1 / 30, 0]);
  });

  it('is 6/(π² t²) open-ended, summing to 1', () => {
    expect(gammaAt(1)).toBeCloseTo(0.6079271018540267, 15);
    expect(gammaAt(3)).toBeCloseTo(6 / (Math.PI ** 2 * 9), 15);
    let sum = 0;
    for (let t = 1; t <= 1_000_000; t++) sum += gammaAt(t);
    expect(sum).toBeLessThan(1);
    expect(sum).toBeGreaterThan(1 - 1e-6);
  });
});

describe('candidateThreshold', () => {
  it('per candidate: 1/α whatever the ledger', () => {
    expect(candidateThreshold('per-candidate', 0.05, { tested: 17, commits: 4 })).toBe(20);
  });

  it('e-LOND: 1/(α γ_t (R_{t−1} + 1))', () => {
    const thr = (tested: number, commits: number, T?: number) => candidateThreshold('e-lond', 0.05, { tested, commits }, T);
    expect(thr(0, 0, 30)).toBeCloseTo(600, 9);
    expect(thr(5, 1, 30)).toBeCloseTo(300, 9);
    expect(thr(9, 3, 30)).toBeCloseTo(150, 9);
    expect(thr(30, 0, 30)).toBe(Infinity);
    expect(thr(0, 0)).toBeCloseTo(Math.PI ** 2 / 6 / 0.05, 9); // ≈ 32.9
    expect(thr(1, 1)).toBeCloseTo((Math.PI ** 2 * 4) / 6 / 0.05 / 2, 9); // t = 2, R = 1
  });

  it('α-spending: 1/(α γ_t), independent of commits', () => {
    expect(candidateThreshold('fwer-spend', 0.05, { tested: 4, commits: 2 }, 30)).toBeCloseTo(600, 9);
    expect(candidateThreshold('fwer-spend', 0.1, { tested: 1, commits: 1 })).toBeCloseTo((Math.PI ** 2 * 4) / 6 / 0.1, 9);
  });

  it('screened α-spending: j(j+1)/α for the j-th dev-set test, whatever the commits and the horizon', () => {
    const thr = (tested: number, commits: number) => candidateThreshold('fwer-screened', 0.05, { tested, commits }, 30);
    expect([thr(0, 0), thr(1, 1), thr(2, 0), thr(3, 2)].map((t) => Number(t.toPrecision(12)))).toEqual([40, 120, 240, 400]);
    expect(thr(29, 0)).toBeCloseTo(18_600, 6); // past the horizon it keeps going: the γ_j never run out
  });

  it('screened γ_j = 1/(j(j+1)) sums to 1 − 1/(J+1), below 1 however long the run', () => {
    let sum = 0;
    for (let j = 1; j <= 999; j++) sum += screenedGamma(j);
    expect(sum).toBeCloseTo(1 - 1 / 1000, 12);
  });

  it('the sign test spends α the same way on p-values', () => {
    expect(signTestLevel('fwer-screened', 0.05, { tested: 0, commits: 0 })).toBeCloseTo(0.025, 15);
    expect(signTestLevel('fwer-screened', 0.05, { tested: 2, commits: 1 })).toBeCloseTo(0.05 / 12, 15);
  });

  it('rejects α outside (0, 1) and a bad horizon', () => {
    expect(() => candidateThreshold('per-candidate', 0, EMPTY_LEDGER)).toThrow(/α must be a number in \(0, 1\)/);
    expect(() => candidateThreshold('e-lond', 0.05, EMPTY_LEDGER, 0)).toThrow(/horizon/);
  });
});

describe('advanceLedger', () => {
  it('counts every test and every commit', () => {
    expect(advanceLedger(advanceLedger(EMPTY_LEDGER, 'commit'), 'reject')).toEqual({ tested: 2, commits: 1 });
  });
});
