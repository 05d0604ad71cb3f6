// Test vectors for src/core/random.ts. Every run's order (dev items, parents, pairs) comes from
// these functions: a change to any of them changes what a seeded run does, so its outputs are
// pinned here. sha256Hex and hashSeed were checked against Python's hashlib (hashSeed: the first
// 4 bytes, big-endian, of SHA-256 over the parts joined by U+001F).
import { describe, expect, it } from 'vitest';
import { drawIndex, hashSeed, SeededRandom, seededPermutation, sha256Hex } from '../../src/core/random';

describe('core/random test vectors', () => {
  it('sha256Hex and hashSeed', () => {
    expect(sha256Hex('ratchet')).toBe('7e44b435ca864457b9332718a10934705aed4ba9121799b0a9ea6b96cc7337e0');
    expect(hashSeed('run-1', 'abc123')).toBe(1825994714);
    // Numbers are joined as their decimal text.
    expect(hashSeed(42, 'dev', 3)).toBe(3859572282);
  });

  it('SeededRandom (xoshiro128** seeded by SplitMix32)', () => {
    const r = new SeededRandom(42);
    expect([r.next(), r.next(), r.next(), r.next()]).toEqual([0.6606157226487994, 0.12688010395504534, 0.11170196393504739, 0.8149394164793193]);
  });

  it('seededPermutation (Fisher–Yates from the last index down)', () => {
    expect(seededPermutation(10, 7)).toEqual([0, 5, 6, 8, 9, 7, 1, 3, 4, 2]);
  });

  it('drawIndex (inverse CDF, one uniform per draw)', () => {
    const r = new SeededRandom(3);
    expect(Array.from({ length: 10 }, () => drawIndex([0.5, 0.3, 0.2], r))).toEqual([1, 1, 0, 2, 1, 0, 0, 2, 1, 0]);
  });
});
