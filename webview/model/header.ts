/** The run header's view model: what runs, under which gate, and how much budget it has used. */
import type { RunSummaryInfo } from '../../src/core/journal/payloadTypes';
import type { RunListEntry } from '../../src/protocol/webview';
import { fileName } from '../../src/core/fileName';
import { count, formatCount, formatDollars, formatDuration, formatSigned, shortId } from './format';
import { costTotals } from '../../src/panelState/runState';
import { isEvaluation } from '../../src/panelState/results';
import { answersText, awaitingAnswer } from '../../src/panelState/answers';
import { describeModelChoices } from '../../src/core/run/modelChoice';
import { runGuarantee } from '../../src/core/gates/guarantee';
import { generatedLine, searchDoneLine } from '../../src/core/journal/runStatus';
import { silenceText } from '../../src/core/gates/abstentions';
import { generatedTally } from './zeroData';
import type { RunState } from '../../src/panelState/types';
import type { PanelRunStatus } from '../../src/core/journal/runStates';
import { isTerminalRunState, runStateLabel } from '../../src/core/journal/runStates';

export interface BudgetMeter {
  name: 'calls' | 'tokens' | 'dollars' | 'time';
  used: string;
  limit: string | undefined;
  /** used / limit in [0, 1]; undefined without a limit. */
  fraction: number | undefined;
}

export interface HeaderModel {
  /** The prompt's file name, or the run id before the run says its target. */
  target: string;
  /** The full path (the title's tooltip). */
  targetPath: string;
  gate: string;
  alpha: string;
  mode: string;
  /** The run puts candidates through a gate: false for Evaluate, which only scores the file (no gate, α or mode to show). */
  gated: boolean;
  status: PanelRunStatus;
  statusText: string;
  /**
   * The run's own work goes on (its icon spins). Not while it only waits for the user's answer: a
   * prompt run paused on its suggestion, or a search done but for the answer to its best (the
   * status bar shows a bell then, and so does the header).
   */
  working: boolean;
  meters: BudgetMeter[];
  /** The binding budget: the largest used fraction of any limit (drives the progress bar). */
  progress: number | undefined;
  canCancel: boolean;
  canResume: boolean;
  /** Each button's hover: what it does, or why it is disabled now. */
  cancelTitle: string;
  resumeTitle: string;
  /** The warning a user must not miss (infeasible dev set, last engine warning, failure). */
  warning: string | undefined;
  /** The held-out test result, the honest measure of what the run gained. */
  testReport: string | undefined;
  /** Until the first decision (or the run's end): what the run expects to spend, "≈ 412 calls, ≈ $0.38" (then the meters say what it did). */
  estimate: string | undefined;
  /** While an LLM call waits out a rate limit or a backoff: what it waits for, counting down. */
  waiting: WaitNote | undefined;
  /** Each called role's model and where it was chosen: "agent, proposer: llama3.1 (setting ratchet.models.default)". */
  models: string | undefined;
  /** What a commit means for this run: "this run: P(any false commit) ≤ 0.05" (core/gates/guarantee.ts). */
  guarantee: string | undefined;
  /** When the judge left answers out: "The judge did not answer 70 of 72 times …" (#25); never folded into ties. */
  judge: string | undefined;
}

export interface WaitNote {
  /** "rate limited, waiting 12 s" */
  text: string;
  /** Why, in the endpoint's words. */
  detail: string;
}

/**
 * What a run is waiting for while the latest announced wait is still running, by the clock `now`;
 * undefined once it is over or the run ended. The panel counts the wait down; the status bar shows
 * the daemon's status line instead.
 */
export function waitNote(s: RunState, now: number): WaitNote | undefined {
  const w = s.waiting;
  if (w === undefined || w.until <= now || isTerminalRunState(s.status)) return undefined;
  const seconds = Math.ceil((w.until - now) / 1000);
  return { text: `${w.why === 'rate-limited' ? 'rate limited' : 'retrying a failed call'}, waiting ${seconds} s`, detail: w.message };
}

/**
 * What the host's run list says of a run beyond its events. `interrupted`: no process runs it any
 * more although its events never said it ended; only such a run can be resumed (one whose events
 * ended is over, one still running needs no resume). `waitsOnlyForYou`: its work is done and it
 * waits only for the answer to its suggestion; it offers no Cancel then (runStatus.ts says why).
 */
export type ListedAs = Pick<RunListEntry, 'interrupted' | 'waitsOnlyForYou'>;

