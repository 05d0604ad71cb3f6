// @vitest-environment happy-dom
// The Zero-data tab as a user meets it, through the panel and an in-memory host: a dev-set
// generation opens on it with only its own tabs; each round is a button (↑/↓ move, a click picks
// it) whose bar and counts say what became of its tasks; the picked round's histograms and the
// judge's exemplars follow, the exemplars asked of the host once and shown as text, never markup.
import { beforeEach, describe, expect, it } from 'vitest';
import { mountPanel } from '../../../webview/components/panel-app';
import { memoryHost } from '../../../webview/memoryHost';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';
import { RUN, ev } from './events';
import { exemplar, zeroRound } from './zeroRound';
import type { PanelEvent, RunState } from '../../../src/panelState/types';

const XSS = '<img src=x onerror="window.__xss=1">';

const generation = (): PanelEvent => ev('run/started', { info: { kind: 'gen-data', target: 'm/x.prompt.md', gate: 'none', alpha: 0.05, mode: 'suggest', seed: 1, rounds: 3, estimate: { calls: 260, tokens: 1, unpriced: ['m'] } } });

function mounted(events: PanelEvent[]) {
  const host = memoryHost();
  const root = document.createElement('div');
  document.body.replaceChildren(root);
  const app = mountPanel(root, { host, schedule: (paint) => paint(), now: () => 2_000_000 });
  const run = JSON.parse(JSON.stringify(foldEvents(emptyRunState(RUN), events))) as RunState;
  host.deliver({ type: 'run/snapshot', runs: [{ runId: RUN, target: 'm/x.prompt.md', status: 'running', startedAt: 1 }], run });
  return { host, app, view: app.zeroElement };
}

const rounds = (view: HTMLElement) => [...view.querySelectorAll<HTMLButtonElement>('.zero-round-row')];
const requests = (host: ReturnType<typeof memoryHost>) => host.sent.filter((m) => m.type === 'zero/request');

beforeEach(() => {
  delete (window as { __xss?: unknown }).__xss;
});

