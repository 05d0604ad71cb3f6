import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LENS_PACE_WINDOW, LensRefresh } from '../../../src/extension/server/lensRefresh';

// VS Code starts its wait before a lens request over with each change it hears; these pin what it
// is told, with the clock held still (fake timers) so nothing depends on the machine's speed.
describe('LensRefresh', () => {
  let told: number;
  let lenses: LensRefresh;
  beforeEach(() => {
    vi.useFakeTimers();
    told = 0;
    lenses = new LensRefresh(() => told++, 1_000);
  });
  afterEach(() => {
    lenses.dispose();
    vi.useRealTimers();
  });

  it('tells the first change at once and holds back the rest until VS Code asks', () => {
    // An answer: the lenses hidden here, then the server's new state of the suggestion, twice.
    lenses.changed();
    lenses.changed();
    lenses.changed();
    expect(told).toBe(1);
    // The request VS Code makes reads the server's state of then: the held changes are in it.
    lenses.asked();
    vi.advanceTimersByTime(5_000);
    expect(told).toBe(1);
    // The next change after a request is told at once.
    lenses.changed();
    expect(told).toBe(2);
  });

  it('tells a held-back change after all when VS Code dropped its request (an editor that lost focus)', () => {
    lenses.changed();
    lenses.changed();
    vi.advanceTimersByTime(999);
    expect(told).toBe(1);
    vi.advanceTimersByTime(1);
    expect(told).toBe(2);
    // That telling waits for its own request again.
    lenses.changed();
    expect(told).toBe(2);
    lenses.asked();
    lenses.changed();
    expect(told).toBe(3);
  });

  it('a request before the hold ends settles the held change: nothing more is told', () => {
    lenses.changed();
    lenses.changed();
    vi.advanceTimersByTime(300);
    lenses.asked();
    vi.advanceTimersByTime(5_000);
    expect(told).toBe(1);
  });

  it('with nothing held back, the hold ending tells nothing', () => {
    lenses.changed();
    vi.advanceTimersByTime(5_000);
    expect(told).toBe(1);
  });

  it('settle has VS Code ask as many times as it averages over, each after the last was made, then stops', () => {
    lenses.settle();
    expect(told).toBe(1);
    // Nothing more is told before VS Code has made the request it was told of.
    vi.advanceTimersByTime(500);
    expect(told).toBe(1);
    for (let asked = 1; asked < LENS_PACE_WINDOW; asked++) {
      lenses.asked();
      expect(told).toBe(asked + 1);
    }
    // The last of them is made: the requests VS Code averages are all of now.
    lenses.asked();
    expect(told).toBe(LENS_PACE_WINDOW);
    lenses.asked();
    vi.advanceTimersByTime(5_000);
    expect(told).toBe(LENS_PACE_WINDOW);
    // Changes are told as before.
    lenses.changed();
    expect(told).toBe(LENS_PACE_WINDOW + 1);
  });

  it('a change while settling is not told twice: the settling request reads it', () => {
    lenses.settle();
    lenses.changed();
    expect(told).toBe(1);
    lenses.asked();
    expect(told).toBe(2);
  });

  it('after dispose, a request sets off no more settling', () => {
    lenses.settle();
    lenses.dispose();
    lenses.asked();
    expect(told).toBe(1);
  });
});
