/**
 * What the client needs to decide restarts: a status notification when the server hits an
 * uncaught exception or unhandled rejection (it keeps serving — a run's failure must not take the
 * others down — and the client's error handler chooses whether to restart).
 */
import type { Connection } from 'vscode-languageserver/node';
import { ServerStatusNotification } from '../protocol/lsp';
import type { ServerStatusParams } from '../protocol/lsp';

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
