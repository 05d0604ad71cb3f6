/** The Entropy port over node:crypto: run ids that no seed, clock or second process reproduces. */
import { randomInt } from 'node:crypto';
import type { Entropy } from '../core/ports';

export class CryptoEntropy implements Entropy {
  int(n: number): number {
    return randomInt(n);
  }
}
