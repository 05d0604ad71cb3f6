/**
 * RatchetErrors across the daemon's socket. The engine branches on an error's code (a retry on a
 * transient `llmHttp`, a located `badInput` shown at its line), so the code and details travel
 * with the message and are rebuilt on the other side.
 */
import { ConnectionError, ErrorCodes, ResponseError } from 'vscode-jsonrpc';
import { RatchetError } from '../core/errors';
import type { ErrorCode } from '../core/errors';
import type { DaemonErrorData } from '../protocol/runDaemon';

export function toWireError(err: unknown): ResponseError<DaemonErrorData> {
  if (RatchetError.is(err)) return new ResponseError(ErrorCodes.InternalError, err.message, { code: err.code, details: err.details });
  const message = err instanceof Error ? err.message : String(err);
  return new ResponseError(ErrorCodes.InternalError, message, { code: 'internal', details: {} });
}

/** The RatchetError a wire error stands for; an error without our data is `internal`. */
export function fromWireError(err: unknown): RatchetError {
  if (RatchetError.is(err)) return err;
  if (err instanceof ResponseError) {
    const data = err.data as Partial<DaemonErrorData> | undefined;
    if (typeof data?.code === 'string') return new RatchetError(data.code as ErrorCode, err.message, data.details ?? {});
  }
  return new RatchetError('internal', err instanceof Error ? err.message : String(err), {}, err);
}

/** The connection went away while a request waited (closed, disposed, or it could not be written). */
export function isConnectionLoss(err: unknown): boolean {
  if (err instanceof ResponseError) return err.code === ErrorCodes.PendingResponseRejected || err.code === ErrorCodes.MessageWriteError || err.code === ErrorCodes.ConnectionInactive;
  return err instanceof ConnectionError;
}
