/**
 * The Configure lens: a sidecar `<name>.ratchet.yaml` next to a prompt, from a template that
 * already names the prompt's template variables, so the first thing the user sees is what their
 * dataset needs. Created through `workspace/applyEdit` when the client can create files (it then
 * sits on the undo stack like any edit), else written atomically; an existing sidecar is never touched.
 */
import { basename } from 'node:path';
import type { Connection } from 'vscode-languageserver/node';
import { CreateFile, TextDocumentEdit, TextEdit } from 'vscode-languageserver/node';
import { RatchetError } from '../core/errors';
import { REWARD_FREE_GATES } from '../core/gates/gateTable';
import { RUN_SPEC_EXTENSION, evaluatedAs, promptKindOf } from '../core/files/fileKinds';
import type { Files } from '../core/ports';
import { parsePromptFile, bodyForModel } from '../core/prompt/promptFile';
import { syntaxOf, templateVariableNames } from '../core/prompt/template';
import { sidecarPathFor } from '../core/setup/spec';
import type { CreateRunSpecResult } from '../protocol/lsp';
import { pathToUri } from './uris';

export function runSpecTemplate(promptPath: string, promptText: string): string {
  const name = basename(promptPath);
  const stem = basename(sidecarPathFor(promptPath)).slice(0, -RUN_SPEC_EXTENSION.length);
  let variables: string[] = [];
  try {
    const file = parsePromptFile(promptPath, promptText);
    variables = templateVariableNames(bodyForModel(file), syntaxOf(file));
  } catch {
    // A prompt whose front matter does not parse still gets a template; its diagnostics say why.
  }
  const fields = variables.length > 0 ? variables.map((v) => `"${v}": "…"`).join(', ') : '"input": "…"';
  // Instructions, agents and skills are the system message; each item's `input` is the user message.
  const how = evaluatedAs(promptKindOf(promptPath));
  const needs =
    how === 'user-message'
      ? `# Each dataset line needs the prompt's variables, e.g. {"id": "1", ${fields}, "expected": "…"}`
      : `# The file is the system message, each dataset line's input the user message, e.g. {"id": "1", "input": "…", "expected": "…"${how === 'skill' ? ', "trigger": true' : ''}}`;
  return [
    `# Run spec for ${name}: what to evolve it against and when an edit may land.`,
    needs,
    ...(how === 'skill' ? ['# "trigger": true / false says whether the skill should load for the request (README, "Copilot customizations").'] : []),
    `dataset: data/${stem}.jsonl`,
    'split: { feedback: 0.2, dev: 0.6, test: 0.2 }',
    '# exact, contains, regex, numeric, json-schema, llm-rubric, module, command — or no scorer',
    `# and no \`expected\` labels for reward-free gates (${REWARD_FREE_GATES.join(', ')}).`,
    'scorer:',
    '  type: exact',
    'models:',
    '  default:',
    '    model: gpt-4o-mini',
    'gate:',
    '  name: pace+',
    '  alpha: 0.05',
    '  # α covers the whole run (schedule fwer-screened); `schedule: per-candidate` gives each candidate α instead.',
    'budget:',
    '  candidates: 20',
    'seed: 0',
    'mode: suggest',
    '',
  ].join('\n');
}

export async function createRunSpec(connection: Connection, files: Files, canCreateFiles: boolean, promptPath: string): Promise<CreateRunSpecResult> {
  const sidecar = sidecarPathFor(promptPath);
  const uri = pathToUri(sidecar);
  if (await files.exists(sidecar)) return { uri, created: false };
  const promptText = await files.tryReadText(promptPath);
  if (promptText === undefined) throw new RatchetError('notFound', `${promptPath} does not exist; save the prompt first.`, { file: promptPath });
  const text = runSpecTemplate(promptPath, promptText);
  if (canCreateFiles) {
    const result = await connection.workspace.applyEdit({
      label: `Ratchet: create ${basename(sidecar)}`,
      edit: {
        documentChanges: [CreateFile.create(uri, { ignoreIfExists: true }), TextDocumentEdit.create({ uri, version: null }, [TextEdit.insert({ line: 0, character: 0 }, text)])],
      },
    });
    if (!result.applied) throw new RatchetError('internal', `The editor did not create ${sidecar}${result.failureReason ? `: ${result.failureReason}` : ''}.`);
    return { uri, created: true };
  }
  await files.writeTextAtomic(sidecar, text);
  return { uri, created: true };
}
