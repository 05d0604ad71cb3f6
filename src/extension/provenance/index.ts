/** Provenance on the file: the blame hover (prompts and code search programs) and the Prompt History view (issue #15, part 5). */
import * as vscode from 'vscode';
import { PROGRAM_GLOB, PROMPT_GLOBS } from '../../core/files/fileKinds';
import { ProvenanceHover } from './provenanceHover';
import { PromptHistory } from './promptHistory';
import type { RunStore } from '../runs/runStore';

export function registerProvenance(log: vscode.LogOutputChannel, store: RunStore): vscode.Disposable[] {
  const selector = [...PROMPT_GLOBS, PROGRAM_GLOB].map((pattern) => ({ scheme: 'file', pattern }));
  return [vscode.languages.registerHoverProvider(selector, new ProvenanceHover(log)), new PromptHistory(log, store)];
}
