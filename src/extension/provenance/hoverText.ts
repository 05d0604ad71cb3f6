/**
 * What the hover on a line from an accepted edit says (Markdown): which run and candidate (a code
 * search's: which program), the
 * gate's evidence in the panel's words, who accepted it and when, and a link to its Evidence in the
 * panel; and the Prompt History row's label. No VS Code import: unit-tested.
 */
import { GATE_TABLE } from '../../core/gates/gateTable';
import type { ProvenanceEvidence, ProvenanceRecord } from '../../core/journal/provenance';
import { formatFactor } from '../../protocol/factor';
import { commandId } from '../commandTable';
import { ANSWER_WORDS, landedAnswer } from '../../panelState/answers';
import type { CandidateNode } from '../../panelState/types';

/** The hover's Evidence link: the same command as the suggestion's Evidence lens, with its arguments. */
export function evidenceCommandUri(documentUri: string, r: Pick<ProvenanceRecord, 'runId' | 'candidateId'>): string {
  return `command:${commandId('showEvidence')}?${encodeURIComponent(JSON.stringify([documentUri, r.runId, r.candidateId]))}`;
}

export function provenanceHoverMarkdown(r: ProvenanceRecord, documentUri: string, now: number): string {
  const who = r.by === 'user' ? 'Accepted by you' : 'Applied by autopilot';
  const search = r.runKind === 'search';
  const origin = search ? `program \`${r.candidateId}\` of code search \`${r.runId}\`` : `candidate \`${r.candidateId}\` of run \`${r.runId}\``;
  return [
    `**Ratchet** — this line came from ${origin}`,
    '',
    `${gateTitle(r.evidence)}: ${evidencePhrase(r.evidence, search ? 'instance' : 'dev item')}`,
    '',
    `${who} ${timeAgo(Date.parse(r.at), now)} (${new Date(r.at).toLocaleString()})`,
    '',
    `[Show its Evidence](${evidenceCommandUri(documentUri, r)})`,
  ].join('\n');
}

/** "evidence ×20.1 after 6 discordant pairs (needs ×20)"; for gates without an e-process, their own numbers. */
export function evidencePhrase(e: ProvenanceEvidence, item: 'dev item' | 'instance' = 'dev item'): string {
  const pairs = e.wins + e.losses;
  const afterPairs = `after ${pairs} discordant pair${pairs === 1 ? '' : 's'}`;
  if (gateOf(e)?.eprocess === true) {
    // Not a number when JSON wrote NaN as null (an e-process before its first pair).
    const wealth = typeof e.logWealth === 'number' ? formatFactor(Math.exp(e.logWealth)) : '?';
    const needs = typeof e.threshold === 'number' && e.threshold > 0 ? ` (needs ×${formatFactor(e.threshold)})` : '';
    return `evidence ×${wealth} ${afterPairs}${needs}`;
  }
  const p = e.statistic?.pValue;
  if (p !== undefined) return `p = ${Number(p.toPrecision(2))} ${afterPairs}`;
  const items = `${e.itemsConsumed} ${item}${e.itemsConsumed === 1 ? '' : 's'}`;
  return `${e.wins} won, ${e.losses} lost, ${e.ties} tied on ${items}`;
}

/** The gate's row; undefined for a gate this Ratchet does not know (a record from another version). */
function gateOf(e: ProvenanceEvidence) {
  return GATE_TABLE.find((g) => g.name === e.gate);
}

function gateTitle(e: ProvenanceEvidence): string {
  const title = gateOf(e)?.title ?? e.gate;
  return title.charAt(0).toUpperCase() + title.slice(1);
}

export function timeAgo(then: number, now: number): string {
  const s = Math.max(0, Math.round((now - then) / 1000));
  if (s < 60) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} minute${m === 1 ? '' : 's'} ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} hour${h === 1 ? '' : 's'} ago`;
  const d = Math.round(h / 24);
  return `${d} days ago`;
}

/**
 * A Prompt History row's label: the candidate and what became of its edit, in every label's words
 * ("c1 · applied, then undone"); `node` is the candidate as the editor's store folds it, when it holds the run.
 */
export function historyLabel(r: Pick<ProvenanceRecord, 'candidateId' | 'by'>, node: CandidateNode | undefined): string {
  return `${r.candidateId} · ${ANSWER_WORDS[landedAnswer(r.by, node)]}`;
}
