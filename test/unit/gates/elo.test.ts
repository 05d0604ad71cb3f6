// Elo, Soft Elo and softmax parent selection (GATES.md 7.1–7.4).
import { describe, expect, it } from 'vitest';
import { ELO_TAU, agentConfidence, eloAddVersion, eloExpected, eloRecordMatch, eloUpdate, matchOpponents, softEloK, softMatchScore, softmaxProbabilities, softmaxSelect } from '../../../src/core/gates/elo';
import { SeededRandom } from '../../../src/core/random';

describe('Elo updates (7.1)', () => {
  it('equal ratings, a win: ±16 with K = 32', () => {
    expect(eloUpdate(1500, 1500, 1)).toEqual({ a: 1516, b: 1484, expectedA: 0.5 });
  });

  it('favourite loses: E_A = 1/(1 + 10^{−0.5}) = 0.7597', () => {
    const u = eloUpdate(1600, 1400, 0);
    expect(u.expectedA).toBeCloseTo(0.7597469266479578, 14);
    expect(u.a).toBeCloseTo(1600 - 32 * 0.7597469266479578, 10);
    expect(u.b).toBeCloseTo(1400 + 32 * 0.7597469266479578, 10);
    expect(u.a + u.b).toBeCloseTo(3000, 10);
  });

  it('an inconsistent pair (½) moves the underdog up', () => {
    const u = eloUpdate(1500, 1700, 0.5);
    expect(u.a).toBeCloseTo(1500 + 32 * (0.5 - 1 / (1 + Math.sqrt(10))), 10);
    expect(eloExpected(1500, 1700)).toBeCloseTo(1 / (1 + Math.sqrt(10)), 15);
  });

  it('children start at the parent’s rating; matches update both sides', () => {
    let t = eloAddVersion(new Map(), 'root');
    t = eloAddVersion(t, 'child', 'root');
    t = eloRecordMatch(t, 'child', 'root', 1);
    expect(Object.fromEntries(t)).toEqual({ root: 1484, child: 1516 });
  });
});

describe('Soft Elo (7.2)', () => {
  it('K_t = K·c_t with c_t the mean over responses of the geometric-mean token probability', () => {
    const c = agentConfidence([[Math.log(0.9), Math.log(0.8)], [Math.log(0.5)], []]);
    expect(c).toBeCloseTo((Math.sqrt(0.72) + 0.5) / 2, 15);
    expect(softEloK(c)).toBeCloseTo(32 * c, 15);
    expect(agentConfidence([])).toBe(1); // no logprobs: plain Elo
    expect(softMatchScore(0.8, 0.6)).toBeCloseTo(0.7, 15);
    expect(() => softEloK(0)).toThrow();
  });
});

describe('softmax selection (7.3)', () => {
  it('τ = 400/ln 10 gives probabilities ∝ 10^{R/400}', () => {
    const probs = softmaxProbabilities([1500, 1900, 1100], ELO_TAU);
    const w = [10 ** (1500 / 400), 10 ** (1900 / 400), 10 ** (1100 / 400)];
    const total = w[0]! + w[1]! + w[2]!;
    probs.forEach((p, i) => expect(p).toBeCloseTo(w[i]! / total, 14));
    expect(probs[1]! / probs[0]!).toBeCloseTo(10, 10);
  });

  it('a smaller τ is greedier; huge ratings do not overflow', () => {
    expect(softmaxProbabilities([1500, 1600], 50)[1]!).toBeGreaterThan(softmaxProbabilities([1500, 1600], ELO_TAU)[1]!);
    expect(softmaxProbabilities([1e6, 1e6 + 1], 1)).toEqual([1 / (1 + Math.E), Math.E / (1 + Math.E)]);
  });

  it('draws with those probabilities (20,000 seeded draws within 4 SE)', () => {
    const rng = new SeededRandom(7);
    const ratings = [1500, 1600, 1450];
    const probs = softmaxProbabilities(ratings);
    const counts = [0, 0, 0];
    const N = 20_000;
    for (let k = 0; k < N; k++) counts[softmaxSelect(ratings, rng)]!++;
    counts.forEach((c, i) => expect(Math.abs(c / N - probs[i]!)).toBeLessThan(4 * Math.sqrt((probs[i]! * (1 - probs[i]!)) / N)));
  });
});

describe('match opponents (7.4)', () => {
  it('the parent plus m distinct archive members, never the child', () => {
    const rng = new SeededRandom(3);
    for (let k = 0; k < 50; k++) {
      const opp = matchOpponents(['a', 'b', 'c', 'd', 'child', 'p'], 'child', 'p', 2, rng);
      expect(opp[0]).toBe('p');
      expect(opp).toHaveLength(3);
      expect(new Set(opp).size).toBe(3);
      expect(opp).not.toContain('child');
    }
    expect(matchOpponents(['p', 'child'], 'child', 'p', 2, rng)).toEqual(['p']);
  });
});
