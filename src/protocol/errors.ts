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
import type { ErrorCode } from '../core/errors';

/** `data` of a ResponseError that stands for a RatchetError. */
export interface RatchetErrorData {
  code: string;
  /** Where: file, line, field; for bad input `diagnostics` (src/core/data/diagnostics.ts). */
  details: Record<string, unknown>;
}

/**
 * The LSP's codes for a failed and a cancelled request (LSPErrorCodes of
 * vscode-languageserver-protocol, which a protocol module may not import). The daemon's socket
 * uses them too, so one conversion serves both wires.
 */
const REQUEST_FAILED = -32803;
const REQUEST_CANCELLED = -32800;

/**
 * A ResponseError by its shape, not its class: the editor's lazily loaded language client bundles
 * its own copy of vscode-jsonrpc (src/extension/server/lazyClient.ts), whose errors are not
 * `instanceof` this module's ResponseError.
 */
function wireShaped(err: unknown): err is Error & { code: number; data: unknown } {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'number' && 'data' in err;
}

function ratchetData(data: unknown): RatchetErrorData | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { code, details } = data as Partial<RatchetErrorData>;
  if (typeof code !== 'string') return undefined;
  return { code, details: typeof details === 'object' && details !== null ? details : {} };
}

function jsonRpcCode(code: ErrorCode): number {
  if (code === 'cancelled') return REQUEST_CANCELLED;
  return code === 'internal' ? ErrorCodes.InternalError : REQUEST_FAILED;
}

/** A RatchetError as a JSON-RPC error: for an end whose ResponseError class is another copy's (the editor's). */
export function wireErrorOf(err: RatchetError): { code: number; message: string; data: RatchetErrorData } {
  return { code: jsonRpcCode(err.code), message: err.message, data: { code: err.code, details: err.details } };
}

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

/** The RatchetError a wire error stands for; an error without our data is `internal`. */
export function fromWireError(err: unknown): RatchetError {
  if (RatchetError.is(err)) return err;
  const data = wireShaped(err) ? ratchetData(err.data) : undefined;
  // The code is one of ours: both ends are built from the same source (the socket's name carries
  // the protocol version; the server ships with the extension).
  if (data) return new RatchetError(data.code as ErrorCode, (err as Error).message, data.details);
  return new RatchetError('internal', err instanceof Error ? err.message : String(err), {}, err);
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
