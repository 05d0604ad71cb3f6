/**
 * Owns the language server's lifetime: start, stop, the user's restart, automatic restarts within
 * the policy, and the settings it is sent. Everything else reaches the server through `request` and
 * `notify`, which fail with `ServerDownError` (a message, not a silent no-op) while it is down.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RequestType } from 'vscode-jsonrpc';
import type { CancellationToken, LanguageClient } from 'vscode-languageclient/node';
import { SUGGESTION_COMMANDS } from '../../protocol/suggestionLenses';
import { LanguageModelRequest, RunEventNotification, RunStatusNotification, ServerStatusNotification, SuggestionChangedNotification } from '../../protocol/lsp';
import type { LanguageModelParams, LanguageModelResult, RatchetConfigurationChange, RunEventParams, RunStatusParams, ServerSettings, ServerStatusParams, SuggestionState } from '../../protocol/lsp';
import type { Config } from '../config';
import type { EditorErrors } from '../errors';
import type { ApiKeyStore } from '../secrets';
import { describeServerSettings, serverExecArgv, toServerSettings } from '../settings';
import type { ServerPhase } from '../views/statusText';
import { loadClientModule } from './lazyClient';
import { redactingChannel } from './redact';
import { LensRefresh } from './lensRefresh';
import { RestartPolicy } from './restartPolicy';
import { isAlive, ServerProcesses } from './serverProcess';
import { onNotification, onRequest, sendRequest } from './typedClient';

/** What the server pushes to the client; main.ts routes each to its owner. */
export interface ServerHandlers {
  onRunEvent(params: RunEventParams): void;
  onRunStatus(params: RunStatusParams): void;
  onSuggestionChanged(state: SuggestionState): void;
  onServerStatus(status: ServerStatusParams): void;
  onLanguageModel(params: LanguageModelParams, token: CancellationToken): Promise<LanguageModelResult>;
  /** The server is (again) up: state it held may have changed while the client was away. */
  onReady(): void;
}

export class ServerDownError extends Error {
  override readonly name = 'ServerDownError';
  constructor(readonly phase: ServerPhase) {
    super(`the Ratchet language server is ${phaseWords(phase)}`);
  }
}

export function phaseWords(phase: ServerPhase): string {
  switch (phase) {
    case 'starting':
      return 'still starting';
    case 'running':
      return 'running';
    case 'stopped':
      return 'stopped';
    case 'failed':
      return 'not running (it failed; see the log)';
  }
}

export const RESTART_SERVER = 'Restart Server';

export class ServerHost implements vscode.Disposable {
  private client: LanguageClient | undefined;
  /** The server's processes of the current client (serverProcess.ts). */
  private processes: ServerProcesses | undefined;
  private clientSubscriptions: vscode.Disposable[] = [];
  private currentPhase: ServerPhase = 'stopped';
  private readonly phaseEmitter = new vscode.EventEmitter<ServerPhase>();
  private readonly policy = new RestartPolicy();
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  /** The one door to VS Code's lens requests (lensRefresh.ts). */
  private readonly lenses = new LensRefresh(() => this.lensesChanged.fire());
  private readonly output: vscode.LogOutputChannel;
  private readonly trace: vscode.LogOutputChannel;
  /** The settings of the last send, for automatic restarts (initializationOptions is synchronous). */
  private lastSettings: ServerSettings | undefined;
  /** What the running server was last given (JSON): the same settings are not sent again. */
  private serverHas: string | undefined;

