/** Provenance on the file: the blame hover and the Prompt History view (issue #15, part 5). */
import * as vscode from 'vscode';
import { PROMPT_EXTENSIONS } from '../../core/files/fileKinds';
import { ProvenanceHover } from './provenanceHover';
import { PromptHistory } from './promptHistory';

export function registerProvenance(log: vscode.LogOutputChannel): vscode.Disposable[] {
  const selector = PROMPT_EXTENSIONS.map((e) => ({ scheme: 'file', pattern: `**/*${e}` }));
  return [vscode.languages.registerHoverProvider(selector, new ProvenanceHover(log)), new PromptHistory(log)];
}
