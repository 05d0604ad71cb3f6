/**
 * How an error that ended a run is told, written once for every run kind (the Node run shell,
 * the prompt loop, the judge runs): the run's last event and the error as that event has it.
 */
import { RatchetError, isCancellation } from '../errors';
import type { EventPayload } from './control';
import type { EventOf } from './events';

/** An error as a `run/failed` event and a failed run's outcome carry it. */
export interface RunError {
  code: string;
  message: string;
}

export type RunEnding = { readonly cancelled: true; readonly event: EventPayload<EventOf<'run/cancelled'>> } | { readonly cancelled: false; readonly error: RunError; readonly event: EventPayload<EventOf<'run/failed'>> };

/**
 * `run/cancelled` for a cancellation, or for any error once the run's signal was aborted (a call
 * cut short by the cancel fails in its own words, but what ended the run was the user); else
 * `run/failed` with the error's code, `internal` for an error that is not a RatchetError.
 */
export function runEnding(err: unknown, signal: AbortSignal): RunEnding {
  if (isCancellation(err) || signal.aborted) return { cancelled: true, event: { type: 'run/cancelled' } };
  const error: RunError = RatchetError.is(err) ? { code: err.code, message: err.message } : { code: 'internal', message: err instanceof Error ? err.message : String(err) };
  return { cancelled: false, error, event: { type: 'run/failed', error } };
}
