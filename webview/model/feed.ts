/**
 * The verdict feed's rows: one per gate decision, newest first, with the statistic a user reads
 * to understand it (evidence for e-process gates, Elo change, validator verdicts, p-value…), each
 * term with its hover from the glossary, and which columns fit the feed's width.
 */
import { ANSWER_WORDS, commitAnswer } from '../../src/panelState/answers';
import { gateRow } from '../../src/core/gates/gateTable';
import type { DecisionFilter } from '../../src/protocol/webview';
import { count, formatFactor, formatSigned, shortId } from './format';
import type { CandidateFacts } from './glossary';
import { hover } from './glossary';
import type { CandidateNode, DecisionRow, RunState } from '../../src/panelState/types';

/** A feed cell: what it shows and what its hover says (the meaning for this candidate, or what is cut). */
export interface FeedCell {
  text: string;
  title: string;
}

/** The statistic, in pieces: each term its own hover (evidence, needs ×20, verdict tallies). */
export interface FeedPiece {
  text: string;
  title?: string;
}

/** How the user answered a gated edit in the editor, when they did. */
export type UserAnswer = 'applied' | 'rejected';

export interface FeedRow {
  key: string;
  candidateId: string;
  decision: DecisionRow['decision'];
  /** What the decision column reads: the gate's word, or "rejected by you" for a commit the user turned down. */
  decisionText: string;
  userAnswer: UserAnswer | undefined;
  candidate: FeedCell;
  parent: FeedCell;
  statistic: FeedCell & { pieces: FeedPiece[] };
  items: FeedCell;
  reason: FeedCell;
  /** Everything above in one sentence, for screen readers and for the hover of a narrow feed's row. */
  label: string;
}

export type FeedColumn = 'decision' | 'candidate' | 'parent' | 'statistic' | 'items' | 'reason';

export interface FeedColumnSpec {
  id: FeedColumn;
  heading: string;
  /** Its grid track. */
  track: string;
  /** The feed's width (px) from which the column is shown: narrower, it is dropped and its text moves to the row's hover. */
  minWidth: number;
}

/**
 * The feed's columns in display order. What a decision was and the statistic behind it always show;
 * the others give way as the panel narrows (the parent, then the item counts, the reason, the
 * candidate id), each while the statistic still has its full width ("evidence ×20.1 (needs ×20)",
 * about 14em) — so at the width the panel opens with beside an editor (about 520 px) nothing is cut.
 */
export const FEED_COLUMNS: readonly FeedColumnSpec[] = [
  { id: 'decision', heading: 'decision', track: '9.5em', minWidth: 0 },
  { id: 'candidate', heading: 'candidate', track: '5.5em', minWidth: 420 },
  { id: 'parent', heading: 'parent', track: '5.5em', minWidth: 740 },
  { id: 'statistic', heading: 'statistic', track: 'minmax(10em, 3fr)', minWidth: 0 },
  { id: 'items', heading: 'items used', track: '8em', minWidth: 660 },
  { id: 'reason', heading: 'reason', track: 'minmax(8em, 2fr)', minWidth: 540 },
];

/** The columns a feed `width` px wide shows; a width of 0 (not laid out yet) shows them all. */
export function feedColumnsFor(width: number): FeedColumnSpec[] {
  return FEED_COLUMNS.filter((c) => width <= 0 || width >= c.minWidth);
}

/** What a hover knows about the candidate a decision row is about. */
export function rowFacts(row: DecisionRow): CandidateFacts {
  return {
    candidateId: row.candidateId,
    incumbentId: row.incumbentId ?? row.parentId,
    evidence: Math.exp(row.logWealth),
    threshold: row.threshold,
    alpha: row.alpha,
    wins: row.wins,
    losses: row.losses,
    ties: row.ties,
    futile: row.reason === 'futile',
  };
}

