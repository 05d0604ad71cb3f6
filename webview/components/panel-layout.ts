/**
 * The panel's elements and where they sit: the run header, each tab's views, and the tab strip
 * that holds them (a tab with nothing to show for the run hidden, saying why: model/tabs.ts).
 * What the views' buttons and links do is the app's (`PanelActions`); what they show, too.
 */
import type { CostMetric, DecisionFilter, ProgramsAxis, TabId, ViewMessage } from '../../src/protocol/webview';
import { TABS } from '../../src/protocol/webview';
import type { RunState } from '../../src/panelState/types';
import { custom, el } from '../dom';
import { TAB_LABELS } from '../model/panelParts';
import { tabHiddenWhy } from '../model/tabs';
import type { CostView } from './cost-view';
import type { EvidenceView } from './evidence-view';
import type { LineageTreeView } from './lineage-tree';
import type { ProgramsView } from './programs-view';
import type { RatingsView } from './ratings-view';
import type { ResultsView } from './results-view';
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

/** What the views ask of the panel app. */
export interface PanelActions {
  post(msg: ViewMessage): void;
  /** Posts a message about the run on screen; with none on screen, nothing. */
  postForRun(msg: (runId: string) => ViewMessage): void;
  openEvidence(candidateId: string): void;
  setFilter(filter: DecisionFilter): void;
  openCandidate(candidateId: string, as: 'text' | 'diff'): void;
  setCostMetric(metric: CostMetric): void;
  openProgram(programId: string): void;
  setProgramsAxis(axis: ProgramsAxis): void;
  setZeroRound(round: number): void;
}

export class PanelLayout {
  readonly header = custom<RunHeader>('ratchet-run-header');
  readonly chart = custom<WealthChart>('ratchet-wealth-chart');
  readonly feed = custom<VerdictFeed>('ratchet-verdict-feed');
  readonly evidence = custom<EvidenceView>('ratchet-evidence-view');
  readonly ratings = custom<RatingsView>('ratchet-ratings-view');
  readonly lineage = custom<LineageTreeView>('ratchet-lineage-tree');
  readonly cost = custom<CostView>('ratchet-cost-view');
  readonly results = custom<ResultsView>('ratchet-results-view');
  readonly programs = custom<ProgramsView>('ratchet-programs-view');
  readonly zero = custom<ZeroDataView>('ratchet-zero-data-view');
  /** Each tab's header, to hide a tab with nothing to show for the run's gate (model/tabs.ts). */
  private readonly tabHeaders = new Map<TabId, HTMLElement>();
  private readonly tabs = custom<HTMLElement & { selectedIndex: number }>('vscode-tabs', { attrs: { panel: '' } });

  /** Wires the views to `a`, puts each in its tab with `selected` on screen, and returns the panel's children; `select` hears a tab clicked. */
  build(a: PanelActions, selected: TabId, select: (tab: TabId) => void): HTMLElement[] {
    this.header.actions = {
      cancel: () => a.postForRun((runId) => ({ type: 'run/cancel', runId })),
      resume: () => a.postForRun((runId) => ({ type: 'run/resume', runId })),
      selectRun: (runId) => a.post({ type: 'run/select', runId }),
      openDocs: () => a.post({ type: 'docs/open' }),
    };
    this.feed.actions = {
      open: (candidateId) => a.openEvidence(candidateId),
      filter: (filter) => a.setFilter(filter),
    };
    this.evidence.actions = { openCandidate: (id, as) => a.openCandidate(id, as) };
    this.lineage.actions = { open: (id, as) => a.openCandidate(id, as) };
    this.cost.actions = { metric: (m) => a.setCostMetric(m) };
    this.programs.actions = {
      select: (id) => a.openProgram(id),
      axis: (axis) => a.setProgramsAxis(axis),
      openCandidate: (id, as) => a.openCandidate(id, as),
    };
    this.zero.actions = {
      selectRound: (round) => a.setZeroRound(round),
      requestExemplars: (round) => a.postForRun((runId) => ({ type: 'zero/request', runId, round })),
    };
    this.results.actions = {
      openCell: (itemId, versionId) => a.postForRun((runId) => ({ type: 'results/cell', runId, itemId, versionId })),
      export: (format, filter) => a.postForRun((runId) => ({ type: 'results/export', runId, format, filter })),
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
    this.tabs.setAttribute('selected-index', String(TABS.indexOf(selected)));
    this.tabs.addEventListener('vsc-tabs-select', (e) => {
      const index = (e as CustomEvent<{ selectedIndex: number }>).detail.selectedIndex;
      const tab = TABS[index];
      if (tab) select(tab);
    });
    return [this.header, el('main', { className: 'panel-body' }, [this.tabs])];
  }

  selectTab(tab: TabId): void {
    this.tabs.selectedIndex = TABS.indexOf(tab);
  }

  /** Hides the tabs with nothing to show for this run, each saying why on hover. */
  hideEmptyTabs(state: RunState | undefined): void {
    for (const [tab, header] of this.tabHeaders) {
      const why = tabHiddenWhy(tab, state);
      header.hidden = why !== undefined;
      header.title = why ?? '';
    }
  }

  /** The tabs on screen, in order. */
  get shownTabs(): TabId[] {
    return [...this.tabHeaders].filter(([, h]) => !h.hidden).map(([t]) => t);
  }
}
