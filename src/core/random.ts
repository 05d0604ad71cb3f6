/**
 * Seeded randomness and hashing the engine can reproduce bit for bit on any platform.
 *
 * - `hashSeed(...parts)`: SHA-256 of the parts joined by U+001F, first 4 bytes big-endian as an
 *   unsigned 32-bit integer. Used for order seeds: `orderSeed = hashSeed(runSeed, contentHash)`
 *   (GATES.md 4.7).
 * - `SeededRandom`: xoshiro128** seeded by SplitMix32 expansion of a 32-bit seed.
 * - `seededPermutation(n, seed)`: Fisher–Yates from the last index down, `j = int(i + 1)`.
 * - `drawIndex(probs, random)`: an index drawn by inverse CDF on one uniform (parent selection).
 * Test vectors in test/unit/random.test.ts pin all four; changing them changes every run's order.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { RatchetError } from './errors';
import type { Random } from './ports';

const encoder = new TextEncoder();

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(encoder.encode(text)));
}

export function hashSeed(...parts: (string | number)[]): number {
  const digest = sha256(encoder.encode(parts.map(String).join('\u001f')));
  return ((digest[0]! << 24) | (digest[1]! << 16) | (digest[2]! << 8) | digest[3]!) >>> 0;
}

function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export class SeededRandom implements Random {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(readonly seed: number) {
    const sm = splitmix32(seed);
    this.s0 = sm();
    this.s1 = sm();
    this.s2 = sm();
    this.s3 = sm();
  }

  /** Next raw 32-bit unsigned output of xoshiro128**. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  next(): number {
    return this.nextUint32() / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  fork(label: string): SeededRandom {
    return new SeededRandom(hashSeed(this.seed, label));
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** A uniformly random permutation of 0..n-1, fixed by the seed (requirement A2). */
export function seededPermutation(n: number, seed: number): number[] {
  const rng = new SeededRandom(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** Draws an index by inverse CDF on one uniform, so one draw consumes one `next()`. */
export function drawIndex(probs: readonly number[], random: Pick<Random, 'next'>): number {
  if (probs.length === 0) throw new RatchetError('internal', 'Cannot draw from an empty pool.');
  const u = random.next();
  let acc = 0;
  for (let i = 0; i < probs.length; i++) {
    acc += probs[i]!;
    if (u < acc) return i;
  }
  return probs.length - 1;
}
