/**
 * Ratchet's one code lens provider, registered at activation and never replaced: the server's
 * lenses (ServerHost.codeLenses), none while it is not running. VS Code redraws every editor's
 * lenses from a copy without links (a click does nothing) whenever a lens provider registers, until
 * its next request; when the language client registered its own provider as the server started,
 * a reloaded window's lenses were inert for 2–5 s (bench:editor), so the client's lens feature is
 * left out (client.ts) and its lenses come through here.
 */
import * as vscode from 'vscode';
import { DOCUMENT_SELECTOR } from './documentSelector';

/** The server's side of the lenses (ServerHost). */
export interface ServerLenses {
  codeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]>;
  /** VS Code asked for a file's lenses: it has every change told so far (lensRefresh.ts). */
  lensesAsked(): void;
  /** The server's lenses (may) have changed: VS Code is to ask again. */
  readonly onDidChangeCodeLenses: vscode.Event<void>;
}

export function registerLenses(server: ServerLenses): vscode.Disposable {
  return vscode.languages.registerCodeLensProvider(DOCUMENT_SELECTOR, {
    onDidChangeCodeLenses: server.onDidChangeCodeLenses,
    provideCodeLenses: (doc, token) => {
      server.lensesAsked();
      return server.codeLenses(doc, token);
    },
  });
}
