// @vitest-environment happy-dom
// Issue #15, section 3: the panel at the width it opens with, in plain words. happy-dom lays nothing
// out, so the feed is told its width (what its ResizeObserver does in a real webview); the e2e spec
// panelWidth.spec.ts checks the laid-out header in code-server.
import { describe, expect, it } from 'vitest';
import type { PanelApp } from '../../../webview/components/panel-app';
import { mountPanel } from '../../../webview/components/panel-app';
import { memoryHost, type MemoryHost } from '../../../webview/memoryHost';
import { DOLLAR_STEPS, WHOLE_STEPS, tickLabels } from '../../../webview/model/costSeries';
import { feedColumnsFor, toFeedRow } from '../../../webview/model/feed';
import { GLOSSARY, hover, type CandidateFacts } from '../../../webview/model/glossary';
import { headerModel, outcomeText } from '../../../webview/model/header';
import { tabHiddenWhy } from '../../../webview/model/tabs';
import { wealthChartData } from '../../../webview/model/wealthSeries';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';
import { RUN, decided, ev, proposed, started, step } from './events';
import type { PanelEvent, RunState } from '../../../src/panelState/types';

/** The body's padding (styles.css): the feed is 24 px narrower than the panel. */
const PADDING = 24;

function fold(events: PanelEvent[]): RunState {
  return foldEvents(emptyRunState(RUN), events);
}

function mount(events: PanelEvent[]): { host: MemoryHost; app: PanelApp } {
  const host = memoryHost();
  const root = document.createElement('div');
  document.body.replaceChildren(root);
  const app = mountPanel(root, { host, schedule: (paint) => paint(), now: () => 2_000_000 });
  host.deliver({ type: 'run/snapshot', runs: [{ runId: RUN, target: 'p/x.prompt.md', status: 'running', startedAt: 1 }], run: JSON.parse(JSON.stringify(fold(events))) as RunState });
  return { host, app };
}

/** A suggest run of five candidates: c1 applied by the user, c2 rejected by them, three rejected by the gate. */
const answeredRun = (): PanelEvent[] => [
  started(),
  proposed('c0', undefined),
  ...['c1', 'c2', 'c3', 'c4', 'c5'].map((id) => proposed(id, 'c0')),
  decided('c1', 'commit', { parentId: 'c0' }),
  ev('edit/applied', { candidateId: 'c1', file: 'p/x.prompt.md', by: 'user' }),
  decided('c2', 'commit', { parentId: 'c1', incumbentId: 'c1' }),
  ev('edit/rejected', { candidateId: 'c2', file: 'p/x.prompt.md', by: 'user' }),
  decided('c3', 'reject', { parentId: 'c1' }),
  decided('c4', 'reject', { parentId: 'c1' }),
  decided('c5', 'reject', { parentId: 'c1' }),
  ev('run/finished', { commits: 2, candidates: 5, incumbentId: 'c1' }),
];

const facts = (over: Partial<CandidateFacts> = {}): CandidateFacts => ({
  candidateId: 'c7',
  incumbentId: 'c3',
  evidence: 3.1,
  threshold: 20,
  alpha: 0.05,
  wins: 5,
  losses: 1,
  ties: 4,
  ...over,
});

describe('the verdict feed drops columns by priority as the panel narrows', () => {
  it('keeps the decision and its statistic at 320 and 400 px, adds the candidate at 520 px, the rest on wider panels', () => {
    const ids = (panel: number) => feedColumnsFor(panel - PADDING).map((c) => c.id);
    expect(ids(320)).toEqual(['decision', 'statistic']);
    expect(ids(400)).toEqual(['decision', 'statistic']);
    expect(ids(520)).toEqual(['decision', 'candidate', 'statistic']);
    expect(ids(600)).toEqual(['decision', 'candidate', 'statistic', 'reason']);
    expect(ids(1000)).toEqual(['decision', 'candidate', 'parent', 'statistic', 'items', 'reason']);
  });

  it('draws only the columns that fit, and the row’s hover carries what was dropped', () => {
    const { app } = mount(answeredRun());
    const feed = app.feedElement;
    feed.layout(320 - PADDING);
    expect(feed.visibleColumns).toEqual(['decision', 'statistic']);
    expect([...feed.querySelectorAll('.feed-head span')].map((s) => s.textContent)).toEqual(['decision', 'statistic']);
    const row = feed.listElement.renderedRows().at(-1)!; // oldest first at the bottom: c1
    expect(row.children).toHaveLength(2);
    expect(row.textContent).toBe(' commitevidence ×21.5 (needs ×20)');
    // The reason, the items and the parent are gone from the row, not from its decision's hover.
    expect(row.querySelector<HTMLElement>('.cell.decision')!.title).toBe('commit c1 from c0 (accepted by you): evidence ×21.5 (needs ×20); 9 items; evidence reached ×20');
    expect(feed.style.getPropertyValue('--feed-columns')).toBe('9.5em minmax(10em, 3fr)');

    feed.layout(520 - PADDING);
    expect(feed.listElement.renderedRows().at(-1)!.textContent).toBe(' commitc1evidence ×21.5 (needs ×20)');
    feed.layout(600 - PADDING);
    expect(feed.listElement.renderedRows().at(-1)!.textContent).toBe(' commitc1evidence ×21.5 (needs ×20)evidence reached ×20');
    feed.layout(1200);
    expect(feed.listElement.renderedRows().at(-1)!.querySelector<HTMLElement>('.cell.decision')!.title).toBe('');
  });
});

