// Order seeds (GATES.md 4.7): orderSeed = hashSeed(runSeed, candidateContentHash), order =
// seededPermutation(n, orderSeed). Pinned vectors: changing either function changes every run's
// item order and breaks replay (8.2), so these must only change on purpose.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashSeed, seededPermutation } from '../../../src/core/random';

describe('hashSeed', () => {
  it('is the first 4 bytes (big-endian) of SHA-256 over the parts joined by U+001F', () => {
    for (const parts of [[42, 'sha256:abc123'], ['run-7', 'c0ffee'], [0]] as (string | number)[][]) {
      const digest = createHash('sha256').update(parts.map(String).join('\u001f'), 'utf8').digest();
      expect(hashSeed(...parts)).toBe(digest.readUInt32BE(0));
    }
  });

  it('pinned vectors', () => {
    expect([hashSeed(42, 'sha256:abc123'), hashSeed('run-7', 'c0ffee'), hashSeed(0)]).toEqual([727574986, 228999362, 1609362278]);
  });
});

describe('seededPermutation', () => {
  it('pinned vectors', () => {
    expect(seededPermutation(10, hashSeed(42, 'sha256:abc123'))).toEqual([9, 5, 4, 3, 7, 8, 0, 1, 6, 2]);
    expect(seededPermutation(5, 0)).toEqual([2, 3, 0, 1, 4]);
    expect(seededPermutation(40, 123456789)).toEqual([21, 3, 30, 6, 8, 35, 4, 15, 11, 38, 34, 17, 33, 14, 36, 25, 31, 18, 0, 13, 1, 27, 28, 37, 20, 19, 12, 5, 2, 7, 10, 24, 29, 16, 32, 26, 22, 23, 9, 39]);
  });

  it('is a permutation, uniform over the 24 orders of 4 items (χ² over 24,000 seeds)', () => {
    const counts = new Map<string, number>();
    for (let seed = 0; seed < 24_000; seed++) {
      const p = seededPermutation(4, hashSeed('uniformity', seed));
      expect([...p].sort()).toEqual([0, 1, 2, 3]);
      counts.set(p.join(''), (counts.get(p.join('')) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    const chi2 = [...counts.values()].reduce((s, c) => s + (c - 1000) ** 2 / 1000, 0);
    expect(chi2).toBeLessThan(49.7); // χ²(23) 0.999 quantile
  });
});
