/**
 * Run journals read through the editor's file system, so a remote workspace's runs read too. The
 * RunFeed asks for them (runFeed.ts); parsing is the engine's own reader.
 */
import * as vscode from 'vscode';
import { parseJournal } from '../../core/run/replay';
import type { Replay } from '../../core/run/replay';
import type { RunJournals } from './runFeed';

export function journalUri(workspace: string, runId: string): vscode.Uri {
  return vscode.Uri.joinPath(vscode.Uri.file(workspace), '.ratchet', 'runs', runId, 'events.jsonl');
}

export const editorJournals: RunJournals = {
  async exists(workspace: string, runId: string): Promise<boolean> {
    try {
      await vscode.workspace.fs.stat(journalUri(workspace, runId));
      return true;
    } catch {
      return false;
    }
  },
  async read(workspace: string, runId: string): Promise<Replay> {
    const uri = journalUri(workspace, runId);
    return parseJournal(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), uri.fsPath);
  },
};