describe('plain words: one name for one number, the statistics one hover away', () => {
  it('says what each term means for this candidate, in one sentence', () => {
    expect(hover('needs', facts())).toBe('needs ×20: c7’s evidence must reach ×20 (= 1/α with α = 0.05) to be committed; it is at ×3.1.');
    expect(hover('evidence', facts())).toBe('evidence ×3.1: the tests so far favour c7 by ×3.1 (×1 = no lead either way); it is committed at ×20.');
    expect(hover('discordant', facts())).toBe('6 discordant pairs: dev items where only one of c7 and c3 was right: c7 won 5, lost 1.');
    expect(hover('tie', facts())).toBe('4 ties: dev items where c7 and c3 did equally well; they move the evidence neither way.');
    expect(hover('futility', facts({ futile: true }))).toBe('futility bound: even winning every remaining dev item, c7 could not reach ×20, so its test stopped early and it was not committed.');
    expect(hover('threshold', facts())).toBe('1/α line at ×20: c7 is committed the moment its evidence crosses it; it is at ×3.1.');
    expect(hover('incumbent', facts())).toBe('incumbent c3: the version in force when c7 was tested; c7 had to beat it on the dev items.');
    for (const term of Object.values(GLOSSARY)) {
      expect(term.forCandidate(facts()).split(/[.;:] [A-Z]/)).toHaveLength(1);
    }
  });

  it('under the run-level default a line above 1/α is the candidate’s share of the run’s α, not 1/α', () => {
    expect(hover('needs', facts({ threshold: 120 }))).toBe('needs ×120: c7’s evidence must reach ×120 (its share of the run’s α = 0.05) to be committed; it is at ×3.1.');
    expect(hover('alpha', facts({ threshold: 120 }))).toBe('α = 0.05 for the whole run: the chance that it commits any edit that is not better is at most 0.05; c7’s share of it puts its line at ×120.');
    expect(hover('alpha', facts())).toBe('α = 0.05: the chance of committing c7 if it is not better is at most 0.05; hence the line at ×20.');
  });

  it('calls the PACE wealth "evidence"; "wealth" is only in the glossary entry that says so', () => {
    const mentions = Object.entries(GLOSSARY).filter(([, e]) => /wealth/i.test(`${e.name} ${e.means} ${e.forCandidate(facts())}`));
    expect(mentions.map(([t]) => t)).toEqual(['evidence']);
    const s = fold([started(), proposed('c0', undefined), proposed('c1', 'c0'), step('c1', 1, 1, Math.log(1.5))]);
    s.activeCandidateId = 'c1';
    expect(wealthChartData(s, undefined).summary).not.toMatch(/wealth/i);
  });

  it('puts a hover on the feed’s evidence, its bar, the item counts and a futile reason', () => {
    const { app } = mount(answeredRun());
    const row = app.feedElement.listElement.renderedRows()[0]!; // c5, rejected as futile
    const terms = [...row.querySelectorAll<HTMLElement>('.term')].map((t) => [t.textContent, t.title]);
    expect(terms).toEqual([
      ['evidence ×0.4', 'evidence ×0.4: the tests so far favour c5 by ×0.4 (×1 = no lead either way); it is committed at ×20.'],
      [' (needs ×20)', 'needs ×20: c5’s evidence must reach ×20 (= 1/α with α = 0.05) to be committed; it is at ×0.4.'],
    ]);
    expect(row.querySelector<HTMLElement>('.cell.items')!.title).toBe(
      '9 dev items used. 8 discordant pairs: dev items where only one of c5 and c0 was right: c5 won 7, lost 1. 1 tie: dev items where c5 and c0 did equally well; they move the evidence neither way.',
    );
    expect(row.querySelector<HTMLElement>('.cell.reason')!.title).toMatch(/^futility bound: even winning every remaining dev item, c5 could not reach ×20/);
  });

  it('shows a term’s hover at once in a card, and gives the title back when the pointer leaves', () => {
    const { app } = mount(answeredRun());
    const needs = [...app.feedElement.querySelectorAll<HTMLElement>('.term')].find((t) => t.textContent === ' (needs ×20)')!;
    const sentence = needs.title;
    needs.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
    expect(app.hoverText).toBe(sentence);
    // Set aside while the card shows, or the browser draws its own tooltip over it.
    expect(needs.title).toBe('');
    needs.dispatchEvent(new PointerEvent('pointerout', { bubbles: true, relatedTarget: document.body }));
    expect(app.hoverText).toBeUndefined();
    expect(needs.title).toBe(sentence);
  });

  it('puts hovers on the chart summary’s terms', () => {
    const s = fold([started(), proposed('c0', undefined), proposed('c1', 'c0'), step('c1', 1, 1, Math.log(1.5)), step('c1', 2, -1, Math.log(0.9))]);
    s.activeCandidateId = 'c1';
    s.wealth['c1']!.ties = 2;
    const pieces = wealthChartData(s, undefined).summaryPieces.filter((p) => p.title !== undefined);
    expect(pieces.map((p) => p.text)).toEqual(['evidence ×0.9', ' (needs ×20)', '2 discordant pairs', '2 ties']);
    expect(pieces[2]!.title).toBe('2 discordant pairs: dev items where only one of c1 and c0 was right: c1 won 1, lost 1.');
  });
});

