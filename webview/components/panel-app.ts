/**
 * <ratchet-panel-app>: the panel's root. It owns the run state received from the host, folds
 * later events into it, and repaints only the parts an event touched, at most once a frame and
 * only on the visible tab. It decides nothing: every number it shows came from the engine.
 */
import { assertNever } from '../../src/core/errors';
import type { CostMetric, DecisionFilter, HostMessage, ProgramsAxis, RunListEntry, TabId, UiState, ViewMessage } from '../../src/protocol/webview';
import { custom, el } from '../dom';
import type { PanelHost } from '../host';
import { costChartData, costTable } from '../model/costSeries';
import { evaluatorLoads } from '../model/evaluatorLoad';
import { feedCounts, feedRows, matchesFilter } from '../model/feed';
import { TABS } from '../../src/protocol/webview';
import { headerModel } from '../model/header';
import { TAB_LABELS, defaultUiState, partsFor, restoreUiState, tabParts } from '../model/panelParts';
import type { Part } from '../model/panelParts';
import { ratingRows, ratingsChartData } from '../model/ratings';
import { firstTab, tabHiddenWhy } from '../model/tabs';
import { foldEvents } from '../../src/panelState/runState';
import { wealthChartData } from '../model/wealthSeries';
import type { CostView } from './cost-view';
import type { EvidenceView } from './evidence-view';
import type { LineageTreeView } from './lineage-tree';
import type { ProgramsView } from './programs-view';
import type { RatingsView } from './ratings-view';
import type { ResultsView } from './results-view';
import { TermHover } from './term-hover';
import type { RunHeader } from './run-header';
import type { VerdictFeed } from './verdict-feed';
import type { WealthChart } from './wealth-chart';
import type { ZeroDataView } from './zero-data-view';
import './cost-view';
import './evidence-view';
import './lineage-tree';
import './programs-view';
import './ratings-view';
import './results-view';
import './run-header';
import './verdict-feed';
import './wealth-chart';
import './zero-data-view';
import type { RunState } from '../../src/panelState/types';

export interface PanelAppOptions {
  host: PanelHost;
  /** Defers a paint; requestAnimationFrame by default (tests pass a synchronous one). */
  schedule?: (paint: () => void) => void;
  now?: () => number;
}

export class PanelApp extends HTMLElement {
  private host: PanelHost | undefined;
  private schedule: (paint: () => void) => void = (paint) => requestAnimationFrame(paint);
  private now: () => number = () => Date.now();
  private ui: UiState = defaultUiState();
  private state: RunState | undefined;
  private runs: RunListEntry[] = [];
  private readonly dirty = new Set<Part>();
  private paintPending = false;
  private painted = false;
  /** A run newly on screen opens on its kind's first tab once its events say its kind (model/tabs.ts). */
  private chooseFirstTab = false;
  /** A focused decision the feed scrolls to the next time it paints (its tab may be hidden now). */
  private revealInFeed: string | undefined;
  private unsubscribe: (() => void) | undefined;
  private termHover: TermHover | undefined;
  private clock: ReturnType<typeof setInterval> | undefined;

  private readonly header = custom<RunHeader>('ratchet-run-header');
  /** Each tab's header, to hide a tab with nothing to show for the run's gate (model/tabs.ts). */
  private readonly tabHeaders = new Map<TabId, HTMLElement>();
  private readonly tabs = custom<HTMLElement & { selectedIndex: number }>('vscode-tabs', { attrs: { panel: '' } });
  private readonly chart = custom<WealthChart>('ratchet-wealth-chart');
  private readonly feed = custom<VerdictFeed>('ratchet-verdict-feed');
  private readonly evidence = custom<EvidenceView>('ratchet-evidence-view');
  private readonly ratings = custom<RatingsView>('ratchet-ratings-view');
  private readonly lineage = custom<LineageTreeView>('ratchet-lineage-tree');
  private readonly cost = custom<CostView>('ratchet-cost-view');
  private readonly results = custom<ResultsView>('ratchet-results-view');
  private readonly programs = custom<ProgramsView>('ratchet-programs-view');
  private readonly zero = custom<ZeroDataView>('ratchet-zero-data-view');
  /** A results table asked of the host and not yet answered; `again`: the run changed meanwhile. */
  private resultsRequest: { runId: string; again: boolean } | undefined;

  /** Connects to the host, restores the UI choices, and says `view/ready`. */
  start(options: PanelAppOptions): void {
    this.host = options.host;
    if (options.schedule) this.schedule = options.schedule;
    if (options.now) this.now = options.now;
    this.ui = restoreUiState(options.host.getState());
    this.build();
    this.unsubscribe = options.host.onMessage((msg) => this.receive(msg));
    this.clock = setInterval(() => {
      if (this.state?.status === 'running') this.invalidate(['header']);
    }, 1000);
    this.post({ type: 'view/ready', runId: this.ui.runId });
  }

