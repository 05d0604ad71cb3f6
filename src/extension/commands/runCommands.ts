/**
 * Commands that start, stop and revisit runs: Evolve, Evaluate, Start Code Search, Configure,
 * Cancel, Resume, Open Run Journal, Refresh Runs. Each accepts what its callers pass — a URI string from a code lens, a Uri
 * from the explorer, a Runs-view node — or nothing, and then asks or uses the active editor.
 */
import * as vscode from 'vscode';
import { CONTEXT_KEYS } from '../menuTable';
import { walkthroughStepDone } from '../walkthrough';
import { CancelRunRequest, CreateRunSpecRequest, ListRunsRequest, ResumeRunRequest, StartRunRequest } from '../../protocol/lsp';
import type { RunListEntry } from '../../protocol/lsp';
import type { CommandContext } from './context';
import { fileName } from '../../core/fileName';
import { RUN_SPEC_EXTENSION, isPromptPath, isRunSpecPath, promptExtensionsText } from '../../core/files/fileKinds';
import { showSearchProgress } from '../runs/runProgress';

/** The file a run command is about: its argument, else the active editor's file. */
export function fileArg(arg: unknown): vscode.Uri | undefined {
  if (typeof arg === 'string' && arg !== '') return vscode.Uri.parse(arg);
  if (arg instanceof vscode.Uri) return arg;
  const doc = vscode.window.activeTextEditor?.document;
  return doc && doc.uri.scheme === 'file' ? doc.uri : undefined;
}

/** A run id from a string argument or a Runs-view node. */
export function runIdArg(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg !== '') return arg;
  if (typeof arg === 'object' && arg !== null && typeof (arg as { runId?: unknown }).runId === 'string') return (arg as { runId: string }).runId;
  return undefined;
}

async function startRun(ctx: CommandContext, kind: 'evolve' | 'evaluate', arg: unknown): Promise<void> {
  const uri = fileArg(arg);
  const what = kind === 'evolve' ? 'Evolve' : 'Evaluate';
  if (!uri || !(isPromptPath(uri.path) || isRunSpecPath(uri.path))) {
    void vscode.window.showWarningMessage(`Ratchet: open a prompt file (${promptExtensionsText()}) or its *${RUN_SPEC_EXTENSION}, then run ${what} again.`);
    return;
  }
  const runId = await requestRun(ctx, what, uri, () => ctx.host.request(StartRunRequest, { uri: uri.toString(), kind }));
  if (runId === undefined) return;
  ctx.log.info(`Started ${kind} run ${runId} on ${uri.fsPath}.`);
  walkthroughStepDone(CONTEXT_KEYS.runStarted);
  ctx.panel.showRun(runId, vscode.workspace.asRelativePath(uri, false));
}

/**
 * A code search on the program in the active editor (or the one passed). Its progress, with
 * Cancel, is a notification (runs/searchProgress.ts); how it ended — the best score against the start — is
 * said when it ends (runNotices.ts); the panel opens on its Programs view. Each new best program is
 * offered inline like a prompt suggestion (or written, in autopilot); the run's journal has every program.
 */
async function startCodeSearch(ctx: CommandContext, arg: unknown): Promise<void> {
  const uri = fileArg(arg);
  if (!uri || isPromptPath(uri.path) || isRunSpecPath(uri.path)) {
    void vscode.window.showWarningMessage('Ratchet: open a program with EVOLVE-BLOCK regions (its spec beside it as <file>.ratchet.yaml, kind: code), then run Start Code Search again.');
    return;
  }
  const runId = await requestRun(ctx, 'Start Code Search', uri, () => ctx.host.request(StartRunRequest, { kind: 'search', uri: uri.toString() }));
  if (runId === undefined) return;
  ctx.log.info(`Started code search ${runId} on ${uri.fsPath}.`);
  ctx.panel.showRun(runId, vscode.workspace.asRelativePath(uri, false));
  void showSearchProgress(ctx.statuses, runId, `Ratchet: Searching ${fileName(uri.path)}`, () => ctx.host.request(CancelRunRequest, { runId }));
}

