// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { PanelApp } from '../../../webview/components/panel-app';
import { mountPanel } from '../../../webview/components/panel-app';
import { memoryHost, type MemoryHost } from '../../../webview/memoryHost';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';
import type { ResultsTable } from '../../../src/panelState/results';
import type { ViewMessage } from '../../../src/protocol/webview';
import { RUN, ev, proposed, started } from './events';
import type { PanelEvent } from '../../../src/panelState/types';

const XSS = '<img src=x onerror="window.__xss=1">';

function mount(): { host: MemoryHost; app: PanelApp } {
  const host = memoryHost();
  const root = document.createElement('div');
  document.body.replaceChildren(root);
  return { host, app: mountPanel(root, { host, schedule: (paint) => paint(), now: () => 2_000_000 }) };
}

function evaluateRun(): PanelEvent[] {
  return [
    started({ kind: 'evaluate', budget: { candidates: 0 } }),
    proposed('v0', undefined),
    ev('report/test', { n: 3, baseline: { candidateId: 'v0', mean: 2 / 3, lo: 0.21, hi: 0.94 }, final: { candidateId: 'v0', mean: 2 / 3, lo: 0.21, hi: 0.94 }, difference: { mean: 0, lo: 0, hi: 0 } }),
    ev('run/finished', { commits: 0, candidates: 0, incumbentId: 'v0' }),
  ];
}

function snapshot(host: MemoryHost, events: PanelEvent[]): void {
  host.deliver({ type: 'run/snapshot', runs: [{ runId: RUN, target: 'p/x.prompt.md', status: 'finished', startedAt: 1 }], run: JSON.parse(JSON.stringify(foldEvents(emptyRunState(RUN), events))) });
}

const TABLE: ResultsTable = {
  runId: RUN,
  versions: [{ id: 'v0', baseline: true }],
  items: [
    { itemId: 't1', split: 'test', text: 'What is 2 + 2?' },
    { itemId: 't2', split: 'test', text: XSS },
    { itemId: 't3', split: 'test', text: 'Spell cat' },
  ],
  scores: [[1], [0], [1]],
  passFail: true,
};

const rows = (app: PanelApp) => app.resultsElement.listElement.renderedRows();
const lastSent = (host: MemoryHost): ViewMessage => host.sent[host.sent.length - 1]!;