  disconnectedCallback(): void {
    this.unsubscribe?.();
    if (this.clock !== undefined) clearInterval(this.clock);
  }

  /** The UI choices as persisted; never run data. */
  get uiState(): UiState {
    return { ...this.ui };
  }

  get runState(): RunState | undefined {
    return this.state;
  }

  receive(msg: HostMessage): void {
    try {
      this.handle(msg);
    } catch (err) {
      this.post({ type: 'view/error', message: `The panel could not handle '${(msg as { type?: unknown }).type}': ${err instanceof Error ? err.message : String(err)}` });
    }
  }

  private handle(msg: HostMessage): void {
    switch (msg.type) {
      case 'run/snapshot':
        this.runs = msg.runs;
        this.state = msg.run;
        if (msg.run && this.ui.runId !== msg.run.runId) {
          if (this.ui.runId !== undefined) {
            delete this.ui.candidateId;
            delete this.ui.programId;
            delete this.ui.zeroRound;
          }
          this.ui.runId = msg.run.runId;
          this.saveUi();
          this.chooseFirstTab = true;
        }
        this.resultsRequest = undefined;
        this.invalidate(['header', 'feed', 'chart', 'ratings', 'lineage', 'cost', 'evidence', 'results', 'programs', 'zero']);
        if (this.ui.tab === 'evidence' && this.ui.candidateId !== undefined && msg.run) this.requestEvidence(this.ui.candidateId);
        if (this.ui.programId !== undefined && msg.run) this.requestProgram(this.ui.programId);
        return;
      case 'run/events': {
        if (!this.state || msg.runId !== this.state.runId) return;
        foldEvents(this.state, msg.events);
        const parts = new Set<Part>(['header']);
        for (const e of msg.events) {
          for (const p of partsFor(e.type)) parts.add(p);
          // The evidence on screen was for a test still running: now it has its decision.
          if (e.type === 'decision' && e.record.candidateId === this.evidence.candidateId) this.requestEvidence(e.record.candidateId);
          // Likewise the program open in the Programs view, once the evaluator's verdict is in.
          if (e.type === 'program/evaluated' && e.candidateId === this.ui.programId) this.requestProgram(e.candidateId);
        }
        this.invalidate([...parts]);
        return;
      }
      case 'runs/updated':
        this.runs = msg.runs;
        this.invalidate(['header']);
        return;
      case 'evidence/show':
        if (msg.evidence.runId === this.ui.runId && msg.evidence.candidateId === this.ui.candidateId) this.evidence.show(msg.evidence);
        return;
      case 'evidence/missing':
        if (msg.runId === this.ui.runId && msg.candidateId === this.ui.candidateId) this.evidence.showMissing(msg.candidateId, msg.why);
        return;
      case 'results/show':
        if (msg.table.runId !== this.state?.runId) return;
        this.results.update(msg.table);
        if (this.resultsRequest?.again) this.invalidate(['results']);
        this.resultsRequest = undefined;
        return;
      case 'results/cell':
        this.results.showCell(msg.cell);
        return;
      case 'program/show':
        if (msg.detail.runId === this.ui.runId && msg.detail.programId === this.ui.programId) this.programs.showDetail(msg.detail);
        return;
      case 'program/missing':
        if (msg.runId === this.ui.runId && msg.programId === this.ui.programId) this.programs.showMissing(msg.programId, msg.why);
        return;
      case 'programs/load':
        evaluatorLoads.record(msg.runId, msg);
        return;
      case 'zero/exemplars':
        this.zero.showExemplars(msg.runId, msg.round, msg.exemplars, msg.why);
        return;
      case 'focus':
        // The host posts the run's snapshot first; a focus on a run no longer on screen is stale.
        if (this.state?.runId === msg.runId) this.focusDecision(msg.candidateId);
        return;
      default:
        assertNever(msg, 'host message');
    }
  }