describe('a row with term hovers stays clickable', () => {
  it('a repaint (the list taking focus on mousedown) keeps the term under the pointer, so the click lands and opens the evidence', () => {
    const { app } = mount(answeredRun());
    const list = app.feedElement.listElement;
    const term = list.querySelector('.decision-commit .term');
    expect(term).not.toBeNull();
    list.dispatchEvent(new FocusEvent('focus'));
    // The same node: a replaced one would be detached between mousedown and mouseup, and the
    // browser would dispatch no click.
    expect(term!.isConnected).toBe(true);
    term!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(app.uiState.tab).toBe('evidence');
  });
});

describe('a suggestion the user rejected', () => {
  it('reads "rejected by you" in the feed, not "commit"', () => {
    const s = fold(answeredRun());
    const c2 = s.decisions.find((d) => d.candidateId === 'c2')!;
    expect(toFeedRow(c2, s.candidates['c2']).decisionText).toBe('rejected by you');
    const { app } = mount(answeredRun());
    const row = app.feedElement.listElement.renderedRows().find((r) => r.getAttribute('aria-label')?.startsWith('commit c2'))!;
    expect(row.querySelector('.cell.decision')!.textContent).toBe(' rejected by you');
    expect(row.classList.contains('user-rejected')).toBe(true);
    expect(row.getAttribute('aria-label')).toBe('commit c2 from c1 (the gate committed it; you rejected the suggestion): evidence ×21.5 (needs ×20); 9 items; evidence reached ×20');
  });

  it('turns a commit on screen into "rejected by you" the moment the user rejects it', () => {
    const events = answeredRun();
    const { host, app } = mount(events.slice(0, 10)); // up to c2's commit, before the user's answer
    const c2 = () => app.feedElement.listElement.renderedRows().find((r) => r.getAttribute('aria-label')?.startsWith('commit c2'))!;
    expect(c2().querySelector('.cell.decision')!.textContent).toBe(' commit');
    host.deliver({ type: 'run/events', runId: RUN, events: [ev('edit/rejected', { candidateId: 'c2', file: 'p/x.prompt.md', by: 'user' })] });
    expect(c2().querySelector('.cell.decision')!.textContent).toBe(' rejected by you');
  });

  it('the header counts what the user did with the commits', () => {
    const s = fold(answeredRun());
    expect(outcomeText(s, 5)).toBe('1 accepted by you, 1 rejected by you of 5 candidates');
    expect(headerModel(s, 0).statusText).toBe('finished: 1 accepted by you, 1 rejected by you of 5 candidates');
    const { app } = mount(answeredRun());
    expect(app.headerElement.querySelector('.run-status')!.textContent).toBe('finished: 1 accepted by you, 1 rejected by you of 5 candidates');
    // Nobody answered (autopilot, or a suggestion still open): the gate's count as before.
    expect(outcomeText(fold([started(), proposed('c0', undefined), proposed('c1', 'c0'), decided('c1', 'commit')]), 1)).toBe('1 commit of 1 candidate');
  });
});