describe('the Results view', () => {
  it('opens an Evaluate run on the Results tab, asks the host for the table, and the header says what was evaluated', () => {
    const { host, app } = mount();
    snapshot(host, evaluateRun());
    expect(app.uiState.tab).toBe('results');
    // One prompt tested: no candidates, so no verdicts, evidence or lineage to show.
    expect(app.shownTabs).toEqual(['results', 'cost']);
    expect(host.sent).toContainEqual({ type: 'results/request', runId: RUN });
    const status = app.headerElement.querySelector('.run-status')?.textContent ?? '';
    expect(status).toContain('evaluated');
    expect(status).toContain('3 test items');
    expect(status).not.toContain('0 commits');
  });

  it("lists every item with pass/fail per version and the version's accuracy with its interval method in the tooltip", () => {
    const { host, app } = mount();
    snapshot(host, evaluateRun());
    host.deliver({ type: 'results/show', table: TABLE });
    expect(rows(app).map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      ['t1', 'What is 2 + 2?', 'pass'],
      ['t2', XSS, 'fail'],
      ['t3', 'Spell cat', 'pass'],
    ]);
    expect((window as { __xss?: unknown }).__xss).toBeUndefined();
    const head = app.resultsElement.querySelector<HTMLElement>('.results-version')!;
    expect(head.textContent).toContain('67%');
    expect(head.title).toContain('Wilson');
    expect(app.resultsElement.querySelector('.results-count')?.textContent).toBe('3 of 3 items');
  });

  it('a click on a cell asks for that output and shows it with the expected answer and variables', () => {
    const { host, app } = mount();
    snapshot(host, evaluateRun());
    host.deliver({ type: 'results/show', table: TABLE });
    const cell = rows(app)[1]!.querySelector<HTMLElement>('[data-col="0"]')!;
    cell.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(lastSent(host)).toEqual({ type: 'results/cell', runId: RUN, itemId: 't2', versionId: 'v0' });
    host.deliver({ type: 'results/cell', cell: { runId: RUN, itemId: 't2', versionId: 'v0', split: 'test', score: 0, output: `I think ${XSS}`, expected: '4', vars: { question: 'What is 2 + 2?' } } });
    const detail = app.resultsElement.querySelector('.results-detail')!;
    expect(detail.querySelector('h3')?.textContent).toBe('t2 (test) · v0 (baseline) · fail');
    expect(detail.querySelector('.results-output')?.textContent).toBe(`I think ${XSS}`);
    expect(detail.querySelector('.results-expected')?.textContent).toBe('4');
    expect(detail.querySelector('dt')?.textContent).toBe('question');
    expect((window as { __xss?: unknown }).__xss).toBeUndefined();
  });

  it('only failures, and a search, narrow the rows', () => {
    const { host, app } = mount();
    snapshot(host, evaluateRun());
    host.deliver({ type: 'results/show', table: TABLE });
    const only = app.resultsElement.querySelector<HTMLInputElement>('#results-only-failures')!;
    only.checked = true;
    only.dispatchEvent(new Event('change'));
    expect(rows(app).map((r) => r.firstElementChild?.textContent)).toEqual(['t2']);
    only.checked = false;
    only.dispatchEvent(new Event('change'));
    const search = app.resultsElement.querySelector<HTMLInputElement>('.results-search')!;
    search.value = 'CAT';
    search.dispatchEvent(new Event('input'));
    expect(rows(app).map((r) => r.firstElementChild?.textContent)).toEqual(['t3']);
    expect(app.resultsElement.querySelector('.results-count')?.textContent).toBe('1 of 3 items');
  });

  it('export sends the filter the rows on screen were chosen with', () => {
    const { host, app } = mount();
    snapshot(host, evaluateRun());
    host.deliver({ type: 'results/show', table: TABLE });
    const only = app.resultsElement.querySelector<HTMLInputElement>('#results-only-failures')!;
    only.checked = true;
    only.dispatchEvent(new Event('change'));
    app.resultsElement.querySelector<HTMLElement>('[data-export="csv"]')!.dispatchEvent(new MouseEvent('click'));
    expect(lastSent(host)).toEqual({ type: 'results/export', runId: RUN, format: 'csv', filter: { onlyFailures: true, search: '', versions: ['v0'] } });
  });

  it('shows the baseline, the committed and the best candidate first; the Columns picker adds any other; each header says how many items it was scored on', () => {
    const { host, app } = mount();
    snapshot(host, evaluateRun());
    // Four items; c1 was stopped after two, c3 (committed) ran on all, c2 and c4 too.
    const wide: ResultsTable = {
      ...TABLE,
      versions: [
        { id: 'v0', baseline: true },
        { id: 'c1', baseline: false, decision: 'reject' },
        { id: 'c2', baseline: false, decision: 'reject' },
        { id: 'c3', baseline: false, decision: 'commit' },
        { id: 'c4', baseline: false },
      ],
      items: [...TABLE.items, { itemId: 't4', split: 'test', text: 'Add 3 and 4' }],
      scores: [
        [1, 1, 0, 1, 1],
        [0, 1, 0, 1, 1],
        [1, null, 0, 1, 1],
        [0, null, 1, 0, 1],
      ],
    };
    host.deliver({ type: 'results/show', table: wide });
    const view = app.resultsElement;
    const headers = () => [...view.querySelectorAll<HTMLElement>('.results-version')].map((h) => [h.dataset.version, h.querySelector('.results-scored')?.textContent]);
    expect(headers()).toEqual([
      ['v0', '4 items'],
      ['c3', '4 items'],
      ['c4', '4 items'],
    ]);
    expect(rows(app)[2]!.textContent).toBe('t3Spell catpasspasspass');
    expect(view.querySelector('.results-columns summary')?.textContent).toBe('Columns: 3 of 5');
    expect(view.querySelector<HTMLElement>('.results-subsets')!.hidden).toBe(true);

    const c1 = view.querySelector<HTMLInputElement>('.results-columns input[data-version="c1"]')!;
    expect(c1.closest('label')?.textContent).toContain('c1 (rejected) 100%, 2 of 4 items');
    c1.checked = true;
    c1.dispatchEvent(new Event('change'));
    expect(headers()).toEqual([
      ['v0', '4 items'],
      ['c1', '2 of 4 items'],
      ['c3', '4 items'],
      ['c4', '4 items'],
    ]);
    // The cell c1 never ran on is empty, and a note says why the columns' counts differ.
    expect([...rows(app)[2]!.children].map((c) => c.textContent)).toEqual(['t3', 'Spell cat', 'pass', '', 'pass', 'pass']);
    expect(view.querySelector<HTMLElement>('.results-subsets')!.hidden).toBe(false);
    expect(view.querySelector('.results-columns summary')?.textContent).toBe('Columns: 4 of 5');

    // A new table for the same run (a search still running) keeps the columns the user picked.
    host.deliver({ type: 'results/show', table: { ...wide } });
    expect(headers().map(([id]) => id)).toEqual(['v0', 'c1', 'c3', 'c4']);

    // A click on a cell of an added column opens that version's output there.
    rows(app)[0]!
      .querySelector<HTMLElement>('[data-col="1"]')!
      .dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(lastSent(host)).toEqual({ type: 'results/cell', runId: RUN, itemId: 't1', versionId: 'c1' });
    host.deliver({ type: 'results/cell', cell: { runId: RUN, itemId: 't1', versionId: 'c1', split: 'test', score: 1, output: 'four' } });
    expect(view.querySelector('.results-detail .results-output')?.textContent).toBe('four');
  });

  it('the keyboard moves between the shown columns and opens the chosen cell; the output is brought into sight', () => {
    const { host, app } = mount();
    snapshot(host, evaluateRun());
    const two: ResultsTable = {
      ...TABLE,
      versions: [
        { id: 'v0', baseline: true },
        { id: 'c1', baseline: false, decision: 'commit' },
      ],
      scores: [
        [1, 0],
        [0, 1],
        [1, 1],
      ],
    };
    host.deliver({ type: 'results/show', table: two });
    const list = app.resultsElement.listElement;
    list.focus();
    const key = (k: string) => list.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
    key('ArrowDown');
    key('ArrowRight');
    key('Enter');
    expect(lastSent(host)).toMatchObject({ type: 'results/cell', versionId: 'c1' });
    const cellMessage = lastSent(host) as { itemId: string };
    const detail = app.resultsElement.querySelector<HTMLElement>('.results-detail')!;
    let scrolled = false;
    detail.scrollIntoView = () => {
      scrolled = true;
    };
    host.deliver({ type: 'results/cell', cell: { runId: RUN, itemId: cellMessage.itemId, versionId: 'c1', split: 'test', score: 1, output: 'ok' } });
    expect(detail.querySelector('h3')?.textContent).toBe(`${cellMessage.itemId} (test) · c1 (committed) · pass`);
    expect(scrolled).toBe(true);
  });

  it('an Evolve run keeps its tab and asks for results only when the Results tab shows', () => {
    const { host, app } = mount();
    snapshot(host, [started(), proposed('c0', undefined)]);
    expect(app.uiState.tab).toBe('verdicts');
    expect(host.sent.map((m) => m.type)).not.toContain('results/request');
    app.showTab('results');
    expect(host.sent.map((m) => m.type)).toContain('results/request');
  });
});