  private build(): void {
    this.header.actions = {
      cancel: () => this.state && this.post({ type: 'run/cancel', runId: this.state.runId }),
      resume: () => this.state && this.post({ type: 'run/resume', runId: this.state.runId }),
      selectRun: (runId) => this.post({ type: 'run/select', runId }),
      openDocs: () => this.post({ type: 'docs/open' }),
    };
    this.feed.actions = {
      open: (candidateId) => this.openEvidence(candidateId),
      filter: (filter) => this.setFilter(filter),
    };
    this.evidence.actions = { openCandidate: (id, as) => this.openCandidate(id, as) };
    this.lineage.actions = { open: (id, as) => this.openCandidate(id, as) };
    this.cost.actions = { metric: (m) => this.setCostMetric(m) };
    this.programs.actions = {
      select: (id) => this.openProgram(id),
      axis: (axis) => this.setProgramsAxis(axis),
      openCandidate: (id, as) => this.openCandidate(id, as),
    };
    this.zero.actions = {
      selectRound: (round) => this.setZeroRound(round),
      requestExemplars: (round) => this.state && this.post({ type: 'zero/request', runId: this.state.runId, round }),
    };
    this.results.actions = {
      openCell: (itemId, versionId) => this.state && this.post({ type: 'results/cell', runId: this.state.runId, itemId, versionId }),
      export: (format, filter) => this.state && this.post({ type: 'results/export', runId: this.state.runId, format, filter }),
    };

    const panels: Record<TabId, HTMLElement[]> = {
      programs: [this.programs],
      zero: [this.zero],
      verdicts: [this.chart, this.feed],
      results: [this.results],
      evidence: [this.evidence],
      ratings: [this.ratings],
      lineage: [this.lineage],
      cost: [this.cost],
    };
    for (const tab of TABS) {
      const header = custom('vscode-tab-header', { text: TAB_LABELS[tab], attrs: { slot: 'header', 'data-tab': tab } });
      this.tabHeaders.set(tab, header);
      this.tabs.append(header);
      this.tabs.append(custom('vscode-tab-panel', { attrs: { 'data-tab': tab, 'aria-label': TAB_LABELS[tab] } }, panels[tab]));
    }
    this.tabs.setAttribute('selected-index', String(TABS.indexOf(this.ui.tab)));
    this.tabs.addEventListener('vsc-tabs-select', (e) => {
      const index = (e as CustomEvent<{ selectedIndex: number }>).detail.selectedIndex;
      const tab = TABS[index];
      if (tab) this.showTab(tab, false);
    });
    this.replaceChildren(this.header, el('main', { className: 'panel-body' }, [this.tabs]));
    this.termHover = new TermHover(this);
  }

  /** Switches tab (from a tab click, or from code when `syncTabs`), repainting what went stale. */
  showTab(tab: TabId, syncTabs = true): void {
    if (syncTabs) this.tabs.selectedIndex = TABS.indexOf(tab);
    if (this.ui.tab === tab) return;
    this.ui.tab = tab;
    this.saveUi();
    this.invalidate([]);
  }

  /** The editor's Evidence command: the decision selected (and scrolled to) in the feed, its evidence open. */
  private focusDecision(candidateId: string): void {
    const row = this.state?.decisions.findLast((d) => d.candidateId === candidateId);
    if (row && !matchesFilter(row, this.ui.filter)) this.setFilter('all');
    this.revealInFeed = candidateId;
    this.openEvidence(candidateId);
  }

  private openEvidence(candidateId: string): void {
    this.ui.candidateId = candidateId;
    this.showTab('evidence');
    this.saveUi();
    this.invalidate(['feed', 'chart']);
    this.requestEvidence(candidateId);
  }

  private requestEvidence(candidateId: string): void {
    if (!this.state) return;
    this.evidence.showLoading(candidateId);
    this.post({ type: 'evidence/request', runId: this.state.runId, candidateId });
  }

  /** A program picked in the Programs view (chart, archive, genealogy…): its detail opens below the chart. */
  private openProgram(programId: string): void {
    const changed = this.ui.programId !== programId;
    this.ui.programId = programId;
    this.saveUi();
    this.invalidate(['programs']);
    this.requestProgram(programId);
    if (changed) this.programs.revealDetail();
  }

  private requestProgram(programId: string): void {
    if (!this.state) return;
    this.programs.showLoading(programId);
    this.post({ type: 'program/request', runId: this.state.runId, programId });
  }

  private setProgramsAxis(axis: ProgramsAxis): void {
    if ((this.ui.programsAxis ?? 'index') === axis) return;
    this.ui.programsAxis = axis;
    this.saveUi();
    this.invalidate(['programs']);
  }

  private openCandidate(candidateId: string, as: 'text' | 'diff'): void {
    if (this.state) this.post({ type: 'candidate/open', runId: this.state.runId, candidateId, as });
  }

  /** The table lives on the host (it holds the outputs): one request at a time, and one more if the run moved on meanwhile. */
  private requestResults(): void {
    if (!this.state) return;
    if (this.resultsRequest?.runId === this.state.runId) {
      this.resultsRequest.again = true;
      return;
    }
    this.resultsRequest = { runId: this.state.runId, again: false };
    this.post({ type: 'results/request', runId: this.state.runId });
  }

  private setFilter(filter: DecisionFilter): void {
    if (this.ui.filter === filter) return;
    this.ui.filter = filter;
    this.saveUi();
    this.invalidate(['feed']);
  }

