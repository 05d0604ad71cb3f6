/**
 * Extension entry point: builds each part once, hands it its dependencies, and gives every
 * disposable an owner (`context.subscriptions`). The language server starts last, so the commands,
 * views and panel it feeds already listen when its first notification arrives.
 */
import * as vscode from 'vscode';
import { ListSuggestionsRequest } from '../protocol/lsp';
import type { CommandContext } from './commands/context';
import { registerCommands } from './commands';
import { commandId } from './commandTable';
import { Config } from './config';
import { CONTEXT_KEYS } from './menuTable';
import { EditorErrors } from './errors';
import { answerLanguageModel } from './lm/languageModel';
import { RunStore, registerPanel } from './panel';
import { registerProvenance } from './provenance';
import { InlineReview } from './review/inlineReview';
import { registerLenses } from './server/lenses';
import { editorJournals } from './runs/journalFiles';
import { RunFeed } from './runs/runFeed';
import { ResumeOffers } from './runs/resumeOffers';
import { endNotice, runNotice } from './runs/runNotices';
import type { RunNotice } from './runs/runNotices';
import { RunStatuses } from './runs/runStatuses';
import { undoneChanges } from './runs/undoneEdits';
import { ApiKeyStore } from './secrets';
import { ServerHost } from './server/serverHost';
import { RunsView } from './views/runsView';
import { EvolveBlockDecorations } from './views/evolveBlocks';
import { StatusBar } from './views/statusBar';
import { isClaimedByName, isPromptPath } from '../core/files/fileKinds';
import { waitsOnlyForYou } from '../core/journal/runStatus';
import { registerMcpServer } from './agents/mcpProvider';

