/**
 * Generate Dev Set: a prompt without a dataset gets one written by zero-data rounds in the run
 * daemon, as `ratchet gen-data` writes it. Before anything is paid for, an existing dev or test
 * file is Replace or Open Existing (never replaced silently); while it runs, a notification with
 * Cancel says the round and, first, the estimate; when it ends the dev set opens for review and the
 * message says where the held-out test split is. Errors (bad spec, no template variable, no model)
 * come back from the server located, and are shown with Open Log like any command's.
 */
import * as vscode from 'vscode';
import { fileName } from '../../core/fileName';
import { RUN_SPEC_EXTENSION, isPromptPath, isRunSpecPath, promptExtensionsText } from '../../core/files/fileKinds';
import { CancelRunRequest, DevSetPathsRequest, StartRunRequest } from '../../protocol/lsp';
import { CONTEXT_KEYS } from '../menuTable';
import { showRunProgress } from '../runs/runProgress';
import { OPEN_EXISTING, OPEN_TEST_SPLIT, REPLACE, devSetEnd, replaceQuestion } from '../runs/devSetText';
import { walkthroughStepDone } from '../walkthrough';
import type { CommandContext } from './context';
import { fileArg } from './runCommands';

async function generateDevSet(ctx: CommandContext, arg: unknown): Promise<void> {
  const uri = fileArg(arg);
  if (!uri || !(isPromptPath(uri.path) || isRunSpecPath(uri.path))) {
    void vscode.window.showWarningMessage(`Ratchet: open a prompt file (${promptExtensionsText()}) or its *${RUN_SPEC_EXTENSION}, then run Generate Dev Set again.`);
    return;
  }
  // The run reads the prompt from disk: unsaved edits would be left out of the tasks it writes.
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open?.isDirty) await open.save();

  const paths = await ctx.host.request(DevSetPathsRequest, { uri: uri.toString() });
  let replace = false;
  if (paths.existing.length > 0) {
    const { message, detail } = replaceQuestion(paths);
    const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, REPLACE, OPEN_EXISTING);
    if (choice === OPEN_EXISTING) {
      await showFile(ctx, paths.existing[0]!, uri);
      return;
    }
    if (choice !== REPLACE) return;
    replace = true;
  }

  const { runId, devSet } = await ctx.host.request(StartRunRequest, { kind: 'gen-data', uri: uri.toString(), overrides: { replace } });
  // A dev-set generation's start always says where it writes (its run-kind row); the paths asked above are the same files.
  const started = devSet ?? paths;
  ctx.log.info(`Started a dev-set generation, run ${runId}, on ${uri.fsPath}: ${vscode.Uri.parse(started.dev).fsPath} and ${vscode.Uri.parse(started.test).fsPath} when it ends.`);
  walkthroughStepDone(CONTEXT_KEYS.runStarted);
  ctx.panel.showRun(runId, vscode.workspace.asRelativePath(uri, false));
  const end = await showRunProgress(ctx.statuses, runId, `Ratchet: Generating a dev set for ${fileName(uri.path)}`, () => ctx.host.request(CancelRunRequest, { runId }), {
    done: (s) => (s.generated?.of ? s.generated.rounds / s.generated.of : undefined),
  });
  const warning = ctx.store.get(runId)?.state.logs.findLast((l) => l.level === 'warn')?.message;
  const said = devSetEnd(end, started, warning);
  if (!said) return;
  ctx.log.info(said.message);
  if (said.openDev) await showFile(ctx, started.dev, uri);
  const show = said.level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  // Not awaited: the command ends with the run, not when the user closes the message.
  void show(said.message, ...said.actions).then((choice) => {
    if (choice === OPEN_TEST_SPLIT) void showFile(ctx, started.test, uri);
  });
}

/**
 * In the prompt's editor group, kept open: the user reviews and edits it. When the prompt was in the
 * panel's own group, beside the panel instead, so the dev set never covers the panel (#29 item 1).
 */
async function showFile(ctx: CommandContext, file: string, prompt: vscode.Uri): Promise<void> {
  const column = ctx.panel.columnFor(vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === prompt.toString())?.viewColumn) ?? vscode.ViewColumn.One;
  await vscode.window.showTextDocument(vscode.Uri.parse(file), { viewColumn: column, preview: false });
}

export function genDataCommands(ctx: CommandContext): { generateDevSet: (arg?: unknown) => Promise<void> } {
  return { generateDevSet: (arg?: unknown) => generateDevSet(ctx, arg) };
}
