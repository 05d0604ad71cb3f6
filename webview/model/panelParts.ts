/**
 * The panel's parts and what repaints them: which parts each engine event can change, which parts
 * each tab shows, the tabs' labels, and the UI choices the webview keeps in setState (read back
 * defensively: a saved state from an older panel must not break a new one). Pure tables, no DOM;
 * <ratchet-panel-app> repaints by them.
 */
import { assertNever } from '../../src/core/errors';
import type { TabId, UiState } from '../../src/protocol/webview';
import { TABS } from '../../src/protocol/webview';
import type { PanelEvent } from '../../src/panelState/types';

export type Part = 'header' | 'feed' | 'chart' | 'evidence' | 'ratings' | 'lineage' | 'cost' | 'results' | 'programs' | 'zero';

export const TAB_LABELS: Record<TabId, string> = {
  programs: 'Programs',
  zero: 'Zero-data',
  verdicts: 'Verdicts',
  results: 'Results',
  evidence: 'Evidence',
  ratings: 'Ratings',
  lineage: 'Lineage',
  cost: 'Cost',
};

/** Which parts of the panel each event type can change. */
export function partsFor(type: PanelEvent['type']): readonly Part[] {
  switch (type) {
    case 'decision':
      return ['feed', 'chart', 'lineage', 'ratings', 'header', 'results', 'programs'];
    case 'wealth/step':
      return ['chart'];
    case 'candidate/proposed':
      return ['lineage', 'programs'];
    case 'proposal/failed':
    case 'program/evaluated':
    case 'program/migrated':
      return ['header', 'programs'];
    // A Slurm task's state and cost: the Programs view's throughput (issue #18); a paused cluster also says why in the header's log.
    case 'slurm/submitted':
    case 'slurm/task':
    case 'slurm/cancelled':
    case 'slurm/attached':
      return ['programs'];
    case 'slurm/status':
      return ['header', 'programs'];
    // The user's answer to a suggestion: the feed's decision ("rejected by you") and the header's counts.
    case 'edit/applied':
    case 'edit/rejected':
    case 'edit/undone':
      return ['lineage', 'feed', 'header', 'results'];
    case 'cost/update':
      return ['cost', 'header'];
    case 'ratings':
      return ['ratings'];
    case 'item/evaluated':
    case 'dataset/loaded':
      return ['results'];
    case 'run/started':
    case 'run/finished':
    case 'run/failed':
    case 'run/cancelled':
    case 'log':
    case 'sandbox/preflight':
    case 'report/test':
    case 'llm/waiting':
    case 'run/resumed':
    case 'meta/notes':
      return ['header'];
    case 'candidate/stopped':
      return ['lineage', 'header'];
    case 'zero/round':
      return ['zero', 'header'];
    case 'verdict':
    case 'suggestion':
    case 'rubric/updated':
      return [];
    default:
      return assertNever(type, 'engine event type');
  }
}

export function defaultUiState(): UiState {
  return { v: 1, tab: 'verdicts', filter: 'all', costMetric: 'calls' };
}

/** Reads back what setState stored; anything unrecognised falls back to the default. */
export function restoreUiState(saved: unknown): UiState {
  const ui = defaultUiState();
  if (typeof saved !== 'object' || saved === null) return ui;
  const s = saved as Partial<UiState>;
  if (typeof s.runId === 'string') ui.runId = s.runId;
  if (typeof s.tab === 'string' && (TABS as readonly string[]).includes(s.tab)) ui.tab = s.tab;
  if (s.filter === 'all' || s.filter === 'commit' || s.filter === 'reject') ui.filter = s.filter;
  if (typeof s.candidateId === 'string') ui.candidateId = s.candidateId;
  if (s.costMetric === 'calls' || s.costMetric === 'tokens' || s.costMetric === 'dollars') ui.costMetric = s.costMetric;
  if (typeof s.programId === 'string') ui.programId = s.programId;
  if (s.programsAxis === 'index' || s.programsAxis === 'time') ui.programsAxis = s.programsAxis;
  if (typeof s.zeroRound === 'number' && Number.isInteger(s.zeroRound)) ui.zeroRound = s.zeroRound;
  return ui;
}

export function tabParts(tab: TabId): Part[] {
  switch (tab) {
    case 'verdicts':
      return ['feed', 'chart'];
    case 'evidence':
      return ['evidence'];
    case 'ratings':
      return ['ratings'];
    case 'lineage':
      return ['lineage'];
    case 'cost':
      return ['cost'];
    case 'results':
      return ['results'];
    case 'programs':
      return ['programs'];
    case 'zero':
      return ['zero'];
    default:
      return assertNever(tab, 'tab');
  }
}
