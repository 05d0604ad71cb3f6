// The PACE / PACE+ state machine (GATES.md 3, 4.2, 4.6): whole steps, verdicts and records.
import { describe, expect, it } from 'vitest';
import type { PaceStep } from '../../../src/core/gates/pace';
import { DEFAULT_GRID } from '../../../src/core/gates/eprocess';
import { gateConfigHash, paceConfig, paceDecisionRecord, runPaceOnOutcomes, startPaceTest } from '../../../src/core/gates/pace';
import { EMPTY_LEDGER } from '../../../src/core/gates/thresholds';
import { RatchetError } from '../../../src/core/errors';
import { sha256Hex } from '../../../src/core/random';
import { wealthStepEvent } from '../../../src/core/evolve/paceGates';

const LOG20 = Math.log(20);
const L15 = Math.log1p(0.5);

/** The mixture's ln E after w wins and l losses, as an independent product-average. */
function gridLogWealth(w: number, l: number): number {
  return Math.log(DEFAULT_GRID.reduce((s, lam) => s + (1 + lam) ** w * (1 - lam) ** l, 0) / DEFAULT_GRID.length);
}

describe('paper PACE (section 3)', () => {
  it('commits on the 8th straight win at α = 0.05, with every step reported', () => {
    const n = 10;
    const test = startPaceTest(paceConfig('pace'), EMPTY_LEDGER, n);
    const steps = Array.from({ length: 8 }, () => test.observe(1));
    let logW = 0;
    const expected: PaceStep[] = steps.map((_, j) => {
      logW += L15;
      const k = j + 1;
      return { k, delta: 1, bet: 0.5, logWealth: logW, logThreshold: LOG20, logBest: logW + (n - k) * L15 };
    });
    expected[7]!.verdict = { decision: 'commit', reason: 'evidence', stoppedAt: 8 };
    expect(steps).toEqual(expected);
    expect(() => test.observe(1)).toThrow(/already decided/);
  });

  it('skips ties (factor 1) and rejects only when the items run out, however hopeless', () => {
    const deltas = [0, -1, -1, -1, 0, -1, -1, -1];
    const run = runPaceOnOutcomes(
      paceConfig('pace'),
      EMPTY_LEDGER,
      deltas.map((d) => (d === 1 ? { incumbent: 0, candidate: 1 } : d === -1 ? { incumbent: 1, candidate: 0 } : { incumbent: 1, candidate: 1 })),
    );
    expect(run.steps.map((s) => s.bet)).toEqual([0, 0.5, 0.5, 0.5, 0, 0.5, 0.5, 0.5]);
    expect(run.steps[0]!.logWealth).toBe(0);
    expect(run.summary).toEqual({
      gate: 'pace',
      alpha: 0.05,
      schedule: 'per-candidate',
      ledgerBefore: EMPTY_LEDGER,
      threshold: 20,
      n: 8,
      itemsConsumed: 8,
      wins: 0,
      losses: 6,
      ties: 2,
      unjudged: 0,
      logWealth: 6 * Math.log1p(-0.5),
      verdict: { decision: 'reject', reason: 'budget', stoppedAt: 8 },
    });
    expect(run.ledgerAfter).toEqual({ tested: 1, commits: 0 });
  });

  it('does not check feasibility: a 5-item dev set runs to the end', () => {
    const run = runPaceOnOutcomes(
      paceConfig('pace'),
      EMPTY_LEDGER,
      Array.from({ length: 5 }, () => ({ incumbent: 0, candidate: 1 })),
    );
    expect(run.summary.verdict).toEqual({ decision: 'reject', reason: 'budget', stoppedAt: 5 });
  });
});

