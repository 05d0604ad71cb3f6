/**
 * A running code search in the status bar: its best score, evaluations done against the budget,
 * evaluator slots busy (statusText.ts adds the cost). From the run's live status alone — the
 * scores its events fold into, the evaluator load the daemon reports beside them — so it is as
 * fresh as the last status pushed. No VS Code import, so the wording is unit-tested.
 */
import { formatScore } from '../../core/run/runStatus';
import type { EvaluatorLoad, LiveRunStatus } from '../../core/run/runStatus';

/** `12/200 evals · 2/3 busy`: evaluations run (of the budget) and evaluator slots busy. */
export function loadText(load: EvaluatorLoad): string {
  return `${load.budget === undefined ? load.runs : `${load.runs}/${load.budget}`} evals · ${load.busy}/${load.slots} busy`;
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
    tooltip.push(
      `${load.runs} evaluation${load.runs === 1 ? '' : 's'} run${load.budget === undefined ? '' : ` of a budget of ${load.budget}`}; ${load.busy} of ${load.slots} evaluator slot${load.slots === 1 ? '' : 's'} busy now.`,
    );
  }
  return { part: parts.join(' · '), tooltip };
}
