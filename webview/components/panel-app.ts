/**
 * <ratchet-panel-app>: the panel's root. It owns the run state received from the host, folds
 * later events into it, and repaints only the parts an event touched, at most once a frame and
 * only on the visible tab. It decides nothing: every number it shows came from the engine.
 */
import { assertNever } from '../../src/core/errors';
import type { HostMessage, RunListEntry, TabId, UiState, ViewMessage } from '../../src/protocol/webview';
import { custom } from '../dom';
import type { PanelHost } from '../host';
import { costChartData, costTable } from '../model/costSeries';
import { evaluatorLoads } from '../model/evaluatorLoad';
import { feedCounts, feedRows, matchesFilter } from '../model/feed';
import { headerModel } from '../model/header';
import { defaultUiState, partsFor, restoreUiState, tabParts } from '../model/panelParts';
import type { Part } from '../model/panelParts';
import { ratingRows, ratingsChartData } from '../model/ratings';
import { firstTab } from '../model/tabs';
import { foldEvents } from '../../src/panelState/runState';
import { wealthChartData } from '../model/wealthSeries';
import type { EvidenceView } from './evidence-view';
import type { LineageTreeView } from './lineage-tree';
import { PanelLayout } from './panel-layout';
import type { PanelActions } from './panel-layout';
import type { ProgramsView } from './programs-view';
import type { ResultsView } from './results-view';
import { TermHover } from './term-hover';
import type { RunHeader } from './run-header';
import type { VerdictFeed } from './verdict-feed';
import type { ZeroDataView } from './zero-data-view';
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

  private readonly layout = new PanelLayout();
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
          if (e.type === 'decision' && e.record.candidateId === this.layout.evidence.candidateId) this.requestEvidence(e.record.candidateId);
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
        if (msg.evidence.runId === this.ui.runId && msg.evidence.candidateId === this.ui.candidateId) this.layout.evidence.show(msg.evidence);
        return;
      case 'evidence/missing':
        if (msg.runId === this.ui.runId && msg.candidateId === this.ui.candidateId) this.layout.evidence.showMissing(msg.candidateId, msg.why);
        return;
      case 'results/show':
        if (msg.table.runId !== this.state?.runId) return;
        this.layout.results.update(msg.table);
        if (this.resultsRequest?.again) this.invalidate(['results']);
        this.resultsRequest = undefined;
        return;
      case 'results/cell':
        this.layout.results.showCell(msg.cell);
        return;
      case 'program/show':
        if (msg.detail.runId === this.ui.runId && msg.detail.programId === this.ui.programId) this.layout.programs.showDetail(msg.detail);
        return;
      case 'program/missing':
        if (msg.runId === this.ui.runId && msg.programId === this.ui.programId) this.layout.programs.showMissing(msg.programId, msg.why);
        return;
      case 'programs/load':
        evaluatorLoads.record(msg.runId, msg);
        return;
      case 'zero/exemplars':
        this.layout.zero.showExemplars(msg.runId, msg.round, msg.exemplars, msg.why);
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
    const actions: PanelActions = {
      post: (msg) => this.post(msg),
      postForRun: (msg) => this.state && this.post(msg(this.state.runId)),
      openEvidence: (candidateId) => this.openEvidence(candidateId),
      setFilter: (filter) => this.choose('filter', filter, 'feed'),
      openCandidate: (id, as) => this.openCandidate(id, as),
      setCostMetric: (m) => this.choose('costMetric', m, 'cost'),
      openProgram: (id) => this.openProgram(id),
      setProgramsAxis: (axis) => this.choose('programsAxis', axis, 'programs', 'index'),
      setZeroRound: (round) => this.choose('zeroRound', round, 'zero'),
    };
    this.replaceChildren(...this.layout.build(actions, this.ui.tab, (tab) => this.showTab(tab, false)));
    this.termHover = new TermHover(this);
  }

  /** Switches tab (from a tab click, or from code when `syncTabs`), repainting what went stale. */
  showTab(tab: TabId, syncTabs = true): void {
    if (syncTabs) this.layout.selectTab(tab);
    if (this.ui.tab === tab) return;
    this.ui.tab = tab;
    this.saveUi();
    this.invalidate([]);
  }

  /** The editor's Evidence command: the decision selected (and scrolled to) in the feed, its evidence open. */
  private focusDecision(candidateId: string): void {
    const row = this.state?.decisions.findLast((d) => d.candidateId === candidateId);
    if (row && !matchesFilter(row, this.ui.filter)) this.choose('filter', 'all', 'feed');
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
    this.layout.evidence.showLoading(candidateId);
    this.post({ type: 'evidence/request', runId: this.state.runId, candidateId });
  }

  /** A program picked in the Programs view (chart, archive, genealogy…): its detail opens below the chart. */
  private openProgram(programId: string): void {
    const changed = this.ui.programId !== programId;
    this.ui.programId = programId;
    this.saveUi();
    this.invalidate(['programs']);
    this.requestProgram(programId);
    if (changed) this.layout.programs.revealDetail();
  }

  private requestProgram(programId: string): void {
    if (!this.state) return;
    this.layout.programs.showLoading(programId);
    this.post({ type: 'program/request', runId: this.state.runId, programId });
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

  /**
   * A persisted UI choice changed (the feed's filter, the zero-data round, the cost metric, the
   * Programs chart's axis): saved, and its part repainted. `unset` is what an absent choice means.
   */
  private choose<K extends 'filter' | 'zeroRound' | 'costMetric' | 'programsAxis'>(key: K, value: NonNullable<UiState[K]>, part: Part, unset?: UiState[K]): void {
    if ((this.ui[key] ?? unset) === value) return;
    this.ui[key] = value;
    this.saveUi();
    this.invalidate([part]);
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
          this.layout.header.update(
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
          this.layout.feed.update(feedRows(s, this.ui.filter), this.ui.filter, feedCounts(s), this.ui.candidateId, s?.droppedDecisions ?? 0, s?.candidates);
          if (this.revealInFeed !== undefined) this.layout.feed.reveal(this.revealInFeed);
          this.revealInFeed = undefined;
          break;
        case 'chart':
          this.layout.chart.update(wealthChartData(s, this.ui.candidateId));
          break;
        case 'evidence':
          if (this.ui.candidateId === undefined) this.layout.evidence.showPlaceholder('Pick a decision in the Verdicts tab to see its evidence.');
          break;
        case 'ratings':
          this.layout.ratings.update(ratingRows(s), ratingsChartData(s));
          break;
        case 'lineage':
          this.layout.lineage.update(s);
          break;
        case 'cost':
          this.layout.cost.update(this.ui.costMetric, costChartData(s, this.ui.costMetric), costTable(s));
          break;
        case 'results':
          this.requestResults();
          break;
        case 'programs':
          if (s) this.layout.programs.update(s, this.ui.programsAxis ?? 'index', this.ui.programId);
          break;
        case 'zero':
          this.layout.zero.update(s, this.ui.zeroRound);
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
    this.layout.hideEmptyTabs(this.state);
    const opening = this.chooseFirstTab && this.state?.info !== undefined ? firstTab(this.state) : undefined;
    if (this.state?.info !== undefined) this.chooseFirstTab = false;
    if (opening !== undefined) this.showTab(opening);
    const first = this.shownTabs[0];
    if (first !== undefined && !this.shownTabs.includes(this.ui.tab)) this.showTab(first);
  }

  /** The tabs on screen, in order. */
  get shownTabs(): TabId[] {
    return this.layout.shownTabs;
  }

  /** The term hover on screen, if any (model/glossary.ts sentences). */
  get hoverText(): string | undefined {
    return this.termHover?.text;
  }

  get feedElement(): VerdictFeed {
    return this.layout.feed;
  }
  get lineageElement(): LineageTreeView {
    return this.layout.lineage;
  }
  get headerElement(): RunHeader {
    return this.layout.header;
  }
  get evidenceElement(): EvidenceView {
    return this.layout.evidence;
  }
  get resultsElement(): ResultsView {
    return this.layout.results;
  }
  get programsElement(): ProgramsView {
    return this.layout.programs;
  }
  get zeroElement(): ZeroDataView {
    return this.layout.zero;
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