describe('PACE+ (section 4)', () => {
  it('commits after six straight wins at α = 0.05', () => {
    const test = startPaceTest(paceConfig('pace+'), EMPTY_LEDGER, 40);
    const steps = Array.from({ length: 6 }, () => test.observe(1));
    expect(steps.map((s) => s.verdict)).toEqual([undefined, undefined, undefined, undefined, undefined, { decision: 'commit', reason: 'evidence', stoppedAt: 6 }]);
    expect(steps[5]!.logWealth).toBeCloseTo(gridLogWealth(6, 0), 12);
    expect(steps[4]!.logWealth).toBeLessThan(LOG20);
  });

  it('never commits with five wins, wherever the wins fall among 40 items', () => {
    const cfg = paceConfig('pace+');
    for (let pattern = 0; pattern < 200; pattern++) {
      // five wins at spread positions, the rest ties or losses
      const deltas = Array.from({ length: 40 }, (_, i) => ((i * 7 + pattern) % 8 === 0 && i < 40 ? 1 : (i + pattern) % 3 === 0 ? -1 : 0));
      let wins = 0;
      const capped = deltas.map((d) => (d === 1 && wins++ >= 5 ? 0 : d));
      const run = runPaceOnOutcomes(
        cfg,
        EMPTY_LEDGER,
        capped.map((d) => ({ incumbent: d === -1 ? 1 : 0, candidate: d === 1 ? 1 : 0 })),
      );
      expect(run.summary.verdict.decision).toBe('reject');
      expect(Math.max(...run.steps.map((s) => s.logWealth))).toBeLessThan(LOG20);
    }
  });

  it('is infeasible before item 1 when the dev set is shorter than the minimum wins', () => {
    const test = startPaceTest(paceConfig('pace+'), EMPTY_LEDGER, 5);
    expect(test.verdict).toEqual({ decision: 'reject', reason: 'infeasible', stoppedAt: 0 });
    expect(test.initialLogBest).toBeCloseTo(gridLogWealth(5, 0), 12);
    expect(() => test.observe(1)).toThrow(RatchetError);
    expect(startPaceTest(paceConfig('pace+'), EMPTY_LEDGER, 6).verdict).toBeUndefined();
  });

  it('stops as futile at the first item where even all-wins cannot reach the threshold', () => {
    const n = 20;
    const test = startPaceTest(paceConfig('pace+'), EMPTY_LEDGER, n);
    const steps: PaceStep[] = [];
    while (!test.verdict) steps.push(test.observe(-1));
    const last = steps[steps.length - 1]!;
    expect(last.verdict).toEqual({ decision: 'reject', reason: 'futile', stoppedAt: last.k });
    expect(last.logBest).toBeCloseTo(Math.log(DEFAULT_GRID.reduce((s, l) => s + (1 - l) ** last.k * (1 + l) ** (n - last.k), 0) / 4), 12);
    expect(last.logBest).toBeLessThan(LOG20);
    expect(steps[steps.length - 2]!.logBest).toBeGreaterThanOrEqual(LOG20);
  });

  it('a crossing on the last item commits; no crossing there is "budget", not "futile"', () => {
    const wins = (k: number) => Array.from({ length: k }, () => ({ incumbent: 0, candidate: 1 }));
    expect(runPaceOnOutcomes(paceConfig('pace+'), EMPTY_LEDGER, wins(6)).summary.verdict).toEqual({ decision: 'commit', reason: 'evidence', stoppedAt: 6 });
    const almost = [{ incumbent: 1, candidate: 0 }, ...wins(6)];
    const r = runPaceOnOutcomes(paceConfig('pace+', { futility: false }), EMPTY_LEDGER, almost);
    expect(r.summary.verdict).toEqual({ decision: 'reject', reason: 'budget', stoppedAt: 7 });
  });

  it('validates Δ: binary accepts −1/0/1 only; continuous accepts [−1, 1]', () => {
    expect(() => startPaceTest(paceConfig('pace+'), EMPTY_LEDGER, 10).observe(0.5)).toThrow(/−1, 0 or 1/);
    const c = startPaceTest(paceConfig('pace+', { scores: 'continuous' }), EMPTY_LEDGER, 10);
    expect(() => c.observe(1.2)).toThrow(/\[−1, 1\]/);
    expect(c.observe(0.5).delta).toBe(0.5);
    expect(() => runPaceOnOutcomes(paceConfig('pace+'), EMPTY_LEDGER, [{ incumbent: 0.5, candidate: 1 }])).toThrow(/0 or 1/);
  });

  it('uses aGRAPA with c = 0.75 by default for continuous scores, the grid for binary', () => {
    expect(paceConfig('pace+', { scores: 'continuous' })).toEqual({
      gate: 'pace+',
      alpha: 0.05,
      scores: 'continuous',
      bettor: { kind: 'agrapa' },
      futility: true,
      schedule: 'per-candidate',
      population: 'infinite',
    });
    expect(paceConfig('pace+')).toEqual({
      gate: 'pace+',
      alpha: 0.05,
      scores: 'binary',
      bettor: { kind: 'mixture', lambdas: DEFAULT_GRID },
      futility: true,
      schedule: 'per-candidate',
      population: 'infinite',
    });
    expect(paceConfig('pace')).toEqual({
      gate: 'pace',
      alpha: 0.05,
      scores: 'binary',
      bettor: { kind: 'fixed', lambda: 0.5 },
      futility: false,
      schedule: 'per-candidate',
      population: 'infinite',
    });
  });
});

