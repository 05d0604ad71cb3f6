/**
 * What the client needs to decide restarts: a status notification when the server hits an
 * uncaught exception or unhandled rejection (it keeps serving — a run's failure must not take the
 * others down — and the client's error handler chooses whether to restart), and request errors in
 * one shape carrying the engine's reason code.
 */
import { ErrorCodes, LSPErrorCodes, ResponseError } from 'vscode-languageserver/node';
import type { Connection } from 'vscode-languageserver/node';
import { RatchetError } from '../core/errors';
import type { Diagnostic } from '../core/data/diagnostics';
import { ServerStatusNotification } from '../protocol/lsp';
import type { RatchetErrorData, ServerStatusParams } from '../protocol/lsp';

export function reportStatus(connection: Connection, status: ServerStatusParams): void {
  void connection.sendNotification(ServerStatusNotification, status).catch(() => undefined);
}

export function watchProcess(connection: Connection): void {
  const report = (what: string, err: unknown) => {
    const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
    connection.console.error(`ratchet-server: ${what}: ${detail}`);
    reportStatus(connection, { health: 'error', message: `The Ratchet server hit an ${what}: ${err instanceof Error ? err.message : String(err)}. See the Ratchet log.` });
  };
  process.on('uncaughtException', (err) => report('uncaught exception', err));
  process.on('unhandledRejection', (err) => report('unhandled rejection', err));
}

/** A request's failure as the client sees it: the one-sentence message, the reason code, and where. */
export function toResponseError(err: unknown): ResponseError<RatchetErrorData> {
  if (err instanceof ResponseError) return err as ResponseError<RatchetErrorData>;
  if (RatchetError.is(err)) {
    const diags = Array.isArray(err.details.diagnostics) ? (err.details.diagnostics as Diagnostic[]) : [];
    const data: RatchetErrorData = { code: err.code };
    if (diags.length > 0) data.diagnostics = diags.map((d) => ({ file: d.file, line: d.line, column: d.column, message: d.message }));
    return new ResponseError(err.code === 'cancelled' ? LSPErrorCodes.RequestCancelled : LSPErrorCodes.RequestFailed, err.message, data);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ResponseError(ErrorCodes.InternalError, `Internal error in the Ratchet server: ${message}`, { code: 'internal' });
}
