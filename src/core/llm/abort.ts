/**
 * Cancellation plumbing. Every wait in the LLM layer (queue, call, backoff) must end promptly when
 * the run is cancelled, even if whatever it waits on ignores the signal.
 */
import { RatchetError, cancelledError } from '../errors';

/** The error a cancelled call rejects with: the signal's own reason when it already is one. */
export function cancellationOf(signal: AbortSignal, what = 'the LLM call'): RatchetError {
  const reason = signal.reason;
  if (RatchetError.is(reason, 'cancelled')) return reason;
  const err = cancelledError(what);
  return reason === undefined ? err : new RatchetError('cancelled', err.message, {}, reason);
}

/**
 * Settles like `promise`, or rejects with `reasonOf()` as soon as `signal` aborts. `promise` keeps
 * running (its rejection is swallowed) so whoever owns it can still release what it holds.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, reasonOf: () => unknown): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(reasonOf());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(reasonOf());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** A controller that aborts when `parent` does, with `reasonOf(parent)`; `dispose` unlinks it. */
export function linkedController(parent: AbortSignal, reasonOf: (parent: AbortSignal) => unknown): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(reasonOf(parent));
    return { controller, dispose: () => undefined };
  }
  const onAbort = (): void => controller.abort(reasonOf(parent));
  parent.addEventListener('abort', onAbort, { once: true });
  return { controller, dispose: () => parent.removeEventListener('abort', onAbort) };
}

/** A signal that never aborts, for callers that pass none. */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;
