/**
 * Which of the panel's tabs have something to show for a run, and which one a run opens on. A tab
 * with nothing to show for the run is hidden rather than left empty: Ratings exist only where
 * ratings choose parents, an Evaluate (one prompt tested, no candidates) has no verdicts, evidence
 * or lineage, Programs exist only in a code search, which has no dataset rows for Results, and
 * Zero-data only in a run that generates its tasks (a dev-set generation tests no candidates).
 * One entry per tab that can be hidden; a tab not listed always shows.
 */
import { gateRow, isGateName } from '../../src/core/gates/gateTable';
import { isEvaluation } from '../../src/panelState/results';
import type { TabId } from '../../src/protocol/webview';
import type { RunState } from '../../src/panelState/types';

const GENERATION = 'A dev-set generation tests no candidates: what it did is under Zero-data, and in the dev set it writes.';

const noCandidates = (s: RunState): string | undefined => {
  if (isGeneration(s)) return GENERATION;
  return isEvaluation(s.info) ? 'An evaluation tests one prompt: there are no candidates to decide on. Its scores are under Results.' : undefined;
};

/** Why the tab is hidden for this run, or undefined when it shows. */
const HIDDEN_WHY: Partial<Record<TabId, (s: RunState) => string | undefined>> = {
  programs: (s) => (isSearch(s) ? undefined : 'Programs are a code search’s: this run evolves a prompt.'),
  results: (s) => {
    if (isGeneration(s)) return GENERATION;
    return isSearch(s) ? 'A code search has no dataset rows to compare: its programs and their scores are under Programs.' : undefined;
  },
  zero: (s) => {
    if (isGeneration(s) || s.zeroRounds.length > 0) return undefined;
    if (isSearch(s)) return 'A code search generates no tasks: its programs are under Programs.';
    return 'No zero-data round in this run: it writes tasks of its own only when its spec names no dataset.';
  },
  verdicts: noCandidates,
  evidence: noCandidates,
  lineage: noCandidates,
  ratings: (s) => {
    if (isEvaluation(s.info) || isGeneration(s)) return noCandidates(s);
    const gate = s.info?.gate;
    // Until the run says its gate, and whenever ratings arrived, the tab stays.
    if (gate === undefined || s.ratings.length > 0 || !isGateName(gate) || gateRow(gate).kind === 'rating') return undefined;
    return `No ratings under ${gate}: only the Elo gate rates candidates to choose parents.`;
  },
};

export function tabHiddenWhy(tab: TabId, state: RunState | undefined): string | undefined {
  return state === undefined ? undefined : HIDDEN_WHY[tab]?.(state);
}

/** The tab a run opens on when the user starts or picks it; undefined: the one on screen stays. */
export function firstTab(state: RunState): TabId | undefined {
  if (isEvaluation(state.info)) return 'results';
  if (isSearch(state)) return 'programs';
  if (isGeneration(state)) return 'zero';
  return undefined;
}

function isSearch(s: RunState): boolean {
  return s.info?.kind === 'search';
}

function isGeneration(s: RunState): boolean {
  return s.info?.kind === 'gen-data';
}
