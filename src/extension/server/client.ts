/**
 * Builds the LanguageClient for the Ratchet server: node IPC, the documents it serves, log
 * channels that scrub the API key, and an error handler that bounds restarts (restartPolicy.ts)
 * and hands the give-up message to the host instead of letting the library show its own.
 * Bundled on its own as out/languageClient.js and loaded lazily (lazyClient.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type * as vscode from 'vscode';
import { CloseAction, CodeLensRequest, ErrorAction, IPCMessageReader, IPCMessageWriter, LanguageClient, RevealOutputChannelOn } from 'vscode-languageclient/node';
import type { ErrorHandler, LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import type { DynamicFeature, StaticFeature } from 'vscode-languageclient/node';
import type { RatchetInitializationOptions } from '../../protocol/lsp';
import { DOCUMENT_SELECTOR } from './documentSelector';
import { gaveUpMessage, keepConnection } from './restartPolicy';
import type { RestartPolicy } from './restartPolicy';

// What the rest of the extension needs from the library at run time, from this one copy of it
// (a ResponseError from another copy of vscode-jsonrpc would not be recognised as one).
export { CodeLensRequest, DidChangeConfigurationNotification, ResponseError, State } from 'vscode-languageclient/node';

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
  const client = new LanguageClientWithoutLenses('ratchet', 'Ratchet Language Server', serverOptions, clientOptions);
  return client;
}

/**
 * The library's code lens feature is left out: the extension has one lens provider of its own from
 * activation on (server/lenses.ts), which asks the server through ServerHost.codeLenses. The
 * library's registered a second provider as the server started, and VS Code, on any provider
 * registering, redraws a file's lenses as text without links until its next request — seconds
 * after a reload. Without the feature the client also declares no lens refresh support, so the
 * server never asks for one: the host tells VS Code itself (lensRefresh.ts).
 */
class LanguageClientWithoutLenses extends LanguageClient {
  // Called by the library's constructor for each feature it has built in.
  override registerFeature(feature: StaticFeature | DynamicFeature<unknown>): void {
    if ('registrationType' in feature && feature.registrationType === CodeLensRequest.type) return;
    super.registerFeature(feature);
  }
}
