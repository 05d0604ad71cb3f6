/**
 * The Runs view's content: runs (from the server's `ratchet/listRuns`, joined with the runs'
 * statuses and what the RunStore holds) → candidates → decisions, under a group per kind of file
 * (Prompt files, Skills, Instructions, Programs… the file-kind table's groups) once the runs are of
 * more than one. Pure data; runsView.ts turns nodes into TreeItems.
 */
import { ANSWER_WORDS, answersText, commitAnswer, standsForAnswer } from '../../panelState/answers';
import { generatedLine, isOver, isWorkDone } from '../../core/journal/runStatus';
import type { LiveRunStatus } from '../../core/journal/runStatus';
import { isTerminalRunState, runStateLabel } from '../../core/journal/runStates';
import type { RunStateName } from '../../core/journal/runStates';
import type { RunListEntry, RunStatusParams } from '../../protocol/lsp';
import { fileName } from '../../core/fileName';
import { KIND_GROUPS, PROGRAMS_GROUP, kindGroup } from '../../core/files/fileKinds';
import type { RunKind } from '../../core/journal/payloadTypes';
import type { DecisionRow, RunState } from '../../panelState/types';

export interface RunNode {
  kind: 'run';
  runId: string;
  label: string;
  description: string;
  tooltip: string;
  /** For `when` clauses in package.json menus: `run`, plus `.hosted` / `.resumable`. */
  contextValue: string;
  /** The state's own icon, but `waiting` for `waiting-for-you`; a `pending` run shows as running. */
  icon: Exclude<RunStateName, 'pending' | 'waiting-for-you'> | 'waiting';
  /** Whether the RunStore holds its events (else expanding loads its journal). */
  loaded: boolean;
  workspace: string | undefined;
  /** The kind of file it ran on, as the view groups it. */
  group: string;
}

