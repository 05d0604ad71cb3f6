/**
 * Errors at the editor edge: each is logged in full to the Ratchet log and shown once, in one
 * sentence, with an **Open Log** action. Server errors arrive as JSON-RPC ResponseErrors whose
 * `data` is the engine's RatchetErrorData (a code and, for bad input, located diagnostics).
 */
import * as vscode from 'vscode';
import type { RatchetErrorData } from '../protocol/lsp';

export const OPEN_LOG = 'Open Log';

function isErrorData(x: unknown): x is RatchetErrorData {
  return typeof x === 'object' && x !== null && typeof (x as { code?: unknown }).code === 'string';
}

/** One sentence for the user, from whatever was thrown. */
export function userMessage(what: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const data = (err as { data?: unknown } | undefined)?.data;
  const where = isErrorData(data) && data.diagnostics && data.diagnostics.length > 0 ? data.diagnostics[0] : undefined;
  const location = where ? ` (${where.file}:${where.line}:${where.column}: ${where.message})` : '';
  return `Ratchet: ${what} failed — ${message.replace(/\.$/, '')}${location}.`;
}

export class EditorErrors {
  constructor(private readonly log: vscode.LogOutputChannel) {}

  /** Logs the whole error and shows one message with Open Log; resolves when the message is closed. */
  async report(what: string, err: unknown, extraActions: string[] = []): Promise<string | undefined> {
    this.log.error(`${what} failed:`, err instanceof Error ? err : String(err));
    const data = (err as { data?: unknown } | undefined)?.data;
    if (isErrorData(data)) for (const d of data.diagnostics ?? []) this.log.error(`  ${d.file}:${d.line}:${d.column}: ${d.message}`);
    return this.show('error', userMessage(what, err), extraActions);
  }

  async show(level: 'error' | 'warning', message: string, extraActions: string[] = []): Promise<string | undefined> {
    const show = level === 'error' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
    const choice = await show(message, ...extraActions, OPEN_LOG);
    if (choice === OPEN_LOG) this.log.show(true);
    return choice;
  }
}
