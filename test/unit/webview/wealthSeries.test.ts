import { describe, expect, it } from 'vitest';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';
import { logSplits, wealthChartData } from '../../../webview/model/wealthSeries';
import { RUN, decided, ev, started, step } from './events';

const L20 = Math.log(20);

describe('wealth chart series', () => {
  it('plots wealth per discordant pair from 1, with the 1/α line', () => {
    const s = foldEvents(emptyRunState(RUN), [started(), step('c1', 1, 1, Math.log(1.6), 5), step('c1', 2, 0, Math.log(1.6), 5), step('c1', 3, 1, Math.log(2.5), 4.8)]);
    const d = wealthChartData(s, undefined);
    expect(d.x).toEqual([0, 1, 2]);
    expect(d.live.map((v) => Number(v?.toFixed(6)))).toEqual([1, 1.6, 2.5]);
    expect(d.threshold.map((v) => Number(v?.toFixed(6)))).toEqual([20, 20, 20]);
    expect(d.past).toEqual([null, null, null]);
    expect(d.liveId).toBe('c1');
    expect(d.summary).toBe('Under test c1: evidence ×2.5 (needs ×20) after 2 discordant pairs and 1 tie.');
  });

  it('a candidate with ties only: no threshold claimed while it runs, its decision’s once decided', () => {
    const tie = (k: number) => ev('wealth/step', { candidateId: 'c1', k, itemId: `i${k}`, delta: 0, logWealth: 0, logThreshold: L20, logBest: 10 });
    const running = foldEvents(emptyRunState(RUN), [started(), tie(1), tie(2), tie(3)]);
    expect(wealthChartData(running, undefined).summary).toBe('Under test c1: evidence ×1 after 0 discordant pairs and 3 ties.');
    const over = foldEvents(emptyRunState(RUN), [started(), tie(1), tie(2), tie(3), decided('c1', 'reject', { threshold: 20, logWealth: 0 })]);
    const d = wealthChartData(over, undefined);
    expect(d.summary).toBe('Under test c1: evidence ×1 (needs ×20) after 0 discordant pairs and 3 ties; rejected.');
    expect(d.threshold.map((v) => Number(v?.toFixed(6)))).toEqual([20]);
  });

  it('puts the wealth below the futility bound exactly when the threshold is out of reach', () => {
    const s = foldEvents(emptyRunState(RUN), [started(), step('c1', 1, -1, Math.log(0.6), L20 + 0.5), step('c1', 2, -1, Math.log(0.3), L20 - 0.2)]);
    const d = wealthChartData(s, undefined);
    expect(d.futility[1]!).toBeLessThan(d.live[1]!);
    expect(d.futility[2]!).toBeGreaterThan(d.live[2]!);
    expect(d.summary).toContain('; futile.');
  });

  it('draws a selected past candidate next to the live one and marks where each test stopped', () => {
    const s = foldEvents(emptyRunState(RUN), [
      started(),
      step('old', 1, 1, Math.log(1.5)),
      step('old', 2, -1, Math.log(0.75)),
      decided('old', 'reject'),
      step('new', 1, 1, Math.log(1.5)),
      step('new', 2, 1, Math.log(2.2)),
      step('new', 3, 1, Math.log(25)),
      decided('new', 'commit'),
    ]);
    const d = wealthChartData(s, 'old');
    expect(d.liveId).toBe('new');
    expect(d.pastId).toBe('old');
    expect(d.x).toEqual([0, 1, 2, 3]);
    expect(d.past.map((v) => (v === null ? null : Number(v.toFixed(4))))).toEqual([1, 1.5, 0.75, null]);
    expect(d.commits.map((v) => (v === null ? null : Number(v.toFixed(4))))).toEqual([null, null, null, 25]);
    expect(d.rejects.map((v) => (v === null ? null : Number(v.toFixed(4))))).toEqual([null, null, 0.75, null]);
    // The axis spans both curves and the threshold with headroom, so markers are not on the frame.
    expect(d.yRange[0]).toBeLessThan(0.75);
    expect(d.yRange[1]).toBeGreaterThan(25);
  });

  it('draws the futility bound of the candidate the user selected, else of the live one', () => {
    const s = foldEvents(emptyRunState(RUN), [started(), step('old', 1, -1, Math.log(0.5), L20 - 1), decided('old', 'reject'), step('new', 1, 1, Math.log(1.5), L20 + 2)]);
    expect(wealthChartData(s, 'old').futilityId).toBe('old');
    expect(wealthChartData(s, 'old').futility[1]).toBeCloseTo(0.5 * Math.E, 6);
    expect(wealthChartData(s, undefined).futilityId).toBe('new');
  });

  it('labels the log axis at decades and at the threshold, never two labels on top of each other', () => {
    expect(logSplits(0.005, 80, 20)).toEqual([0.01, 0.1, 1, 20]);
    expect(logSplits(0.5, 300, 100)).toEqual([1, 10, 100]);
    expect(logSplits(0.5, 300, 20)).toEqual([1, 20, 100]);
    expect(logSplits(0.5, 300, undefined)).toEqual([1, 10, 100]);
    // The run-level default's first line: ×100 sits a factor 2.5 above it, too close to label.
    expect(logSplits(0.5, 300, 40)).toEqual([1, 10, 40]);
  });

  it('says the chart is empty rather than drawing nothing silently', () => {
    expect(wealthChartData(emptyRunState(RUN), undefined).summary).toBe('No evidence yet: the chart fills in as discordant pairs arrive.');
  });
});
