// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
// The @vscode-elements components are not registered here: happy-dom lacks attachInternals, which
// they need. Their tags stay plain elements, so these tests cover the panel's own behaviour; the
// bench (bench/panel) loads the real bundle, components included, in Chromium.
import type { PanelApp } from '../../../webview/components/panel-app';
import { mountPanel } from '../../../webview/components/panel-app';
import { partsFor } from '../../../webview/model/panelParts';
import { memoryHost, type MemoryHost } from '../../../webview/memoryHost';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';
import type { Evidence, HostMessage, UiState } from '../../../src/protocol/webview';
import { RUN, decided, ev, proposed, record, started, step } from './events';
import { syntheticRun } from './syntheticRun';
import type { PanelEvent, RunState } from '../../../src/panelState/types';

const XSS = '<img src=x onerror="window.__xss=1">';

function snapshotOf(events: PanelEvent[]): RunState {
  return JSON.parse(JSON.stringify(foldEvents(emptyRunState(RUN), events))) as RunState;
}

function mount(state?: UiState): { host: MemoryHost; app: PanelApp } {
  const host = memoryHost(state);
  const root = document.createElement('div');
  document.body.replaceChildren(root);
  const app = mountPanel(root, { host, schedule: (paint) => paint(), now: () => 2_000_000 });
  return { host, app };
}

const rowTexts = (app: PanelApp) => app.feedElement.listElement.renderedRows().map((r) => r.textContent ?? '');
const sentTypes = (host: MemoryHost) => host.sent.map((m) => m.type);
const baseEvents = () => [started(), proposed('c0', undefined), proposed('c1', 'c0'), step('c1', 1, 1, Math.log(1.5)), decided('c1', 'reject', { parentId: 'c0' }), proposed('c2', 'c0'), decided('c2', 'commit', { parentId: 'c0' })];

function snapshot(host: MemoryHost, events: PanelEvent[] = baseEvents()): void {
  host.deliver({ type: 'run/snapshot', runs: [{ runId: RUN, target: 'p/x.prompt.md', status: 'running', startedAt: 1 }], run: snapshotOf(events) });
}

function evidence(candidateId: string, over: Partial<Evidence> = {}): Evidence {
  return { runId: RUN, candidateId, parentId: 'c0', incumbentId: 'c0', record: record(candidateId, 'commit'), candidateText: 'new text', parentText: 'old text', items: [], omittedItems: 0, ...over };
}

beforeEach(() => {
  delete (window as { __xss?: unknown }).__xss;
});

