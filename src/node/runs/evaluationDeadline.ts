/**
 * A code search's wall-time budget over its evaluations: an evaluation still running when the
 * budget ends is stopped there (its process group killed by the sandbox, as on Cancel), and one
 * that would start after it is not started. Either way the search reads `budgetExhausted`, so the
 * child is stopped, neither committed nor rejected, and the run ends with what it has.
 */
import { RatchetError } from '../../core/errors';
import type { ProgramEvaluator } from '../../core/code/search';
import type { Clock } from '../../core/ports';

export interface WallBudget {
  /** Epoch ms at which the wall-time budget ends; undefined without one. */
  deadline(): number | undefined;
}

export function withinWallTime(evaluate: ProgramEvaluator, budget: WallBudget, wallTimeMinutes: number | undefined, clock: Clock): ProgramEvaluator {
  if (wallTimeMinutes === undefined) return evaluate;
  const spent = `${wallTimeMinutes} minutes of wall time`;
  const refusal = () => new RatchetError('budgetExhausted', `The run's budget is spent (${spent}); the evaluation is stopped.`, { budget: spent });
  return async (text, ids, signal, repeat) => {
    const deadline = budget.deadline();
    if (deadline === undefined) return evaluate(text, ids, signal, repeat);
    const left = deadline - clock.now();
    if (left <= 0) throw refusal();
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(refusal()), left);
    const forward = () => stop.abort(signal.reason);
    if (signal.aborted) forward();
    else signal.addEventListener('abort', forward, { once: true });
    try {
      return await evaluate(text, ids, stop.signal, repeat);
    } catch (err) {
      // The sandbox ends a stopped evaluation with the signal's reason, or with its own cancellation.
      if (stop.signal.aborted && !signal.aborted) throw stop.signal.reason;
      throw err;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', forward);
    }
  };
}
