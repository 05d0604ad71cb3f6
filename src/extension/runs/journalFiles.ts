/**
 * Run journals read through the editor's file system, so a remote workspace's runs read too. The
 * RunFeed asks for them (runFeed.ts); parsing is the engine's own reader.
 */
import * as vscode from 'vscode';
import { checkJournalFormat } from '../../core/journal/journal';
import { parseJournal } from '../../core/journal/replay';
import type { Replay } from '../../core/journal/replay';
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
    await checkFormat(vscode.Uri.joinPath(uri, '..', 'run.json'));
    return parseJournal(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), uri.fsPath);
  },
};

/**
 * A journal a newer Ratchet wrote is refused before its lines are read (`journalTooNew`). A run.json
 * that is missing or unreadable is not this reader's to judge: the events are what the panel shows.
 */
async function checkFormat(runJson: vscode.Uri): Promise<void> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(runJson)));
  } catch {
    return;
  }
  checkJournalFormat(value, runJson.fsPath);
}
