// Helpers for the finite-population tests (GATES.md 1.2): fixed dev sets of Δ values, the exact
// commit probability over every distinct order, and seeded orders as the gate runner draws them.
import type { PaceConfig } from '../../../src/core/gates/pace';
import { startPaceTest } from '../../../src/core/gates/pace';
import { EMPTY_LEDGER } from '../../../src/core/gates/thresholds';
import { hashSeed, seededPermutation } from '../../../src/core/random';

/** A dev set of n = w + l + t items: w wins (Δ = +1), l losses (−1), t ties (0). Σ Δ = w − l. */
export function population(w: number, l: number, t: number): number[] {
  return [...Array<number>(w).fill(1), ...Array<number>(l).fill(-1), ...Array<number>(t).fill(0)];
}

/** One test over the items in this order; the decision and how many items it consumed. */
export function runOrder(cfg: PaceConfig, ordered: readonly number[]): { commit: boolean; consumed: number } {
  const test = startPaceTest(cfg, EMPTY_LEDGER, ordered.length);
  for (let k = 0; k < ordered.length && !test.verdict; k++) test.observe(ordered[k]!);
  return { commit: test.verdict!.decision === 'commit', consumed: test.itemsConsumed };
}

/** Every distinct arrangement of a multiset, each once; under a uniform permutation they are equally likely. */
export function* arrangements(values: readonly number[]): Generator<number[]> {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const prefix: number[] = [];
  function* go(): Generator<number[]> {
    if (prefix.length === values.length) {
      yield prefix;
      return;
    }
    for (const [v, c] of counts) {
      if (c === 0) continue;
      counts.set(v, c - 1);
      prefix.push(v);
      yield* go();
      prefix.pop();
      counts.set(v, c);
    }
  }
  yield* go();
}

/** P(commit) under a uniformly random order, exactly: commits over all distinct arrangements. */
export function exactCommitRate(cfg: PaceConfig, values: readonly number[]): { orders: number; rate: number } {
  let orders = 0;
  let commits = 0;
  for (const a of arrangements(values)) {
    orders++;
    if (runOrder(cfg, a).commit) commits++;
  }
  return { orders, rate: commits / orders };
}

export interface SimResult {
  /** Commit rate per configuration, over the same R orders. */
  rates: number[];
  /** Mean share of the dev set each configuration consumed. */
  consumedShare: number[];
  /** Orders where configuration 0 committed and configuration 1 did not, and the reverse. */
  only: [number, number];
}

/**
 * Runs every configuration on the same R seeded orders of `values`. Each order is what the gate
 * runner draws for a candidate: seededPermutation(n, hashSeed(runSeed, candidate hash)).
 */
export function simulate(cfgs: readonly PaceConfig[], values: readonly number[], r: number, label: string): SimResult {
  const n = values.length;
  const commits = cfgs.map(() => 0);
  const consumed = cfgs.map(() => 0);
  const only: [number, number] = [0, 0];
  for (let i = 0; i < r; i++) {
    const ordered = seededPermutation(n, hashSeed('finite-population', label, `candidate-${i}`)).map((j) => values[j]!);
    const out = cfgs.map((cfg) => runOrder(cfg, ordered));
    out.forEach((o, c) => {
      if (o.commit) commits[c]!++;
      consumed[c]! += o.consumed;
    });
    if (out.length >= 2 && out[0]!.commit !== out[1]!.commit) only[out[0]!.commit ? 0 : 1]++;
  }
  return { rates: commits.map((c) => c / r), consumedShare: consumed.map((c) => c / (r * n)), only };
}

/** α + 3 standard errors of a binomial rate over R draws: the Monte-Carlo band of a valid gate. */
export function validityBound(alpha: number, r: number): number {
  return alpha + 3 * Math.sqrt((alpha * (1 - alpha)) / r);
}
