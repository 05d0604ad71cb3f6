// The guarantee sentence every face shows (core/gates/guarantee.ts).
import { describe, expect, it } from 'vitest';
import { guaranteeSentence } from '../../../src/core/gates/guarantee';

describe('guaranteeSentence', () => {
  it('run-level schedules bound the chance of any false commit in the run', () => {
    expect(guaranteeSentence({ gate: 'pace+', alpha: 0.05, schedule: 'fwer-screened', candidates: 30 })).toBe('this run: P(any false commit) ≤ 0.05');
    expect(guaranteeSentence({ gate: 'sign', alpha: 0.1, schedule: 'fwer-spend', candidates: 30 })).toBe('this run: P(any false commit) ≤ 0.1');
    expect(guaranteeSentence({ gate: 'pace+', alpha: 0.001, schedule: 'fwer-screened' })).toBe('this run: P(any false commit) ≤ 0.001');
  });

  it('per candidate says what it bounds and what that adds up to over the run', () => {
    expect(guaranteeSentence({ gate: 'pace+', alpha: 0.05, schedule: 'per-candidate', candidates: 25 })).toBe('each candidate: P(false commit) ≤ 0.05; over 25 candidates up to 0.72 if independent');
    // 1 − 0.95^200 = 0.99997: not rounded up to a certainty.
    expect(guaranteeSentence({ gate: 'pace', alpha: 0.05, schedule: 'per-candidate', candidates: 200 })).toBe('each candidate: P(false commit) ≤ 0.05; over 200 candidates up to 0.99996 if independent');
    expect(guaranteeSentence({ gate: 'pace+', alpha: 0.05, schedule: 'per-candidate' })).toBe('each candidate: P(false commit) ≤ 0.05');
  });

  it('e-LOND bounds the false discovery rate, and a reward-free gate is bounded as the validator judges', () => {
    expect(guaranteeSentence({ gate: 'pace+', alpha: 0.05, schedule: 'e-lond', candidates: 30 })).toBe('this run: expected share of false commits among commits (FDR) ≤ 0.05');
    expect(guaranteeSentence({ gate: 'pace-rf', alpha: 0.05, schedule: 'fwer-screened' })).toBe('this run: P(any false commit) ≤ 0.05 (as the validator judges)');
  });

  it('a gate without error control says so, whatever the schedule', () => {
    expect(guaranteeSentence({ gate: 'greedy', alpha: 0.05, schedule: 'fwer-screened' })).toBe('no false-commit bound: greedy commits without error control');
    expect(guaranteeSentence({ gate: 'elo', alpha: 0.05, schedule: undefined })).toBe('no false-commit bound: elo commits without error control');
  });

  it('claims nothing for a run journaled before runs said their schedule', () => {
    expect(guaranteeSentence({ gate: 'pace+', alpha: 0.05, schedule: undefined, candidates: 30 })).toBeUndefined();
    expect(guaranteeSentence({ gate: 'no-such-gate', alpha: 0.05, schedule: 'per-candidate' })).toBeUndefined();
  });
});