  readonly onDidChangePhase = this.phaseEmitter.event;
  /** The server's lenses (may) have changed: Ratchet's lens provider has VS Code ask again (server/lenses.ts). */
  readonly onDidChangeCodeLenses = this.lensesChanged.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly deps: {
      config: Config;
      apiKeys: ApiKeyStore;
      log: vscode.LogOutputChannel;
      traceChannel: vscode.LogOutputChannel;
      errors: EditorErrors;
      handlers: ServerHandlers;
    },
  ) {
    this.output = redactingChannel(deps.log, () => deps.apiKeys.known());
    this.trace = redactingChannel(deps.traceChannel, () => deps.apiKeys.known());
  }

  get phase(): ServerPhase {
    return this.currentPhase;
  }

  get running(): boolean {
    return this.currentPhase === 'running';
  }

  /** Settles once the server runs (true) or has given up starting (false). */
  whenRunning(): Promise<boolean> {
    if (this.running) return Promise.resolve(true);
    if (this.currentPhase === 'failed') return Promise.resolve(false);
    return new Promise((resolve) => {
      const watch = this.phaseEmitter.event((phase) => {
        if (phase !== 'running' && phase !== 'failed') return;
        watch.dispose();
        resolve(phase === 'running');
      });
    });
  }

  async start(): Promise<void> {
    if (this.client) return;
    this.setPhase('starting');
    // The key comes from the secret store, a round trip to the window, which took 1.5 s while a
    // reloaded window restored itself. The server does not wait for it: it starts with every
    // setting but the key and gets the key as a settings change before the phase turns 'running',
    // so nothing here can start a run without it (the lenses need no key and come sooner). The
    // client library loads in a later turn of the event loop, once activate() has returned, so its
    // ~100 ms never count against the extension's activation (lazyClient.ts).
    let firstRead: Promise<ServerSettings> | undefined = this.settingsNow();
    await new Promise<void>((resolve) => setImmediate(resolve));
    // Another start got here first (two calls within a turn): it starts the one server.
    if (this.client || this.processes) return;
    // The server's process is forked now, once activate() has returned, and boots while the client
    // library loads (serverProcess.ts).
    const processes = new ServerProcesses({
      module: this.context.asAbsolutePath('out/server.js'),
      execArgv: serverExecArgv(this.deps.config.settings),
      // Node keeps the code it compiled from the server's 1.8 MB bundle here, in this user's own
      // storage, and the next start (every window reload) reads it instead of compiling again
      // (bench:bundles: 538 → 354 ms median on an idle machine; more while a reload loads the CPU).
      env: { NODE_COMPILE_CACHE: join(this.context.globalStorageUri.fsPath, 'node-compile-cache') },
    });
    this.processes = processes;
    processes.ahead();
    const { createLanguageClient, State } = loadClientModule();
    const withoutKey = toServerSettings(this.deps.config.settings, { apiKey: undefined, trusted: vscode.workspace.isTrusted });
    const client = createLanguageClient({
      // The process forked above for the first start, a fresh one for each automatic restart.
      serverProcess: () => processes.take(),
      initializationOptions: () => {
        const now = this.lastSettings ?? withoutKey;
        this.serverHas = JSON.stringify(now);
        return { settings: now };
      },
      outputChannel: this.output,
      traceOutputChannel: this.trace,
      policy: this.policy,
      onGaveUp: (message) => {
        this.setPhase('failed');
        void this.offerRestart(message);
      },
    });
    this.client = client;
    const h = this.deps.handlers;
    this.clientSubscriptions = [
      onNotification(client, RunEventNotification, (p) => h.onRunEvent(p)),
      onNotification(client, RunStatusNotification, (p) => h.onRunStatus(p)),
      // No lens of this client's depends on a suggestion (it draws those as links: codeLenses).
      onNotification(client, SuggestionChangedNotification, (s) => h.onSuggestionChanged(s)),
      onNotification(client, ServerStatusNotification, (s) => h.onServerStatus(s)),
      onRequest(client, LanguageModelRequest, (p, token) => h.onLanguageModel(p, token)),
      client.onDidChangeState((e) => {
        if (client !== this.client) return;
        if (e.newState === State.Running) {
          // Its lenses need no settings sent first: VS Code asks for them now.
          this.refreshCodeLenses();
          // What the server started with may be out of date (the key read meanwhile, remote user
          // settings arriving late in code-server, a key stored): only a change is sent, and the
          // phase turns 'running' once it is.
          const read = firstRead ?? this.settingsNow();
          firstRead = undefined;
          const warn = (err: unknown) => this.deps.log.warn('Sending settings:', err instanceof Error ? err : String(err));
          void read
            .then((settings) => {
              this.lastSettings = settings;
              return this.sendSettingsTo(client, settings);
            })
            .catch(warn)
            .finally(() => {
              if (client !== this.client || !client.isRunning()) return;
              this.setPhase('running');
              h.onReady();
              // A change read while the server started went only into lastSettings (sendSettings).
              if (this.lastSettings !== undefined) void this.sendSettingsTo(client, this.lastSettings).catch(warn);
            });
        } else if (e.newState === State.Starting) this.setPhase('starting');
        else {
          if (this.currentPhase !== 'failed') this.setPhase('stopped');
          // A server that stopped has no lenses (codeLenses): VS Code is to take them away.
          this.refreshCodeLenses();
        }
      }),
    ];
    try {
      await client.start();
    } catch (err) {
      processes.dropUnclaimed();
      this.setPhase('failed');
      this.deps.log.error('Starting the Ratchet language server failed:', err instanceof Error ? err : String(err));
      void this.offerRestart('Ratchet: the language server did not start. Open the log to see why, then restart it.');
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    const processes = this.processes;
    this.client = undefined;
    this.processes = undefined;
    while (this.clientSubscriptions.length > 0) this.clientSubscriptions.pop()?.dispose();
    this.setPhase('stopped');
    if (client) this.refreshCodeLenses();
    // A process forked for a start the client never made (stopped while the library loaded).
    processes?.dropUnclaimed();
    const child = processes?.current;
    if (!client) return;
    try {
      // dispose() = stop() and forget: the server gets shutdown/exit and ends its process.
      await client.dispose(5_000);
    } catch (err) {
      // A client that never got running rejects stop(); there is nothing left to stop then.
      this.deps.log.warn('Stopping the language server:', err instanceof Error ? err : String(err));
    } finally {
      // One that outlives its shutdown by 2 s is killed, as the library kills a process it forked.
      if (child) setTimeout(() => isAlive(child) && child.kill('SIGKILL'), 2_000).unref();
    }
  }

  /** The user's restart (command or message action): a fresh restart budget and fresh settings. */
  async restart(): Promise<void> {
    this.policy.reset();
    await this.stop();
    await this.start();
  }

  /** Sends the current settings (after a settings, key or trust change), unless the server has them already. */
  async sendSettings(): Promise<void> {
    this.lastSettings = await this.settingsNow();
    // A server starting or restarting gets them once it runs (or with its initialization options).
    if (this.client && this.running) await this.sendSettingsTo(this.client, this.lastSettings);
  }

  private async sendSettingsTo(client: LanguageClient, settings: ServerSettings): Promise<void> {
    if (client !== this.client || JSON.stringify(settings) === this.serverHas) return;
    const change: RatchetConfigurationChange = { settings };
    this.serverHas = JSON.stringify(settings);
    await client.sendNotification(loadClientModule().DidChangeConfigurationNotification.type, change);
    // The Evolve lens's tooltip names the models, the code search lens says whether the workspace is trusted.
    this.refreshCodeLenses();
  }

  /** Tells VS Code that Ratchet's lenses (may) have changed: the settings, the server's start or stop. */
  refreshCodeLenses(): void {
    this.lenses.changed();
  }

  /** VS Code asked for a file's lenses: it has every change told so far (lensRefresh.ts). */
  lensesAsked(): void {
    this.lenses.asked();
  }

  /**
   * The server's lenses for a file, as VS Code draws them (Ratchet's lens provider asks here): none
   * while it is not running; a pending suggestion's left out (this client draws those as links in
   * the change, their keys in the links' tooltips: review/commandLinks.ts).
   */
  async codeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    const client = this.client;
    if (!client?.isRunning()) return [];
    let lenses: vscode.CodeLens[] | undefined;
    try {
      const found = await sendRequest(client, loadClientModule().CodeLensRequest.type, client.code2ProtocolConverter.asCodeLensParams(document), token);
      lenses = token.isCancellationRequested ? undefined : await client.protocol2CodeConverter.asCodeLenses(found, token);
    } catch (err) {
      // A window that reloads or closes stops the server while VS Code still has a request out; no
      // one waits for its answer then.
      if (client !== this.client || !client.isRunning()) return [];
      throw err;
    }
    return (lenses ?? []).filter((lens) => !(lens.command && SUGGESTION_COMMANDS.includes(lens.command.command)));
  }

  async request<P, R, E>(type: RequestType<P, R, E>, params: NoInfer<P>, token?: vscode.CancellationToken): Promise<R> {
    const client = this.client;
    if (!client || !this.running) throw new ServerDownError(this.currentPhase);
    return sendRequest(client, type, params, token);
  }

  dispose(): void {
    this.lenses.dispose();
    this.lensesChanged.dispose();
    void this.stop();
    this.phaseEmitter.dispose();
  }

  private async settingsNow(): Promise<ServerSettings> {
    const settings = toServerSettings(this.deps.config.settings, { apiKey: await this.deps.apiKeys.get(), trusted: vscode.workspace.isTrusted });
    this.deps.log.info(`Server settings: ${describeServerSettings(settings)}`);
    return settings;
  }

  private setPhase(phase: ServerPhase): void {
    if (phase === this.currentPhase) return;
    this.currentPhase = phase;
    this.phaseEmitter.fire(phase);
  }

  private async offerRestart(message: string): Promise<void> {
    const choice = await this.deps.errors.show('error', message, [RESTART_SERVER]);
    if (choice === RESTART_SERVER) await this.restart();
  }
}
