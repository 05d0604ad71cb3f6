// Tolerance bands for tests that count what many seeded runs did: binomial quantiles, and the
// exact probability that PACE+ commits a candidate in the fake endpoint's world. A test fails only
// outside a band a correct product leaves with probability at most `tail`, whichever seeds it uses.
import { DEFAULT_GRID } from '../../src/core/gates/eprocess';

function binomialPmf(n: number, p: number, k: number): number {
  let logC = 0;
  for (let i = 1; i <= k; i++) logC += Math.log(n - k + i) - Math.log(i);
  if (p === 0) return k === 0 ? 1 : 0;
  if (p === 1) return k === n ? 1 : 0;
  return Math.exp(logC + k * Math.log(p) + (n - k) * Math.log(1 - p));
}

/** The smallest c with P(Bin(n, p) > c) ≤ tail: more than c successes is a failure of the claim "rate ≤ p". */
export function binomialUpper(n: number, p: number, tail = 1e-3): number {
  let below = 0;
  for (let c = 0; c <= n; c++) {
    below += binomialPmf(n, p, c);
    if (1 - below <= tail) return c;
  }
  return n;
}

/** The largest c with P(Bin(n, p) < c) ≤ tail: fewer than c successes is a failure of the claim "rate ≥ p". */
export function binomialLower(n: number, p: number, tail = 1e-3): number {
  let below = 0;
  for (let c = 0; c <= n; c++) {
    if (below + binomialPmf(n, p, c) > tail) return c;
    below += binomialPmf(n, p, c);
  }
  return n;
}

/**
 * P(PACE+ commits) for a candidate tested on `n` dev items, each independently a win with
 * probability `pWin` and a loss with `pLoss` (else a tie): the chance that the binary mixture
 * e-process of GATES.md 4.1 (the mean over the grid λ of Π(1 + λΔ)) reaches 1/α within n items.
 * Its wealth depends only on the counts of wins and losses, so a walk over (wins, losses) is exact;
 * the futility stop only ends tests that can no longer reach 1/α, so it changes nothing here.
 */
export function paceCommitProbability(n: number, pWin: number, pLoss: number, alpha = 0.05, grid: readonly number[] = DEFAULT_GRID): number {
  const threshold = Math.log(1 / alpha);
  const crosses = (w: number, l: number) => Math.log(grid.reduce((s, lam) => s + (1 + lam) ** w * (1 - lam) ** l, 0) / grid.length) >= threshold;
  let open = new Map<string, number>([['0,0', 1]]);
  let committed = 0;
  for (let k = 0; k < n; k++) {
    const next = new Map<string, number>();
    for (const [key, p] of open) {
      const [w, l] = key.split(',').map(Number) as [number, number];
      for (const [dw, dl, q] of [
        [1, 0, pWin],
        [0, 1, pLoss],
        [0, 0, 1 - pWin - pLoss],
      ] as const) {
        if (q === 0) continue;
        if (crosses(w + dw, l + dl)) committed += p * q;
        else next.set(`${w + dw},${l + dl}`, (next.get(`${w + dw},${l + dl}`) ?? 0) + p * q);
      }
    }
    open = next;
  }
  return committed;
}

/** P(Bin(n, p) ≥ k). */
export function binomialAtLeast(n: number, p: number, k: number): number {
  let s = 0;
  for (let i = k; i <= n; i++) s += binomialPmf(n, p, i);
  return Math.min(1, s);
}
