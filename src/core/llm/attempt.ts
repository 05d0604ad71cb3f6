/**
 * One attempt of one call: wait for a slot in the run-wide concurrency limit, then call the
 * transport under a per-attempt timeout. The caller is released as soon as the run is cancelled
 * or the timeout fires; the slot is released only when the transport call has really settled, so
 * the endpoint never sees more calls in flight than the limit.
 */
import type { LimitFunction } from 'p-limit';
import type { RatchetError } from '../errors';
import type { Clock } from '../ports';
import { cancellationOf, linkedController, raceAbort } from './abort';

export interface AttemptOptions {
  limit: LimitFunction;
  clock: Clock;
  /** 0 or Infinity: no timeout. */
  timeoutMs: number;
  /** The caller's signal: aborting it cancels the attempt, queued or running. */
  signal: AbortSignal;
  timeoutError: () => RatchetError;
}

/** Why the timer's sleep ends early; a plain value, because abort() without one builds a DOMException per call. */
const SETTLED = Symbol('attempt settled');

export function runAttempt<T>(call: (signal: AbortSignal) => Promise<T>, opts: AttemptOptions): Promise<T> {
  const { controller, dispose } = linkedController(opts.signal, (parent) => cancellationOf(parent));
  const timer = new AbortController();
  const slot = opts.limit(() => {
    if (controller.signal.aborted) return Promise.reject(controller.signal.reason);
    // The clock starts with the call, not in the queue: waiting behind our own calls is not the endpoint's fault.
    if (opts.timeoutMs > 0 && Number.isFinite(opts.timeoutMs)) {
      opts.clock.sleep(opts.timeoutMs, timer.signal).then(
        () => controller.abort(opts.timeoutError()),
        () => undefined,
      );
    }
    return call(controller.signal);
  });
  return raceAbort(slot, controller.signal, () => controller.signal.reason).finally(() => {
    timer.abort(SETTLED);
    dispose();
  });
}
