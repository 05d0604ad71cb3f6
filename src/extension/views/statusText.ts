/**
 * The status bar's words, from the run's status (what the daemon pushed: its state, counts and
 * line, "rate limited, waiting 12 s" included), the run's folded events for what a status does not
 * carry (its target, the active candidate's evidence against 1/α, the cost), and the server's health.
 * A run no daemon reports on (one found on disk) is shown from its events and the server's listing.
 * No VS Code import, so the wording is unit-tested.
 */
import { waitsOnlyForYou } from '../../core/journal/runStatus';
import type { LiveRunStatus } from '../../core/journal/runStatus';
import { isTerminalRunState } from '../../core/journal/runStates';
import { silenceText } from '../../core/gates/abstentions';
import type { JudgeCount } from '../../core/gates/abstentions';
import type { RunStatusParams, ServerStatusParams } from '../../protocol/lsp';
import { isEvaluation } from '../../panelState/results';
import { costTotals } from '../../panelState/runState';
import { standsForAnswer } from '../../panelState/answers';
import { fileName } from '../../core/fileName';
import { searchRunningText } from './searchStatusText';
import type { RunState } from '../../panelState/types';

export type ServerPhase = 'starting' | 'running' | 'stopped' | 'failed';

export interface StatusView {
  text: string;
  tooltip: string;
  /** Drives the item's background: errors and warnings stand out. */
  severity: 'normal' | 'warning' | 'error';
}

/** The run the status bar shows, as the extension holds it. */
export interface ShownRun {
  runId: string;
  /** The latest status the daemon pushed, when it reports on this run. */
  status?: RunStatusParams;
  /** The run's folded events, when the RunStore holds them. */
  state?: RunState;
  /** Without a status: the server's listing says the run stopped mid-way (its process is gone). */
  interrupted?: boolean;
}

const short = (id: string) => id.slice(0, 8);
const commitsText = (n: number) => `${n} commit${n === 1 ? '' : 's'}`;

/** 3.14 → "3.1", 20 → "20", 1234 → "1.2k": fits the status bar. */
export function compact(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '0';
  if (Math.abs(x) >= 1000) return `${(x / 1000).toFixed(1)}k`;
  if (Math.abs(x) >= 10) return x.toFixed(0);
  return x.toFixed(1);
}

function costText(run: RunState): string {
  const c = costTotals(run);
  if (c.dollars !== undefined && c.dollars > 0) return `$${c.dollars < 0.01 ? c.dollars.toFixed(4) : c.dollars.toFixed(2)}`;
  return `${c.calls} calls`;
}

/** The active candidate's wealth and the threshold, as plain numbers (the run state keeps logs). */
export function activeWealth(run: RunState): { candidateId: string; wealth: number; threshold: number } | undefined {
  const id = run.activeCandidateId;
  if (id === undefined) return undefined;
  const last = run.wealth[id]?.steps.at(-1);
  if (last === undefined) return undefined;
  return { candidateId: id, wealth: Math.exp(last.logWealth), threshold: Math.exp(last.logThreshold) };
}

function targetName(run: ShownRun): string {
  if (run.state?.info) return fileName(run.state.info.target);
  if (run.status) return decodeURIComponent(fileName(run.status.uri));
  return short(run.runId);
}

const WAITS_FOR_YOU_HINT = 'Accept or Reject the suggestion in the editor; the run waits until you do.';
const INTERRUPTED_HINT = 'The process running this run stopped mid-run; "Ratchet: Resume Run" continues it from its journal.';

/** What the status says: its line while the run goes on, how it ended once it is over. */
function fromStatus(s: LiveRunStatus, state: RunState | undefined): { part: string; icon: string; tooltip: string[] } {
  switch (s.state) {
    case 'running':
    case 'waiting-for-you': {
      const tooltip: string[] = [];
      const w = state && activeWealth(state);
      if (w) {
        // 1/α per candidate; above it, the candidate's share of an α the whole run shares.
        const alpha = state?.info?.alpha;
        const line = alpha !== undefined && Math.abs(w.threshold * alpha - 1) > 1e-9 ? 'its share of the run’s α' : '1/α';
        tooltip.push(`Candidate ${w.candidateId}: evidence ×${Number(w.wealth.toPrecision(3))}, committed at ×${Number(w.threshold.toPrecision(3))} (${line}).`);
      }
      if (s.wait) tooltip.push(`An LLM call is waiting before it tries again${state?.waiting ? `: ${state.waiting.message}` : '.'}`);
      if (waitsOnlyForYou(s)) tooltip.push('The search is done: Accept writes its best program, Reject ends the run without it; nothing is left to cancel.');
      else if (s.state === 'waiting-for-you') tooltip.push(WAITS_FOR_YOU_HINT);
      if (s.kind === 'search' && s.state === 'running' && !s.wait) {
        const search = searchRunningText(s);
        return { part: search.part, icon: '$(sync~spin)', tooltip: [...search.tooltip, ...tooltip] };
      }
      return { part: s.line, icon: s.state === 'waiting-for-you' ? '$(bell)' : '$(sync~spin)', tooltip };
    }
    case 'interrupted':
      return { part: 'interrupted', icon: '$(debug-pause)', tooltip: [INTERRUPTED_HINT] };
    case 'finished':
    case 'cancelled':
      if (s.state === 'finished' && state && isEvaluation(state.info)) return evaluatedText(state);
      // A dev-set generation commits nothing: what it wrote is its result.
      if (s.kind === 'gen-data') {
        const dev = s.generated?.dev ?? 0;
        return { part: s.state === 'finished' ? `finished, ${dev} dev task${dev === 1 ? '' : 's'}` : 'cancelled, nothing written', icon: '$(check)', tooltip: [`${s.line}.`] };
      }
      return { part: `${s.state}, ${commitsText(s.commits)}${judgePart(s.judge)}`, icon: '$(check)', tooltip: [`${s.tested} tested, ${s.commits} committed.`, ...judgeTooltip(s.judge)] };
    case 'failed':
      return { part: `failed, ${commitsText(s.commits)}`, icon: '$(error)', tooltip: [`Failed: ${s.error ?? 'no reason given'}`] };
  }
}

