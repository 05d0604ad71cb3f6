// @vitest-environment happy-dom
// The Programs view of a code search: its models (Score over time, islands, archive) over a small
// search written out event by event, and the panel through an in-memory host: a search opens on the
// Programs tab (a prompt run has none), a point, a row or another section's `program-select` opens
// the program, whose detail arrives from the host and is shown as text.
import { beforeEach, describe, expect, it } from 'vitest';
import type { PanelApp } from '../../../webview/components/panel-app';
import { mountPanel } from '../../../webview/components/panel-app';
import { memoryHost, type MemoryHost } from '../../../webview/memoryHost';
import { archiveRows, islandRows, scoreChartData } from '../../../webview/model/programsView';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';
import { RUN, decided, ev, started } from './events';
import type { PanelEvent, RunState } from '../../../src/panelState/types';
import type { ProgramDetail } from '../../../src/panelState/types';

const XSS = '<img src=x onerror="window.__xss=1">';

function program(id: string, parentId: string | undefined, island: number, name?: string): PanelEvent {
  return ev('candidate/proposed', {
    candidateId: id,
    parentId,
    contentHash: `h-${id}`,
    text: '',
    ...(name ? { reasoning: name } : {}),
    ...(parentId ? { program: { island, generation: 1, kind: 'diff' as const, model: 'm' } } : {}),
  });
}
const evaluated = (id: string, island: number, score: number | undefined): PanelEvent =>
  ev('program/evaluated', { candidateId: id, island, correct: score !== undefined, ...(score === undefined ? { error: 'crashed' } : { score }), instances: 4 });
const judged = (id: string, parentId: string, decision: 'commit' | 'reject'): PanelEvent => decided(id, decision, { parentId, incumbentId: parentId });

/** Seed 0.5 on two islands; p1 commits (0.7), p2 is rejected (0.6), p3 crashes, p4 commits on island 1 (0.9), p5 is rejected (0.4). */
function searchEvents(): PanelEvent[] {
  return [
    started({ kind: 'search', target: 'solve.mjs' }),
    program('p0', undefined, 0),
    evaluated('p0', 0, 0.5),
    program('p1', 'p0', 0, 'wider circles'),
    judged('p1', 'p0', 'commit'),
    evaluated('p1', 0, 0.7),
    program('p2', 'p0', 1),
    judged('p2', 'p0', 'reject'),
    evaluated('p2', 1, 0.6),
    program('p3', 'p1', 0),
    evaluated('p3', 0, undefined),
    program('p4', 'p0', 1),
    judged('p4', 'p0', 'commit'),
    evaluated('p4', 1, 0.9),
    program('p5', 'p1', 0),
    judged('p5', 'p1', 'reject'),
    evaluated('p5', 0, 0.4),
  ];
}

function stateOf(events: PanelEvent[]): RunState {
  return JSON.parse(JSON.stringify(foldEvents(emptyRunState(RUN), events))) as RunState;
}

function mount(): { host: MemoryHost; app: PanelApp } {
  const host = memoryHost();
  const root = document.createElement('div');
  document.body.replaceChildren(root);
  const app = mountPanel(root, { host, schedule: (paint) => paint(), now: () => 2_000_000 });
  return { host, app };
}

function detail(over: Partial<ProgramDetail> = {}): ProgramDetail {
  return {
    runId: RUN,
    programId: 'p1',
    parentId: 'p0',
    seedId: 'p0',
    text: 'const x = 0.7;\n',
    parentText: 'const x = 0.5;\n',
    opponentId: 'p0',
    pairs: [
      { instanceId: 'a', k: 1, child: 0.8, opponent: 0.5, delta: 0.3 },
      { instanceId: 'b', k: 2, child: 0.6, opponent: 0.7, delta: -0.1 },
    ],
    omittedPairs: 0,
    wealth: { candidateId: 'p1', steps: [{ k: 1, itemId: 'a', delta: 0.3, logWealth: Math.log(1.5), logThreshold: Math.log(20), logBest: 10 }], ties: 0, decision: 'commit', threshold: 20 },
    ...over,
  };
}

beforeEach(() => {
  delete (window as { __xss?: unknown }).__xss;
});

