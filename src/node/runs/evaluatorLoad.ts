/**
 * A code search's evaluator load as the editor's status bar shows it: the local evaluator slots
 * busy (measured around each call), or a Slurm run's tasks and the cluster's counts.
 */
import type { ProgramEvaluator } from '../../core/code/search';
import type { CodeRunSpec } from '../../core/code/spec';
import type { ClusterLoad, EvaluatorLoad } from '../../core/journal/runStatus';

/** A Slurm run's load as the live status reports it: tasks running of those in flight, and the cluster's counts. */
export function clusterLoad(spec: CodeRunSpec, report: (load: EvaluatorLoad) => void): (load: ClusterLoad) => void {
  return (cluster) =>
    report({ busy: cluster.running, slots: cluster.running + cluster.queued, runs: cluster.queued + cluster.running + cluster.finished, ...(spec.budget.evaluations === undefined ? {} : { budget: spec.budget.evaluations }), cluster });
}

/**
 * The evaluator with its load reported around each call. The search calls it only from inside one
 * of its `concurrency` slots, so the calls in progress are the slots busy.
 */
export function measuredLoad(evaluate: ProgramEvaluator, spec: CodeRunSpec, report: (load: EvaluatorLoad) => void): ProgramEvaluator {
  let busy = 0;
  let runs = 0;
  const tell = () => report({ busy, slots: spec.concurrency, runs, ...(spec.budget.evaluations === undefined ? {} : { budget: spec.budget.evaluations }) });
  return async (...args) => {
    busy++;
    runs++;
    tell();
    try {
      return await evaluate(...args);
    } finally {
      busy--;
      tell();
    }
  };
}
