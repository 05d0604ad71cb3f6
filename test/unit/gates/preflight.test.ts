// Minimum consecutive wins and the pre-flight message (GATES.md 3, 4.2, 6.1).
import { describe, expect, it } from 'vitest';
import { paceConfig, startPaceTest } from '../../../src/core/gates/pace';
import { minConsecutiveWins, preflight } from '../../../src/core/gates/preflight';
import { signTestMinWins } from '../../../src/core/gates/signTest';
import { EMPTY_LEDGER } from '../../../src/core/gates/thresholds';

describe('minimum consecutive wins', () => {
  it.each([
    [0.1, 6],
    [0.05, 8],
    [0.01, 12],
  ])('paper PACE λ = 0.5 at α = %s: %i', (alpha, k) => {
    expect(minConsecutiveWins(paceConfig('pace', { alpha }))).toBe(k);
  });

  it('PACE+ grid at α = 0.05: 6; fixed-n sign test: 5', () => {
    expect(minConsecutiveWins(paceConfig('pace+'))).toBe(6);
    expect(signTestMinWins(0.05)).toBe(5);
  });

  it('e-LOND first threshold 600 (T = 30) needs 13 wins with the grid (4.5)', () => {
    const cfg = paceConfig('pace+', { schedule: 'e-lond', horizonT: 30 });
    expect(preflight(cfg, EMPTY_LEDGER, 40)).toMatchObject({ feasible: true, minWins: 13 });
  });
});

describe('preflight', () => {
  it('gives the spec message when the dev set is too small', () => {
    expect(preflight(paceConfig('pace+'), EMPTY_LEDGER, 5)).toEqual({
      feasible: false,
      minWins: 6,
      threshold: 20,
      n: 5,
      message: 'PACE+ needs at least 6 consecutive wins at α = 0.05; your dev set has 5 items',
    });
    expect(preflight(paceConfig('pace+'), EMPTY_LEDGER, 6).message).toBeUndefined();
  });

  it('names the run-level threshold and the paper gate', () => {
    expect(preflight(paceConfig('pace+', { schedule: 'e-lond', horizonT: 30 }), EMPTY_LEDGER, 12).message).toBe('PACE+ needs at least 13 consecutive wins at α = 0.05 (e-LOND threshold ×600); your dev set has 12 items');
    expect(preflight(paceConfig('pace', { alpha: 0.01 }), EMPTY_LEDGER, 1).message).toBe('PACE needs at least 12 consecutive wins at α = 0.01; your dev set has 1 item');
  });

  it('agrees with the test machine: infeasible exactly when B_0(n) < threshold (grid)', () => {
    for (const alpha of [0.01, 0.05, 0.1]) {
      const cfg = paceConfig('pace+', { alpha });
      for (let n = 0; n <= 20; n++) {
        const machineInfeasible = startPaceTest(cfg, EMPTY_LEDGER, n).verdict?.reason === 'infeasible';
        expect(preflight(cfg, EMPTY_LEDGER, n).feasible).toBe(!machineInfeasible);
      }
    }
  });
});
