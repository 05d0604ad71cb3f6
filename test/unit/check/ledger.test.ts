// The repository's error budget: thresholds from the run-level schedules, what is left, refusals.
import { describe, expect, it } from 'vitest';
import { advanceRepoLedger, alphaLeft, describeLedger, newLedger, nextThreshold, parseLedger, refuseWhenSpent } from '../../../src/core/check/ledger';
import type { RepoLedger } from '../../../src/core/check/ledger';

const entry = (decision: 'commit' | 'reject') => ({ at: 't', file: 'a', policy: 'better', base: 'b', head: 'h', decision, threshold: 1, bundle: 'x' });

describe('the repository ledger', () => {
  it('e-LOND over a horizon: T/α for the first test, lower after a discovery, spent after T', () => {
    let l: RepoLedger = { ...newLedger(), horizon: 2 };
    expect(nextThreshold(l)).toBeCloseTo(40);
    l = advanceRepoLedger(l, entry('commit'));
    expect(nextThreshold(l)).toBeCloseTo(20);
    expect(alphaLeft(l)).toMatchObject({ testsLeft: 1 });
    l = advanceRepoLedger(l, entry('reject'));
    expect(nextThreshold(l)).toBe(Infinity);
    expect(() => refuseWhenSpent('.ratchet/ledger.json', l, 1)).toThrow(/0 tests left and this check needs 1/);
    expect(describeLedger(l)).toContain('no test can pass any more');
  });

  it('screened α-spending needs no horizon: j(j+1)/α', () => {
    const l: RepoLedger = { ...newLedger(), schedule: 'fwer-screened', tested: 2, commits: 0 };
    expect(nextThreshold(l)).toBeCloseTo(240);
    expect(alphaLeft(l).left).toBeCloseTo(0.05 / 3);
  });

  it('a ledger file that is wrong is refused with its field', () => {
    expect(() => parseLedger('L', '{')).toThrow(/L is not JSON/);
    expect(() => parseLedger('L', JSON.stringify({ ...newLedger(), schedule: 'per-candidate' }))).toThrow(/L: schedule must be one of/);
    expect(() => parseLedger('L', JSON.stringify({ ...newLedger(), alpha: 2 }))).toThrow(/L: alpha must be a number in \(0, 1\)/);
    expect(() => parseLedger('L', JSON.stringify({ ...newLedger(), tested: 1, commits: 2 }))).toThrow(/commits \(2\) cannot exceed tested \(1\)/);
  });
});
