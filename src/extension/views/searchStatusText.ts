/**
 * A running code search in the status bar: its best score, evaluations done against the budget,
 * evaluator slots busy (statusText.ts adds the cost). From the run's live status alone — the
 * scores its events fold into, the evaluator load the daemon reports beside them — so it is as
 * fresh as the last status pushed. No VS Code import, so the wording is unit-tested.
 */
import { formatScore } from '../../core/journal/runStatus';
import type { ClusterLoad, EvaluatorLoad, LiveRunStatus } from '../../core/journal/runStatus';
import { clusterTime } from '../../panelState/clusterTasks';

/**
 * `12/200 evals · 2/3 busy`: evaluations run (of the budget) and evaluator slots busy; on Slurm
 * `12/200 evals · 3 jobs in flight` (the slots are the cluster's), or that Slurm is paused.
 */
export function loadText(load: EvaluatorLoad): string {
  const evals = `${load.budget === undefined ? load.runs : `${load.runs}/${load.budget}`} evals`;
  const c = load.cluster;
  if (c === undefined) return `${evals} · ${load.busy}/${load.slots} busy`;
  return `${evals} · ${c.paused !== undefined ? 'Slurm paused' : `${c.jobs} job${c.jobs === 1 ? '' : 's'} in flight`}`;
}

function clusterTooltip(c: ClusterLoad): string[] {
  const used = `${clusterTime(c.clusterSeconds)} used${c.clusterHoursBudget === undefined ? '' : ` of a budget of ${c.clusterHoursBudget} cluster-hours`}`;
  const lines = [`On Slurm: ${c.jobs} array job${c.jobs === 1 ? '' : 's'} in flight, ${c.queued} task${c.queued === 1 ? '' : 's'} queued, ${c.running} running, ${c.finished} over; ${used}.`];
  if (c.paused !== undefined) lines.push(`Submissions wait: ${c.paused}`);
  return lines;
}

export function searchRunningText(s: LiveRunStatus): { part: string; tooltip: string[] } {
  const parts: string[] = [];
  const tooltip: string[] = [`Code search: ${s.line}.`];
  const { start, best } = s.search ?? {};
  // The best is the starting program until a child commits.
  parts.push(best === undefined ? s.line : `best ${formatScore(best.score)}`);
  if (best !== undefined && start !== undefined) tooltip.push(`Best program ${best.candidateId}: ${formatScore(best.score)} (the starting program scored ${formatScore(start)}).`);
  const load = s.evaluator;
  if (load) {
    parts.push(loadText(load));
    const evaluations = `${load.runs} evaluation${load.runs === 1 ? '' : 's'} run${load.budget === undefined ? '' : ` of a budget of ${load.budget}`}`;
    if (load.cluster) tooltip.push(`${evaluations}.`, ...clusterTooltip(load.cluster));
    else tooltip.push(`${evaluations}; ${load.busy} of ${load.slots} evaluator slot${load.slots === 1 ? '' : 's'} busy now.`);
  }
  return { part: parts.join(' · '), tooltip };
}
