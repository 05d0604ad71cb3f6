/**
 * The real Clock. `sleep` is how the engine waits (retry backoff, rate limits), so it must give way
 * the moment the user cancels: it rejects with a RatchetError, the one error type the engine
 * branches on, rather than whatever the signal carried.
 */
import { RatchetError, cancelledError } from '../core/errors';
import type { Clock } from '../core/ports';

export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortReason(signal!));
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/**
 * The signal's reason when it is already a RatchetError (a timeout the caller chose to signal, a
 * cancellation from a face); otherwise a `cancelled` error that keeps the raw reason as its cause.
 */
export function abortReason(signal: AbortSignal): RatchetError {
  const reason: unknown = signal.reason;
  if (RatchetError.is(reason)) return reason;
  const err = cancelledError('the wait');
  return new RatchetError(err.code, err.message, err.details, reason);
}