/** A kind of file's runs, when the view holds runs of more than one kind. */
export interface RunGroupNode {
  kind: 'group';
  label: string;
  description: string;
  runs: RunNode[];
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

export type RunsNode = RunGroupNode | RunNode | CandidateItem | DecisionItem;

/** The group of a run's file: a code search's program is a program whatever its name. */
export function runGroup(kind: RunKind | undefined, target: string | undefined): string {
  return kind === 'search' ? PROGRAMS_GROUP : kindGroup(target ?? '');
}

/** The runs as the view's top level: as they are when of one kind of file, else a group per kind, in the table's order. */
export function groupedRunNodes(runs: readonly RunNode[]): (RunGroupNode | RunNode)[] {
  const groups = KIND_GROUPS.filter((g) => runs.some((r) => r.group === g));
  if (groups.length < 2) return [...runs];
  return groups.map((label) => {
    const mine = runs.filter((r) => r.group === label);
    return { kind: 'group', label, description: `${mine.length} run${mine.length === 1 ? '' : 's'}`, runs: mine };
  });
}

const short = (id: string) => id.slice(0, 8);
/** Evidence and its bar as the panel words them: ×21.5, ×20. */
const factor = (x: number) => (Number.isFinite(x) ? String(Number(x.toPrecision(3))) : '∞');
const basename = (p: string | undefined) => (p === undefined ? undefined : fileName(p));

function when(ms: number | undefined): string {
  if (ms === undefined) return '';
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** The local time a run started, "09:41": what tells two runs on one file apart at a glance. */
export function startClock(ms: number | undefined): string {
  if (ms === undefined) return '';
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/**
 * A run's label: when it started and how it stands before its file's name, "09:41 · 2 committed ·
 * word-problems.prompt.md", so that at the Runs view's default width, where the end of a label is
 * cut, two runs on one file still differ.
 */
function runLabel(started: number | undefined, result: string, file: string): string {
  return [startClock(started), result, file].filter((p) => p !== '').join(' · ');
}

/**
 * How a run stands in a word or two: its state while it is not finished, else what it made — what
 * became of the edits it committed (the one fold every label reads: "1 accepted by you", "1 applied,
 * then undone") where the editor holds its events and someone was asked, else the commits counted,
 * the dev tasks a generation wrote, or for Evaluate that it scored the prompt (neither commits anything).
 */
function resultWord(state: RunStateName, commits: number | undefined, live: RunState | undefined, generated?: RunListEntry['generated'], kind?: RunKind): string {
  if (state === 'finished' && generated !== undefined) return `${generated.dev} dev task${generated.dev === 1 ? '' : 's'}`;
  if (state === 'finished' && kind === 'evaluate') return 'evaluated';
  const answered = live && answersText(live);
  if (state === 'finished' && answered !== undefined) return answered;
  if (state === 'finished') return commits === undefined ? 'finished' : `${commits} committed`;
  return runStateLabel(state);
}

/**
 * Runs the server has not listed yet (just started) first, then the listed ones; both newest
 * first. A run's state and counts come from its status where the daemon pushed one, else from
 * the listing (runs found on disk) or its folded events.
 */
export function runNodes(listed: readonly RunListEntry[], live: readonly RunState[], statuses: readonly RunStatusParams[]): RunNode[] {
  const liveById = new Map(live.map((r) => [r.runId, r]));
  const statusById = new Map(statuses.map((p) => [p.status.runId, p]));
  const nodes = listed.map((entry) => fromListed(entry, liveById.get(entry.runId), statusById.get(entry.runId)?.status));
  const listedIds = new Set(listed.map((e) => e.runId));
  const unlistedIds = [...new Set([...statuses.map((p) => p.status.runId), ...live.map((r) => r.runId)])].filter((id) => !listedIds.has(id));
  const unlisted = unlistedIds.map((id) => fromLive(id, liveById.get(id), statusById.get(id)));
  return [...unlisted, ...nodes];
}

const STATUS_ICONS: Record<LiveRunStatus['state'], RunNode['icon']> = {
  running: 'running',
  'waiting-for-you': 'waiting',
  finished: 'finished',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

/** The description's state and counts, and the tooltip's lines, from a status. */
function statusParts(s: LiveRunStatus): { parts: string[]; tooltip: string[] } {
  const tooltip = s.kind === 'evaluate' ? [] : [s.kind === 'gen-data' ? `${generatedLine(s.generated)}.` : `${s.tested} tested, ${s.commits} committed.`];
  if (s.error !== undefined) tooltip.push(`Failed: ${s.error}`);
  return { parts: [runStateLabel(s.state), s.line], tooltip };
}

function fromListed(e: RunListEntry, live: RunState | undefined, status: LiveRunStatus | undefined): RunNode {
  // The server's listing says whether a run still runs (after a restart the folded events would
  // still say running), the status how it goes while the daemon reports on it; without a status,
  // the folded events' word on how it ended, which they know before the next listing.
  const ended = live && isTerminalRunState(live.status) ? live.status : undefined;
  const fallback = ended ?? e.status;
  const folded = waitingIfSo(fallback, live);
  const commits = live?.finished?.commits ?? e.commits;
  const candidates = live ? proposedCount(live) : e.candidates;
  // A dev-set generation decides on no candidate: what it wrote is its count (as its live line says).
  const generation = e.kind === 'gen-data';
  // Evaluate's journal is an evolve run's (run.json says evolve); its events say what it is.
  const kind = status?.kind ?? live?.info?.kind ?? e.kind;
  const counts = generation ? generatedLine(e.generated) : kind === 'evaluate' ? '' : `${commits}/${candidates} committed`;
  const shown = status ? statusParts(status) : { parts: [runStateLabel(folded), counts], tooltip: [] };
  const going = status !== undefined && !isOver(status);
  const tooltip = [
    `Run ${e.runId}`,
    e.target ? `Target: ${e.target}` : undefined,
    e.gate ? `Gate: ${e.gate}${e.alpha !== undefined ? ` (α = ${e.alpha})` : ''}` : undefined,
    ...shown.tooltip,
    e.cost ? `Cost: ${e.cost.llmCalls} calls, ${e.cost.tokens} tokens${e.cost.dollars !== undefined ? `, $${e.cost.dollars.toFixed(4)}` : ''}` : undefined,
    e.reason ? `Why: ${e.reason}` : undefined,
    e.resumable && !going ? 'Interrupted: "Resume Run" continues it from its journal.' : undefined,
  ].filter((l): l is string => l !== undefined);
  // A search done but for your answer offers no Cancel Run (runStatus.ts `waitsOnlyForYou` says why).
  const hosted = status ? !isWorkDone(status) : e.hosted;
  return {
    kind: 'run',
    runId: e.runId,
    label: runLabel(
      e.started,
      resultWord(status?.state ?? folded, status?.commits ?? commits, live, generation ? (status?.generated ?? e.generated ?? { rounds: 0, dev: 0, test: 0 }) : undefined, kind),
      basename(e.target) ?? short(e.runId),
    ),
    description: [...shown.parts, when(e.started)].filter((p) => p !== '').join(' · '),
    tooltip: tooltip.join('\n'),
    contextValue: ['run', hosted ? 'hosted' : undefined, e.resumable && !going ? 'resumable' : undefined].filter(Boolean).join('.'),
    icon: status ? STATUS_ICONS[status.state] : folded === 'waiting-for-you' ? 'waiting' : fallback,
    loaded: live !== undefined,
    workspace: e.workspace,
    group: runGroup(e.kind, e.target),
  };
}

/** Without a status: a run still going whose events say it waits for your answer is said to, as the panel's header says it. */
function waitingIfSo<S extends RunStateName>(state: S, live: RunState | undefined): S | 'waiting-for-you' {
  return state === 'running' && live !== undefined && standsForAnswer(live) !== undefined ? 'waiting-for-you' : state;
}

/** A run the server has not listed yet: known from its status, its events, or both. */
function fromLive(runId: string, r: RunState | undefined, status: RunStatusParams | undefined): RunNode {
  const s = status?.status;
  const cancellable = s ? !isWorkDone(s) : r !== undefined && !isTerminalRunState(r.status);
  const commits = r?.finished?.commits ?? r?.decisions.filter((d) => d.decision === 'commit').length ?? 0;
  const info = r?.info;
  const evaluate = (info?.kind ?? s?.kind) === 'evaluate';
  const folded = r ? waitingIfSo(r.status, r) : undefined;
  const shown = s ? statusParts(s) : { parts: [folded ? runStateLabel(folded) : '', evaluate ? '' : `${commits}/${r ? proposedCount(r) : 0} committed`], tooltip: [] };
  return {
    kind: 'run',
    runId,
    label: runLabel(
      r?.startedAt,
      resultWord(s?.state ?? (!folded || folded === 'pending' ? 'running' : folded), s?.commits ?? commits, r, undefined, info?.kind ?? s?.kind),
      basename(info?.target ?? r?.requestedTarget) ?? (status ? decodeURIComponent(fileName(status.uri)) : short(runId)),
    ),
    description: [...shown.parts, when(r?.startedAt)].filter((p) => p !== '').join(' · '),
    tooltip: [`Run ${runId}`, ...(info ? [`Target: ${info.target}`, `Gate: ${info.gate} (α = ${info.alpha})`] : []), ...shown.tooltip].join('\n'),
    contextValue: cancellable ? 'run.hosted' : 'run',
    icon: s ? STATUS_ICONS[s.state] : folded === 'waiting-for-you' ? 'waiting' : !folded || folded === 'pending' ? 'running' : folded,
    loaded: r !== undefined,
    // Expanding a run heard of only by its status loads its journal from there.
    workspace: status?.workspace,
    group: runGroup(info?.kind ?? s?.kind, info?.target ?? r?.requestedTarget ?? (status ? decodeURIComponent(status.uri) : undefined)),
  };
}

export function candidateNodes(run: RunState): CandidateItem[] {
  const byCandidate = decisionsByCandidate(run.decisions);
  return run.candidateOrder.flatMap((id) => {
    const c = run.candidates[id];
    if (!c) return [];
    const testing = run.activeCandidateId === id && !isTerminalRunState(run.status);
    const [icon, state]: [CandidateItem['icon'], string] = c.userRejected
      ? ['userRejected', 'rejected by you']
      : c.applied
        ? ['applied', ANSWER_WORDS[commitAnswer(c)!]]
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
    description: `${d.gate} · evidence ×${factor(Math.exp(d.logWealth))} (needs ×${factor(d.threshold)}) · ${d.itemsConsumed} items`,
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
