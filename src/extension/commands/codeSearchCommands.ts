/**
 * Configure Code Search and Test Evaluator, for a program with EVOLVE-BLOCK markers.
 *
 * Configure asks three things — the evaluator command (with {program} and {results}), the gate,
 * the budget — and writes the commented `<file>.ratchet.yaml` (core/code/specTemplate.ts) through a
 * workspace edit, so it can be undone; then it offers Test Evaluator. Test Evaluator saves the
 * program and asks the language server to run the evaluator once on it in the sandbox (the server
 * refuses in an untrusted workspace; here the user is offered Manage Workspace Trust first).
 */
import * as vscode from 'vscode';
import { commandFileWords, isBesideName } from '../../core/code/commandFiles';
import { codeSpecTemplate, evaluatorFiles, suggestedCommand } from '../../core/code/specTemplate';
import { fileName } from '../../core/fileName';
import { CODE_GATES, gateRow } from '../../core/gates/gateTable';
import type { CodeGateName } from '../../core/gates/gateTable';
import { RUN_SPEC_EXTENSION, RUN_SPEC_EXTENSIONS, isPromptPath, isRunSpecPath } from '../../core/files/fileKinds';
import { TestEvaluatorRequest } from '../../protocol/lsp';
import type { CommandContext } from './context';
import { fileArg } from './runCommands';
import { testEvaluatorReport } from './testEvaluatorText';

const MANAGE_TRUST = 'Manage Workspace Trust';
const TEST_EVALUATOR = 'Test Evaluator';

/** Budgets offered: proposals (LLM calls that write a child) and evaluator runs. */
const BUDGETS = [
  { label: 'Short', proposals: 20, evaluations: 60, detail: 'a first look: does the search find anything?' },
  { label: 'Standard', proposals: 100, evaluations: 300, detail: 'the default search length' },
  { label: 'Long', proposals: 400, evaluations: 1200, detail: 'for a task where each step is small' },
] as const;

