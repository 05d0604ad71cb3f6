/**
 * One attempt of one call: wait for a slot in the run-wide concurrency limit, then call the
 * transport under a per-attempt timeout. The caller is released as soon as the run is cancelled
 * or the timeout fires; the slot is released only when the transport call has really settled, so
 * the endpoint never sees more calls in flight than the limit — and, when the caller keeps its
 * answers (`keep`: the response cache's durable write), only once the answer is kept, so answers
 * paid for but not yet on disk are bounded by the same limit: a kill -9 repays at most that many.
 */
import type { LimitFunction } from 'p-limit';
import type { RatchetError } from '../errors';
import type { Clock } from '../ports';
import { cancellationOf, linkedController, raceAbort } from './abort';

export interface AttemptOptions<T> {
  limit: LimitFunction;
  clock: Clock;
  /** 0 or Infinity: no timeout. */
  timeoutMs: number;
  /** The caller's signal: aborting it cancels the attempt, queued or running. */
  signal: AbortSignal;
  timeoutError: () => RatchetError;
  /**
   * Runs in the slot on the answer the attempt hands over, before the slot is freed; the timeout
   * has stopped by then (a slow disk is not the endpoint's delay, and timing it out would pay for
   * the answer again). An answer not handed over (timed out, cancelled) is not kept: its retry's
   * answer is the one the run goes on with. Must not throw for a failed write.
   */
  keep?: (value: T) => Promise<void>;
}

/** Why the timer's sleep ends early; a plain value, because abort() without one builds a DOMException per call. */
const SETTLED = Symbol('attempt settled');

export function runAttempt<T>(call: (signal: AbortSignal) => Promise<T>, opts: AttemptOptions<T>): Promise<T> {
  const { controller, dispose } = linkedController(opts.signal, (parent) => cancellationOf(parent));
  const timer = new AbortController();
  const slot = opts.limit(async () => {
    if (controller.signal.aborted) throw controller.signal.reason;
    // The clock starts with the call, not in the queue: waiting behind our own calls is not the endpoint's fault.
    if (opts.timeoutMs > 0 && Number.isFinite(opts.timeoutMs)) {
      opts.clock.sleep(opts.timeoutMs, timer.signal).then(
        () => controller.abort(opts.timeoutError()),
        () => undefined,
      );
    }
    const value = await call(controller.signal);
    timer.abort(SETTLED);
    if (opts.keep && !controller.signal.aborted) await opts.keep(value);
    return value;
  });
  return raceAbort(slot, controller.signal, () => controller.signal.reason).finally(() => {
    timer.abort(SETTLED);
    dispose();
  });
}