  private setZeroRound(round: number): void {
    if (this.ui.zeroRound === round) return;
    this.ui.zeroRound = round;
    this.saveUi();
    this.invalidate(['zero']);
  }

  private setCostMetric(metric: CostMetric): void {
    if (this.ui.costMetric === metric) return;
    this.ui.costMetric = metric;
    this.saveUi();
    this.invalidate(['cost']);
  }

  private saveUi(): void {
    this.host?.setState({ ...this.ui });
  }

  private post(msg: ViewMessage): void {
    this.host?.post(msg);
  }

  private invalidate(parts: Part[]): void {
    for (const p of parts) this.dirty.add(p);
    if (this.paintPending) return;
    this.paintPending = true;
    this.schedule(() => this.paint());
  }

  /** Paints the dirty parts that are on screen; the others stay dirty until their tab shows. */
  paint(): void {
    this.paintPending = false;
    const s = this.state;
    const visible = new Set<Part>(['header', ...tabParts(this.ui.tab)]);
    for (const part of [...this.dirty]) {
      if (!visible.has(part)) continue;
      this.dirty.delete(part);
      switch (part) {
        case 'header':
          this.header.update(
            headerModel(
              s,
              this.now(),
              this.runs.find((r) => r.runId === s?.runId),
            ),
            this.runs,
            s?.runId,
          );
          this.updateTabs();
          break;
        case 'feed':
          this.feed.update(feedRows(s, this.ui.filter), this.ui.filter, feedCounts(s), this.ui.candidateId, s?.droppedDecisions ?? 0, s?.candidates);
          if (this.revealInFeed !== undefined) this.feed.reveal(this.revealInFeed);
          this.revealInFeed = undefined;
          break;
        case 'chart':
          this.chart.update(wealthChartData(s, this.ui.candidateId));
          break;
        case 'evidence':
          if (this.ui.candidateId === undefined) this.evidence.showPlaceholder('Pick a decision in the Verdicts tab to see its evidence.');
          break;
        case 'ratings':
          this.ratings.update(ratingRows(s), ratingsChartData(s));
          break;
        case 'lineage':
          this.lineage.update(s);
          break;
        case 'cost':
          this.cost.update(this.ui.costMetric, costChartData(s, this.ui.costMetric), costTable(s));
          break;
        case 'results':
          this.requestResults();
          break;
        case 'programs':
          if (s) this.programs.update(s, this.ui.programsAxis ?? 'index', this.ui.programId);
          break;
        case 'zero':
          this.zero.update(s, this.ui.zeroRound);
          break;
        default:
          assertNever(part, 'panel part');
      }
    }
    if (s) {
      this.dataset.paintedEvents = String(s.eventCount);
      if (!this.painted) {
        this.painted = true;
        performance.mark('ratchet:first-paint');
      }
    }
  }

  /** Hides the tabs with nothing to show for this run; the one on screen gives way to the first shown. */
  private updateTabs(): void {
    for (const [tab, header] of this.tabHeaders) {
      const why = tabHiddenWhy(tab, this.state);
      header.hidden = why !== undefined;
      header.title = why ?? '';
    }
    const opening = this.chooseFirstTab && this.state?.info !== undefined ? firstTab(this.state) : undefined;
    if (this.state?.info !== undefined) this.chooseFirstTab = false;
    if (opening !== undefined) this.showTab(opening);
    const first = this.shownTabs[0];
    if (first !== undefined && !this.shownTabs.includes(this.ui.tab)) this.showTab(first);
  }

  /** The tabs on screen, in order. */
  get shownTabs(): TabId[] {
    return [...this.tabHeaders].filter(([, h]) => !h.hidden).map(([t]) => t);
  }

  /** The term hover on screen, if any (model/glossary.ts sentences). */
  get hoverText(): string | undefined {
    return this.termHover?.text;
  }

  get feedElement(): VerdictFeed {
    return this.feed;
  }
  get lineageElement(): LineageTreeView {
    return this.lineage;
  }
  get headerElement(): RunHeader {
    return this.header;
  }
  get evidenceElement(): EvidenceView {
    return this.evidence;
  }
  get resultsElement(): ResultsView {
    return this.results;
  }
  get programsElement(): ProgramsView {
    return this.programs;
  }
  get zeroElement(): ZeroDataView {
    return this.zero;
  }
}

customElements.define('ratchet-panel-app', PanelApp);

/** Mounts the panel into `root` and starts it. */
export function mountPanel(root: HTMLElement, options: PanelAppOptions): PanelApp {
  const app = custom<PanelApp>('ratchet-panel-app');
  root.replaceChildren(app);
  app.start(options);
  return app;
}
