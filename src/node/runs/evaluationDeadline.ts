/**
 * A code search's wall-time budget over its evaluations: an evaluation still running when the
 * budget ends is stopped there (its process group killed by the sandbox, as on Cancel; a Slurm
 * task cancelled on the cluster), and one that would start after it is not started. Either way the search reads `budgetExhausted`, so the
 * child is stopped, neither committed nor rejected, and the run ends with what it has.
 */
import { RatchetError } from '../../core/errors';
import type { ProgramBatchEvaluator, ProgramEvaluator } from '../../core/code/evaluations';
import type { Clock } from '../../core/ports';

export interface WallBudget {
  /** Epoch ms at which the wall-time budget ends; undefined without one. */
  deadline(): number | undefined;
}

export function withinWallTime(evaluate: ProgramEvaluator, budget: WallBudget, wallTimeMinutes: number | undefined, clock: Clock): ProgramEvaluator {
  if (wallTimeMinutes === undefined) return evaluate;
  return async (text, ids, signal, repeat) => {
    const stop = deadlineStop(budget, wallTimeMinutes, signal, clock);
    if (stop === undefined) return evaluate(text, ids, signal, repeat);
    try {
      return await stop.settle(evaluate(text, ids, stop.signal, repeat));
    } finally {
      stop.dispose();
    }
  };
}

/**
 * The same for a batch backend (Slurm): the batch's tasks are given a signal that the deadline
 * aborts too, so a task still queued or running on the cluster when the budget ends is cancelled
 * there (scancel), not left to run on cluster-hours nobody will use.
 */
export function batchWithinWallTime(evaluate: ProgramBatchEvaluator, budget: WallBudget, wallTimeMinutes: number | undefined, clock: Clock): ProgramBatchEvaluator {
  if (wallTimeMinutes === undefined) return evaluate;
  return (text, shards, signal) => {
    const stop = deadlineStop(budget, wallTimeMinutes, signal, clock);
    if (stop === undefined) return evaluate(text, shards, signal);
    const results = evaluate(text, shards, stop.signal).map((p) => stop.settle(p));
    void Promise.allSettled(results).then(() => stop.dispose());
    return results;
  };
}

interface DeadlineStop {
  /** Aborted by the caller's signal, or with the budget's refusal when the wall-time budget ends. */
  signal: AbortSignal;
  /** The evaluation's outcome; one the deadline stopped fails with the refusal, whatever the backend said. */
  settle<T>(p: Promise<T>): Promise<T>;
  dispose(): void;
}

/** undefined: no deadline set yet. A deadline already passed stops the evaluation before it starts. */
function deadlineStop(budget: WallBudget, wallTimeMinutes: number, signal: AbortSignal, clock: Clock): DeadlineStop | undefined {
  const deadline = budget.deadline();
  if (deadline === undefined) return undefined;
  const spent = `${wallTimeMinutes} minutes of wall time`;
  const refusal = new RatchetError('budgetExhausted', `The run's budget is spent (${spent}); the evaluation is stopped.`, { budget: spent });
  const stop = new AbortController();
  const left = deadline - clock.now();
  const timer = left > 0 ? setTimeout(() => stop.abort(refusal), left) : undefined;
  if (left <= 0) stop.abort(refusal);
  const forward = () => stop.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  return {
    signal: stop.signal,
    settle: async (p) => {
      if (stop.signal.aborted && !signal.aborted) throw stop.signal.reason;
      try {
        return await p;
      } catch (err) {
        // The sandbox (or the cluster) ends a stopped evaluation with the signal's reason, or with its own cancellation.
        if (stop.signal.aborted && !signal.aborted) throw stop.signal.reason;
        throw err;
      }
    },
    dispose: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', forward);
    },
  };
}
