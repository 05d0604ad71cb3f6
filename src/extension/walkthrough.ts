/**
 * Checks off the walkthrough's steps whose completion a command event cannot carry: a code lens
 * click (Evolve, Accept, Reject) reaches the command through VS Code's internal delegation
 * command, so `onCommand:ratchet.evolve` never fires for it. The steps listen for these context
 * keys instead (package.json `walkthroughs`, `onContext:`).
 */
import * as vscode from 'vscode';
import type { CONTEXT_KEYS } from './menuTable';

export function walkthroughStepDone(key: typeof CONTEXT_KEYS.runStarted | typeof CONTEXT_KEYS.suggestionAnswered): void {
  void vscode.commands.executeCommand('setContext', key, true);
}
