// Pairwise verdicts and reward-free PACE (GATES.md 5).
import { describe, expect, it } from 'vitest';
import type { JudgeVerdict } from '../../../src/core/gates/pairwise';
import { bothOrderVerdict, childMatchScore, judgeProbabilityDelta, observeJudgeProbabilities, observeVerdicts, pairwiseStats, startRewardFreeTest, twoTokenProbability } from '../../../src/core/gates/pairwise';
import { paceConfig, startPaceTest } from '../../../src/core/gates/pace';
import { sigmoid } from '../../../src/core/gates/logMath';
import { EMPTY_LEDGER } from '../../../src/core/gates/thresholds';
import { SeededRandom, hashSeed } from '../../../src/core/random';

describe('both-order table', () => {
  it('maps all nine verdict pairs', () => {
    const verdicts: JudgeVerdict[] = ['A', 'B', 'tie'];
    const table = verdicts.flatMap((v1) => verdicts.map((v2) => [v1, v2, bothOrderVerdict(v1, v2)]));
    expect(table).toEqual([
      ['A', 'A', { outcome: 'inconsistent', delta: 0 }],
      ['A', 'B', { outcome: 'child', delta: 1 }],
      ['A', 'tie', { outcome: 'tie', delta: 0 }],
      ['B', 'A', { outcome: 'parent', delta: -1 }],
      ['B', 'B', { outcome: 'inconsistent', delta: 0 }],
      ['B', 'tie', { outcome: 'tie', delta: 0 }],
      ['tie', 'A', { outcome: 'tie', delta: 0 }],
      ['tie', 'B', { outcome: 'tie', delta: 0 }],
      ['tie', 'tie', { outcome: 'tie', delta: 0 }],
    ]);
    expect([childMatchScore(bothOrderVerdict('A', 'B')), childMatchScore(bothOrderVerdict('B', 'A')), childMatchScore(bothOrderVerdict('A', 'A'))]).toEqual([1, 0, 0.5]);
  });

  it('summarises position bias and tie rate', () => {
    const pairs: [JudgeVerdict, JudgeVerdict][] = [
      ['A', 'B'],
      ['A', 'A'],
      ['A', 'A'],
      ['B', 'A'],
      ['tie', 'A'],
    ];
    expect(pairwiseStats(pairs)).toEqual({ pairs: 5, child: 1, parent: 1, inconsistent: 2, ties: 1, inconsistentRate: 0.4, tieRate: 0.2, slotARate: 7 / 9 });
  });

  it('continuous Δ = ½[(p₁c − p₁p) + (p₂c − p₂p)] = p₁c + p₂c − 1', () => {
    expect(judgeProbabilityDelta(0.9, 0.7)).toBeCloseTo(0.5 * (0.9 - 0.1 + (0.7 - 0.3)), 15);
    expect(judgeProbabilityDelta(0.5, 0.5)).toBe(0);
    expect(twoTokenProbability(Math.log(0.3), Math.log(0.1))).toBeCloseTo(0.75, 15);
    expect(() => judgeProbabilityDelta(1.2, 0.5)).toThrow(/\[0, 1\]/);
  });

  it('feeds verdicts into a reward-free test', () => {
    const t = startRewardFreeTest({}, EMPTY_LEDGER, 40);
    expect(t.config.gate).toBe('pace-rf');
    const steps = [observeVerdicts(t, 'A', 'B'), observeVerdicts(t, 'A', 'A')];
    expect(steps.map((s) => [s.outcome, s.delta, s.k])).toEqual([
      ['child', 1, 1],
      ['inconsistent', 0, 2],
    ]);
    const c = startRewardFreeTest({ scores: 'continuous' }, EMPTY_LEDGER, 40);
    expect(observeJudgeProbabilities(c, 0.8, 0.6).delta).toBeCloseTo(0.4, 15);
  });
});

/**
 * A simulated judge with position bias: P(prefers slot A) = σ(q_A − q_B + b_pos), with a
 * latent quality q per output. Under the null the child's outputs are distributed like the parent's.
 */
function judge(qA: number, qB: number, bias: number, rng: SeededRandom): JudgeVerdict {
  return rng.next() < sigmoid(qA - qB + bias) ? 'A' : 'B';
}

function normal(rng: SeededRandom): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

describe('position bias under the null (simulation, N = 20,000 candidates, n = 40, b_pos = 1)', () => {
  const N = 20_000;
  const alpha = 0.05;
  const bound = alpha + 3 * Math.sqrt((alpha * (1 - alpha)) / N);

  function commitRate(mode: 'both-order' | 'child-in-A' | 'continuous', gain: number, seed: string, runs = N): number {
    const rng = new SeededRandom(hashSeed('position-bias', mode, gain, seed));
    const cfg = paceConfig('pace-rf', { alpha, scores: mode === 'continuous' ? 'continuous' : 'binary' });
    let commits = 0;
    for (let c = 0; c < runs; c++) {
      const test = startPaceTest(cfg, EMPTY_LEDGER, 40);
      while (!test.verdict) {
        const qc = normal(rng) + gain;
        const qp = normal(rng);
        if (mode === 'both-order') observeVerdicts(test, judge(qc, qp, 1, rng), judge(qp, qc, 1, rng));
        else if (mode === 'continuous') observeJudgeProbabilities(test, sigmoid(qc - qp + 1), 1 - sigmoid(qp - qc + 1));
        else test.observe(judge(qc, qp, 1, rng) === 'A' ? 1 : -1); // the invalid single call, child always in slot A
      }
      if (test.verdict.decision === 'commit') commits++;
    }
    return commits / runs;
  }

  it('both-order judging commits a null child at most α + 3 SE', () => {
    expect(commitRate('both-order', 0, 'null')).toBeLessThanOrEqual(bound);
  });

  it('the continuous judge-probability variant too', () => {
    expect(commitRate('continuous', 0, 'null')).toBeLessThanOrEqual(bound);
  });

  it('a single call with the child always in slot A is invalid (the harness can fail)', () => {
    expect(commitRate('child-in-A', 0, 'null', 2000)).toBeGreaterThan(6 * alpha);
  });

  it('both-order judging still finds a real improvement', () => {
    expect(commitRate('both-order', 1, 'real', 2000)).toBeGreaterThan(0.3);
  });
});