/** Saves the file (a run reads it from disk), then starts the run; undefined when the workspace's trust stopped it. */
async function requestRun(ctx: CommandContext, what: string, uri: vscode.Uri, start: () => Promise<{ runId: string }>): Promise<string | undefined> {
  // Unsaved edits would be silently left out of the baseline.
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open?.isDirty) await open.save();
  try {
    return (await start()).runId;
  } catch (err) {
    // In an untrusted workspace the server refuses runs that execute workspace code; the way out
    // is one click away.
    if (vscode.workspace.isTrusted || !(err instanceof Error) || err.name === 'ServerDownError') throw err;
    const manage = 'Manage Workspace Trust';
    void ctx.errors.report(what, err, [manage]).then((choice) => {
      if (choice === manage) void vscode.commands.executeCommand('workbench.trust.manage');
    });
    return undefined;
  }
}

/** Picks a run from the server's list (filtered), or undefined when the user backs out or none fits. */
async function pickRun(ctx: CommandContext, placeHolder: string, filter: (r: RunListEntry) => boolean, none: string): Promise<RunListEntry | undefined> {
  const { runs } = await ctx.host.request(ListRunsRequest, {});
  const candidates = runs.filter(filter);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(none);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((r) => ({
      label: r.target !== undefined ? fileName(r.target) : r.runId,
      description: `${r.status} · ${r.commits}/${r.candidates} committed`,
      detail: r.runId,
      run: r,
    })),
    { placeHolder, matchOnDetail: true },
  );
  return picked?.run;
}

export function runCommands(ctx: CommandContext) {
  return {
    evolve: (arg?: unknown) => startRun(ctx, 'evolve', arg),
    evaluate: (arg?: unknown) => startRun(ctx, 'evaluate', arg),
    startCodeSearch: (arg?: unknown) => startCodeSearch(ctx, arg),

    async configure(arg?: unknown): Promise<void> {
      const uri = fileArg(arg);
      if (!uri) {
        void vscode.window.showWarningMessage('Ratchet: open the prompt file to configure first.');
        return;
      }
      const result = await ctx.host.request(CreateRunSpecRequest, { uri: uri.toString() });
      await vscode.window.showTextDocument(vscode.Uri.parse(result.uri));
      if (!result.created) void vscode.window.showInformationMessage('Ratchet: this prompt already has a run spec; opened it.');
    },

    async cancelRun(arg?: unknown): Promise<void> {
      const runId = runIdArg(arg) ?? (await pickRun(ctx, 'Cancel which run?', (r) => r.hosted && r.status === 'running', 'Ratchet: no run is in progress in this window.'))?.runId;
      if (!runId) return;
      const { cancelled } = await ctx.host.request(CancelRunRequest, { runId });
      if (!cancelled) void vscode.window.showInformationMessage(`Ratchet: run ${runId} is not running here (it already ended, or another process hosts it).`);
    },

    async resumeRun(arg?: unknown): Promise<void> {
      const id = runIdArg(arg);
      const run = id !== undefined ? ctx.runsView.listedRuns().find((r) => r.runId === id) : await pickRun(ctx, 'Resume which interrupted run?', (r) => r.resumable, 'Ratchet: no interrupted run to resume.');
      const runId = id ?? run?.runId;
      if (!runId) return;
      // The server sends only the events after the journal's end: after a window reload the store
      // is empty, so the run's past comes from its journal first, or the panel shows half a run.
      if (run) await ctx.feed.load(run.workspace, runId);
      // The server resumes it as its run.json says: a prompt run, or a code search.
      const { runId: resumed } = await ctx.host.request(ResumeRunRequest, { runId });
      ctx.log.info(`Resumed run ${resumed}.`);
      ctx.panel.showRun(resumed);
    },

    async openJournal(arg?: unknown): Promise<void> {
      const id = runIdArg(arg);
      const listed = id !== undefined ? ctx.runsView.listedRuns().find((r) => r.runId === id) : undefined;
      const run = listed ?? (await pickRun(ctx, 'Open which run in the panel?', () => true, 'Ratchet: no runs yet under .ratchet/runs in this workspace.'));
      if (!run) return;
      await ctx.feed.load(run.workspace, run.runId);
      ctx.panel.showRun(run.runId);
    },

    refreshRuns: () => ctx.runsView.refresh(),
  };
}
