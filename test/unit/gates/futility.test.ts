// The exact futility stop (GATES.md 4.2) never changes a decision: the same Δ sequences run with and
// without it give identical decisions over thousands of tests, and it saves evaluations.
import { describe, expect, it } from 'vitest';
import type { BettorSpec } from '../../../src/core/gates/eprocess';
import type { Schedule } from '../../../src/core/gates/record';
import { DEFAULT_GRID } from '../../../src/core/gates/eprocess';
import { paceConfig, startPaceTest } from '../../../src/core/gates/pace';
import { SeededRandom, hashSeed } from '../../../src/core/random';

const bettors: [string, BettorSpec][] = [
  ['grid mixture', { kind: 'mixture', lambdas: DEFAULT_GRID }],
  ['fixed λ=0.5', { kind: 'fixed', lambda: 0.5 }],
  ['aGRAPA', { kind: 'agrapa' }],
  ['ONS', { kind: 'ons', lambda1: 0.5, cap: 0.8 }],
  ['Beta mixture', { kind: 'beta' }],
];

/** A mixed population of candidates: harmful, null and better ones, with ties, n ∈ {20, 40, 80}. */
function sequences(seed: number, count: number): number[][] {
  const rng = new SeededRandom(seed);
  const qs = [0.3, 0.5, 0.6, 0.75, 0.9];
  return Array.from({ length: count }, () => {
    const n = [20, 40, 80][rng.int(3)]!;
    const q = qs[rng.int(qs.length)]!;
    const discordant = 0.2 + 0.6 * rng.next();
    return Array.from({ length: n }, () => (rng.next() < discordant ? (rng.next() < q ? 1 : -1) : 0));
  });
}

function decide(spec: BettorSpec, deltas: number[], futility: boolean, schedule: Schedule): { decision: string; consumed: number } {
  const cfg = paceConfig('pace+', { bettor: spec, futility, schedule, ...(schedule === 'per-candidate' ? {} : { horizonT: 10 }) });
  const test = startPaceTest(cfg, { tested: 0, commits: 0 }, deltas.length);
  for (const d of deltas) {
    if (test.verdict) break;
    test.observe(d);
  }
  return { decision: test.verdict!.decision, consumed: test.itemsConsumed };
}

describe.each(['per-candidate', 'e-lond'] as Schedule[])('futility stop, %s threshold', (schedule) => {
  it.each(bettors)('%s: identical decisions over 3,000 tests, fewer items', (label, spec) => {
    const seqs = sequences(hashSeed('futility', label, schedule), 3000);
    let withStop = 0;
    let without = 0;
    let commits = 0;
    for (const deltas of seqs) {
      const a = decide(spec, deltas, true, schedule);
      const b = decide(spec, deltas, false, schedule);
      expect(a.decision).toBe(b.decision);
      withStop += a.consumed;
      without += b.consumed;
      if (a.decision === 'commit') commits++;
    }
    // Both decisions occur, so the comparison is not vacuous, and the stop saves evaluations.
    expect(commits).toBeGreaterThan(100);
    expect(commits).toBeLessThan(2900);
    expect(withStop).toBeLessThan(0.9 * without);
  });
});
