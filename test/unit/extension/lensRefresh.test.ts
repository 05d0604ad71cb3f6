import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LensRefresh } from '../../../src/extension/server/lensRefresh';

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
    // Several changes at once: the server's start, then the settings it was sent, twice.
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
});
