/**
 * Feeds the RunStore: every `ratchet/runEvent` is appended as it comes, and a run the store does
 * not know yet (a reload mid-run, a run picked in the Runs view or the journal picker) is first
 * filled from its journal, with the notifications that raced the read merged in without repeats.
 */
import * as vscode from 'vscode';
import type { EngineEvent } from '../../core/run/events';
import { parseJournal } from '../../core/run/replay';
import type { RunEventParams } from '../../protocol/lsp';
import type { RunStore } from '../panel';
import { mergeReplay } from './replayMerge';

export function journalUri(workspace: string, runId: string): vscode.Uri {
  return vscode.Uri.joinPath(vscode.Uri.file(workspace), '.ratchet', 'runs', runId, 'events.jsonl');
}

export class RunFeed {
  /** Runs whose journal is being read: their notifications wait here. */
  private readonly loading = new Map<string, EngineEvent[]>();

  constructor(
    private readonly store: RunStore,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /**
   * A `ratchet/runEvent`. The first event heard of a run the store does not hold, when it is not
   * the run's start (a run that went on while the window reloaded), fills the store from the
   * journal first, so the panel shows the whole run and not its tail.
   */
  onRunEvent(p: RunEventParams): void {
    if (!this.has(p.runId) && !this.loading.has(p.runId) && p.event.type !== 'run/started') {
      void this.load(p.workspace, p.runId).catch((err: unknown) => this.log.warn(`Run ${p.runId}: reading its journal failed:`, err instanceof Error ? err : String(err)));
    }
    const waiting = this.loading.get(p.runId);
    if (waiting) waiting.push(p.event);
    else this.store.append(p.event);
  }

  has(runId: string): boolean {
    return this.store.get(runId) !== undefined;
  }

  /** Fills the store from the run's journal in the first of `folders` that has it; false when none does. */
  async loadFromFolders(folders: readonly string[], runId: string): Promise<boolean> {
    for (const folder of folders) {
      try {
        await vscode.workspace.fs.stat(journalUri(folder, runId));
      } catch {
        continue;
      }
      await this.load(folder, runId);
      return true;
    }
    return false;
  }

  /** Fills the store from the run's journal unless it already holds the run. */
  async load(workspace: string, runId: string): Promise<void> {
    if (this.has(runId) || this.loading.has(runId)) return;
    this.loading.set(runId, []);
    let journal: EngineEvent[] = [];
    try {
      const uri = journalUri(workspace, runId);
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      const replay = parseJournal(text, uri.fsPath);
      if (replay.tornTail) this.log.warn(`Run ${runId}: the journal's last line was torn by a crash and is left out.`);
      journal = replay.events;
    } finally {
      const buffered = this.loading.get(runId) ?? [];
      this.loading.delete(runId);
      this.store.appendAll(mergeReplay(journal, buffered));
    }
  }
}