let host: ServerHost | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('Ratchet', { log: true });
  const traceChannel = vscode.window.createOutputChannel('Ratchet Trace', { log: true });
  const errors = new EditorErrors(log);
  const config = new Config();
  const apiKeys = new ApiKeyStore(context.secrets);
  const store = new RunStore();
  const statuses = new RunStatuses();
  const feed = new RunFeed(store, editorJournals, log);
  const review = new InlineReview(context.workspaceState);
  context.subscriptions.push(log, traceChannel, review, new EvolveBlockDecorations());

  const statusBar = new StatusBar(store, statuses);
  // The panel header learns from the daemon's status which runs wait only for the user's answer (it offers no Cancel then).
  const stopFollowingWaits = statuses.onChange(() =>
    store.setWaitsOnlyForYou(
      statuses
        .live()
        .filter((p) => waitsOnlyForYou(p.status))
        .map((p) => p.status.runId),
    ),
  );
  context.subscriptions.push(statusBar, { dispose: stopFollowingWaits });
  const serverHost = new ServerHost(context, {
    config,
    apiKeys,
    log,
    traceChannel,
    errors,
    handlers: {
      onRunEvent: (p) => {
        feed.onRunEvent(p);
        tell(runNotice(p));
      },
      onRunStatus: (p) => {
        const previous = statuses.get(p.status.runId)?.status;
        statuses.set(p);
        tell(endNotice(p, previous));
      },
      onSuggestionChanged: (s) => review.update(s),
      onServerStatus: (status) => {
        statusBar.setHealth(status);
        log[status.health === 'ok' ? 'info' : status.health === 'warning' ? 'warn' : 'error'](`Server: ${status.message}`);
        if (status.health === 'error') void errors.show('error', `Ratchet: the language server reported a problem — ${status.message}`);
        // Interrupted runs: one just stopped (its process died; the server warns), or the window
        // opened on a workspace that has some. The Runs view, status bar and panel say so too.
        if (status.resumable) void resumeOffers.offer(status.resumable, status.health === 'warning');
      },
      onLanguageModel: (params, token) => answerLanguageModel(params, token, log),
      onReady: () => void afterReady(),
    },
  });
  host = serverHost;
  // What waited for the user's answer when the window went away is drawn again now, Accept and
  // Reject with it, not once the server is back.
  review.restore();
  // Every lens of the server's, from one provider registered now (server/lenses.ts).
  context.subscriptions.push(serverHost, registerLenses(serverHost));

  const runsView = new RunsView({ store, statuses, host: serverHost, feed, errors });
  const resumeOffers = new ResumeOffers(runsView, context.workspaceState);
  context.subscriptions.push(
    runsView,
    serverHost.onDidChangePhase((phase) => {
      // A status not over is the word of the server that relayed it; the next one re-sends those still going.
      if (phase !== 'running') statuses.forgetLive();
      // A server that did not start cannot say whether the last session's suggestions still wait.
      if (phase === 'failed') review.dropUnconfirmed();
      statusBar.setPhase(phase);
    }),
    runsView.onDidList((runs) => {
      // The panel's Resume button and the status bar follow the server's list (events alone
      // cannot tell an interrupted run from one still going, and a run whose daemon died gets no
      // last status).
      store.setInterrupted(runs.filter((r) => r.status === 'interrupted'));
      statuses.settle(runs);
    }),
  );

  const panel = registerPanel(context, {
    store,
    // Through the commands, so the panel's buttons get the same server-down and error handling.
    cancelRun: async (runId) => void (await vscode.commands.executeCommand(commandId('cancelRun'), runId)),
    resumeRun: async (runId) => void (await vscode.commands.executeCommand(commandId('resumeRun'), runId)),
    loadRun: async (runId) =>
      void (await feed.loadFromFolders(
        (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
        runId,
      )),
    statuses,
    log,
  });
  const ctx: CommandContext = { extension: context, host: serverHost, config, apiKeys, errors, log, store, feed, statuses, review, runsView, panel };
  context.subscriptions.push(...registerCommands(ctx));
  context.subscriptions.push(...registerProvenance(log, store));
  // Agents (Copilot's agent mode, any MCP-aware chat) find `ratchet mcp` without setup.
  context.subscriptions.push(registerMcpServer(context, config));

  context.subscriptions.push(
    config.onDidChange((change) => {
      if (change.restart) void serverHost.restart();
      else void serverHost.sendSettings();
    }),
    apiKeys.onDidChange(() => void serverHost.sendSettings()),
    // Trust is granted once and never revoked without a reload: the server may now run command scorers.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void serverHost.sendSettings()),
    // For the walkthrough's "open the example" step.
    vscode.window.onDidChangeActiveTextEditor((e) => setPromptFileOpen(e)),
  );
  setPromptFileOpen(vscode.window.activeTextEditor);

  // An applied edit the user took back (Ctrl+Z) is said to be undone by every label; looked at
  // when the file changes or opens, and when a run's edit lands (or its journal is read after a reload).
  const noteUndone = (doc: vscode.TextDocument): void => {
    if (doc.uri.scheme === 'file') store.appendAll(undoneChanges(store, doc.uri.fsPath, () => doc.getText(), Date.now()));
  };
  const stopNotingApplied = store.onEvent((_runId, e) => {
    // After the store's listeners have all heard of the edit, not in the middle of telling them.
    if (e.type === 'edit/applied') queueMicrotask(() => vscode.workspace.textDocuments.forEach(noteUndone));
  });
  context.subscriptions.push(
    vscode.workspace.onDidChangeTextDocument((e) => noteUndone(e.document)),
    vscode.workspace.onDidOpenTextDocument(noteUndone),
    { dispose: stopNotingApplied },
  );

  function tell(notice: RunNotice | undefined): void {
    if (!notice) return;
    if (notice.show && notice.level === 'error') {
      log.error(notice.message);
      const actions = notice.actions ?? [];
      void errors
        .show(
          'error',
          notice.message,
          actions.map((a) => a.title),
        )
        .then((choice) => {
          const picked = actions.find((a) => a.title === choice);
          if (picked) void vscode.commands.executeCommand(commandId(picked.command));
        });
    } else {
      log.info(notice.message);
      if (notice.show) void vscode.window.showInformationMessage(notice.message);
    }
  }

  /** After every (re)start: the server's suggestions and hosted runs may have moved on without us. */
  async function afterReady(): Promise<void> {
    try {
      review.reset((await serverHost.request(ListSuggestionsRequest, {})).suggestions);
      await runsView.refresh();
      for (const run of runsView.listedRuns()) if (run.hosted && !feed.has(run.runId)) await feed.load(run.workspace, run.runId);
    } catch (err) {
      log.warn('Catching up with the server after its start:', err instanceof Error ? err : String(err));
    }
  }

  // Not awaited: activation (and the commands it gates) should not wait on the server's start.
  void serverHost.start();
}

/** The walkthrough's "open a prompt file" step: a file that is a prompt by its name alone. */
function setPromptFileOpen(editor: vscode.TextEditor | undefined): void {
  const path = editor?.document.uri.path;
  void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.promptFileOpen, path !== undefined && isPromptPath(path) && isClaimedByName(path));
}

export async function deactivate(): Promise<void> {
  await host?.stop();
  host = undefined;
}