export function headerModel(state: RunState | undefined, now: number, listed: ListedAs = {}): HeaderModel {
  if (!state) {
    return {
      target: 'No run yet',
      targetPath: '',
      gate: '—',
      alpha: '—',
      mode: '—',
      gated: false,
      status: 'pending',
      working: false,
      statusText: 'Start a run with Evolve on a prompt file.',
      meters: [],
      progress: undefined,
      canCancel: false,
      canResume: false,
      cancelTitle: 'Nothing to cancel: no run yet.',
      resumeTitle: 'Nothing to resume: no run yet.',
      warning: undefined,
      testReport: undefined,
      estimate: undefined,
      waiting: undefined,
      models: undefined,
      guarantee: undefined,
      judge: undefined,
    };
  }
  const info = state.info;
  const open = !isTerminalRunState(state.status);
  const interrupted = listed.interrupted === true;
  const live = open && !interrupted;
  // A search done but for your answer to its best: nothing left to cancel (see `waitsOnlyForYou`).
  const answerLeft = live && listed.waitsOnlyForYou === true ? awaitingAnswer(state) : undefined;
  const totals = costTotals(state);
  const budget = info?.budget ?? {};
  const elapsed = state.startedAt === undefined ? 0 : (state.endedAt ?? (live && state.status === 'running' ? now : (state.lastAt ?? now))) - state.startedAt;
  const meters: BudgetMeter[] = [
    meter('calls', totals.calls, budget.llmCalls, formatCount),
    meter('tokens', totals.tokens, budget.tokens, formatCount),
    meter('dollars', totals.dollars, budget.dollars, formatDollars),
    meter('time', elapsed, budget.wallMs, formatDuration),
  ];
  const fractions = meters.map((m) => m.fraction).filter((f): f is number => f !== undefined);
  const target = info?.target ?? state.requestedTarget;
  const generation = info?.kind === 'gen-data';
  const evaluation = isEvaluation(info);
  return {
    target: target !== undefined ? fileName(target) : state.runId,
    targetPath: target ?? state.runId,
    // A dev-set generation gates nothing and edits nothing: its gate, α and mode would mean nothing.
    gate: generation ? 'none (generates a dev set)' : (info?.gate ?? '—'),
    alpha: info && !generation ? `α = ${info.alpha}` : '—',
    mode: generation ? '—' : (info?.mode ?? '—'),
    gated: !evaluation,
    status: state.status,
    working: live && state.status === 'running' && answerLeft === undefined && !(info?.kind !== 'search' && awaitingAnswer(state) !== undefined),
    statusText: open && interrupted ? 'interrupted: Resume continues it from its journal' : answerLeft !== undefined ? searchDoneLine(shortId(answerLeft)) : statusText(state),
    meters,
    progress: fractions.length > 0 ? Math.max(...fractions) : undefined,
    canCancel: live && answerLeft === undefined,
    canResume: open && interrupted,
    cancelTitle:
      answerLeft !== undefined
        ? `Nothing to cancel: the search is done. Accept ${shortId(answerLeft)} in the editor, or Reject it to end the run without it.`
        : live
          ? 'Cancel the run: it stops after the call in flight; its journal keeps what it did.'
          : `Nothing to cancel: ${whyNotLive(state, interrupted)}.`,
    resumeTitle: open && interrupted ? 'Resume the run from its journal.' : `Nothing to resume: ${live ? 'the run is still running' : whyNotLive(state, interrupted)}.`,
    warning: warningOf(state),
    // Evaluate's status says what it scored; a "v0 → v0; difference 0.000" report would compare the file with itself.
    testReport: evaluation ? undefined : testReportText(state),
    // Once a run is over its meters say what it spent (Evaluate makes no decision to end the estimate).
    estimate: state.decisions.length === 0 && open ? estimateText(info?.estimate) : undefined,
    waiting: live ? waitNote(state, now) : undefined,
    models: info?.models === undefined || info.models.length === 0 ? undefined : describeModelChoices(info.models),
    guarantee: info && !evaluation ? runGuarantee(info) : undefined,
    judge: judgeText(state),
  };
}

/** What the judge left out over the run's tests, said plainly: those items are neither ties nor wins. */
export function judgeText(s: RunState): string | undefined {
  const silence = silenceText(s.judge);
  if (silence === undefined) return undefined;
  const who = s.judge?.model === undefined ? '' : ` (model ${s.judge.model})`;
  return `${silence[0]!.toUpperCase()}${silence.slice(1)}${who}, even when asked again: those items were left out of the tests, not counted as ties.`;
}

function estimateText(e: RunSummaryInfo['estimate']): string | undefined {
  if (!e) return undefined;
  const cost = e.dollars !== undefined ? `≈ ${formatDollars(e.dollars)}` : `cost unknown (${e.unpriced?.length === 1 ? 'model' : 'models'} ${(e.unpriced ?? []).join(', ')} unpriced)`;
  return `≈ ${count(e.calls, 'call')}, ${cost}`;
}

function testReportText(s: RunState): string | undefined {
  const r = s.testReport;
  if (!r) return undefined;
  const iv = (x: { mean: number; lo: number; hi: number }, signed = false) => {
    const f = (v: number) => (signed ? formatSigned(v, 3) : v.toFixed(3));
    return `${f(x.mean)} [${f(x.lo)}, ${f(x.hi)}]`;
  };
  return `${r.split === 'dev' ? 'Dev' : 'Test'} split (n = ${r.n}): ${shortId(r.baseline.candidateId)} ${iv(r.baseline)} → ${shortId(r.final.candidateId)} ${iv(r.final)}; difference ${iv(r.difference, true)} (95% intervals).`;
}

