/**
 * One error type for the whole engine, branched on by reason code rather than by class.
 * `message` is the one actionable sentence a user sees; `details` carries the where (file, line,
 * field) and never a secret.
 */
export type ErrorCode =
  | 'llmHttp' // the endpoint answered with a non-2xx status
  | 'llmNetwork' // no answer: connection refused, reset, DNS
  | 'llmTimeout' // no answer within the per-call timeout
  | 'llmMalformed' // an answer we could not read (bad JSON, truncated body, no choices)
  | 'llmRetriesExhausted'
  | 'fileChanged' // another program changed the file an autopilot run was about to write
  | 'budgetExhausted' // a run budget (calls, tokens, dollars, wall time) refused the next call
  | 'cancelled'
  | 'journalCorrupt'
  | 'journalMissing'
  | 'journalTooNew' // written by a newer Ratchet in a format this one cannot read
  | 'badInput' // a file, line or field the user wrote is wrong
  | 'notFound'
  | 'internal';

export class RatchetError extends Error {
  override readonly name = 'RatchetError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }

  static is<C extends ErrorCode>(err: unknown, code?: C): err is RatchetError & { code: C } {
    return err instanceof RatchetError && (code === undefined || err.code === code);
  }

  toJSON(): { code: ErrorCode; message: string; details: Record<string, unknown> } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** The reason an AbortSignal carries when a user cancels; tests and faces check it with `isCancellation`. */
export function cancelledError(what = 'the operation'): RatchetError {
  return new RatchetError('cancelled', `Cancelled ${what}.`);
}

export function isCancellation(err: unknown): boolean {
  return RatchetError.is(err, 'cancelled') || (err instanceof Error && err.name === 'AbortError');
}

export function assertNever(x: never, what = 'value'): never {
  throw new RatchetError('internal', `Unexpected ${what}: ${JSON.stringify(x)}`);
}
