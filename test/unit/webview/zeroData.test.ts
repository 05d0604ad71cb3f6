// The Zero-data tab's data: the fold keeps each round's counts (never its texts), in round order,
// a replayed round replacing its first sighting; the view model accounts for every task the
// Challenger wrote, draws the judge's two reliability curves (a round whose pairs were all ties is a
// gap, not a zero), and words the histograms and exemplars; the tab shows only for runs that
// generate tasks, and a dev-set generation opens on it.
import { describe, expect, it } from 'vitest';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';
import { headerModel } from '../../../webview/model/header';
import { firstTab, tabHiddenWhy } from '../../../webview/model/tabs';
import { exemplarCards, histogramModel, reliabilityChartData, reliabilityRows, shownRound, tasksRows, zeroSummary } from '../../../webview/model/zeroData';
import { ev, started } from './events';
import { bins, exemplar, zeroRound } from './zeroRound';
import type { PanelEvent, RunState } from '../../../src/panelState/types';

const generation = (): PanelEvent => ev('run/started', { info: { kind: 'gen-data', target: 'm/x.prompt.md', gate: 'none', alpha: 0.05, mode: 'suggest', seed: 1, rounds: 2, estimate: { calls: 260, tokens: 1, unpriced: ['m'] } } });
const fold = (events: PanelEvent[]): RunState => foldEvents(emptyRunState('run-1'), events);

describe('folding zero/round events', () => {
  it('keeps the counts, histograms and reliability of each round, in round order; a replayed round replaces the first', () => {
    const r1 = zeroRound(1, { exemplars: [exemplar('p1'), exemplar('p2')] });
    const s = fold([generation(), zeroRound(2, { kept: 4, exemplarsUsed: ['p1', 'p2'] }), r1, zeroRound(2, { kept: 5, exemplarsUsed: ['p1', 'p2'] })]);
    expect(s.zeroRounds.map((r) => [r.round, r.kept, r.exemplarsUsed])).toEqual([
      [1, 3, 0],
      [2, 5, 2],
    ]);
    expect(s.zeroRounds[0]).toEqual({
      round: 1,
      at: r1.at,
      requested: 12,
      written: 10,
      discarded: r1.discarded,
      kept: 3,
      heldOut: 2,
      tooEasy: 1,
      tooHard: 1,
      difficultyHistogram: r1.difficultyHistogram,
      dispersionHistogram: r1.dispersionHistogram,
      reliability: r1.reliability,
      exemplars: 2,
      exemplarsUsed: 0,
    });
    // No task or exemplar text in the light state the view is sent.
    expect(JSON.stringify(s.zeroRounds)).not.toContain('What is');
    expect(JSON.stringify(s.zeroRounds)).not.toContain('answer to');
  });
});

