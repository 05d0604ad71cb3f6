/**
 * The screen of the screened run-level schedule (docs/gates.md, "Run-level default"): before a
 * candidate's dev-set test, it meets the incumbent on feedback items in a seeded order, and the
 * running count of wins minus losses (items where Δ = Y_C − Y_I is above / below 0: for continuous
 * scores only the sign counts, so the rule does not depend on the scorer's scale) decides:
 *
 *   net ≥ +3, +4 once 2 candidates of the run reached a dev-set test
 *                                 → promote: the candidate goes on to the dev-set test. Each
 *                                   promotion raises every later line (j(j+1)/α), so once two
 *                                   have, a candidate must show a little more before it spends α
 *   net ≤ −2 + ⌊answered / 4⌋      → drop: rejected (reason `screened`), no dev item read. The drop
 *                                   bar rises by one every 4 answered items (−2, −1, 0, +1, +2),
 *                                   so a candidate must keep gaining on the incumbent, not merely
 *                                   stay level: a neutral one (no drift) falls under the rising bar
 *                                   within a few items instead of wandering for 20, a real one
 *                                   clears the promote bar first. At 20 the bar reaches +3 and
 *                                   meets the promote bar (or lies one under it), so the screen
 *                                   never reads more than 20 items
 *   20 items read, undecided      → drop (only abstentions can leave one undecided there)
 *   the feedback split runs out first → promote if ahead (net > 0); with no feedback items at all
 *                         every candidate is promoted, and the schedule is plain α-spending
 *
 * An item the judge left unanswered (a judging scorer's or the validator's abstention) is read but
 * counts for nothing — not a tie. A screen that read items but could judge none of them promotes:
 * it could not tell, so the dev-set test decides (never a rejection made of non-answers).
 *
 * It can only reject: a promoted candidate still has to pass the dev-set test, so it cannot raise
 * the chance of a false commit. It reads no dev item, so the dev-set test's e-value is still an
 * e-value given the screen's verdict — which is what lets the schedule spend α on promoted
 * candidates only. It is not a test and needs no validity of its own: feedback items are the ones
 * the proposer sees, so a candidate may look better there than it is; that only makes the screen
 * let more through.
 */
import { RatchetError } from '../errors';

/** The screen's bars (docs/gates.md, "Run-level default", says how they were chosen). */
export const SCREEN = Object.freeze({ promoteAt: 3, laterPromoteAt: 4, laterFromDevTests: 2, dropAt: 2, dropBarRisesEvery: 4, maxItems: 20 });

/**
 * The net at or above which a candidate is promoted, given how many earlier candidates of the run
 * reached a dev-set test (the ledger's `tested`: a count of earlier screens' verdicts, so the bar
 * reads no dev item).
 */
export function promoteBar(devTestsBefore: number): number {
  return devTestsBefore >= SCREEN.laterFromDevTests ? SCREEN.laterPromoteAt : SCREEN.promoteAt;
}

/** The net at or below which a candidate is dropped once `answered` items were judged. */
export function dropBar(answered: number): number {
  return -SCREEN.dropAt + Math.floor(answered / SCREEN.dropBarRisesEvery);
}

export type ScreenVerdict = 'promote' | 'drop';

export interface ScreenSummary {
  /** Feedback items read, answered or not. */
  items: number;
  wins: number;
  losses: number;
  ties: number;
  /** Items the judge left unanswered: read, counted as nothing. */
  abstained: number;
  /** wins − losses. */
  net: number;
  verdict: ScreenVerdict;
  /** Agent calls the screen made for the candidate and (cache misses) for the incumbent. */
  candidateCalls: number;
  incumbentCalls: number;
}

export class Screen {
  private wins = 0;
  private losses = 0;
  private ties = 0;
  private abstained = 0;
  /** Items read, answered or not. */
  private read = 0;
  verdict: ScreenVerdict | undefined;

  private readonly promoteAt: number;

  /**
   * `available`: the feedback items there are to compare on; the screen reads at most
   * SCREEN.maxItems of them. `devTestsBefore`: the candidates of the run that reached a dev-set
   * test before this one (promoteBar).
   */
  constructor(
    readonly available: number,
    devTestsBefore: number,
  ) {
    if (!(Number.isInteger(available) && available >= 0)) throw new RatchetError('internal', `The screen needs a whole number of items, got ${available}.`);
    if (!(Number.isInteger(devTestsBefore) && devTestsBefore >= 0)) throw new RatchetError('internal', `The screen needs a whole number of earlier dev-set tests, got ${devTestsBefore}.`);
    this.promoteAt = promoteBar(devTestsBefore);
    if (available === 0) this.verdict = 'promote';
  }

  /** How many items the screen may still read. */
  get remaining(): number {
    return this.verdict ? 0 : Math.min(SCREEN.maxItems, this.available) - this.read;
  }

  /**
   * One item's Δ ∈ [−1, 1] in the screen's order, or undefined when the judge left it unanswered;
   * returns the verdict once there is one.
   */
  observe(delta: number | undefined): ScreenVerdict | undefined {
    if (this.verdict) throw new RatchetError('internal', `The screen already decided (${this.verdict}); observe no more items.`);
    if (delta !== undefined && !(Number.isFinite(delta) && delta >= -1 && delta <= 1)) throw new RatchetError('badInput', `A paired difference must lie in [−1, 1], got ${delta}.`);
    this.read++;
    if (delta === undefined) this.abstained++;
    else if (delta > 0) this.wins++;
    else if (delta < 0) this.losses++;
    else this.ties++;
    const net = this.wins - this.losses;
    const answered = this.read - this.abstained;
    if (net >= this.promoteAt) this.verdict = 'promote';
    else if (net <= dropBar(answered)) this.verdict = 'drop';
    else if (this.read >= Math.min(SCREEN.maxItems, this.available)) {
      this.verdict = answered === 0 ? 'promote' : this.read >= SCREEN.maxItems ? 'drop' : net > 0 ? 'promote' : 'drop';
    }
    return this.verdict;
  }

  summary(calls: { candidateCalls: number; incumbentCalls: number }): ScreenSummary {
    if (!this.verdict) throw new RatchetError('internal', 'The screen has no verdict yet.');
    return { items: this.read, wins: this.wins, losses: this.losses, ties: this.ties, abstained: this.abstained, net: this.wins - this.losses, verdict: this.verdict, ...calls };
  }
}