describe('Programs view models', () => {
  it('Score over time: a point per evaluation on its island, incorrect ones on the band below, committed ringed, best so far stepping up', () => {
    const p = stateOf(searchEvents()).programs;
    const chart = scoreChartData(p, 'index', 'p4');
    expect(chart.x).toEqual([1, 2, 3, 4, 5, 6]);
    expect(chart.ids).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5']);
    expect(chart.islands).toEqual([
      [0.5, 0.7, null, null, null, 0.4],
      [null, null, 0.6, null, 0.9, null],
    ]);
    const band = chart.incorrectBand;
    expect(band).toBeLessThan(0.4);
    expect(chart.incorrect).toEqual([null, null, null, band, null, null]);
    expect(chart.committed).toEqual([0.5, 0.7, null, null, 0.9, null]);
    expect(chart.best).toEqual([0.5, 0.7, 0.7, 0.7, 0.9, 0.9]);
    expect(chart.selected).toEqual([null, null, null, null, 0.9, null]);
    expect(chart.yRange[0]).toBeLessThan(band);
    expect(chart.yRange[1]).toBeGreaterThan(0.9);
    expect(chart.summary).toBe('6 programs evaluated, 1 incorrect; best 0.9 (p4, evaluation 5, 3 improvements); 2 islands.');
  });

  it('the time axis never goes back', () => {
    const chart = scoreChartData(stateOf(searchEvents()).programs, 'time', undefined);
    // Seconds from the seed's proposal (the events here are 10 ms apart).
    expect(chart.x[0]).toBe(0.01);
    for (let i = 1; i < chart.x.length; i++) expect(chart.x[i]).toBeGreaterThanOrEqual(chart.x[i - 1]!);
  });

  it('islands: best, size and the evaluations since the best improved; the archive: correct programs, best first or newest first', () => {
    const p = stateOf(searchEvents()).programs;
    expect(islandRows(p)).toEqual([
      { island: 0, bestId: 'p1', bestScore: 0.7, size: 4, evaluated: 4, stagnation: 2 },
      // The seed starts every island.
      { island: 1, bestId: 'p4', bestScore: 0.9, size: 3, evaluated: 3, stagnation: 0 },
    ]);
    expect(archiveRows(p, 'score').map((n) => n.id)).toEqual(['p4', 'p1', 'p2', 'p0', 'p5']);
    expect(archiveRows(p, 'recent').map((n) => n.id)).toEqual(['p5', 'p4', 'p2', 'p1', 'p0']);
  });

  it('a migrant counts on the island it moved to', () => {
    const p = stateOf([...searchEvents(), ev('program/migrated', { generation: 2, moves: [{ programId: 'p4', from: 1, to: 0 }] })]).programs;
    expect(islandRows(p)[0]).toMatchObject({ bestId: 'p4', bestScore: 0.9, size: 5 });
  });

  it('without an incorrect program there is no band below the scores', () => {
    const chart = scoreChartData(stateOf(searchEvents().filter((e) => !('candidateId' in e) || e.candidateId !== 'p3')).programs, 'index', undefined);
    expect(chart.incorrect.every((v) => v === null)).toBe(true);
    expect(chart.scoreFloor).toBe(Number.NEGATIVE_INFINITY);
    expect(chart.yRange[0]).toBeGreaterThan(0.4 - 0.1);
  });
});

