/**
 * The Runs view's content: runs (from the server's `ratchet/listRuns`, joined with what the
 * RunStore holds live) → candidates → decisions. Pure data; runsView.ts turns nodes into TreeItems.
 */
import type { RunListEntry } from '../../protocol/lsp';
import type { DecisionRow, RunState } from '../../protocol/webview';
import { fileName } from '../../core/fileName';

export interface RunNode {
  kind: 'run';
  runId: string;
  label: string;
  description: string;
  tooltip: string;
  /** For `when` clauses in package.json menus: `run`, plus `.hosted` / `.resumable`. */
  contextValue: string;
  icon: 'running' | 'finished' | 'failed' | 'cancelled' | 'interrupted' | 'corrupt';
  /** Whether the RunStore holds its events (else expanding loads its journal). */
  loaded: boolean;
  workspace: string | undefined;
}

export interface CandidateItem {
  kind: 'candidate';
  runId: string;
  candidateId: string;
  label: string;
  description: string;
  tooltip: string;
  icon: 'baseline' | 'commit' | 'reject' | 'testing' | 'untested' | 'applied' | 'userRejected';
  hasDecisions: boolean;
}

export interface DecisionItem {
  kind: 'decision';
  runId: string;
  candidateId: string;
  seq: number;
  label: string;
  description: string;
  tooltip: string;
}

export type RunsNode = RunNode | CandidateItem | DecisionItem;

const short = (id: string) => id.slice(0, 8);
const basename = (p: string | undefined) => (p === undefined ? undefined : fileName(p));

function when(ms: number | undefined): string {
  if (ms === undefined) return '';
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** Live runs the server has not listed yet (just started) first, then the listed ones; both newest first. */
export function runNodes(listed: readonly RunListEntry[], live: readonly RunState[]): RunNode[] {
  const liveById = new Map(live.map((r) => [r.runId, r]));
  const nodes = listed.map((entry) => fromListed(entry, liveById.get(entry.runId)));
  const listedIds = new Set(listed.map((e) => e.runId));
  const unlisted = live.filter((r) => !listedIds.has(r.runId)).map(fromLive);
  return [...unlisted, ...nodes];
}

function fromListed(e: RunListEntry, live: RunState | undefined): RunNode {
  // The server's word on whether a run still runs (after a restart the folded state would still
  // say running); the live state's word on how it ended, which it knows before the next listing.
  const status = live && (live.status === 'finished' || live.status === 'failed' || live.status === 'cancelled') ? live.status : e.status;
  const commits = live?.finished?.commits ?? e.commits;
  const candidates = live ? proposedCount(live) : e.candidates;
  const icon: RunNode['icon'] = status;
  const parts = [status, `${commits}/${candidates} committed`, when(e.started)].filter((p) => p !== '');
  const tooltip = [
    `Run ${e.runId}`,
    e.target ? `Target: ${e.target}` : undefined,
    e.gate ? `Gate: ${e.gate}${e.alpha !== undefined ? ` (α = ${e.alpha})` : ''}` : undefined,
    e.cost ? `Cost: ${e.cost.llmCalls} calls, ${e.cost.tokens} tokens${e.cost.dollars !== undefined ? `, $${e.cost.dollars.toFixed(4)}` : ''}` : undefined,
    e.reason ? `Why: ${e.reason}` : undefined,
    e.resumable ? 'Interrupted: "Resume Run" continues it from its journal.' : undefined,
  ].filter((l): l is string => l !== undefined);
  return {
    kind: 'run',
    runId: e.runId,
    label: basename(e.target) ?? short(e.runId),
    description: parts.join(' · '),
    tooltip: tooltip.join('\n'),
    contextValue: ['run', e.hosted ? 'hosted' : undefined, e.resumable ? 'resumable' : undefined].filter(Boolean).join('.'),
    icon,
    loaded: live !== undefined,
    workspace: e.workspace,
  };
}

function fromLive(r: RunState): RunNode {
  const running = r.status === 'running' || r.status === 'pending';
  const commits = r.finished?.commits ?? r.decisions.filter((d) => d.decision === 'commit').length;
  return {
    kind: 'run',
    runId: r.runId,
    label: basename(r.info?.target) ?? short(r.runId),
    description: [r.status, `${commits}/${proposedCount(r)} committed`, when(r.startedAt)].filter((p) => p !== '').join(' · '),
    tooltip: `Run ${r.runId}${r.info ? `\nTarget: ${r.info.target}\nGate: ${r.info.gate} (α = ${r.info.alpha})` : ''}`,
    contextValue: running ? 'run.hosted' : 'run',
    icon: running ? 'running' : r.status === 'pending' ? 'running' : r.status,
    loaded: true,
    workspace: undefined,
  };
}

export function candidateNodes(run: RunState): CandidateItem[] {
  const byCandidate = decisionsByCandidate(run.decisions);
  return run.candidateOrder.flatMap((id) => {
    const c = run.candidates[id];
    if (!c) return [];
    const testing = run.activeCandidateId === id && (run.status === 'running' || run.status === 'pending');
    const [icon, state]: [CandidateItem['icon'], string] = c.userRejected
      ? ['userRejected', 'rejected by you']
      : c.applied
        ? ['applied', `applied (${c.applied})`]
        : c.decision
          ? [c.decision, `${c.decision} (${c.reason ?? '?'})`]
          : c.parentId === undefined
            ? ['baseline', 'baseline']
            : testing
              ? ['testing', 'testing']
              : ['untested', 'not tested'];
    return [
      {
        kind: 'candidate',
        runId: run.runId,
        candidateId: id,
        label: short(id),
        description: c.parentId ? `${state} · from ${short(c.parentId)}` : state,
        tooltip: `Candidate ${id}${c.parentId ? `\nParent: ${c.parentId}` : ''}\n${state}`,
        icon,
        hasDecisions: (byCandidate.get(id)?.length ?? 0) > 0,
      },
    ];
  });
}

export function decisionNodes(run: RunState, candidateId: string): DecisionItem[] {
  return (decisionsByCandidate(run.decisions).get(candidateId) ?? []).map((d) => ({
    kind: 'decision',
    runId: run.runId,
    candidateId,
    seq: d.seq,
    label: `${d.decision} — ${d.reason}`,
    description: `${d.gate} · E ${Math.exp(d.logWealth).toPrecision(3)} / ${d.threshold.toPrecision(3)} · ${d.itemsConsumed} items`,
    tooltip: `Decision #${d.seq} by ${d.gate} (α = ${d.alpha}): ${d.wins} wins, ${d.losses} losses, ${d.ties} ties over ${d.itemsConsumed} items.\nOpen the evidence in the panel.`,
  }));
}

/** Candidates the proposer wrote: the baseline (no parent) is where a run starts, not a candidate. */
function proposedCount(run: RunState): number {
  return run.candidateOrder.filter((id) => run.candidates[id]?.parentId !== undefined).length;
}

function decisionsByCandidate(rows: readonly DecisionRow[]): Map<string, DecisionRow[]> {
  const map = new Map<string, DecisionRow[]>();
  for (const d of rows) {
    const list = map.get(d.candidateId) ?? [];
    list.push(d);
    map.set(d.candidateId, list);
  }
  return map;
}
