// The screened run-level default (docs/gates.md, "Run-level default"): P(any false commit in a
// run) ≤ α, by seeded simulation of whole runs of null candidates, with the product's screen,
// e-process, floor and thresholds. The null is the least favourable one for the dev-set test: every
// item discordant, each side winning with probability ½ — the most bets, no ties to slow it down.
import { describe, expect, it } from 'vitest';
import { paceConfig, startPaceTest } from '../../../src/core/gates/pace';
import type { Schedule } from '../../../src/core/gates/schedules';
import { Screen } from '../../../src/core/gates/screen';
import { EMPTY_LEDGER } from '../../../src/core/gates/thresholds';
import type { RunLedger } from '../../../src/core/gates/thresholds';
import { SeededRandom } from '../../../src/core/random';

const ALPHA = 0.05;
const RUNS = 2000;
const CANDIDATES = 40;
const DEV = 60;
const FEEDBACK = 40;

/** One run of null candidates; whether any was committed, and how many reached a dev-set test. */
function nullRun(schedule: Schedule, seed: number): { committed: boolean; tested: number; screened: number } {
  const rnd = new SeededRandom(seed);
  const coin = () => (rnd.next() < 0.5 ? 1 : -1);
  const cfg = paceConfig('pace+', { schedule, alpha: ALPHA });
  let ledger: RunLedger = EMPTY_LEDGER;
  let screened = 0;
  for (let t = 0; t < CANDIDATES; t++) {
    if (schedule === 'fwer-screened') {
      const screen = new Screen(FEEDBACK);
      while (!screen.verdict) screen.observe(coin());
      if (screen.verdict === 'drop') {
        screened++;
        continue; // no dev item read, no α spent: the ledger stays
      }
    }
    const test = startPaceTest(cfg, ledger, DEV);
    while (!test.verdict) test.observe(coin());
    if (test.verdict.decision === 'commit') return { committed: true, tested: ledger.tested + 1, screened };
    ledger = test.ledgerAfter();
  }
  return { committed: false, tested: ledger.tested, screened };
}

describe('the screened run-level schedule over whole runs of null candidates', () => {
  const se = Math.sqrt((ALPHA * (1 - ALPHA)) / RUNS);

  it(`commits anything in at most α of ${RUNS} runs of ${CANDIDATES} candidates (within 3 standard errors)`, () => {
    const runs = Array.from({ length: RUNS }, (_, i) => nullRun('fwer-screened', 1000 + i));
    const rate = runs.filter((r) => r.committed).length / RUNS;
    expect(rate).toBeLessThanOrEqual(ALPHA + 3 * se);
    // The screen did its job: most candidates never reached a dev-set test, and those spent no α.
    const screened = runs.reduce((s, r) => s + r.screened, 0);
    const tested = runs.reduce((s, r) => s + r.tested, 0);
    expect(screened).toBeGreaterThan(tested);
  });

  it('the same runs with a per-candidate threshold commit a null candidate far more often than α', () => {
    // Each test holds α, but 40 of them add up: the simulation can tell the two guarantees apart.
    const rate = Array.from({ length: RUNS / 4 }, (_, i) => nullRun('per-candidate', 1000 + i)).filter((r) => r.committed).length / (RUNS / 4);
    expect(rate).toBeGreaterThan(3 * ALPHA);
  });
});
