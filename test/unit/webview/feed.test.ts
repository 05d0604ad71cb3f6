import { describe, expect, it } from 'vitest';
import { feedCounts, feedRows, reasonText, statisticText, toFeedRow } from '../../../webview/model/feed';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';
import { RUN, decided, ev, started } from './events';
import type { DecisionRow } from '../../../src/panelState/types';

const row = (over: Partial<DecisionRow> = {}): DecisionRow => ({
  seq: 0,
  at: 0,
  candidateId: 'abcdef0123456789',
  parentId: 'c0',
  incumbentId: 'c0',
  gate: 'pace+',
  decision: 'commit',
  reason: 'evidence',
  alpha: 0.05,
  threshold: 20,
  logWealth: Math.log(21.5),
  itemsConsumed: 9,
  wins: 7,
  losses: 1,
  ties: 1,
  ...over,
});

describe('verdict feed rows', () => {
  it('states e-process evidence as "evidence ×E (needs ×1/α)", not as a p-value', () => {
    expect(statisticText(row())).toBe('evidence ×21.5 (needs ×20)');
    expect(statisticText(row({ decision: 'reject', reason: 'futile', logWealth: Math.log(0.125) }))).toBe('evidence ×0.125 (needs ×20)');
  });

  it('shows the Elo change for the Elo gate and the validator verdicts for pairwise gates', () => {
    expect(statisticText(row({ gate: 'elo', logWealth: 0, statistic: { eloChange: 12.34 } }))).toBe('Elo +12.3');
    expect(statisticText(row({ gate: 'pairwise', logWealth: 0, verdicts: { child: 9, parent: 3, tie: 2, agreed: 5, disagreed: 2 } }))).toBe('verdicts child 9 · parent 3 · tie 2 (5/7 agreed)');
    expect(statisticText(row({ gate: 'pace-rf', verdicts: { child: 4, parent: 0, tie: 0, agreed: 2, disagreed: 0 } }))).toBe('evidence ×21.5 (needs ×20); verdicts child 4 · parent 0 · tie 0 (2/2 agreed)');
  });

  it('falls back to the gate statistic for greedy and sign-test decisions', () => {
    expect(statisticText(row({ gate: 'sign', logWealth: 0, reason: 'greedy', statistic: { pValue: 0.0312 } }))).toBe('pValue 0.031');
    expect(statisticText(row({ gate: 'greedy', logWealth: 0, reason: 'greedy', statistic: { scoreDiff: 3 } }))).toBe('scoreDiff +3');
  });

  it('explains the reason in words', () => {
    expect(reasonText(row())).toBe('evidence reached ×20');
    expect(reasonText(row({ reason: 'infeasible' }))).toBe('infeasible: dev set too small to commit');
    expect(reasonText(row({ reason: 'duplicate' }))).toBe('duplicate of a rejected candidate');
    expect(reasonText(row({ reason: 'floor' }))).toBe('stopped: evidence fell below ×0.2');
    expect(reasonText(row({ reason: 'screened' }))).toBe('screened out: no lead on feedback items');
    expect(statisticText(row({ reason: 'screened', decision: 'reject', threshold: 120, logWealth: 0 }))).toBe('screened out before the dev set');
  });

  it('formats a whole row, with a sentence for screen readers and a hover on each cell', () => {
    const f = toFeedRow(row());
    expect({ decision: f.decisionText, candidate: f.candidate, parent: f.parent, statistic: f.statistic.text, items: f.items.text, reason: f.reason.text }).toEqual({
      decision: 'commit',
      candidate: { text: 'abcdef01', title: 'abcdef0123456789' },
      parent: { text: 'c0', title: 'c0' },
      statistic: 'evidence ×21.5 (needs ×20)',
      items: '9 (7W 1L 1T)',
      reason: 'evidence reached ×20',
    });
    expect(f.label).toBe('commit abcdef01 from c0: evidence ×21.5 (needs ×20); 9 items; evidence reached ×20');
  });

  it('lists decisions newest first and filters them by decision', () => {
    const s = foldEvents(emptyRunState(RUN), [started(), decided('a', 'reject'), decided('b', 'commit'), decided('c', 'reject'), ev('log', { level: 'info', message: 'x' })]);
    expect(feedRows(s, 'all').map((r) => r.candidateId)).toEqual(['c', 'b', 'a']);
    expect(feedRows(s, 'reject').map((r) => r.candidateId)).toEqual(['c', 'a']);
    expect(feedRows(s, 'commit').map((r) => r.candidateId)).toEqual(['b']);
    expect(feedCounts(s)).toEqual({ all: 3, commit: 1, reject: 2 });
    expect(feedRows(undefined, 'all')).toEqual([]);
  });
});