describe('the Programs tab through an in-memory host', () => {
  it('a search opens on Programs, with Results hidden and why; a prompt run has no Programs tab', () => {
    const { host, app } = mount();
    host.deliver({ type: 'run/snapshot', runs: [], run: stateOf(searchEvents()) });
    expect(app.uiState.tab).toBe('programs');
    expect(app.shownTabs).not.toContain('results');
    expect(app.querySelector<HTMLElement>('vscode-tab-header[data-tab="results"]')?.title).toMatch(/code search has no dataset rows/);
    expect(app.programsElement.querySelector('.chart-summary')?.textContent).toMatch(/^6 programs evaluated/);
    expect(app.programsElement.archiveElement.itemCount).toBe(5);

    const prompt = mount();
    prompt.host.deliver({ type: 'run/snapshot', runs: [], run: stateOf([started(), ev('candidate/proposed', { candidateId: 'c0', parentId: undefined, contentHash: 'h', text: 't' })]) });
    expect(prompt.app.shownTabs).not.toContain('programs');
    expect(prompt.app.uiState.tab).toBe('verdicts');
  });

  it('a search whose kind arrives after the panel showed it still opens on Programs', () => {
    const { host, app } = mount();
    host.deliver({ type: 'run/snapshot', runs: [], run: { ...emptyRunState(RUN), requestedTarget: 'solve.mjs' } });
    expect(app.uiState.tab).toBe('verdicts');
    host.deliver({ type: 'run/events', runId: RUN, events: searchEvents() });
    expect(app.uiState.tab).toBe('programs');
  });

  it('the archive (keyboard) and another section’s program-select open a program; its detail shows as text', () => {
    const { host, app } = mount();
    host.deliver({ type: 'run/snapshot', runs: [], run: stateOf(searchEvents()) });
    const list = app.programsElement.archiveElement;
    list.dispatchEvent(new Event('focus'));
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown' }));
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    expect(host.sent.at(-1)).toEqual({ type: 'program/request', runId: RUN, programId: 'p1' });
    expect(app.uiState.programId).toBe('p1');

    const genealogy = app.programsElement.querySelector('ratchet-programs-genealogy')!;
    expect((genealogy as HTMLElement & { programs?: unknown }).programs).toBe(app.runState?.programs);
    genealogy.dispatchEvent(new CustomEvent('program-select', { bubbles: true, detail: { programId: 'p4' } }));
    expect(host.sent.at(-1)).toEqual({ type: 'program/request', runId: RUN, programId: 'p4' });

    // An answer for a program no longer asked about is dropped.
    host.deliver({ type: 'program/show', detail: detail({ programId: 'p1' }) });
    expect(app.programsElement.detailElement.programId).toBeUndefined();
    host.deliver({ type: 'program/show', detail: detail({ programId: 'p4', name: XSS, description: XSS, evaluation: { correct: true, score: 0.9, instances: 4, metrics: { radius: 0.25 }, feedback: XSS } }) });
    const shown = app.programsElement.detailElement;
    expect(shown.programId).toBe('p4');
    expect(shown.textContent).toContain(XSS);
    expect(shown.querySelector('img')).toBeNull();
    expect((window as { __xss?: unknown }).__xss).toBeUndefined();
    expect([...shown.querySelectorAll('.metrics-table td')].map((td) => td.textContent)).toEqual(['radius', '0.25']);
    expect([...shown.querySelectorAll('.pairs-table tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent))).toEqual([
      ['1', 'a', '0.8', '0.5', '▲ child'],
      ['2', 'b', '0.6', '0.7', '▼ p0'],
    ]);
    expect(shown.querySelector('ratchet-wealth-chart .chart-summary')?.textContent).toMatch(/Selected p1: evidence ×1.5 \(needs ×20\)/);
    expect(shown.querySelector('ratchet-diff-view')?.textContent).toContain('+ const x = 0.7;');
  });

  it('a click on an archive row opens its program (#29 item 10: a click opened nothing)', () => {
    const { host, app } = mount();
    host.deliver({ type: 'run/snapshot', runs: [], run: stateOf(searchEvents()) });
    const rows = [...app.programsElement.archiveElement.querySelectorAll<HTMLElement>('.vlist-row')];
    expect(rows.length).toBeGreaterThan(1);
    // The row's own text, as a pointer lands on it, not the row element itself.
    const second = rows[1]!;
    (second.firstElementChild ?? second).dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const programId = archiveRows(app.runState!.programs, 'score')[1]!.id;
    expect(host.sent.at(-1)).toEqual({ type: 'program/request', runId: RUN, programId });
    expect(app.uiState.programId).toBe(programId);
  });

  it('the diff is from the parent, or from the seed when asked', () => {
    const { host, app } = mount();
    host.deliver({ type: 'run/snapshot', runs: [], run: stateOf(searchEvents()) });
    app.programsElement.dispatchEvent(new CustomEvent('program-select', { bubbles: true, detail: { programId: 'p5' } }));
    host.deliver({ type: 'program/show', detail: detail({ programId: 'p5', parentId: 'p1', text: 'a\nb2\nc2\n', parentText: 'a\nb2\nc\n', seedText: 'a\nb\nc\n' }) });
    const shown = app.programsElement.detailElement;
    const changed = () => [...shown.querySelectorAll('ratchet-diff-view .diff-add, ratchet-diff-view .diff-del')].map((l) => l.textContent);
    expect(changed()).toEqual(['- c', '+ c2']);
    const seed = shown.querySelector<HTMLElement & { checked: boolean }>('[data-base="seed"]')!;
    seed.checked = true;
    seed.dispatchEvent(new Event('change'));
    expect(changed()).toEqual(['- b', '- c', '+ b2', '+ c2']);
    expect(shown.querySelector('ratchet-diff-view')?.getAttribute('aria-label')).toBe('Diff from the seed p0 to p5');
  });

  it('the open program is asked for again when its evaluation arrives, and after a reload', () => {
    const { host, app } = mount();
    const events = searchEvents();
    host.deliver({ type: 'run/snapshot', runs: [], run: stateOf(events.slice(0, -2)) });
    app.programsElement.dispatchEvent(new CustomEvent('program-select', { bubbles: true, detail: { programId: 'p5' } }));
    const asked = () => host.sent.filter((m) => m.type === 'program/request').length;
    expect(asked()).toBe(1);
    host.deliver({ type: 'run/events', runId: RUN, events: events.slice(-2) });
    expect(asked()).toBe(2);

    const again = memoryHost(host.state);
    const root = document.createElement('div');
    document.body.replaceChildren(root);
    mountPanel(root, { host: again, schedule: (paint) => paint() });
    again.deliver({ type: 'run/snapshot', runs: [], run: stateOf(events) });
    expect(again.sent.at(-1)).toEqual({ type: 'program/request', runId: RUN, programId: 'p5' });
  });
});