function programArg(arg: unknown): vscode.Uri | undefined {
  const uri = fileArg(arg);
  if (!uri || uri.scheme !== 'file' || isPromptPath(uri.path) || isRunSpecPath(uri.path)) {
    void vscode.window.showWarningMessage('Ratchet: open a program with EVOLVE-BLOCK-START / EVOLVE-BLOCK-END lines first.');
    return undefined;
  }
  return uri;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** Files beside the program that look like its evaluator (specTemplate's `evaluatorFiles`), best first. */
async function evaluatorFilesBeside(program: vscode.Uri): Promise<string[]> {
  const dir = vscode.Uri.joinPath(program, '..');
  const entries = await vscode.workspace.fs.readDirectory(dir).then(undefined, () => [] as [string, vscode.FileType][]);
  return evaluatorFiles(
    entries.filter(([, type]) => type === vscode.FileType.File).map(([name]) => name),
    fileName(program.path),
  );
}

/** Words of the command that name files beside the program: the evaluator's own files, copied into the sandbox. */
async function supportFilesOf(program: vscode.Uri, command: string): Promise<string[]> {
  const found: string[] = [];
  for (const w of commandFileWords(command, fileName(program.path))) if (isBesideName(w) && (await exists(vscode.Uri.joinPath(program, '..', w)))) found.push(w);
  return found;
}

async function askCommand(program: vscode.Uri): Promise<string | undefined> {
  const files = await evaluatorFilesBeside(program);
  const value = files[0] === undefined ? 'node evaluate.mjs {program} {results}' : suggestedCommand(files[0]);
  return vscode.window.showInputBox({
    title: `Configure Code Search for ${fileName(program.path)} (1/3): the evaluator`,
    prompt: 'The command that scores a candidate. {program} is its file, {results} a folder for result files; it prints one JSON object with correct and combined_score.',
    value,
    ignoreFocusOut: true,
    validateInput: (v) => (v.includes('{program}') ? undefined : 'The command needs {program}: where the candidate to score is.'),
  });
}

async function askGate(program: vscode.Uri): Promise<CodeGateName | undefined> {
  const picked = await vscode.window.showQuickPick(
    CODE_GATES.map((name) => ({ label: name, detail: gateRow(name).description, name })),
    { title: `Configure Code Search for ${fileName(program.path)} (2/3): when a child replaces its parent`, ignoreFocusOut: true },
  );
  return picked?.name;
}

async function askBudget(program: vscode.Uri): Promise<(typeof BUDGETS)[number] | undefined> {
  return vscode.window.showQuickPick(
    BUDGETS.map((b) => ({ ...b, description: `${b.proposals} proposals, ${b.evaluations} evaluations` })),
    { title: `Configure Code Search for ${fileName(program.path)} (3/3): the budget`, ignoreFocusOut: true },
  );
}

async function configureCodeSearch(ctx: CommandContext, arg: unknown): Promise<void> {
  const program = programArg(arg);
  if (!program) return;
  // The run spec opens beside its program, never in the panel's group over the panel.
  const column = ctx.panel.columnFor(vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === program.toString())?.viewColumn);
  for (const ext of RUN_SPEC_EXTENSIONS) {
    const existing = vscode.Uri.file(`${program.fsPath}${ext}`);
    if (await exists(existing)) {
      await vscode.window.showTextDocument(existing, { viewColumn: column });
      void vscode.window.showInformationMessage(`Ratchet: ${fileName(program.path)} already has a run spec; opened it.`);
      return;
    }
  }
  const command = await askCommand(program);
  if (command === undefined) return;
  const gate = await askGate(program);
  if (gate === undefined) return;
  const budget = await askBudget(program);
  if (budget === undefined) return;
  const text = codeSpecTemplate({ programName: fileName(program.path), command, supportFiles: await supportFilesOf(program, command), gate, proposals: budget.proposals, evaluations: budget.evaluations });
  const spec = vscode.Uri.file(`${program.fsPath}${RUN_SPEC_EXTENSION}`);
  const edit = new vscode.WorkspaceEdit();
  edit.createFile(spec, { ignoreIfExists: true });
  edit.insert(spec, new vscode.Position(0, 0), text);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The editor did not create ${spec.fsPath}.`);
  const doc = await vscode.workspace.openTextDocument(spec);
  // Test Evaluator and the search read the spec from disk.
  await doc.save();
  await vscode.window.showTextDocument(doc, { preview: false, viewColumn: column });
  ctx.log.info(`Wrote ${spec.fsPath}.`);
  const choice = await vscode.window.showInformationMessage(`Ratchet: wrote ${fileName(spec.path)}. Run the evaluator once on ${fileName(program.path)} to check it?`, TEST_EVALUATOR);
  if (choice === TEST_EVALUATOR) await testEvaluator(ctx, program.toString());
}

async function testEvaluator(ctx: CommandContext, arg: unknown): Promise<void> {
  const program = programArg(arg);
  if (!program) return;
  if (!vscode.workspace.isTrusted) {
    const choice = await vscode.window.showWarningMessage('Ratchet: Test Evaluator runs the evaluator, which is code from this workspace; trust the workspace to run it.', MANAGE_TRUST);
    if (choice === MANAGE_TRUST) await vscode.commands.executeCommand('workbench.trust.manage');
    return;
  }
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === program.toString());
  if (open?.isDirty) await open.save();
  const name = fileName(program.path);
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Ratchet: running the evaluator on ${name}…`, cancellable: true }, (_progress, token) =>
    ctx.host.request(TestEvaluatorRequest, { uri: program.toString() }, token),
  );
  const report = testEvaluatorReport(name, result);
  for (const line of report.details) ctx.log.info(line);
  if (report.ok) void vscode.window.showInformationMessage(report.message);
  else void ctx.errors.show('error', report.message);
}

export function codeSearchCommands(ctx: CommandContext) {
  return {
    configureCodeSearch: (arg?: unknown) => configureCodeSearch(ctx, arg),
    testEvaluator: (arg?: unknown) => testEvaluator(ctx, arg),
  };
}