describe('the panel through an in-memory host', () => {
  it('shows nothing a state would take back before its first state comes: no empty warning box, no button to press', () => {
    const { app } = mount({ v: 1, runId: RUN, tab: 'verdicts', filter: 'all', costMetric: 'calls' });
    const header = app.headerElement;
    const shown = (selector: string) => !header.querySelector<HTMLElement>(selector)!.hidden;
    expect(['.run-warning', '.run-judge', '.run-report', '.run-guarantee', '.run-picker'].filter(shown)).toEqual([]);
    const buttons = [...header.querySelectorAll<HTMLElement & { disabled: boolean }>('[data-action]')];
    expect(buttons.map((b) => [b.dataset.action, b.disabled, b.hasAttribute('secondary')])).toEqual([
      ['cancel', true, true],
      ['resume', true, true],
    ]);
  });

  it('says in the header what the run guarantees, as the run said before its first call', () => {
    const { host, app } = mount();
    host.deliver({ type: 'run/snapshot', runs: [{ runId: RUN, target: 'p/x.prompt.md', status: 'running', startedAt: 1 }], run: snapshotOf([started({ schedule: 'fwer-screened', budget: { candidates: 30 } })]) });
    const line = app.headerElement.querySelector<HTMLElement>('.run-guarantee')!;
    expect(line.hidden).toBe(false);
    expect(line.textContent).toBe('guarantee this run: P(any false commit) ≤ 0.05');
    host.deliver({ type: 'run/snapshot', runs: [{ runId: RUN, target: 'p/x.prompt.md', status: 'running', startedAt: 1 }], run: snapshotOf([started({ schedule: 'per-candidate', budget: { candidates: 25 } })]) });
    expect(line.textContent).toBe('guarantee each candidate: P(false commit) ≤ 0.05; over 25 candidates up to 0.72 if independent');
  });

  it('says view/ready with the run it showed before a reload, then paints from the snapshot', () => {
    const { host, app } = mount({ v: 1, runId: RUN, tab: 'verdicts', filter: 'all', costMetric: 'calls' });
    expect(host.sent).toEqual([{ type: 'view/ready', runId: RUN }]);
    snapshot(host);
    // The file's name as the title, its path as the tooltip.
    expect(app.headerElement.querySelector('.run-target')?.textContent).toBe('x.prompt.md');
    expect(app.headerElement.querySelector<HTMLElement>('.run-target')?.title).toBe('p/x.prompt.md');
    expect(app.headerElement.querySelector('.run-status')?.textContent).toBe('running');
    // A run journaled before runs said their schedule claims nothing.
    expect(app.headerElement.querySelector<HTMLElement>('.run-guarantee')?.hidden).toBe(true);
    expect(rowTexts(app)).toEqual([' commitc2c0evidence ×21.5 (needs ×20)9 (7W 1L 1T)evidence reached ×20', ' rejectc1c0evidence ×0.4 (needs ×20)9 (7W 1L 1T)futile: could not reach the threshold']);
  });

  it("shows a rate-limit wait in the header, with the endpoint's words as its tooltip, until it is over", () => {
    const { host, app } = mount();
    snapshot(host);
    const waiting = () => app.headerElement.querySelector<HTMLElement>('.run-waiting')!;
    expect(waiting().hidden).toBe(true);
    host.deliver({ type: 'run/events', runId: RUN, events: [ev('llm/waiting', { at: 1_995_000, role: 'agent', model: 'm', why: 'rate-limited', waitMs: 17_000, status: 429, message: 'answered 429' })] });
    expect(waiting().hidden).toBe(false);
    expect(waiting().textContent).toBe(' rate limited, waiting 12 s');
    expect(waiting().title).toBe('answered 429');
    expect(waiting().getAttribute('role')).toBe('timer');
    host.deliver({ type: 'run/events', runId: RUN, events: [ev('llm/waiting', { at: 1_990_000, role: 'agent', model: 'm', why: 'rate-limited', waitMs: 5000, message: 'over' })] });
    expect(waiting().hidden).toBe(true);
  });

  it('applies later events: a new decision row on top, then the finished status', () => {
    const { host, app } = mount();
    snapshot(host);
    host.deliver({ type: 'run/events', runId: RUN, events: [proposed('c3', 'c2'), decided('c3', 'reject', { parentId: 'c2' })] });
    expect(rowTexts(app)[0]).toContain('rejectc3c2');
    expect(rowTexts(app)).toHaveLength(3);
    host.deliver({ type: 'run/events', runId: RUN, events: [ev('run/finished', { commits: 1, candidates: 3, incumbentId: 'c2' })] });
    expect(app.headerElement.querySelector('.run-status')?.textContent).toBe('finished: 1 commit of 3 candidates');
    // Events of another run never leak into the one on screen.
    host.deliver({ type: 'run/events', runId: 'other', events: [decided('zz', 'commit')] });
    expect(rowTexts(app)).toHaveLength(3);
  });

  it('renders LLM and file text as text: an <img onerror> payload shows as characters and never runs', () => {
    const { host, app } = mount();
    snapshot(host, [started({ target: `evil${XSS}.prompt.md` }), proposed(XSS, 'c0'), decided(XSS, 'commit', { parentId: XSS })]);
    // Ids are shortened to 8 characters in the row; the full id is in the cell's tooltip.
    expect(rowTexts(app)[0]).toContain('commit<img src');
    expect(app.feedElement.listElement.renderedRows()[0]!.querySelector('.mono')?.getAttribute('title')).toBe(XSS);
    expect(app.headerElement.querySelector('.run-target')?.textContent).toBe(`evil${XSS}.prompt.md`);
    app.feedElement.listElement.renderedRows()[0]!.click();
    host.deliver({
      type: 'evidence/show',
      evidence: evidence(XSS, {
        reasoning: `reasoning ${XSS}`,
        rubric: { version: 3, text: `rubric ${XSS}` },
        candidateText: `child ${XSS}`,
        parentText: 'parent',
        items: [
          {
            itemId: XSS,
            input: `input ${XSS}`,
            incumbentOutput: `inc ${XSS}`,
            candidateOutput: `cand ${XSS}`,
            winner: 'candidate',
            delta: 1,
            k: 1,
            childFirst: { winner: 'child', rationale: `why ${XSS}` },
            parentFirst: { winner: 'child', rationale: `why2 ${XSS}` },
            agreed: true,
          },
        ],
      }),
    });
    const view = app.evidenceElement;
    for (const text of [`reasoning ${XSS}`, `rubric ${XSS}`, `input ${XSS}`, `inc ${XSS}`, `cand ${XSS}`, `why ${XSS}`, `why2 ${XSS}`, `+ child ${XSS}`]) {
      expect(view.textContent).toContain(text);
    }
    expect(document.querySelectorAll('img')).toHaveLength(0);
    expect((window as { __xss?: unknown }).__xss).toBeUndefined();
  });

  it('filters the feed by decision and keeps only UI choices in setState', () => {
    const { host, app } = mount();
    snapshot(host);
    const radio = app.feedElement.querySelector<HTMLElement & { checked: boolean }>('[data-filter="reject"]')!;
    expect(radio.textContent).toBe('Rejections (1)');
    radio.checked = true;
    radio.dispatchEvent(new Event('change'));
    expect(rowTexts(app)).toHaveLength(1);
    expect(rowTexts(app)[0]).toContain('rejectc1');
    expect(host.state).toEqual({ v: 1, runId: RUN, tab: 'verdicts', filter: 'reject', costMetric: 'calls' });
  });

  it('opens a decision’s evidence on click and shows only the evidence it asked for', () => {
    const { host, app } = mount();
    snapshot(host);
    app.feedElement.listElement.renderedRows()[1]!.click();
    expect(host.sent.at(-1)).toEqual({ type: 'evidence/request', runId: RUN, candidateId: 'c1' });
    expect(app.uiState).toMatchObject({ tab: 'evidence', candidateId: 'c1' });
    expect(app.evidenceElement.textContent).toContain('Loading the evidence for c1');
    host.deliver({ type: 'evidence/show', evidence: evidence('c2') });
    expect(app.evidenceElement.textContent).toContain('Loading');
    host.deliver({
      type: 'evidence/show',
      evidence: evidence('c1', { record: record('c1', 'reject'), items: [{ itemId: 'i1', winner: 'incumbent', delta: -1, k: 1, incumbentOutput: 'right', candidateOutput: 'wrong' }], omittedItems: 3 }),
    });
    const text = app.evidenceElement.textContent ?? '';
    expect(text).toContain('Candidate c1: reject (futile)');
    expect(text).toContain('evidence ×0.4 (needs ×20)');
    expect(text).toContain('#1 · i1 · incumbent won');
    expect(text).toContain("3 more items are in the run's journal.");
    expect(text).toContain('- old text');
    expect(text).toContain('+ new text');
    host.deliver({ type: 'evidence/missing', runId: RUN, candidateId: 'c1', why: 'gone.' });
    expect(app.evidenceElement.textContent).toBe('No evidence for c1: gone.');
  });

  it('says what the first check on feedback items found, and that a screened-out candidate used no dev item', () => {
    const { host, app } = mount();
    snapshot(host);
    app.feedElement.listElement.renderedRows()[1]!.click();
    const screen = { items: 5, wins: 1, losses: 3, ties: 1, abstained: 0, net: -2, verdict: 'drop' as const, candidateCalls: 5, incumbentCalls: 2 };
    host.deliver({
      type: 'evidence/show',
      evidence: evidence('c1', { record: { ...record('c1', 'reject'), reason: 'screened', itemsConsumed: 0, wins: 0, losses: 0, ties: 0, logWealth: 0, threshold: 120, screen } }),
    });
    const text = app.evidenceElement.textContent ?? '';
    expect(text).toContain('Candidate c1: reject (screened)');
    expect(text).toContain("First check on feedback items: 1 won, 3 lost, 1 tie over 5 items; screened out, so no dev item and none of the run's α was used.");
    expect(text).toContain('Screened out before the dev set: no dev item was used.');
    expect(text).not.toContain('every item so far was a tie');
  });

  it('shows the decision the Evidence command names: its evidence open, its row selected in the feed', () => {
    const { host, app } = mount({ v: 1, runId: RUN, tab: 'lineage', filter: 'commit', costMetric: 'calls' });
    snapshot(host);
    host.deliver({ type: 'focus', runId: RUN, candidateId: 'c1' });
    // c1 was rejected: the Commits filter would hide it, so the feed shows all decisions again.
    expect(app.uiState).toMatchObject({ tab: 'evidence', candidateId: 'c1', filter: 'all' });
    expect(host.sent.at(-1)).toEqual({ type: 'evidence/request', runId: RUN, candidateId: 'c1' });
    expect(app.evidenceElement.textContent).toContain('Loading the evidence for c1');
    app.showTab('verdicts');
    const selected = app.feedElement.listElement.renderedRows().filter((r) => r.classList.contains('selected'));
    expect(selected.map((r) => [r.textContent, r.getAttribute('aria-selected')])).toEqual([[' rejectc1c0evidence ×0.4 (needs ×20)9 (7W 1L 1T)futile: could not reach the threshold', 'true']]);
    // A focus on a run other than the one on screen is stale: nothing changes.
    host.deliver({ type: 'focus', runId: 'other-run', candidateId: 'c2' });
    expect(app.uiState).toMatchObject({ tab: 'verdicts', candidateId: 'c1' });
  });

  it('moves through the feed with the keyboard and opens a row with Enter', () => {
    const { host, app } = mount();
    snapshot(host);
    const list = app.feedElement.listElement;
    list.dispatchEvent(new FocusEvent('focus'));
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown' }));
    expect(list.getAttribute('aria-activedescendant')).toBe(list.renderedRows()[1]!.id);
    expect(list.renderedRows()[1]!.getAttribute('aria-selected')).toBe('true');
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    expect(host.sent.at(-1)).toEqual({ type: 'evidence/request', runId: RUN, candidateId: 'c1' });
  });

  it('sends Cancel and Resume only when the run allows them: Resume only for an interrupted run', () => {
    const { host, app } = mount();
    snapshot(host);
    const button = (action: string) => app.headerElement.querySelector<HTMLElement & { disabled: boolean }>(`[data-action="${action}"]`)!;
    expect(button('cancel').getAttribute('aria-label')).toBe('Cancel the run');
    expect(button('resume').disabled).toBe(true);
    button('resume').click();
    button('cancel').click();
    expect(host.sent.at(-1)).toEqual({ type: 'run/cancel', runId: RUN });
    expect(sentTypes(host).filter((t) => t === 'run/resume')).toHaveLength(0);
    // A run that ended — cancelled, failed or finished — is over: nothing to resume.
    for (const end of [ev('run/cancelled', {}), ev('run/failed', { error: { code: 'llmTimeout', message: 'timed out' } }), ev('run/finished', { commits: 1, candidates: 2, incumbentId: 'c2' })]) {
      snapshot(host, [...baseEvents(), end]);
      expect([button('cancel').disabled, button('resume').disabled]).toEqual([true, true]);
      button('resume').click();
    }
    expect(sentTypes(host).filter((t) => t === 'run/resume')).toHaveLength(0);
    // The host's list says the run on screen was interrupted (no process runs it): now it resumes.
    snapshot(host);
    host.deliver({ type: 'runs/updated', runs: [{ runId: RUN, target: 'p/x.prompt.md', status: 'running', startedAt: 1, interrupted: true }] });
    expect(app.headerElement.querySelector('.run-status')?.textContent).toBe('interrupted: Resume continues it from its journal');
    expect([button('cancel').disabled, button('resume').disabled]).toEqual([true, false]);
    button('resume').click();
    expect(host.sent.at(-1)).toEqual({ type: 'run/resume', runId: RUN });
  });

  it('restores the tab and filter it saved, and opens candidates from the lineage tree', () => {
    const { host, app } = mount({ v: 1, runId: RUN, tab: 'lineage', filter: 'commit', costMetric: 'tokens' });
    snapshot(host);
    const tree = app.lineageElement.listElement;
    expect(tree.getAttribute('role')).toBe('tree');
    expect(tree.renderedRows().map((r) => [r.getAttribute('aria-level'), r.textContent?.trim()])).toEqual([
      ['1', 'c0 pending, 2 children'],
      ['2', 'c1 rejected (futile)'],
      ['2', 'c2 committed, incumbent'],
    ]);
    tree.dispatchEvent(new FocusEvent('focus'));
    tree.dispatchEvent(new KeyboardEvent('keydown', { key: 'End' }));
    tree.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    expect(host.sent.at(-1)).toEqual({ type: 'candidate/open', runId: RUN, candidateId: 'c2', as: 'diff' });
    app.lineageElement.querySelector<HTMLElement>('vscode-button')!.click();
    expect(host.sent.at(-1)).toEqual({ type: 'candidate/open', runId: RUN, candidateId: 'c2', as: 'text' });
    tree.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home' }));
    tree.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft' }));
    expect(tree.renderedRows()).toHaveLength(1);
    expect(host.state).toMatchObject({ tab: 'lineage', filter: 'commit', costMetric: 'tokens' });
  });

  it('answers a host message it does not know with view/error instead of breaking', () => {
    const { host } = mount();
    host.deliver({ type: 'run/teleport' } as unknown as HostMessage);
    expect(host.sent.at(-1)).toEqual({ type: 'view/error', message: expect.stringContaining("could not handle 'run/teleport'") });
    expect(() => partsFor('nope' as PanelEvent['type'])).toThrow(/Unexpected engine event type/);
  });

  it('handles every host message type', () => {
    const { host, app } = mount();
    const messages: HostMessage[] = [
      { type: 'run/snapshot', runs: [], run: snapshotOf(baseEvents()) },
      { type: 'run/events', runId: RUN, events: [proposed('c9', 'c2')] },
      {
        type: 'runs/updated',
        runs: [
          { runId: RUN, target: 'a', status: 'running', startedAt: 1 },
          { runId: 'r2', target: 'b', status: 'finished', startedAt: 2 },
        ],
      },
      { type: 'evidence/show', evidence: evidence('c2') },
      { type: 'evidence/missing', runId: RUN, candidateId: 'c2', why: 'x' },
    ];
    for (const m of messages) host.deliver(m);
    expect(sentTypes(host)).not.toContain('view/error');
    expect(app.runState?.candidateOrder).toContain('c9');
    // Two runs: the header offers a picker, and picking asks the host.
    const picker = app.headerElement.querySelector<HTMLSelectElement>('.run-picker')!;
    expect(picker.hidden).toBe(false);
    expect([...picker.options].map((o) => o.text)).toEqual([`a · running · run ${RUN}`, 'b · finished · run r2']);
    picker.selectedIndex = 1;
    picker.dispatchEvent(new Event('change'));
    expect(host.sent.at(-1)).toEqual({ type: 'run/select', runId: 'r2' });
  });

  it('keeps the DOM small for a 10,000-event run: only visible rows exist', () => {
    const { host, app } = mount();
    snapshot(host, syntheticRun({ count: 10_000 }));
    const decisions = app.runState!.decisions.length;
    expect(decisions).toBeGreaterThan(100);
    expect(app.feedElement.listElement.itemCount).toBe(decisions);
    expect(app.feedElement.listElement.renderedRows().length).toBeLessThan(60);
    expect(document.querySelectorAll('*').length).toBeLessThan(2000);
    expect(app.dataset.paintedEvents).toBe('10000');
  });
});
