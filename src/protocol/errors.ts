/**
 * A RatchetError across a wire: the daemon's socket (daemon ↔ server) and the LSP connection
 * (server → editor). The engine branches on an error's code (a retry on a transient `llmHttp`, a
 * located `badInput` shown at its line), so the code and details travel with the message and are
 * rebuilt, unchanged, on the other side — however many hops it takes.
 *
 * Only the message, the code and the details leave the process: never the cause or the stack
 * (an SDK error as cause can hold request headers). `details` never carries a secret: that is
 * RatchetError's own contract (src/core/errors.ts).
 */
import { ConnectionError, ErrorCodes, ResponseError } from 'vscode-jsonrpc';
import { RatchetError } from '../core/errors';
import { fromWireError, ratchetData, wireErrorOf, wireShaped } from './wireErrorData';
import type { RatchetErrorData } from './wireErrorData';

export { fromWireError, wireErrorOf } from './wireErrorData';
export type { RatchetErrorData } from './wireErrorData';

/** The error a request handler answers with. Anything that is not a RatchetError is a bug: `internal`. */
export function toWireError(err: unknown): ResponseError<unknown> {
  if (RatchetError.is(err)) {
    const { code, message, data } = wireErrorOf(err);
    return new ResponseError(code, message, data);
  }
  if (wireShaped(err)) {
    // Passed on from another wire: ours is rebuilt (a copy's class may not be this one); a
    // library's own (InvalidRequest, MethodNotFound) keeps its code.
    if (ratchetData(err.data)) return toWireError(fromWireError(err));
    if (err instanceof ResponseError) return err;
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ResponseError<RatchetErrorData>(ErrorCodes.InternalError, `Internal error in Ratchet: ${message}`, { code: 'internal', details: {} });
}

/**
 * Wraps a request handler so that whatever it throws leaves as the wire error above: the
 * connection would otherwise answer with a bare InternalError and lose the code and details.
 */
export function guarded<A extends unknown[], R>(handler: (...args: A) => R | Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (err) {
      throw toWireError(err);
    }
  };
}

/**
 * The connection went away while a request waited (closed, disposed, or it could not be written).
 * By class: only the Node ends (server, daemon) ask, and each has one copy of vscode-jsonrpc.
 */
export function isConnectionLoss(err: unknown): boolean {
  if (err instanceof ResponseError) return err.code === ErrorCodes.PendingResponseRejected || err.code === ErrorCodes.MessageWriteError || err.code === ErrorCodes.ConnectionInactive;
  return err instanceof ConnectionError;
}
