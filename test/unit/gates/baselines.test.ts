// Baselines of GATES.md 2 and 6: greedy, the exact one-sided sign test, LORD++.
import { describe, expect, it } from 'vitest';
import { greedyGate, greedyOnOutcomes } from '../../../src/core/gates/greedy';
import { signTest, signTestOnDeltas, signTestPValue } from '../../../src/core/gates/signTest';
import { LORD_START, lordGammas, lordLevel, lordStep } from '../../../src/core/gates/lordpp';

/** P(Bin(D, ½) ≥ W) with exact big-integer binomials. */
function exactTail(w: number, l: number): number {
  const d = w + l;
  let num = 0n;
  let c = 1n; // C(d, 0)
  for (let j = 0; j <= d; j++) {
    if (j >= w) num += c;
    c = (c * BigInt(d - j)) / BigInt(j + 1);
  }
  return Number(num) / 2 ** d;
}

describe('greedy (section 2)', () => {
  it('commits on a strictly higher score only', () => {
    expect(greedyGate(25, 24)).toEqual({ decision: 'commit', reason: 'greedy', statistic: { candidateScore: 25, incumbentScore: 24, difference: 1 } });
    expect(greedyGate(24, 24).decision).toBe('reject');
    expect(
      greedyOnOutcomes([
        { incumbent: 1, candidate: 0 },
        { incumbent: 0, candidate: 1 },
        { incumbent: 0, candidate: 0.5 },
      ]),
    ).toEqual({ decision: 'commit', reason: 'greedy', statistic: { candidateScore: 1.5, incumbentScore: 1, difference: 0.5 } });
  });
});

describe('exact sign test (6.1)', () => {
  it.each([
    [5, 0],
    [4, 0],
    [9, 2],
    [12, 8],
    [30, 30],
    [0, 7],
    [41, 20],
  ])('p(W=%i, L=%i) equals the exact binomial tail', (w, l) => {
    expect(signTestPValue(w, l)).toBeCloseTo(exactTail(w, l), 14);
  });

  it('five straight wins pass at α = 0.05 (p = 1/32), four do not (1/16)', () => {
    expect(signTest(5, 0, 35, 0.05)).toEqual({ decision: 'commit', reason: 'p-value', statistic: { wins: 5, losses: 0, ties: 35, pValue: 1 / 32, level: 0.05 } });
    expect(signTest(4, 0, 36, 0.05).decision).toBe('reject');
    expect(signTestOnDeltas([1, 0.2, -0.5, 0, 1], 0.5).statistic).toEqual({ wins: 3, losses: 1, ties: 1, pValue: 5 / 16, level: 0.5 });
  });
});

describe('LORD++ (6.2)', () => {
  it('Javanmard–Montanari γ for T = 30: γ₁ = 0.339, γ₃₀ = 0.0088, Σ = 1, decreasing', () => {
    const g = lordGammas(30);
    expect(g[0]).toBeCloseTo(0.339, 3);
    expect(g[29]).toBeCloseTo(0.0088, 4);
    expect(g.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
    for (let j = 1; j < 30; j++) expect(g[j]!).toBeLessThan(g[j - 1]!);
  });

  it('levels: W₀γ_t + (α − W₀)γ_{t−τ₁} + α Σ_{j≥2} γ_{t−τ_j}', () => {
    const a = 0.05;
    const g = lordGammas(30);
    expect(lordLevel(a, g, LORD_START)).toBeCloseTo(0.025 * g[0]!, 15);
    expect(lordLevel(a, g, { tested: 4, commitTimes: [2] })).toBeCloseTo(0.025 * g[4]! + 0.025 * g[2]!, 15);
    expect(lordLevel(a, g, { tested: 9, commitTimes: [2, 7] })).toBeCloseTo(0.025 * g[9]! + 0.025 * g[7]! + 0.05 * g[2]!, 15);
    expect(lordLevel(a, g, { tested: 30, commitTimes: [] })).toBe(0); // past the horizon
  });

  it('steps: commit iff p ≤ α_t, recording the commit time', () => {
    const g = lordGammas(30);
    const first = lordStep(0.05, g, LORD_START, 0.001);
    expect(first).toEqual({ decision: 'commit', level: 0.025 * g[0]!, state: { tested: 1, commitTimes: [1] } });
    const second = lordStep(0.05, g, first.state, 0.02);
    expect(second.decision).toBe('reject');
    expect(second.state).toEqual({ tested: 2, commitTimes: [1] });
  });
});