function meter(name: BudgetMeter['name'], used: number | undefined, limit: number | undefined, fmt: (x: number) => string): BudgetMeter {
  const fraction = limit !== undefined && limit > 0 && used !== undefined ? Math.min(1, used / limit) : undefined;
  return { name, used: used === undefined ? '—' : fmt(used), limit: limit === undefined ? undefined : fmt(limit), fraction };
}

/** Why a run that is not live cannot be cancelled (nor, unless interrupted, resumed). */
function whyNotLive(s: RunState, interrupted: boolean): string {
  if (interrupted) return 'no process runs it any more';
  switch (s.status) {
    case 'finished':
      return 'the run has finished';
    case 'failed':
      return 'the run has failed';
    case 'cancelled':
      return 'the run was cancelled';
    default:
      return 'the run is not running';
  }
}

/**
 * What became of a run's candidates: "1 commit of 3 candidates" while nobody was asked about a
 * commit, else the answers to the commits (panelState/answers.ts): "1 accepted by you, 1 rejected
 * by you of 5 candidates". A commit the run never offered is never "awaiting your answer".
 */
export function outcomeText(s: RunState, candidates: number): string {
  const answers = answersText(s) ?? count(s.finished?.commits ?? s.decisions.filter((d) => d.decision === 'commit').length, 'commit');
  return `${answers} of ${count(candidates, 'candidate')}`;
}

function statusText(s: RunState): string {
  switch (s.status) {
    case 'pending':
      return s.startedAt === undefined ? 'starting: waiting for the engine' : 'waiting for the engine';
    case 'running':
      if (isEvaluation(s.info)) return 'evaluating the prompt on the test split';
      if (s.info?.kind === 'gen-data') {
        const g = generatedTally(s);
        return `generating a dev set: round ${g.rounds + 1}${g.of === undefined ? '' : ` of ${g.of}`}`;
      }
      return runningText(s);
    case 'finished':
      if (isEvaluation(s.info)) return evaluationText(s);
      if (s.info?.kind === 'gen-data') return `finished: ${generatedLine(generatedTally(s))}`;
      if (!s.finished) return 'finished';
      return s.finished.stopped === undefined ? `finished: ${outcomeText(s, s.finished.candidates)}` : `stopped early: ${outcomeText(s, s.finished.candidates)}. ${capitalized(s.finished.stopped)}`;
    case 'failed':
      return `failed: ${s.error?.message ?? 'unknown error'}`;
    case 'cancelled':
      return 'cancelled';
  }
}

function capitalized(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** A run going on; when a suggestion waits in the editor, that (a code search goes on meanwhile, a prompt run waits). */
function runningText(s: RunState): string {
  const running = s.resumed ? 'running (resumed)' : 'running';
  const waiting = awaitingAnswer(s);
  if (waiting === undefined) return running;
  return s.info?.kind === 'search' ? `${running}; ${shortId(waiting)}, the best so far, waits in the editor for your Accept or Reject` : `waiting for you: ${shortId(waiting)} waits in the editor for your Accept or Reject`;
}

/** An Evaluate run has no candidates to count: it says what it scored and how well. */
function evaluationText(s: RunState): string {
  const r = s.testReport;
  if (!r) return 'evaluated: nothing was scored (the run has no test split or no scorer)';
  return `evaluated ${shortId(r.baseline.candidateId)} on ${count(r.n, `${r.split ?? 'test'} item`)}: mean score ${r.baseline.mean.toFixed(3)} (95% interval ${r.baseline.lo.toFixed(3)}–${r.baseline.hi.toFixed(3)})`;
}

function warningOf(s: RunState): string | undefined {
  if (s.decisions.some((d) => d.reason === 'infeasible')) {
    return `${s.info?.gate ?? 'The gate'} cannot commit anything with this dev set at α = ${s.info?.alpha ?? '?'}: even straight wins on every item stay below the threshold. Add dev items or raise α.`;
  }
  const stopped = s.finished?.stopped;
  for (let i = s.logs.length - 1; i >= 0; i--) {
    const line = s.logs[i]!;
    // Why the run stopped early is the status line's to say, once.
    if (line.level === 'warn' && !(stopped !== undefined && line.message.includes(stopped))) return line.message;
  }
  return undefined;
}

/** A run in the header's picker: which file, how it stands, and which run (two runs on one file differ there). */
export function runPickerLabel(r: RunListEntry): string {
  return `${r.target !== undefined ? fileName(r.target) : shortId(r.runId)} · ${runStateLabel(r.interrupted ? 'interrupted' : r.status)} · run ${r.runId}`;
}
