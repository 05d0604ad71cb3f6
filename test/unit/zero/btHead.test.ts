// The learned Bradley–Terry head on embedding differences (#17): it learns a real preference and
// stays at chance on a random one, for every seed tried, not one lucky one.
import { describe, expect, it } from 'vitest';
import type { EmbeddedPair } from '../../../src/core/zero/btHead';
import { pairAccuracy, preferenceProbability, trainBtHead } from '../../../src/core/zero/btHead';
import { SeededRandom } from '../../../src/core/random';

const DIM = 16;
const SEEDS = [1, 2, 3, 4, 5];

function gaussian(rng: SeededRandom): number {
  // Box–Muller; 1 − u keeps the log finite.
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}
const vector = (rng: SeededRandom) => Array.from({ length: DIM }, () => gaussian(rng));
const dot = (a: number[], b: number[]) => a.reduce((s, x, k) => s + x * b[k]!, 0);

/** Pairs ordered by a hidden linear quality: the better response is the one with the higher w*·e. */
function separablePairs(seed: number, n: number): EmbeddedPair[] {
  const rng = new SeededRandom(seed);
  const hidden = vector(rng);
  return Array.from({ length: n }, (_, i) => {
    const [a, b] = [vector(rng), vector(rng)];
    return dot(hidden, a) >= dot(hidden, b) ? { id: `p${i}`, better: a, worse: b } : { id: `p${i}`, better: b, worse: a };
  });
}

/** Pairs whose order has nothing to do with the embeddings. */
function randomPairs(seed: number, n: number): EmbeddedPair[] {
  const rng = new SeededRandom(seed);
  return Array.from({ length: n }, (_, i) => ({ id: `p${i}`, better: vector(rng), worse: vector(rng) }));
}

describe('Bradley–Terry head', () => {
  it.each(SEEDS)('reaches ≥ 0.9 held-out accuracy on a separable preference (seed %i)', (seed) => {
    const fit = trainBtHead(separablePairs(seed, 400), { seed });
    expect(fit.heldOut.pairs).toBe(100);
    expect(fit.heldOut.accuracy).toBeGreaterThanOrEqual(0.9);
    expect(fit.converged).toBe(true);
  });

  it.each(SEEDS)('stays within 0.5 ± 3·√(0.25/n) held out on a random preference (seed %i)', (seed) => {
    const fit = trainBtHead(randomPairs(seed, 1600), { seed });
    const n = fit.heldOut.pairs;
    expect(n).toBe(400);
    expect(fit.converged).toBe(true);
    expect(Math.abs(fit.heldOut.accuracy! - 0.5)).toBeLessThanOrEqual(3 * Math.sqrt(0.25 / n));
  });

  it('is antisymmetric, holds out a seeded disjoint split, and reproduces from its seed', () => {
    const pairs = separablePairs(9, 200);
    const fit = trainBtHead(pairs, { seed: 9 });
    const [a, b] = [pairs[0]!.better, pairs[0]!.worse];
    expect(preferenceProbability(fit.head, a, b) + preferenceProbability(fit.head, b, a)).toBeCloseTo(1, 12);
    expect(new Set([...fit.trainIds, ...fit.heldOutIds]).size).toBe(200);
    expect(fit.heldOutIds).toHaveLength(50);
    expect(trainBtHead(pairs, { seed: 9 })).toEqual(fit);
    expect(trainBtHead(pairs, { seed: 10 }).heldOutIds).not.toEqual(fit.heldOutIds);
    expect(fit.converged).toBe(true);
    const heldOut = pairs.filter((p) => fit.heldOutIds.includes(p.id));
    expect(pairAccuracy(fit.head, heldOut)).toEqual(fit.heldOut);
  });

  it('names the pair whose embedding size differs', () => {
    const pairs = separablePairs(1, 3);
    pairs[2] = { ...pairs[2]!, worse: [1, 2, 3] };
    expect(() => trainBtHead(pairs, { seed: 1 })).toThrow(/Pair p2 has embeddings of 16 and 3 numbers/);
  });
});
