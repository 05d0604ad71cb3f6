// The screen of the screened run-level schedule (docs/gates.md, "Run-level default").
import { describe, expect, it } from 'vitest';
import { SCREEN, Screen, dropBar, promoteBar } from '../../../src/core/gates/screen';

/** Feeds Δs until the screen decides; returns the verdict and how many it read. */
function run(available: number, deltas: readonly (number | undefined)[], devTestsBefore = 0) {
  const s = new Screen(available, devTestsBefore);
  let read = 0;
  for (const d of deltas) {
    if (s.verdict) break;
    s.observe(d);
    read++;
  }
  return { verdict: s.verdict, read };
}

describe('the screen', () => {
  it('promotes at 3 more wins than losses, ties counting for nothing', () => {
    expect(run(150, [1, 0, 1, -1, 1, 0, 1])).toEqual({ verdict: 'promote', read: 7 });
    expect(run(150, [1, 1, 1])).toEqual({ verdict: 'promote', read: 3 });
  });

  it('asks for 4 more wins than losses once 2 candidates of the run reached a dev-set test', () => {
    expect([0, 1, 2, 3, 40].map(promoteBar)).toEqual([3, 3, 4, 4, 4]);
    expect(run(150, [1, 1, 1], 1)).toEqual({ verdict: 'promote', read: 3 });
    expect(run(150, [1, 1, 1], 2)).toEqual({ verdict: undefined, read: 3 });
    expect(run(150, [1, 1, 1, 1], 2)).toEqual({ verdict: 'promote', read: 4 });
    // The drop bar is the same: one win in every 4 items reaches +4 at item 13 instead of +3 at 9.
    expect(run(150, [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], 2)).toEqual({ verdict: 'promote', read: 13 });
    // A small feedback split that runs out still promotes a candidate that is ahead.
    expect(run(6, [1, 0, 0, 0, 0, 0], 5)).toEqual({ verdict: 'promote', read: 6 });
  });

  it('drops at 2 more losses than wins, before any dev item', () => {
    expect(run(150, [-1, 0, -1, 1, 1])).toEqual({ verdict: 'drop', read: 3 });
    expect(run(150, [1, -1, -1, -1])).toEqual({ verdict: 'drop', read: 4 });
  });

  it('raises the drop bar by one every 4 answered items, so a candidate that only keeps level is dropped', () => {
    expect([0, 3, 4, 7, 8, 12, 16, 19, 20].map(dropBar)).toEqual([-2, -2, -1, -1, 0, 1, 2, 2, 3]);
    // Level with the incumbent: dropped at item 4 (net −1 there), at item 8 (net 0).
    expect(run(150, [1, -1, 0, -1])).toEqual({ verdict: 'drop', read: 4 });
    expect(run(150, [0, 0, 0, 0, 0, 0, 0, 0])).toEqual({ verdict: 'drop', read: 8 });
    // Gaining on it: one win in every 4 items stays above the bar until +3 promotes.
    expect(run(150, [1, 0, 0, 0, 1, 0, 0, 0, 1])).toEqual({ verdict: 'promote', read: 9 });
    expect(run(150, [1, ...Array(11).fill(0)])).toEqual({ verdict: 'drop', read: 12 });
  });

  it('never reads more than 20 items: there the drop bar meets the promote bar or lies one under it', () => {
    expect(dropBar(SCREEN.maxItems)).toBe(promoteBar(0));
    expect(dropBar(SCREEN.maxItems)).toBe(promoteBar(2) - 1);
    expect(run(150, [1, 1, 1, ...Array(17).fill(0)], 2)).toEqual({ verdict: 'drop', read: 20 });
    expect(run(150, Array(30).fill(0))).toEqual({ verdict: 'drop', read: 8 });
    // Abstentions do not raise the bar; 20 items read and still undecided is a drop.
    expect(run(150, [1, 1, ...Array(18).fill(undefined), 1])).toEqual({ verdict: 'drop', read: 20 });
  });

  it('on a feedback split smaller than 20 items, promotes at its end only a candidate ahead', () => {
    expect(run(6, [1, 0, 0, 0, 0, 0])).toEqual({ verdict: 'promote', read: 6 });
    expect(run(6, [1, -1, 0, 0, 0, 0])).toEqual({ verdict: 'drop', read: 6 });
    expect(run(6, [1, -1, 1, -1, 0, -1])).toEqual({ verdict: 'drop', read: 6 });
  });

  it('promotes every candidate when there is no feedback item to compare on', () => {
    const s = new Screen(0, 0);
    expect(s.verdict).toBe('promote');
    expect(s.summary({ candidateCalls: 0, incumbentCalls: 0 })).toEqual({ items: 0, wins: 0, losses: 0, ties: 0, abstained: 0, net: 0, verdict: 'promote', candidateCalls: 0, incumbentCalls: 0 });
  });

  it('reads an unanswered item as nothing, not a tie, and never drops a candidate on non-answers alone', () => {
    // Unanswered items fill the 20 it reads: nothing judged, so the dev set decides.
    expect(run(150, Array(20).fill(undefined))).toEqual({ verdict: 'promote', read: 20 });
    expect(run(6, Array(6).fill(undefined))).toEqual({ verdict: 'promote', read: 6 });
    // With answers among them the usual rules hold; the unanswered ones count for neither side.
    expect(run(150, [undefined, 1, undefined, 1, 1, undefined, 1])).toEqual({ verdict: 'promote', read: 5 });
    expect(run(150, [-1, undefined, ...Array(18).fill(0)])).toEqual({ verdict: 'drop', read: 5 });
    expect(run(150, [undefined, undefined, undefined, undefined, -1])).toEqual({ verdict: undefined, read: 5 });
    const s = new Screen(150, 0);
    for (const d of [undefined, -1, undefined, -1]) s.observe(d);
    expect(s.summary({ candidateCalls: 4, incumbentCalls: 0 })).toMatchObject({ items: 4, wins: 0, losses: 2, ties: 0, abstained: 2, verdict: 'drop' });
  });

  it('counts only the sign of a continuous difference, so the scale of the scorer does not matter', () => {
    expect(run(150, [0.05, 0.1, 0.02, 0.3])).toEqual({ verdict: 'promote', read: 3 });
    expect(run(150, [-0.01, -0.2])).toEqual({ verdict: 'drop', read: 2 });
  });

  it('sums up what it read and what it cost', () => {
    const s = new Screen(150, 0);
    for (const d of [1, 0, -1, 1, 1]) s.observe(d);
    expect(() => s.summary({ candidateCalls: 5, incumbentCalls: 2 })).toThrow(/no verdict yet/);
    s.observe(1);
    expect(s.summary({ candidateCalls: 6, incumbentCalls: 2 })).toEqual({ items: 6, wins: 4, losses: 1, ties: 1, abstained: 0, net: 3, verdict: 'promote', candidateCalls: 6, incumbentCalls: 2 });
  });

  it('refuses an item after its verdict and a difference outside [−1, 1]', () => {
    const s = new Screen(150, 0);
    expect(() => s.observe(2)).toThrow(/\[−1, 1\]/);
    for (const d of [-1, -1]) s.observe(d);
    expect(() => s.observe(1)).toThrow(/already decided \(drop\)/);
  });
});
