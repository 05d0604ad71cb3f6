/**
 * A RatchetError's shape on a JSON-RPC wire, without the JSON-RPC library: the half of
 * src/protocol/errors.ts that the extension host needs (it sends and reads wire errors through
 * the lazily loaded language client's own copy of vscode-jsonrpc, src/extension/server/lazyClient.ts),
 * so out/extension.js does not carry vscode-jsonrpc's connection code.
 */
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
/** JSON-RPC's own InternalError (vscode-jsonrpc's ErrorCodes.InternalError). */
const INTERNAL_ERROR = -32603;

/**
 * A ResponseError by its shape, not its class: the editor's lazily loaded language client bundles
 * its own copy of vscode-jsonrpc (src/extension/server/lazyClient.ts), whose errors are not
 * `instanceof` this module's ResponseError.
 */
export function wireShaped(err: unknown): err is Error & { code: number; data: unknown } {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'number' && 'data' in err;
}

export function ratchetData(data: unknown): RatchetErrorData | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { code, details } = data as Partial<RatchetErrorData>;
  if (typeof code !== 'string') return undefined;
  return { code, details: typeof details === 'object' && details !== null ? details : {} };
}

function jsonRpcCode(code: ErrorCode): number {
  if (code === 'cancelled') return REQUEST_CANCELLED;
  return code === 'internal' ? INTERNAL_ERROR : REQUEST_FAILED;
}

/** A RatchetError as a JSON-RPC error: for an end whose ResponseError class is another copy's (the editor's). */
export function wireErrorOf(err: RatchetError): { code: number; message: string; data: RatchetErrorData } {
  return { code: jsonRpcCode(err.code), message: err.message, data: { code: err.code, details: err.details } };
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
