/**
 * A run's AbortController. Every LLM call, backoff wait and evaluator slot in flight listens on the
 * run's one signal and stops listening when it settles, so the listeners are bounded by the run's
 * concurrency: not a leak. Node warns at 11 listeners (MaxListenersExceededWarning), which any run
 * with more than 10 things in flight reaches — a gen-data round's Solver samples at once.
 */
import { setMaxListeners } from 'node:events';

export function runController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