describe('the Zero-data view model', () => {
  it('accounts for every task written: the fates add up to it, in a fixed order, with the format reasons', () => {
    const s = fold([generation(), zeroRound(1, { kept: 3, heldOut: 2, notInTopK: 0, lowDispersion: 4, duplicate: 1, empty: 1, unclosedTag: 1, unjudged: 1 })]);
    const [row] = tasksRows(s);
    expect(row!.segments.map((x) => [x.fate, x.count])).toEqual([
      ['kept', 3],
      ['heldOut', 2],
      ['lowDispersion', 4],
      ['duplicate', 1],
      ['format', 2],
      ['unjudged', 1],
    ]);
    expect(row!.segments.reduce((n, x) => n + x.count, 0)).toBe(s.zeroRounds[0]!.written);
    expect(row!.segments.reduce((n, x) => n + x.fraction, 0)).toBeCloseTo(1, 12);
    expect(row!.label).toBe('Round 1: 13 written of 12 asked — 3 kept, 2 held out, 4 low dispersion, 1 duplicate, 2 format (1 unclosed tag, 1 empty), 1 unjudged');
    expect(row!.written).toBe('13 of 12');
  });

  it('draws one curve per pair type over the rounds; a round of ties only is a gap', () => {
    const s = fold([
      generation(),
      zeroRound(1, { role: { agreement: 0.5, lo: 0.1, hi: 0.9, pairs: 2 }, amplification: { agreement: undefined, lo: 0, hi: 1, pairs: 2, right: 0, wrong: 0, ties: 2 } }),
      zeroRound(2, { role: { agreement: 0.75, lo: 0.3, hi: 0.95 }, amplification: { agreement: 1, lo: 0.44, hi: 1, pairs: 3, right: 3, wrong: 0 } }),
    ]);
    const chart = reliabilityChartData(s);
    expect(chart.x).toEqual([1, 2]);
    expect(chart.series).toEqual({
      roleAsymmetry: { mean: [0.5, 0.75], lo: [0.1, 0.3], hi: [0.9, 0.95] },
      amplification: { mean: [null, 1], lo: [null, 0.44], hi: [null, 1] },
    });
    expect(chart.chance).toEqual([0.5, 0.5]);
    expect(chart.summary).toBe('The judge’s agreement with the known order, by round: role asymmetry 0.50 (n 2) → 0.75 (n 4); subtask amplification — (n 2, all ties) → 1.00 (n 3). ½ is what a judge that ignores the answers gets.');
    expect(reliabilityRows(s)[1]!.cells).toEqual({
      roleAsymmetry: { text: '0.75 [0.30, 0.95] n 4', title: '3 right in both orders, 1 wrong in both, 0 split (followed the slot), 0 ties; 95% interval.' },
      amplification: { text: '1.00 [0.44, 1.00] n 3', title: '3 right in both orders, 0 wrong in both, 0 split (followed the slot), 0 ties; 95% interval.' },
    });
  });

  it('shows the round picked, else the latest; histograms are scaled to their tallest bar', () => {
    const s = fold([generation(), zeroRound(1), zeroRound(2)]);
    expect(shownRound(s, undefined)?.round).toBe(2);
    expect(shownRound(s, 1)?.round).toBe(1);
    expect(shownRound(s, 7)?.round).toBe(2);
    const h = histogramModel(bins([1, 0, 4, 2], 0.5));
    expect(h).toEqual({
      total: 7,
      from: '0',
      to: '0.5',
      bars: [
        { range: '0–0.13', count: 1, height: 0.25, label: '0–0.13: 1 task' },
        { range: '0.13–0.25', count: 0, height: 0, label: '0.13–0.25: 0 tasks' },
        { range: '0.25–0.38', count: 4, height: 1, label: '0.25–0.38: 4 tasks' },
        { range: '0.38–0.5', count: 2, height: 0.5, label: '0.38–0.5: 2 tasks' },
      ],
    });
  });

  it('words each exemplar by its pair type and how the judge got it wrong', () => {
    const cards = exemplarCards([exemplar('r1:a:role'), exemplar('r1:b:amp', { type: 'amplification', judgement: 'split', betterSlot: 'B' })]);
    expect(cards.map((c) => [c.heading, c.note, c.better.label, c.worse.label])).toEqual([
      ['Role asymmetry · wrong in both orders', 'Shown to the next round’s judge as a worked example, the better answer in slot A.', 'Better: the Solver’s answer', 'Worse: the Challenger’s own answer'],
      ['Subtask amplification · split: it followed the slot, not the answer', 'Shown to the next round’s judge as a worked example, the better answer in slot B.', 'Better: composed from the subtasks’ answers', 'Worse: the one-shot answer'],
    ]);
    expect(cards[0]).toMatchObject({ task: 'task of r1:a:role', better: { text: 'better answer to r1:a:role' }, worse: { text: 'worse answer to r1:a:role' } });
  });

  it('sums up what a generation wrote, and the header says it instead of commits', () => {
    const running = fold([generation(), zeroRound(1, { kept: 3, heldOut: 2 })]);
    expect(zeroSummary(running)).toBe('So far: 3 dev tasks and 2 held-out from 1 round.');
    expect(headerModel(running, 0).statusText).toBe('generating a dev set: round 2 of 2');
    expect(headerModel(running, 0).gate).toBe('none (generates a dev set)');
    const done = fold([generation(), zeroRound(1, { kept: 3, heldOut: 2 }), zeroRound(2, { kept: 1, heldOut: 1 }), ev('run/finished', { commits: 0, candidates: 0, incumbentId: undefined })]);
    expect(zeroSummary(done)).toBe('Written: 4 dev tasks and 3 held-out from 2 rounds.');
    expect(headerModel(done, 0).statusText).toBe('finished: 4 dev tasks and 3 held-out from 2 rounds');
  });
});

describe('the Zero-data tab', () => {
  it('shows for a generation (and opens it), for an evolve run once a round came; hides with a reason otherwise', () => {
    const gen = fold([generation()]);
    expect(tabHiddenWhy('zero', gen)).toBeUndefined();
    expect(firstTab(gen)).toBe('zero');
    // A generation has no candidates, no rows, no ratings: only its rounds and its cost.
    const shown = (['programs', 'zero', 'verdicts', 'evidence', 'results', 'ratings', 'lineage', 'cost'] as const).filter((t) => tabHiddenWhy(t, gen) === undefined);
    expect(shown).toEqual(['zero', 'cost']);
    expect(tabHiddenWhy('verdicts', gen)).toBe('A dev-set generation tests no candidates: what it did is under Zero-data, and in the dev set it writes.');

    const evolve = fold([started()]);
    expect(tabHiddenWhy('zero', evolve)).toBe('No zero-data round in this run: it writes tasks of its own only when its spec names no dataset.');
    expect(firstTab(evolve)).toBeUndefined();
    foldEvents(evolve, [zeroRound(1)]);
    expect(tabHiddenWhy('zero', evolve)).toBeUndefined();
    expect(tabHiddenWhy('zero', fold([started({ kind: 'search', gate: 'pace' })]))).toBe('A code search generates no tasks: its programs are under Programs.');
  });
});
