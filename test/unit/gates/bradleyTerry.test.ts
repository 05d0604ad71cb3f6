// Bradley–Terry MAP refit, bootstrap intervals and Thompson selection (GATES.md 7.6).
import { describe, expect, it } from 'vitest';
import type { Comparison } from '../../../src/core/gates/bradleyTerry';
import { bootstrapBradleyTerry, fitBradleyTerry, thompsonSelect, toElo } from '../../../src/core/gates/bradleyTerry';
import { sigmoid } from '../../../src/core/gates/logMath';
import { SeededRandom } from '../../../src/core/random';

const TRUTH = [-1.5, -1, -0.5, 0, 0.25, 0.5, 1, 1.5];
const centred = TRUTH.map((t) => t - TRUTH.reduce((a, b) => a + b, 0) / TRUTH.length);

/** Every pair judged on `items` items, one comparison per (pair, item), outcome ~ Bern(σ(θ_i − θ_j)). */
function synthetic(seed: number, items: number): Comparison[] {
  const rng = new SeededRandom(seed);
  const out: Comparison[] = [];
  for (let it = 0; it < items; it++) {
    for (let i = 0; i < TRUTH.length; i++) {
      for (let j = i + 1; j < TRUTH.length; j++) out.push({ i, j, s: rng.next() < sigmoid(TRUTH[i]! - TRUTH[j]!) ? 1 : 0, item: `x${it}` });
    }
  }
  return out;
}

function logPosterior(cs: Comparison[], theta: number[]): number {
  let f = 0;
  for (const c of cs) {
    const p = sigmoid(theta[c.i]! - theta[c.j]!);
    f += c.s * Math.log(p) + (1 - c.s) * Math.log(1 - p);
  }
  return f - theta.reduce((a, t) => a + (t * t) / 8, 0);
}

describe('fitBradleyTerry', () => {
  const data = synthetic(11, 120);

  it('recovers known strengths (up to the level the prior fixes at Σθ = 0)', () => {
    const fit = fitBradleyTerry(TRUTH.length, data);
    expect(fit.converged).toBe(true);
    // 840 comparisons per player with σ(1 − σ) ≈ 0.2 each: Fisher information ≈ 170, SE ≈ 0.08; allow 3 SE.
    fit.theta.forEach((t, i) => expect(Math.abs(t - centred[i]!)).toBeLessThan(0.24));
    expect(fit.theta.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 9);
    expect(fit.elo).toEqual(fit.theta.map((t) => 1500 + (400 / Math.LN10) * t));
  });

  it('Newton lands on the MAP: the numerical gradient of the log posterior vanishes', () => {
    const small = synthetic(5, 6);
    const fit = fitBradleyTerry(TRUTH.length, small);
    const h = 1e-6;
    fit.theta.forEach((_, i) => {
      const up = [...fit.theta];
      const down = [...fit.theta];
      up[i]! += h;
      down[i]! -= h;
      expect((logPosterior(small, up) - logPosterior(small, down)) / (2 * h)).toBeCloseTo(0, 5);
    });
  });

  it('Hunter MM with the pseudo-game prior agrees with Newton on plentiful data', () => {
    const newton = fitBradleyTerry(TRUTH.length, data).theta;
    const mm = fitBradleyTerry(TRUTH.length, data, { method: 'mm', tolerance: 1e-9 });
    expect(mm.converged).toBe(true);
    mm.theta.forEach((t, i) => expect(Math.abs(t - newton[i]!)).toBeLessThan(0.03));
  });

  it('handles soft outcomes: s = 0.7 every time gives θ₁ − θ₂ ≈ logit(0.7), shrunk by the prior', () => {
    const soft = Array.from({ length: 400 }, (_, k): Comparison => ({ i: 0, j: 1, s: 0.7, item: `s${k}` }));
    const fit = fitBradleyTerry(2, soft);
    const diff = fit.theta[0]! - fit.theta[1]!;
    expect(diff).toBeLessThan(Math.log(0.7 / 0.3));
    expect(diff).toBeGreaterThan(Math.log(0.7 / 0.3) - 0.01);
  });

  it('a player with no wins stays finite thanks to the prior', () => {
    const fit = fitBradleyTerry(2, [
      { i: 0, j: 1, s: 1 },
      { i: 0, j: 1, s: 1 },
    ]);
    expect(fit.theta.every(Number.isFinite)).toBe(true);
    expect(fit.theta[0]!).toBeGreaterThan(fit.theta[1]!);
  });
});

describe('bootstrap and Thompson selection', () => {
  it('percentile intervals from 200 item-level replicates cover the truth', () => {
    const data = synthetic(23, 40);
    const boot = bootstrapBradleyTerry(TRUTH.length, data, new SeededRandom(1));
    expect(boot.replicates).toHaveLength(200);
    let covered = 0;
    boot.fit.theta.forEach((t, i) => {
      expect(boot.lower[i]!).toBeLessThan(t);
      expect(boot.upper[i]!).toBeGreaterThan(t);
      if (boot.lower[i]! <= centred[i]! && centred[i]! <= boot.upper[i]!) covered++;
    });
    expect(covered).toBeGreaterThanOrEqual(6); // 95 % intervals: 8 of 8 expected, allow chance misses
    expect(boot.eloLower).toEqual(boot.lower.map(toElo));
  });

  it('resamples items, not comparisons: one shared item gives zero-width intervals', () => {
    const oneItem = synthetic(3, 5).map((c) => ({ ...c, item: 'only' }));
    const boot = bootstrapBradleyTerry(TRUTH.length, oneItem, new SeededRandom(2), { replicates: 20 });
    boot.fit.theta.forEach((t, i) => {
      expect(boot.lower[i]!).toBeCloseTo(t, 9);
      expect(boot.upper[i]!).toBeCloseTo(t, 9);
    });
  });

  it('Thompson selection picks the strongest player most of the time, not always', () => {
    const data = synthetic(29, 15);
    const rng = new SeededRandom(4);
    const picks = Array.from({ length: 200 }, () => thompsonSelect(TRUTH.length, data, rng).index);
    const best = picks.filter((p) => p === TRUTH.length - 1).length;
    expect(best).toBeGreaterThan(100);
    expect(picks.every((p) => p >= TRUTH.length - 3)).toBe(true);
  });
});
