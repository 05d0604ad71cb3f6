/**
 * A code search's progress as a notification with Cancel, from Start Code Search until the run is
 * over. The language server's work-done progress only reaches the status bar's spinner (the
 * language client shows server-made progress in the window, where Cancel is not offered), and a
 * search runs for long enough that stopping it should be one click away. It follows the statuses
 * the daemon pushes; Cancel asks the server to cancel the run like "Ratchet: Cancel Run".
 */
import * as vscode from 'vscode';
import { isOver } from '../../core/run/runStatus';
import type { LiveRunStatus } from '../../core/run/runStatus';
import { loadText } from '../views/searchStatusText';
import type { RunStatuses } from './runStatuses';

export function showSearchProgress(statuses: RunStatuses, runId: string, title: string, cancel: () => Promise<unknown>): Promise<void> {
  return Promise.resolve(
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
      const line = (s: LiveRunStatus) => (s.evaluator && s.state === 'running' && !s.wait ? `${s.line} · ${loadText(s.evaluator)}` : s.line);
      return new Promise<void>((resolve) => {
        const now = statuses.get(runId)?.status;
        if (now && isOver(now)) return resolve();
        if (now) progress.report({ message: line(now) });
        const off = statuses.onChange((change) => {
          if (change.runId !== runId) return;
          const s = change.status?.status;
          if (s === undefined || isOver(s)) {
            off();
            resolve();
          } else {
            progress.report({ message: line(s) });
          }
        });
        token.onCancellationRequested(() => {
          progress.report({ message: 'cancelling…' });
          void cancel().catch(() => undefined);
        });
      });
    }),
  );
}