describe('run-level thresholds drive the test (4.5)', () => {
  it('e-LOND with T = 30: 600 for the first candidate, 300 after one commit', () => {
    const cfg = paceConfig('pace+', { schedule: 'e-lond', horizonT: 30 });
    const first = startPaceTest(cfg, EMPTY_LEDGER, 40);
    expect(first.threshold).toBeCloseTo(600, 9);
    const wins = Array.from({ length: 40 }, () => ({ incumbent: 0, candidate: 1 }));
    const run = runPaceOnOutcomes(cfg, EMPTY_LEDGER, wins);
    expect(run.summary.verdict).toEqual({ decision: 'commit', reason: 'evidence', stoppedAt: 13 });
    expect(run.ledgerAfter).toEqual({ tested: 1, commits: 1 });
    expect(startPaceTest(cfg, run.ledgerAfter, 40).threshold).toBeCloseTo(1 / (0.05 * (1 / 30) * 2), 9);
  });

  it('screened: the j-th dev-set test needs ×j(j+1)/α, and stops once its wealth falls below ×0.2', () => {
    const cfg = paceConfig('pace+', { schedule: 'fwer-screened' });
    expect(cfg.wealthFloor).toBe(0.2);
    expect(startPaceTest(cfg, { tested: 2, commits: 1 }, 150).threshold).toBeCloseTo(240, 9);
    const t = startPaceTest(cfg, EMPTY_LEDGER, 150);
    // Two losses leave the mixture at ×0.213, a third at ×0.125: rejected there, not 100 items later.
    expect([-1, 0, -1].map((d) => t.observe(d).verdict)).toEqual([undefined, undefined, undefined]);
    expect(Math.exp(t.logWealth())).toBeCloseTo(Math.exp(gridLogWealth(0, 2)), 12);
    expect(t.observe(-1).verdict).toEqual({ decision: 'reject', reason: 'floor', stoppedAt: 4 });
  });

  it('per candidate keeps exact futility alone, and its configuration hash is the one it had before floors existed', () => {
    const cfg = paceConfig('pace+');
    expect(cfg.wealthFloor).toBeUndefined();
    const canonical = { gate: 'pace+', alpha: 0.05, scores: 'binary', bettor: { kind: 'mixture', lambdas: DEFAULT_GRID }, futility: true, schedule: 'per-candidate', horizonT: null };
    expect(gateConfigHash(cfg)).toBe(sha256Hex(JSON.stringify(canonical)).slice(0, 16));
    const t = startPaceTest(cfg, EMPTY_LEDGER, 150);
    for (let k = 0; k < 10; k++) t.observe(-1);
    expect(t.verdict).toBeUndefined();
    expect(gateConfigHash(paceConfig('pace+', { schedule: 'fwer-screened' }))).not.toBe(gateConfigHash(paceConfig('pace+', { schedule: 'fwer-screened', wealthFloor: undefined })));
  });

  it('a spent horizon makes every further test infeasible', () => {
    const cfg = paceConfig('pace+', { schedule: 'e-lond', horizonT: 2 });
    const t = startPaceTest(cfg, { tested: 2, commits: 0 }, 1000);
    expect(t.threshold).toBe(Infinity);
    expect(t.verdict).toEqual({ decision: 'reject', reason: 'infeasible', stoppedAt: 0 });
  });
});

describe('decision record and events (4.7)', () => {
  it('builds the DecisionRecord of a finished test', () => {
    const cfg = paceConfig('pace+');
    const test = startPaceTest(cfg, { tested: 3, commits: 1 }, 40);
    for (const d of [1, 0, 1, 1, -1, 1, 1, 1, 1, 1, 1, 1]) if (!test.verdict) test.observe(d);
    const record = paceDecisionRecord(test, { candidateId: 'c4', parentId: 'c2', incumbentId: 'c2', orderSeed: 123, candidateCalls: 11, incumbentCalls: 2 });
    expect(record).toEqual({
      candidateId: 'c4',
      parentId: 'c2',
      incumbentId: 'c2',
      gate: 'pace+',
      configHash: gateConfigHash(cfg),
      alpha: 0.05,
      schedule: 'per-candidate',
      ledgerBefore: { tested: 3, commits: 1 },
      threshold: 20,
      orderSeed: 123,
      itemsConsumed: 11,
      wins: 9,
      losses: 1,
      ties: 1,
      logWealth: test.logWealth(),
      decision: 'commit',
      reason: 'evidence',
      candidateCalls: 11,
      incumbentCalls: 2,
      statistic: { evidence: Math.exp(test.logWealth()), initialLogBest: test.initialLogBest },
      scores: 'binary',
      bettor: 'mixture',
      population: 'infinite',
    });
    expect(test.logWealth()).toBeCloseTo(gridLogWealth(9, 1), 12);
    expect(gateConfigHash(cfg)).not.toBe(gateConfigHash(paceConfig('pace+', { alpha: 0.1 })));
  });

  it('maps a step onto a wealth/step event payload', () => {
    const step = startPaceTest(paceConfig('pace'), EMPTY_LEDGER, 3).observe(-1);
    expect(wealthStepEvent('c1', 'item-7', step)).toEqual({
      type: 'wealth/step',
      candidateId: 'c1',
      k: 1,
      itemId: 'item-7',
      delta: -1,
      logWealth: Math.log1p(-0.5),
      logThreshold: LOG20,
      logBest: Math.log1p(-0.5) + 2 * L15,
    });
  });
});
