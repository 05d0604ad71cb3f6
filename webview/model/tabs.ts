/**
 * Which of the panel's tabs have something to show for a run. A tab with nothing to show for the
 * run's gate is hidden rather than left empty: Ratings exist only where ratings choose parents.
 * One entry per tab that can be hidden; a tab not listed always shows.
 */
import { gateRow, isGateName } from '../../src/core/gates/gateTable';
import type { RunState, TabId } from '../../src/protocol/webview';

/** Why the tab is hidden for this run, or undefined when it shows. */
const HIDDEN_WHY: Partial<Record<TabId, (s: RunState) => string | undefined>> = {
  ratings: (s) => {
    const gate = s.info?.gate;
    // Until the run says its gate, and whenever ratings arrived, the tab stays.
    if (gate === undefined || s.ratings.length > 0 || !isGateName(gate) || gateRow(gate).kind === 'rating') return undefined;
    return `No ratings under ${gate}: only the Elo gate rates candidates to choose parents.`;
  },
};

export function tabHiddenWhy(tab: TabId, state: RunState | undefined): string | undefined {
  return state === undefined ? undefined : HIDDEN_WHY[tab]?.(state);
}

