import { describe, expect, it } from 'vitest';
import { costChartData, costTable } from '../../../webview/model/costSeries';
import { diffModel } from '../../../webview/model/diffLines';
import { fileName } from '../../../src/core/fileName';
import { evidenceText, formatFactor } from '../../../webview/model/format';
import { headerModel } from '../../../webview/model/header';
import { ratingRows, ratingsChartData } from '../../../webview/model/ratings';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';
import { RUN, cost, decided, ev, proposed, started } from './events';
import type { PanelEvent } from '../../../src/panelState/types';

describe('run header', () => {
  it('shows budget used against each limit and drives the bar by the binding one', () => {
    const s = foldEvents(emptyRunState(RUN), [started({ budget: { llmCalls: 100, dollars: 1, wallMs: 60_000 } }), ev('cost/update', { cost: cost(40), llmCalls: 40 })]);
    const start = s.startedAt!;
    const m = headerModel(s, start + 30_000);
    expect(m.meters).toEqual([
      { name: 'calls', used: '40', limit: '100', fraction: 0.4 },
      { name: 'tokens', used: '4.4k', limit: undefined, fraction: undefined },
      { name: 'dollars', used: '$0.0400', limit: '$1.00', fraction: 0.04 },
      { name: 'time', used: '30s', limit: '1m00s', fraction: 0.5 },
    ]);
    expect(m.progress).toBe(0.5);
    expect(m).toMatchObject({ target: 'x.prompt.md', targetPath: 'p/x.prompt.md', gate: 'pace+', alpha: 'α = 0.05', mode: 'suggest', canCancel: true, canResume: false });
  });

  it('titles a run by its file name, from a POSIX or a Windows path', () => {
    expect(fileName('/home/u/w/arith/task.prompt.md')).toBe('task.prompt.md');
    expect(fileName('C:\\Users\\u\\w\\task.prompt.md')).toBe('task.prompt.md');
    expect(fileName('task.prompt.md')).toBe('task.prompt.md');
  });

  it('offers Resume only for an interrupted run, never for one that ended or is still running', () => {
    const buttons = (end: PanelEvent | undefined, interrupted: boolean) => {
      const m = headerModel(foldEvents(emptyRunState(RUN), [started(), ...(end ? [end] : [])]), 0, interrupted ? { interrupted } : {});
      return { status: m.status, canCancel: m.canCancel, canResume: m.canResume };
    };
    expect(buttons(undefined, false)).toEqual({ status: 'running', canCancel: true, canResume: false });
    expect(buttons(undefined, true)).toEqual({ status: 'running', canCancel: false, canResume: true });
    // Ended runs are terminal, even when a stale listing still calls them interrupted.
    for (const interrupted of [false, true]) {
      expect(buttons(ev('run/cancelled', {}), interrupted)).toEqual({ status: 'cancelled', canCancel: false, canResume: false });
      expect(buttons(ev('run/failed', { error: { code: 'llmTimeout', message: 'timed out' } }), interrupted)).toEqual({ status: 'failed', canCancel: false, canResume: false });
      expect(buttons(ev('run/finished', { commits: 0, candidates: 1, incumbentId: undefined }), interrupted)).toEqual({ status: 'finished', canCancel: false, canResume: false });
    }
  });

  it('says why a search stopped early in its status, once: not again in the warning box', () => {
    const why = '10 proposals in a row came to nothing (search.stopAfterFailedProposals); the first could not be read: the answer has no <DIFF> block.';
    const s = foldEvents(emptyRunState(RUN), [
      started({ kind: 'search' }),
      ev('log', { level: 'warn', message: `${why} The search stops after 12 proposals.` }),
      ev('run/finished', { commits: 0, candidates: 0, incumbentId: 'p0', stopped: why }),
    ]);
    const m = headerModel(s, 0);
    expect(m.statusText).toBe(`stopped early: 0 commits of 0 candidates. 10 proposals in a row came to nothing (search.stopAfterFailedProposals); the first could not be read: the answer has no <DIFF> block.`);
    expect(m.warning).toBeUndefined();
  });

  it('warns when the dev set cannot commit', () => {
    const s = foldEvents(emptyRunState(RUN), [started(), decided('c1', 'reject', { reason: 'infeasible' }), ev('run/cancelled', {})]);
    expect(headerModel(s, 0).warning).toMatch(/cannot commit anything with this dev set at α = 0.05/);
  });

  it('reports the held-out test split, the measure that counts', () => {
    const s = foldEvents(emptyRunState(RUN), [
      started(),
      ev('report/test', { n: 200, baseline: { candidateId: 'c0', mean: 0.61, lo: 0.55, hi: 0.67 }, final: { candidateId: 'c9', mean: 0.7, lo: 0.64, hi: 0.76 }, difference: { mean: 0.09, lo: 0.03, hi: 0.15 } }),
    ]);
    expect(headerModel(s, 0).testReport).toBe('Test split (n = 200): c0 0.610 [0.550, 0.670] → c9 0.700 [0.640, 0.760]; difference +0.090 [+0.030, +0.150] (95% intervals).');
  });

  it('shows a rate-limit wait counting down while it runs, and nothing once it is over or the run ended', () => {
    const wait = ev('llm/waiting', { at: 1_000_000, role: 'agent', model: 'gpt', why: 'rate-limited', waitMs: 12_000, status: 429, message: 'The endpoint answered 429.' });
    const s = foldEvents(emptyRunState(RUN), [started(), wait]);
    expect(headerModel(s, 1_000_000).waiting).toEqual({ text: 'rate limited, waiting 12 s', detail: 'The endpoint answered 429.' });
    expect(headerModel(s, 1_010_500).waiting?.text).toBe('rate limited, waiting 2 s');
    expect(headerModel(s, 1_012_000).waiting).toBeUndefined();
    expect(headerModel(s, 1_000_000, { interrupted: true }).waiting).toBeUndefined();
    const backoff = foldEvents(emptyRunState(RUN), [started(), ev('llm/waiting', { at: 5, role: 'validator', model: 'm', why: 'retry', waitMs: 900, message: 'no answer' })]);
    expect(headerModel(backoff, 5).waiting?.text).toBe('retrying a failed call, waiting 1 s');
    const ended = foldEvents(emptyRunState(RUN), [started(), wait, ev('run/failed', { error: { code: 'llmHttp', message: 'After 10 attempts: 500' } })]);
    expect(headerModel(ended, 1_000_000).waiting).toBeUndefined();
  });

  it('says what to do when there is no run', () => {
    expect(headerModel(undefined, 0)).toMatchObject({ target: 'No run yet', statusText: 'Start a run with Evolve on a prompt file.', canCancel: false });
  });
});