/** An Evaluate tested one prompt: its mean score on the test split is the result, not a commit count. */
function evaluatedText(state: RunState): { part: string; icon: string; tooltip: string[] } {
  const r = state.testReport;
  if (!r) return { part: 'evaluated, nothing scored', icon: '$(check)', tooltip: ['The run has no test split or no scorer.'] };
  const { mean, lo, hi } = r.baseline;
  return { part: `evaluated, mean ${mean.toFixed(3)}`, icon: '$(check)', tooltip: [`Mean score ${mean.toFixed(3)} on ${r.n} ${r.split ?? 'test'} items (95% interval ${lo.toFixed(3)}–${hi.toFixed(3)}).`] };
}

/** A run no daemon reports on: how its journal ends, and whether the listing says it was interrupted. */
function fromEvents(state: RunState, interrupted: boolean): { part: string; icon: string; tooltip: string[] } {
  if (interrupted) return { part: 'interrupted', icon: '$(debug-pause)', tooltip: [INTERRUPTED_HINT] };
  // What the panel's header says from the same events (a run process that does not answer, say).
  const waiting = standsForAnswer(state);
  if (waiting !== undefined) return { part: `${waiting} waits for your Accept or Reject`, icon: '$(bell)', tooltip: [WAITS_FOR_YOU_HINT] };
  if (state.status === 'finished' && isEvaluation(state.info)) return evaluatedText(state);
  const commits = state.finished?.commits ?? state.decisions.filter((d) => d.decision === 'commit').length;
  const icon = state.status === 'failed' ? '$(error)' : !isTerminalRunState(state.status) ? '$(circle-outline)' : '$(check)';
  return { part: `${state.status}, ${commitsText(commits)}${judgePart(state.judge)}`, icon, tooltip: judgeTooltip(state.judge) };
}

/** " · judge: no answer 22 of 96" once a run's judge left answers out (#25): short, the tooltip says it whole. */
function judgePart(j: JudgeCount | undefined): string {
  return j && j.abstained > 0 ? ` · judge: no answer ${j.abstained} of ${j.answers}` : '';
}

function judgeTooltip(j: JudgeCount | undefined): string[] {
  const silence = silenceText(j);
  return silence === undefined ? [] : [`${silence[0]!.toUpperCase()}${silence.slice(1)}, even when asked again: those items were left out of the tests, not counted as ties.`];
}

function runText(run: ShownRun): { icon: string; text: string; tooltip: string[] } {
  const info = run.state?.info;
  const tooltip = [`Run ${run.runId}${info ? ` — ${info.kind} ${info.target}, gate ${info.gate} (α = ${info.alpha})` : ''}`];
  const shown = run.status ? fromStatus(run.status.status, run.state) : run.state ? fromEvents(run.state, run.interrupted === true) : undefined;
  const parts = [targetName(run)];
  if (shown) {
    parts.push(shown.part);
    tooltip.push(...shown.tooltip);
  }
  if (run.state) {
    parts.push(costText(run.state));
    const c = costTotals(run.state);
    tooltip.push(`${c.calls} LLM calls, ${c.tokens} tokens${c.dollars !== undefined ? `, $${c.dollars.toFixed(4)}` : ' (some models have no known price)'}.`);
  }
  return { icon: shown?.icon ?? '$(beaker)', text: parts.join(' · '), tooltip };
}

export function statusView(run: ShownRun | undefined, phase: ServerPhase, health: ServerStatusParams | undefined): StatusView {
  const click = 'Click to open the Ratchet panel.';
  if (phase === 'failed' || phase === 'stopped') {
    return { text: '$(error) Ratchet', tooltip: `The Ratchet language server is ${phase === 'failed' ? 'down' : 'stopped'}. Run "Ratchet: Restart Server".`, severity: 'error' };
  }
  const healthIcon = health?.health === 'error' ? '$(error)' : health?.health === 'warning' ? '$(warning)' : undefined;
  const severity = health?.health === 'error' ? 'error' : health?.health === 'warning' ? 'warning' : 'normal';
  const healthLine = health && health.health !== 'ok' ? [`Server: ${health.message}`] : [];
  if (phase === 'starting') return { text: '$(loading~spin) Ratchet', tooltip: ['Starting the Ratchet language server…', ...healthLine].join('\n'), severity };
  if (run === undefined) return { text: `${healthIcon ?? '$(beaker)'} Ratchet`, tooltip: ['No run yet.', ...healthLine, click].join('\n'), severity };
  const { icon, text, tooltip } = runText(run);
  return { text: `${healthIcon ?? icon} ${text}`, tooltip: [...tooltip, ...healthLine, click].join('\n'), severity };
}
