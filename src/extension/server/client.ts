/**
 * Builds the LanguageClient for the Ratchet server: node IPC, the documents it serves, log
 * channels that scrub the API key, and an error handler that bounds restarts (restartPolicy.ts)
 * and hands the give-up message to the host instead of letting the library show its own.
 * Bundled on its own as out/languageClient.js and loaded lazily (lazyClient.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type * as vscode from 'vscode';
import { CloseAction, ErrorAction, IPCMessageReader, IPCMessageWriter, LanguageClient, RevealOutputChannelOn } from 'vscode-languageclient/node';
import type { ErrorHandler, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import { BY_NAME_GLOBS, PROGRAM_GLOB } from '../../core/files/fileKinds';
import type { RatchetInitializationOptions } from '../../protocol/lsp';
import { keyTooltip } from '../keyTable';
import { gaveUpMessage, keepConnection } from './restartPolicy';
import type { RestartPolicy } from './restartPolicy';

// What the rest of the extension needs from the library at run time, from this one copy of it
// (a ResponseError from another copy of vscode-jsonrpc would not be recognised as one).
export { DidChangeConfigurationNotification, ResponseError, State } from 'vscode-languageclient/node';

/** The files the server answers for, on disk: prompt files and run specs that are Ratchet's by name, and source files that may hold EVOLVE-BLOCK markers. */
export const DOCUMENT_SELECTOR = [...BY_NAME_GLOBS, PROGRAM_GLOB].map((pattern) => ({ scheme: 'file', pattern }));

export interface ClientSetup {
  /**
   * The server's process for each (re)start: the one forked when the start began, then a fresh one
   * (serverProcess.ts).
   */
  serverProcess(): ChildProcess;
  /** Called on every (re)start, so an automatic restart sends the settings of that moment. */
  initializationOptions: () => RatchetInitializationOptions;
  /** Both already scrub secrets, and take no line once VS Code has closed them (redact.ts). */
  outputChannel: vscode.LogOutputChannel;
  traceOutputChannel: vscode.LogOutputChannel;
  policy: RestartPolicy;
  /** The policy gave up: the host tells the user (with Restart / Open Log). */
  onGaveUp(message: string): void;
  /** A lens of the server's that the editor leaves out (its suggestion is being answered here). */
  hidesLens(command: vscode.Command): boolean;
  /**
   * The file's lenses are the restored suggestion's alone until the server has confirmed it
   * (restoredLenses.ts), so the server is not asked for them: VS Code draws no lens of a file until
   * every provider has answered, and a server still starting would hold the restored ones back.
   * Its other lenses for the file come when the confirmation has VS Code ask again.
   */
  onlyRestoredLenses(uri: string): boolean;
  /** VS Code asked for a file's lenses (lensRefresh.ts). */
  lensesAsked(): void;
}

export function createLanguageClient(setup: ClientSetup): LanguageClient {
  // Node IPC to a process forked by the host (serverProcess.ts); its stdout and stderr go to the
  // log line by line, as the library does with a process it forks itself.
  const serverOptions: ServerOptions = async () => {
    const child = setup.serverProcess();
    const out = setup.outputChannel;
    if (child.stdout) createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => out.info(line));
    if (child.stderr) createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', (line) => out.error(line));
    child.once('exit', (code, signal) => (code === 0 ? out.info('Server process exited successfully') : out.error(`Server process exited with ${signal === null ? `code ${code}` : `signal ${signal}`}.`)));
    return { reader: new IPCMessageReader(child), writer: new IPCMessageWriter(child) };
  };
  const errorHandler: ErrorHandler = {
    error: (_error, _message, count) => ({ action: keepConnection(count) ? ErrorAction.Continue : ErrorAction.Shutdown, handled: true }),
    closed: () => {
      const verdict = setup.policy.onClosed();
      if (verdict.restart) {
        setup.outputChannel.warn(`The language server connection closed; restarting it (attempt ${verdict.attempt}).`);
        return { action: CloseAction.Restart, handled: true };
      }
      setup.onGaveUp(gaveUpMessage(verdict));
      return { action: CloseAction.DoNotRestart, handled: true };
    },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: setup.outputChannel,
    traceOutputChannel: setup.traceOutputChannel,
    initializationOptions: setup.initializationOptions,
    errorHandler,
    // The host decides what the user sees; the library's own popups would double every message.
    initializationFailedHandler: () => false,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    middleware: {
      // The lenses of a suggestion being answered are left out (`hidesLens`); the server drops them
      // itself once it has the answer.
      // The server's lens titles name no keys (any LSP client may show them); VS Code's users see
      // the keys this extension binds, as the Keyboard Shortcuts editor lists them, in the tooltip.
      provideCodeLenses: async (document, token, next) => {
        setup.lensesAsked();
        if (setup.onlyRestoredLenses(document.uri.toString())) return [];
        const lenses = (await unlessStopping(() => next(document, token)))?.filter((lens) => !(lens.command && setup.hidesLens(lens.command)));
        for (const lens of lenses ?? []) {
          const tooltip = lens.command && keyTooltip(lens.command.title, lens.command.command, process.platform === 'darwin');
          if (lens.command && tooltip !== undefined) lens.command.tooltip = tooltip;
        }
        return lenses;
      },
      provideCodeActions: (document, range, context, token, next) => unlessStopping(() => next(document, range, context, token)),
    },
  };
  // A window that reloads or closes stops the server while the editor still has requests out (it
  // asks for code actions as it goes); they fail, and the library rethrows the failure: each was
  // "provider FAILED" in the extension host's log at every reload. A request that fails because the
  // client is stopping has no answer anyone waits for: none.
  const unlessStopping = async <T>(ask: () => T | Thenable<T>): Promise<T | undefined> => {
    try {
      return await ask();
    } catch (err) {
      if (!client.isRunning()) return undefined;
      throw err;
    }
  };
  const client = new LanguageClient('ratchet', 'Ratchet Language Server', serverOptions, clientOptions);
  // The server is not to ask for lens refreshes: the host tells VS Code itself, through one door
  // that does not put VS Code's next lens request back with every change (lensRefresh.ts). This
  // runs after the library's code lens feature has said it supports them.
  client.registerFeature({
    fillClientCapabilities: (capabilities) => {
      capabilities.workspace ??= {};
      capabilities.workspace.codeLens = { ...capabilities.workspace.codeLens, refreshSupport: false };
    },
    initialize: () => undefined,
    getState: () => ({ kind: 'static' }),
    clear: () => undefined,
  });
  return client;
}

/** Tells VS Code that the lenses of these documents changed: each provider once. */
export function refreshCodeLenses(client: LanguageClient, documents: readonly vscode.TextDocument[]): void {
  const codeLens = client.getFeature('textDocument/codeLens');
  const providers = new Set(documents.map((doc) => codeLens.getProvider(doc)).filter((p) => p !== undefined));
  for (const provider of providers) provider.onDidChangeCodeLensEmitter.fire();
}
