/**
 * Errors at the editor edge: each is logged in full to the Ratchet log and shown once, in one
 * sentence, with an **Open Log** action. Server errors arrive as JSON-RPC ResponseErrors whose
 * `data` is the engine's RatchetErrorData (src/protocol/errors.ts): a code and, for bad input,
 * located diagnostics.
 */
import * as vscode from 'vscode';
import { formatDiagnostic } from '../core/data/diagnostics';
import type { Diagnostic } from '../core/data/diagnostics';
import { fromWireError } from '../protocol/wireErrorData';

export const OPEN_LOG = 'Open Log';

/** The located problems a server error carries (bad input), none for any other error. */
function diagnosticsOf(err: unknown): Diagnostic[] {
  const diagnostics = fromWireError(err).details.diagnostics;
  return Array.isArray(diagnostics) ? (diagnostics as Diagnostic[]) : [];
}

/**
 * One sentence for the user, from whatever was thrown. A bad-input error's message already is its
 * first problem at its line ("/abs/t.ratchet.yaml:3:1: unknown key"): it is said once, with the path
 * as `relative` writes it (the workspace-relative one); the log keeps the full paths.
 */
export function userMessage(what: string, err: unknown, relative: (path: string) => string = (p) => p): string {
  const message = err instanceof Error ? err.message : String(err);
  const where = diagnosticsOf(err)[0];
  const said = where && message.includes(where.file) ? message.split(where.file).join(relative(where.file)) : message;
  const location = where && !message.includes(where.file) ? ` (${relative(where.file)}:${where.line}:${where.column})` : '';
  const sentence = `${said.replace(/\.$/, '')}${location}`;
  return `Ratchet: ${what} failed — ${sentence}${/[?!]$/.test(sentence) ? '' : '.'}`;
}

export class EditorErrors {
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly relative: (path: string) => string = (p) => vscode.workspace.asRelativePath(p, false),
  ) {}

  /** Logs the whole error and shows one message with Open Log; resolves when the message is closed. */
  async report(what: string, err: unknown, extraActions: string[] = []): Promise<string | undefined> {
    this.log.error(`${what} failed:`, err instanceof Error ? err : String(err));
    for (const d of diagnosticsOf(err)) this.log.error(`  ${formatDiagnostic(d)}`);
    return this.show('error', userMessage(what, err, this.relative), extraActions);
  }

  async show(level: 'error' | 'warning', message: string, extraActions: string[] = []): Promise<string | undefined> {
    const show = level === 'error' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
    const choice = await show(message, ...extraActions, OPEN_LOG);
    if (choice === OPEN_LOG) this.log.show(true);
    return choice;
  }
}
