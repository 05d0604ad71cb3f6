/**
 * A run as an agent may read it: what ran on which file, its status, its cost, and every decision
 * the gate took with its evidence and the same words the panel's glossary uses. Read from the run's
 * journal, whoever ran it (this server, the editor's run daemon, the CLI). Dev items, outputs and
 * per-item outcomes are left out on purpose (GATES.md A1): a run's resource may end up in the
 * context of the model that writes the next edit.
 */
import { relative, sep } from 'node:path';
import { RatchetError } from '../core/errors';
import type { DecisionRecord } from '../core/gates/record';
import { gateRow, isGateName } from '../core/gates/gateTable';
import { readJournal } from '../core/journal/replay';
import { resolveStatus, summarizeRun } from '../core/journal/listRuns';
import type { RunSummary } from '../core/journal/listRuns';
import { readRunRecord, runPaths } from '../core/journal/journal';
import type { NodeFiles } from '../node/files';
import { isOwnerAlive } from '../node/process';
import { formatFactor } from '../protocol/factor';
import { GLOSSARY } from '../../webview/model/glossary';

export interface DecisionView {
  /** 1-based, in the order the run took its decisions. */
  n: number;
  candidateId: string;
  incumbentId: string | undefined;
  gate: string;
  decision: 'commit' | 'reject';
  reason: string;
  evidence: number | null;
  threshold: number;
  alpha: number;
  wins: number;
  losses: number;
  ties: number;
  itemsUsed: number;
  /** The decision in plain words: the panel's glossary, for this candidate. */
  explanation: string;
}

export interface RunView {
  runId: string;
  kind: string | undefined;
  /** The file, relative to its root. */
  file: string | undefined;
  status: RunSummary['status'];
  gate: string | undefined;
  alpha: number | undefined;
  candidates: number;
  commits: number;
  cost: RunSummary['cost'] | null;
  reason?: string;
  decisions: DecisionView[];
}

export async function readRunView(files: NodeFiles, root: string, runId: string): Promise<RunView> {
  const paths = runPaths(files, root, runId);
  const record = await readRunRecord(files, paths.runJson);
  const replay = await readJournal(files, paths.events);
  const summary = summarizeRun(runId, record, replay);
  const status = await resolveStatus(files, paths.lock, summary, { isOwnerAlive, now: Date.now() });
  const decisions = replay.events.flatMap((e) => (e.type === 'decision' ? [e.record] : [])).map((r, i) => decisionView(r, i + 1));
  return {
    runId,
    kind: summary.kind,
    file: summary.target === undefined ? undefined : relative(root, summary.target).split(sep).join('/'),
    status,
    gate: summary.gate,
    alpha: summary.alpha,
    candidates: summary.candidates,
    commits: summary.commits,
    cost: summary.cost ?? null,
    ...(summary.reason ? { reason: summary.reason } : {}),
    decisions,
  };
}

/** Decision `n` (1-based) of a run; the last one when `n` is absent. */
export function pickDecision(view: RunView, n: number | undefined): DecisionView {
  if (view.decisions.length === 0) throw new RatchetError('notFound', `Run ${view.runId} has taken no decision${view.status === 'running' ? ' yet' : ''}.`, { runId: view.runId });
  const d = n === undefined ? view.decisions.at(-1)! : view.decisions[n - 1];
  if (!d) throw new RatchetError('notFound', `Run ${view.runId} has ${view.decisions.length} decision${view.decisions.length === 1 ? '' : 's'}; there is no decision ${n}.`, { runId: view.runId, field: 'decision' });
  return d;
}

export function decisionView(r: DecisionRecord, n: number): DecisionView {
  const eprocess = isGateName(r.gate) && gateRow(r.gate).eprocess;
  const evidence = eprocess ? (Number.isNaN(r.logWealth) ? 1 : Math.exp(r.logWealth)) : null;
  return {
    n,
    candidateId: r.candidateId,
    incumbentId: r.incumbentId,
    gate: r.gate,
    decision: r.decision,
    reason: r.reason,
    // JSON has no ∞: an evidence past every number (never reached with bets below 1) reads as null.
    evidence: evidence !== null && Number.isFinite(evidence) ? evidence : null,
    threshold: r.threshold,
    alpha: r.alpha,
    wins: r.wins,
    losses: r.losses,
    ties: r.ties,
    itemsUsed: r.itemsConsumed,
    explanation: explain(r, evidence),
  };
}

/**
 * A decision in plain words, sentence by sentence from the glossary the panel's hovers use: the
 * verdict, the evidence against the line, the discordant pairs and ties, and why the test stopped.
 */
function explain(r: DecisionRecord, evidence: number | null): string {
  const facts = {
    candidateId: r.candidateId,
    incumbentId: r.incumbentId,
    evidence: evidence ?? Number.NaN,
    threshold: r.threshold,
    alpha: r.alpha,
    wins: r.wins,
    losses: r.losses,
    ties: r.ties,
    futile: r.reason === 'futile',
  };
  const verdict = r.decision === 'commit' ? `${r.candidateId} was committed: the gate found the evidence that it is better than ${r.incumbentId ?? 'the version in force'}.` : `${r.candidateId} was not committed: ${stopWords(r)}`;
  const parts = [verdict];
  if (evidence !== null) parts.push(GLOSSARY.evidence.forCandidate(facts), GLOSSARY.alpha.forCandidate(facts));
  parts.push(GLOSSARY.discordant.forCandidate(facts), GLOSSARY.tie.forCandidate(facts));
  if (r.reason === 'futile') parts.push(GLOSSARY.futility.forCandidate(facts));
  parts.push(GLOSSARY.incumbent.forCandidate(facts));
  return parts.join(' ');
}

function stopWords(r: DecisionRecord): string {
  switch (r.reason) {
    case 'futile':
      return `even winning every remaining dev item, its evidence could not have reached ×${formatFactor(r.threshold)}, so the test stopped after ${r.itemsConsumed} items.`;
    case 'budget':
      return `the ${r.itemsConsumed} dev items ran out before its evidence reached ×${formatFactor(r.threshold)}.`;
    case 'infeasible':
      return `the dev set is too small for any candidate to reach ×${formatFactor(r.threshold)}.`;
    case 'duplicate':
      return 'it repeats an edit already rejected, so it was not tested again.';
    default:
      return `the ${isGateName(r.gate) ? gateRow(r.gate).title : r.gate} gate did not find it better (${r.reason}).`;
  }
}
