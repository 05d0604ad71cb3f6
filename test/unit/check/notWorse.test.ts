// The regression test of `ratchet check --require not-worse` by seeded simulation (docs/gates.md,
// "Pull-request check"): a head that is not worse than base fails with probability at most α.
// Each simulated check runs the product's orientation (candidateSide, checkOutcome) and the gate's
// own test (PACE+, binary, the grid mixture, futility on) on n = 100 dev items; an item's outcome
// for each version is drawn from that version's accuracy. The band: the failure rate must stay
// within α + 3 standard errors, SE = √(α(1−α)/N), as for every gate's null validity
// (gates/nullValidity.test.ts).
import { describe, expect, it } from 'vitest';
import { candidateSide, checkOutcome, headDelta } from '../../../src/core/check/policy';
import type { CheckPolicy } from '../../../src/core/check/policy';
import { paceConfig, pairedDelta, startPaceTest } from '../../../src/core/gates/pace';
import { EMPTY_LEDGER } from '../../../src/core/gates/thresholds';
import { SeededRandom, hashSeed } from '../../../src/core/random';
import { paceCommitProbability } from '../../integration/bands';

const N = 20_000;
const N_ITEMS = 100;
const ALPHA = 0.05;

/** The share of N simulated checks that fail, base and head answering each item right with their accuracies. */
function failureRate(policy: CheckPolicy, baseAccuracy: number, headAccuracy: number, label: string): number {
  const cfg = paceConfig('pace+', { alpha: ALPHA, scores: 'binary' });
  const rng = new SeededRandom(hashSeed('check-not-worse', policy, label));
  const side = candidateSide(policy);
  let failures = 0;
  for (let c = 0; c < N; c++) {
    const test = startPaceTest(cfg, EMPTY_LEDGER, N_ITEMS);
    for (let i = 0; i < N_ITEMS && !test.verdict; i++) {
      const yBase = rng.next() < baseAccuracy ? 1 : 0;
      const yHead = rng.next() < headAccuracy ? 1 : 0;
      const [candidate, incumbent] = side === 'head' ? [yHead, yBase] : [yBase, yHead];
      test.observe(pairedDelta(incumbent, candidate, 'binary'));
    }
    const decision = test.verdict?.decision === 'commit' ? 'commit' : 'reject';
    if (!checkOutcome(policy, decision).passed) failures++;
  }
  return failures / N;
}

const band = ALPHA + 3 * Math.sqrt((ALPHA * (1 - ALPHA)) / N);

describe('not-worse: a head that is not worse fails with probability at most α', () => {
  it.each([
    ['equal accuracy (the null’s boundary)', 0.6, 0.6],
    ['equal accuracy, near the ceiling', 0.9, 0.9],
    ['head slightly better', 0.6, 0.62],
  ])('%s: false-failure rate ≤ α + 3 SE', (label, base, head) => {
    expect(failureRate('not-worse', base, head, label)).toBeLessThanOrEqual(band);
  });

  it('a truly worse head fails as often as the exact walk of the e-process says (the test has power)', () => {
    // Base right and head wrong (a win for base, the test's candidate): 0.6 · 0.6; the reverse: 0.4 · 0.4.
    const exact = paceCommitProbability(N_ITEMS, 0.6 * 0.6, 0.4 * 0.4, ALPHA);
    const se = Math.sqrt((exact * (1 - exact)) / N);
    expect(exact).toBeGreaterThan(0.5);
    expect(Math.abs(failureRate('not-worse', 0.6, 0.4, 'worse') - exact)).toBeLessThanOrEqual(4 * se);
  });

  it('better and not-worse ask opposite questions: the same pairs read head against base either way', () => {
    expect(headDelta('better', 1)).toBe(1);
    expect(headDelta('not-worse', 1)).toBe(-1);
    expect(checkOutcome('better', 'commit')).toEqual({ verdict: 'better', passed: true });
    expect(checkOutcome('not-worse', 'commit')).toEqual({ verdict: 'worse', passed: false });
    expect(checkOutcome('not-worse', 'undecided')).toEqual({ verdict: 'undecided', passed: true });
  });
});