describe('tabs with nothing to show for the gate', () => {
  it('hides Ratings under PACE+, and shows it for the Elo gate', () => {
    expect(tabHiddenWhy('ratings', fold([started()]))).toBe('No ratings under pace+: only the Elo gate rates candidates to choose parents.');
    expect(tabHiddenWhy('ratings', fold([started({ gate: 'elo' })]))).toBeUndefined();
    expect(tabHiddenWhy('verdicts', fold([started()]))).toBeUndefined();
    const { app } = mount(answeredRun());
    expect(app.shownTabs).toEqual(['verdicts', 'evidence', 'results', 'lineage', 'cost']);
    expect(mount([started({ gate: 'elo' })]).app.shownTabs).toEqual(['verdicts', 'evidence', 'results', 'ratings', 'lineage', 'cost']);
  });

  it('a panel restored on the Ratings tab of a PACE+ run falls back to Verdicts', () => {
    const host = memoryHost({ v: 1, tab: 'ratings', filter: 'all', costMetric: 'calls' });
    const root = document.createElement('div');
    document.body.replaceChildren(root);
    const app = mountPanel(root, { host, schedule: (paint) => paint(), now: () => 2_000_000 });
    host.deliver({ type: 'run/snapshot', runs: [], run: fold(answeredRun()) });
    expect(app.uiState.tab).toBe('verdicts');
  });
});

describe('the header’s buttons', () => {
  it('say why they are disabled, on a hover that shows although the button takes no pointer events', () => {
    const { app } = mount(answeredRun());
    const slots = [...app.headerElement.querySelectorAll<HTMLElement>('.button-slot')];
    expect(slots.map((s) => [s.firstElementChild!.getAttribute('data-action'), (s.firstElementChild as HTMLElement & { disabled: boolean }).disabled, s.title])).toEqual([
      ['cancel', true, 'Nothing to cancel: the run has finished.'],
      ['resume', true, 'Nothing to resume: the run has finished.'],
    ]);
    // A disabled Resume is not drawn as the primary action.
    expect(app.headerElement.querySelector('[data-action="resume"]')!.hasAttribute('secondary')).toBe(true);
  });

  it('offer "How Ratchet decides", which asks the host to open the page', () => {
    const { host, app } = mount(answeredRun());
    const link = app.headerElement.querySelector<HTMLElement>('.docs-link')!;
    expect(link.textContent).toBe('How Ratchet decides');
    link.click();
    expect(host.sent.at(-1)).toEqual({ type: 'docs/open' });
  });

  it('show a run just started at once, as starting on its file', () => {
    const s = emptyRunState('run-2');
    s.requestedTarget = 'arith/task.prompt.md';
    const model = headerModel(s, 0);
    expect([model.target, model.statusText, model.canCancel]).toEqual(['task.prompt.md', 'starting: waiting for the engine', true]);
  });
});

describe('the cost chart’s axis labels', () => {
  it('never repeat: as many decimals as the step between ticks needs', () => {
    const distinct = (labels: string[]) => new Set(labels).size === labels.length;
    const cases: [number[], 'dollars' | 'calls' | 'tokens' | 'seconds', string[]][] = [
      [[0.005, 0.01, 0.015, 0.02], 'dollars', ['$0.005', '$0.010', '$0.015', '$0.020']],
      [[0.1, 0.2, 0.3], 'dollars', ['$0.1', '$0.2', '$0.3']],
      [[0, 0.25, 0.5, 0.75, 1], 'dollars', ['$0.00', '$0.25', '$0.50', '$0.75', '$1.00']],
      [[0, 5, 10, 15], 'calls', ['0', '5', '10', '15']],
      [[12_000, 12_250, 12_500], 'tokens', ['12.00k', '12.25k', '12.50k']],
      [[0, 500_000, 1_000_000, 1_500_000], 'tokens', ['0.0M', '0.5M', '1.0M', '1.5M']],
      [[0, 30, 60, 90], 'seconds', ['0s', '30s', '1m00s', '1m30s']],
    ];
    for (const [splits, unit, want] of cases) {
      const labels = tickLabels(splits, unit);
      expect(labels).toEqual(want);
      expect(distinct(labels)).toBe(true);
    }
    // Whole things are never split in halves (two ticks would read "1"); dollars step down to $0.0001.
    expect(WHOLE_STEPS.every((s) => Number.isInteger(s))).toBe(true);
    expect(DOLLAR_STEPS[0]).toBe(0.0001);
  });
});
