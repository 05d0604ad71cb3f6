/**
 * Convert to Skill (#31): writes `.github/skills/<name>/SKILL.md` in the prompt's workspace folder
 * from a Copilot prompt file, the way VS Code's migration maps it (core/prompt/toSkill.ts), with
 * the prompt's run spec beside it (paths rebased), as one workspace edit.
 * Then it offers Evaluate on both files, so the user sees whether the conversion kept the quality
 * before deleting anything: the prompt file is left as it was.
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as vscode from 'vscode';
import { fileStem, kindFileName, promptKindOf } from '../../core/files/fileKinds';
import { parsePromptFile } from '../../core/prompt/promptFile';
import { rebaseSpecText, skillFromPrompt } from '../../core/prompt/toSkill';
import { planSidecarMove } from '../../core/setup/sidecarMove';
import { sidecarPathFor } from '../../core/setup/specSource';
import { commandId } from '../commandTable';
import type { CommandContext } from './context';
import { fileArg } from './runCommands';

const EVALUATE_BOTH = 'Evaluate Both';
const OPEN_EXISTING = 'Open Existing';

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

async function convertToSkill(ctx: CommandContext, arg: unknown): Promise<void> {
  const uri = fileArg(arg);
  if (!uri || promptKindOf(uri.fsPath) !== 'prompt-md') {
    void vscode.window.showWarningMessage('Ratchet: open a prompt file (*.prompt.md), then run Convert to Skill again.');
    return;
  }
  const promptPath = uri.fsPath;
  const text = await readText(uri);
  if (text === undefined) throw new Error(`Could not read ${promptPath}.`);
  const conversion = skillFromPrompt(parsePromptFile(promptPath, text), fileStem(promptPath));
  const root = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? dirname(promptPath);
  const skillPath = join(root, '.github', 'skills', conversion.name, kindFileName('skill'));
  const skillUri = vscode.Uri.file(skillPath);
  if ((await readText(skillUri)) !== undefined) {
    const choice = await vscode.window.showWarningMessage(`Ratchet: ${vscode.workspace.asRelativePath(skillUri)} already exists; Convert to Skill does not replace it.`, OPEN_EXISTING);
    if (choice === OPEN_EXISTING) await vscode.window.showTextDocument(skillUri);
    return;
  }

  // The run spec comes along, its paths now relative to the skill's folder.
  const specText = (await readText(vscode.Uri.file(sidecarPathFor(promptPath)))) ?? planSidecarMove(promptPath, text, undefined)?.text;
  const rebase = (p: string) =>
    relative(dirname(skillPath), resolve(dirname(promptPath), p))
      .split(sep)
      .join('/');
  const edit = new vscode.WorkspaceEdit();
  edit.createFile(skillUri, { contents: new TextEncoder().encode(conversion.skillText) });
  if (specText !== undefined) edit.createFile(vscode.Uri.file(sidecarPathFor(skillPath)), { contents: new TextEncoder().encode(rebaseSpecText(specText, rebase)) });
  if (!(await vscode.workspace.applyEdit(edit, { isRefactoring: false }))) throw new Error(`The editor did not write ${skillPath}.`);
  ctx.log.info(`Converted ${promptPath} to ${skillPath}.`);
  await vscode.window.showTextDocument(skillUri, { preview: false });

  const notes = [
    conversion.omitted.length > 0 ? `not copied: ${conversion.omitted.join(', ')}` : undefined,
    conversion.descriptionFromBody ? 'its description is the prompt’s first line: make it say when to use the skill' : undefined,
    specText === undefined ? 'the prompt has no run spec, so Configure it first to evaluate' : undefined,
  ].filter((n): n is string => n !== undefined);
  const message = `Ratchet: wrote skill ${conversion.name}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}. Evaluate both to see whether the conversion kept the quality.`;
  const choice = await vscode.window.showInformationMessage(message, ...(specText === undefined ? [] : [EVALUATE_BOTH]));
  if (choice !== EVALUATE_BOTH) return;
  await vscode.commands.executeCommand(commandId('evaluate'), uri.toString());
  await vscode.commands.executeCommand(commandId('evaluate'), skillUri.toString());
}

export function skillCommands(ctx: CommandContext) {
  return {
    convertToSkill: (arg?: unknown) => convertToSkill(ctx, arg),
  };
}