describe('the Zero-data tab', () => {
  it('a generation opens on it, beside Cost only, with a bar per round that says what became of its tasks', () => {
    const { app, view } = mounted([generation(), zeroRound(1, { exemplars: [exemplar('r1:a:role')] }), zeroRound(2, { kept: 4, lowDispersion: 1, exemplars: [] })]);
    expect(app.uiState.tab).toBe('zero');
    expect(app.shownTabs).toEqual(['zero', 'cost']);
    expect(view.querySelector('.zero-summary')?.textContent).toBe('So far: 7 dev tasks and 4 held-out from 2 rounds.');
    const [one, two] = rounds(view);
    expect(one!.getAttribute('aria-label')).toBe('Round 1: 10 written of 12 asked — 3 kept, 2 held out, 1 not in top K, 2 low dispersion, 1 duplicate, 1 format (1 empty)');
    expect(one!.querySelector('.zero-round-counts')?.textContent).toBe('3 kept · 2 held out · 1 not in top K · 2 low dispersion · 1 duplicate · 1 format');
    expect([...one!.querySelectorAll<HTMLElement>('.fate-segment')].map((s) => [s.className, s.style.flexGrow])).toEqual([
      ['fate-segment fate-kept', '3'],
      ['fate-segment fate-heldOut', '2'],
      ['fate-segment fate-notInTopK', '1'],
      ['fate-segment fate-lowDispersion', '2'],
      ['fate-segment fate-duplicate', '1'],
      ['fate-segment fate-format', '1'],
    ]);
    // The latest round is the one open.
    expect([one!.getAttribute('aria-pressed'), two!.getAttribute('aria-pressed')]).toEqual(['false', 'true']);
    expect(view.querySelector('.zero-round .section-heading')?.textContent).toBe('Round 2: difficulty and dispersion');
    // Both reliability curves, in words and as a table.
    expect(view.querySelector('ratchet-reliability-chart .chart-summary')?.textContent).toContain('role asymmetry 0.75 (n 4) → 0.75 (n 4); subtask amplification 0.75 (n 4) → 0.75 (n 4)');
    expect([...view.querySelectorAll('.zero-reliability tbody tr')].map((tr) => tr.textContent)).toEqual(['10.75 [0.30, 0.95] n 40.75 [0.30, 0.95] n 4', '20.75 [0.30, 0.95] n 40.75 [0.30, 0.95] n 4']);
  });

  it('draws the picked round’s histograms, each bar labelled', () => {
    const { view } = mounted([generation(), zeroRound(1, { kept: 2, notInTopK: 0, lowDispersion: 3 })]);
    const [difficulty, dispersion] = [...view.querySelectorAll<HTMLElement>('figure.histogram')];
    expect(difficulty!.getAttribute('aria-label')).toBe('Difficulty: 0–0.1: 3 tasks; 0.5–0.6: 2 tasks');
    expect(dispersion!.getAttribute('aria-label')).toBe('Dispersion: 0–0.05: 3 tasks; 0.45–0.5: 2 tasks');
    expect([...difficulty!.querySelectorAll<HTMLElement>('.histogram-fill')].map((f) => f.style.height)).toEqual(['100%', '0%', '0%', '0%', '0%', '67%', '0%', '0%', '0%', '0%']);
    expect(difficulty!.textContent).toContain('2 too easy (every answer top-scored), 1 too hard (every answer failed)');
  });

  it('asks the host for a round’s exemplars once, and shows their texts as text', () => {
    const nasty = exemplar('r1:a:role', { task: `What is 2 + 2? ${XSS}`, better: 'The answer is 4', worse: XSS });
    const { host, view } = mounted([generation(), zeroRound(1, { exemplars: [nasty, exemplar('r1:b:amp', { type: 'amplification', judgement: 'split', betterSlot: 'B' })] })]);
    expect(requests(host)).toEqual([{ type: 'zero/request', runId: RUN, round: 1 }]);
    expect(view.querySelector('.exemplars')?.textContent).toBe('Loading the exemplars…');
    host.deliver({ type: 'zero/exemplars', runId: RUN, round: 1, exemplars: [nasty, exemplar('r1:b:amp', { type: 'amplification', judgement: 'split', betterSlot: 'B' })] });
    const cards = [...view.querySelectorAll<HTMLElement>('article.exemplar')];
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['Role asymmetry · wrong in both orders', 'Subtask amplification · split: it followed the slot, not the answer']);
    expect([...cards[0]!.querySelectorAll('pre')].map((p) => p.textContent)).toEqual([`What is 2 + 2? ${XSS}`, 'The answer is 4', XSS]);
    expect(view.querySelector('.exemplars img')).toBeNull();
    expect((window as { __xss?: unknown }).__xss).toBeUndefined();
    // A round it holds is not asked for again: the next round arrives (and opens), round 1 is picked back.
    host.deliver({ type: 'run/events', runId: RUN, events: [zeroRound(2)] });
    rounds(view)[0]!.click();
    expect(view.querySelectorAll('article.exemplar')).toHaveLength(2);
    expect(requests(host)).toHaveLength(1);
  });

  it('the arrow keys move between rounds and a click picks one, which the panel remembers', () => {
    const { host, app, view } = mounted([generation(), zeroRound(1, { exemplars: [exemplar('p')] }), zeroRound(2)]);
    const [one, two] = rounds(view);
    two!.focus();
    two!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }));
    expect(document.activeElement).toBe(one);
    one!.click();
    expect(app.uiState.zeroRound).toBe(1);
    expect(host.state?.zeroRound).toBe(1);
    expect(view.querySelector('.zero-round .section-heading')?.textContent).toBe('Round 1: difficulty and dispersion');
    expect(requests(host)).toEqual([{ type: 'zero/request', runId: RUN, round: 1 }]);
    // The picked round stays open as more rounds come, and focus stays where it was.
    expect(document.activeElement?.getAttribute('data-round')).toBe('1');
    host.deliver({ type: 'run/events', runId: RUN, events: [zeroRound(3)] });
    expect(rounds(view)).toHaveLength(3);
    expect(view.querySelector('.zero-round .section-heading')?.textContent).toBe('Round 1: difficulty and dispersion');
    expect(document.activeElement?.getAttribute('data-round')).toBe('1');
  });

  it('a round the host does not hold says why its exemplars are missing', () => {
    const { host, view } = mounted([generation(), zeroRound(1, { exemplars: [exemplar('p')] })]);
    host.deliver({ type: 'zero/exemplars', runId: RUN, round: 1, exemplars: [], why: 'the run is no longer in memory; open it from its journal.' });
    expect(view.querySelector('.exemplars')?.textContent).toBe('The exemplars are not available: the run is no longer in memory; open it from its journal.');
  });
});
