/**
 * The verdict feed's rows: one per gate decision, newest first, with the statistic a user reads
 * to understand it (evidence for e-process gates, Elo change, validator verdicts, p-value…).
 */
import { gateRow } from '../../src/core/gates/gateTable';
import type { DecisionFilter, DecisionRow, RunState } from '../../src/protocol/webview';
import { evidenceText, formatSigned, shortId } from './format';

export interface FeedRow {
  key: string;
  candidateId: string;
  candidate: string;
  parent: string;
  decision: DecisionRow['decision'];
  statistic: string;
  items: string;
  reason: string;
  /** Everything above in one sentence, for screen readers. */
  label: string;
}

export function statisticText(row: DecisionRow): string {
  const parts: string[] = [];
  const gate = gateRow(row.gate);
  if (gate.eprocess || (row.logWealth !== 0 && gate.kind !== 'rating')) {
    parts.push(evidenceText(row.logWealth, row.threshold));
  }
  if (gate.kind === 'rating') {
    const change = row.statistic?.eloChange ?? row.statistic?.elo;
    parts.push(change === undefined ? 'Elo —' : `Elo ${formatSigned(change)}`);
  }
  // Every gate that needs no scorer decides from the validator's verdicts.
  if (gate.kind !== 'scored') {
    const v = row.verdicts;
    if (v) {
      const pairs = v.agreed + v.disagreed;
      parts.push(`verdicts child ${v.child} · parent ${v.parent} · tie ${v.tie}` + (pairs > 0 ? ` (${v.agreed}/${pairs} agreed)` : ''));
    } else if (row.gate === 'pairwise') {
      parts.push(`verdicts child ${row.wins} · parent ${row.losses} · tie ${row.ties}`);
    }
  }
  if (parts.length === 0 && row.statistic) {
    for (const [name, value] of Object.entries(row.statistic)) parts.push(`${name} ${formatStat(name, value)}`);
  }
  if (parts.length === 0) parts.push(`wins ${row.wins} · losses ${row.losses}`);
  return parts.join('; ');
}

function formatStat(name: string, value: number): string {
  if (/^p/i.test(name)) return value < 0.001 ? value.toExponential(1) : String(Number(value.toPrecision(2)));
  return Number.isInteger(value) ? formatSigned(value, 0) : formatSigned(value, 2);
}

export function reasonText(row: DecisionRow): string {
  switch (row.reason) {
    case 'evidence':
      return `evidence reached ×${Number(row.threshold.toPrecision(3))}`;
    case 'futile':
      return 'futile: could not reach the threshold';
    case 'budget':
      return 'dev items ran out';
    case 'infeasible':
      return 'infeasible: dev set too small to commit';
    case 'duplicate':
      return 'duplicate of a rejected candidate';
    case 'greedy':
      return 'score comparison';
    case 'validator':
      return 'validator verdicts';
    default:
      return String(row.reason);
  }
}

export function toFeedRow(row: DecisionRow): FeedRow {
  const statistic = statisticText(row);
  const reason = reasonText(row);
  const items = `${row.itemsConsumed} (${row.wins}W ${row.losses}L ${row.ties}T)`;
  const candidate = shortId(row.candidateId);
  const parent = shortId(row.parentId);
  return {
    key: `${row.seq}`,
    candidateId: row.candidateId,
    candidate,
    parent,
    decision: row.decision,
    statistic,
    items,
    reason,
    label: `${row.decision} ${candidate} from ${parent}: ${statistic}; ${row.itemsConsumed} items; ${reason}`,
  };
}

export function matchesFilter(row: DecisionRow, filter: DecisionFilter): boolean {
  return filter === 'all' || row.decision === filter;
}

/**
 * Newest first. Rows are formatted lazily by the list (only the visible ones), so this returns
 * the decision rows themselves, filtered.
 */
export function feedRows(state: RunState | undefined, filter: DecisionFilter): DecisionRow[] {
  if (!state) return [];
  const out: DecisionRow[] = [];
  for (let i = state.decisions.length - 1; i >= 0; i--) {
    const row = state.decisions[i]!;
    if (matchesFilter(row, filter)) out.push(row);
  }
  return out;
}

export function feedCounts(state: RunState | undefined): Record<DecisionFilter, number> {
  let commit = 0;
  let reject = 0;
  for (const row of state?.decisions ?? []) {
    if (row.decision === 'commit') commit += 1;
    else reject += 1;
  }
  return { all: commit + reject, commit, reject };
}