describe('ratings', () => {
  it('sorts by Bradley–Terry and formats intervals and selection probability', () => {
    const s = foldEvents(emptyRunState(RUN), [
      started(),
      proposed('a', undefined),
      proposed('b', 'a'),
      decided('b', 'commit'),
      ev('ratings', {
        ratings: [
          { candidateId: 'a', elo: 1490, bt: 1480.4, lo: 1400, hi: 1550, selectP: 0.25 },
          { candidateId: 'b', elo: 1530, bt: 1541.6, lo: 1490, hi: 1600, selectP: 0.75 },
        ],
      }),
    ]);
    expect(ratingRows(s)).toEqual([
      { candidateId: 'b', candidate: 'b', elo: '1530', bt: '1542', interval: '1490–1600', selectP: '75.0%', selectFraction: 0.75, status: 'commit', incumbent: true },
      { candidateId: 'a', candidate: 'a', elo: '1490', bt: '1480', interval: '1400–1550', selectP: '25.0%', selectFraction: 0.25, status: 'pending', incumbent: false },
    ]);
    expect(ratingsChartData(s)).toEqual({ x: [1, 2], labels: ['b', 'a'], bt: [1541.6, 1480.4], lo: [1490, 1400], hi: [1600, 1550], elo: [1530, 1490] });
  });
});

describe('cost per role', () => {
  it('charts the chosen measure over run time for roles that made calls', () => {
    const s = foldEvents(emptyRunState(RUN), [started(), ev('cost/update', { cost: cost(2), llmCalls: 2 }), ev('cost/update', { cost: cost(5), llmCalls: 5 })]);
    const calls = costChartData(s, 'calls');
    expect(calls.roles).toEqual(['agent']);
    expect(calls.series).toEqual([[2, 5]]);
    expect(calls.x).toEqual([0.01, 0.02]);
    expect(costChartData(s, 'tokens').series).toEqual([[220, 550]]);
    expect(costTable(s)).toEqual([{ role: 'agent', calls: '5', cached: '1', retries: '0', rateLimited: '0', tokens: '550', dollars: '$0.0050' }]);
    // Rate-limit waits counted apart from retries; a journal from before they were counted reads as none.
    const limited = cost(5);
    limited.agent = { ...limited.agent, retries: 2, rateLimited: 7 };
    const later = foldEvents(emptyRunState(RUN), [started(), ev('cost/update', { cost: limited, llmCalls: 5 })]);
    expect(costTable(later)[0]).toMatchObject({ retries: '2', rateLimited: '7' });
  });
});

describe('formatting and diff', () => {
  it('formats wealth factors readably', () => {
    expect([formatFactor(20), formatFactor(3.3812), formatFactor(0.0004), formatFactor(2e6)]).toEqual(['20', '3.38', '4.0e-4', '2.0e+6']);
    expect(evidenceText(Math.log(3.3812), 20)).toBe('evidence ×3.38 (needs ×20)');
  });

  it('diffs parent → child by line and folds long unchanged stretches', () => {
    const parent = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const child = parent.replace('line 10', 'line ten');
    const m = diffModel(parent, child);
    expect(m.added).toBe(1);
    expect(m.removed).toBe(1);
    expect(m.lines.map((l) => `${l.kind}:${l.text}`)).toEqual([
      'fold:… 7 unchanged lines',
      'same:line 7',
      'same:line 8',
      'same:line 9',
      'del:line 10',
      'add:line ten',
      'same:line 11',
      'same:line 12',
      'same:line 13',
      'fold:… 6 unchanged lines',
    ]);
  });
});
