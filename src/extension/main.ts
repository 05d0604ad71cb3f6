/**
 * Extension entry point: starts the Ratchet language server over node IPC and owns every
 * disposable through `context.subscriptions`.
 */
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const serverModule = context.asAbsolutePath('out/server.js');
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6011'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', pattern: '**/*.prompt.md' },
      { scheme: 'file', pattern: '**/*.ratchet.yaml' },
    ],
    outputChannel: vscode.window.createOutputChannel('Ratchet', { log: true }),
  };
  client = new LanguageClient('ratchet', 'Ratchet', serverOptions, clientOptions);
  context.subscriptions.push(
    client,
    vscode.commands.registerCommand('ratchet.showRuns', () =>
      vscode.window.showInformationMessage('Ratchet: runs are listed by `ratchet runs list` until the Runs view lands.'),
    ),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
