/**
 * The status bar's words, from the folded run state and the server's health: which run, which
 * candidate is being tested, its wealth against the commit threshold 1/α, what it waits for (a
 * rate limit, a backoff), and the cost so far. No VS Code import, so the wording is unit-tested.
 */
import type { ServerStatusParams } from '../../protocol/lsp';
import type { RunState } from '../../protocol/webview';
import { waitNote } from '../../../webview/model/header';
import { fileName } from '../../core/fileName';

export type ServerPhase = 'starting' | 'running' | 'stopped' | 'failed';

export interface StatusView {
  text: string;
  tooltip: string;
  /** Drives the item's background: errors and warnings stand out. */
  severity: 'normal' | 'warning' | 'error';
}

const short = (id: string) => id.slice(0, 8);

/** 3.14 → "3.1", 20 → "20", 1234 → "1.2k": fits the status bar. */
export function compact(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '0';
  if (Math.abs(x) >= 1000) return `${(x / 1000).toFixed(1)}k`;
  if (Math.abs(x) >= 10) return x.toFixed(0);
  return x.toFixed(1);
}

export function totalCost(run: RunState): { calls: number; tokens: number; dollars: number | undefined } {
  let tokens = 0;
  let dollars: number | undefined = 0;
  for (const role of Object.values(run.cost ?? {})) {
    tokens += role.promptTokens + role.completionTokens;
    dollars = dollars === undefined || role.dollars === undefined ? undefined : dollars + role.dollars;
  }
  return { calls: run.llmCalls, tokens, dollars };
}

function costText(run: RunState): string {
  const c = totalCost(run);
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

function runText(run: RunState, interrupted: boolean, now: number): { text: string; tooltip: string[] } {
  const target = run.info ? fileName(run.info.target) : short(run.runId);
  const tooltip = [`Run ${run.runId}${run.info ? ` — ${run.info.kind} ${run.info.target}, gate ${run.info.gate} (α = ${run.info.alpha})` : ''}`];
  const parts = [target];
  const w = activeWealth(run);
  if (interrupted) {
    parts.push('interrupted');
    tooltip.push('The server stopped while this run was in progress; "Ratchet: Resume Run" continues it from its journal.');
  } else if (run.status === 'running' || run.status === 'pending') {
    if (w) {
      parts.push(short(w.candidateId), `E ${compact(w.wealth)}/${compact(w.threshold)}`);
      tooltip.push(`Testing candidate ${w.candidateId}: wealth ${w.wealth.toPrecision(3)}, commits at ${w.threshold.toPrecision(3)} (1/α).`);
    } else if (run.activeCandidateId) {
      parts.push(short(run.activeCandidateId));
    }
    const wait = waitNote(run, now);
    if (wait) {
      parts.push(wait.text);
      tooltip.push(`An LLM call is waiting before it tries again: ${wait.detail}`);
    }
  } else {
    const commits = run.finished?.commits ?? run.decisions.filter((d) => d.decision === 'commit').length;
    parts.push(`${run.status}, ${commits} commit${commits === 1 ? '' : 's'}`);
  }
  parts.push(costText(run));
  const c = totalCost(run);
  tooltip.push(`${c.calls} LLM calls, ${c.tokens} tokens${c.dollars !== undefined ? `, $${c.dollars.toFixed(4)}` : ' (some models have no known price)'}.`);
  return { text: parts.join(' · '), tooltip };
}

/**
 * `interrupted`: the server no longer hosts this run although its events never said it ended (the
 * server restarted mid-run); the folded state alone would keep saying "running".
 */
export function statusView(run: RunState | undefined, phase: ServerPhase, health: ServerStatusParams | undefined, interrupted = false, now = Date.now()): StatusView {
  const click = 'Click to open the Ratchet panel.';
  if (phase === 'failed' || phase === 'stopped') {
    return { text: '$(error) Ratchet', tooltip: `The Ratchet language server is ${phase === 'failed' ? 'down' : 'stopped'}. Run "Ratchet: Restart Server".`, severity: 'error' };
  }
  const healthIcon = health?.health === 'error' ? '$(error)' : health?.health === 'warning' ? '$(warning)' : undefined;
  const severity = health?.health === 'error' ? 'error' : health?.health === 'warning' ? 'warning' : 'normal';
  const healthLine = health && health.health !== 'ok' ? [`Server: ${health.message}`] : [];
  if (phase === 'starting') return { text: '$(loading~spin) Ratchet', tooltip: ['Starting the Ratchet language server…', ...healthLine].join('\n'), severity };
  if (run === undefined) return { text: `${healthIcon ?? '$(beaker)'} Ratchet`, tooltip: ['No run yet.', ...healthLine, click].join('\n'), severity };
  const { text, tooltip } = runText(run, interrupted, now);
  const live = !interrupted && (run.status === 'running' || run.status === 'pending');
  const icon = healthIcon ?? (interrupted ? '$(debug-pause)' : live ? '$(sync~spin)' : run.status === 'failed' ? '$(error)' : '$(check)');
  return { text: `${icon} ${text}`, tooltip: [...tooltip, ...healthLine, click].join('\n'), severity };
}