export function statisticPieces(row: DecisionRow): FeedPiece[] {
  // Dropped by the run-level default's first check: it has no evidence to show, only that.
  if (row.reason === 'screened') {
    return [{ text: 'screened out before the dev set', title: `${shortId(row.candidateId)} did not lead the version in force on feedback items, so it read no dev item and used none of the run’s α.` }];
  }
  const groups: FeedPiece[][] = [];
  const gate = gateRow(row.gate);
  const facts = rowFacts(row);
  if (gate.eprocess || (row.logWealth !== 0 && gate.kind !== 'rating')) {
    const group: FeedPiece[] = [{ text: `evidence ×${formatFactor(facts.evidence)}`, title: hover('evidence', facts) }];
    // Unknown (NaN) until the first discordant pair says it; ×∞ is real (an α budget spent).
    if (row.threshold > 0) group.push({ text: ` (needs ×${formatFactor(row.threshold)})`, title: hover('needs', facts) });
    groups.push(group);
  }
  if (gate.kind === 'rating') {
    const change = row.statistic?.eloChange ?? row.statistic?.elo;
    groups.push([{ text: change === undefined ? 'Elo —' : `Elo ${formatSigned(change)}` }]);
  }
  // Every gate that needs no scorer decides from the validator's verdicts.
  if (gate.kind !== 'scored') {
    const v = row.verdicts;
    if (v) {
      const pairs = v.agreed + v.disagreed;
      const none = v.abstained ? ` · no answer ${v.abstained}` : '';
      groups.push([{ text: `verdicts child ${v.child} · parent ${v.parent} · tie ${v.tie}${none}` + (pairs > 0 ? ` (${v.agreed}/${pairs} agreed)` : ''), title: hover('tie', { ...facts, ties: v.tie }) }]);
    } else if (row.gate === 'pairwise') {
      groups.push([{ text: `verdicts child ${row.wins} · parent ${row.losses} · tie ${row.ties}`, title: hover('tie', facts) }]);
    }
  }
  // A judge that left answers out is said so in every gate: those items are not ties. The verdict
  // tally of a reward-free gate already counts them ("no answer N"); a scored gate's grades do not.
  const silence = row.judge && row.judge.abstained > 0 && !row.verdicts?.abstained ? row.judge : undefined;
  if (silence) {
    groups.push([{ text: `judge did not answer ${silence.abstained} of ${silence.answers}`, title: `${silenceTitle(row)}` }]);
  }
  if (groups.length === 0 && row.statistic) {
    for (const [name, value] of Object.entries(row.statistic)) groups.push([{ text: `${name} ${formatStat(name, value)}` }]);
  }
  if (groups.length === 0) groups.push([{ text: `wins ${row.wins} · losses ${row.losses}` }]);
  return groups.flatMap((g, i) => (i === 0 ? g : [{ text: '; ' }, ...g]));
}

export function statisticText(row: DecisionRow): string {
  return statisticPieces(row)
    .map((p) => p.text)
    .join('');
}

function silenceTitle(row: DecisionRow): string {
  const j = row.judge!;
  const who = j.model === undefined ? 'The judge' : `The judge (model ${j.model})`;
  const left = row.unjudged ? ` ${count(row.unjudged, 'item')} of this test had no answer and were left out: neither wins, losses nor ties.` : '';
  return `${who} gave no readable answer ${j.abstained} of ${j.answers} times, even when asked again.${left}`;
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
    case 'floor':
      return 'stopped: evidence fell below ×0.2';
    case 'screened':
      return 'screened out: no lead on feedback items';
    case 'duplicate':
      return 'duplicate of a rejected candidate';
    case 'greedy':
      return 'score comparison';
    case 'validator':
      return 'validator verdicts';
    case 'abstained':
      return 'the judge did not answer';
    default:
      return String(row.reason);
  }
}

function reasonTitle(row: DecisionRow): string {
  const facts = rowFacts(row);
  switch (row.reason) {
    case 'evidence':
      return hover('threshold', facts);
    case 'futile':
      return hover('futility', facts);
    default:
      return reasonText(row);
  }
}

/** The user's answer to a candidate's suggestion, from its lineage node. */
export function userAnswerOf(node: CandidateNode | undefined): UserAnswer | undefined {
  if (node?.userRejected) return 'rejected';
  return node?.applied !== undefined ? 'applied' : undefined;
}

export function toFeedRow(row: DecisionRow, node?: CandidateNode): FeedRow {
  const pieces = statisticPieces(row);
  const statistic = pieces.map((p) => p.text).join('');
  const reason = reasonText(row);
  const facts = rowFacts(row);
  const items = `${row.itemsConsumed} (${row.wins}W ${row.losses}L ${row.ties}T${row.unjudged ? ` ${row.unjudged}?` : ''})`;
  const candidate = shortId(row.candidateId);
  const parent = shortId(row.parentId);
  const userAnswer = userAnswerOf(node);
  const decisionText = userAnswer === 'rejected' ? 'rejected by you' : row.decision;
  const answered = userAnswer === 'rejected' ? ' (the gate committed it; you rejected the suggestion)' : userAnswer === 'applied' ? ` (${ANSWER_WORDS[commitAnswer(node)!]})` : '';
  return {
    key: `${row.seq}`,
    candidateId: row.candidateId,
    decision: row.decision,
    decisionText,
    userAnswer,
    candidate: { text: candidate, title: row.candidateId },
    parent: { text: parent, title: row.parentId ?? '' },
    statistic: { text: statistic, title: statistic, pieces },
    items: {
      text: items,
      title: `${count(row.itemsConsumed, 'dev item')} used. ${hover('discordant', facts)} ${hover('tie', facts)}${row.unjudged ? ` ${count(row.unjudged, 'item')} (?) the judge did not answer for: left out, not ties.` : ''}`,
    },
    reason: { text: reason, title: reasonTitle(row) },
    label: `${row.decision} ${candidate} from ${parent}${answered}: ${statistic}; ${row.itemsConsumed} items; ${reason}`,
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
