/**
 * A run's progress as a notification with Cancel, from its start until its work is done: a code search
 * (Start Code Search) and a dev-set generation (Generate Dev Set). The language server's work-done
 * progress only reaches the status bar's spinner (the language client shows server-made progress
 * in the window, where Cancel is not offered), and these runs go on long enough that stopping one
 * should be one click away. It follows the statuses the daemon pushes; Cancel asks the server to
 * cancel the run like "Ratchet: Cancel Run".
 */
import * as vscode from 'vscode';
import { isWorkDone } from '../../core/journal/runStatus';
import type { LiveRunStatus } from '../../core/journal/runStatus';
import { loadText } from '../views/searchStatusText';
import type { RunStatuses } from './runStatuses';

export interface RunProgressOptions {
  /** The notification's words for a status (default: its line). */
  line?: (s: LiveRunStatus) => string;
  /** How much of the run is done, in [0, 1], when the status can tell: the notification then fills a bar. */
  done?: (s: LiveRunStatus) => number | undefined;
}

/**
 * Shows the run's progress until its own work is done (`isWorkDone`: over, or a search waiting
 * only for the answer to its best); resolves with that status (undefined when the run's status
 * went away without one: the server that relayed it is gone).
 */
export function showRunProgress(statuses: RunStatuses, runId: string, title: string, cancel: () => Promise<unknown>, opts: RunProgressOptions = {}): Promise<LiveRunStatus | undefined> {
  const line = opts.line ?? ((s: LiveRunStatus) => s.line);
  return Promise.resolve(
    vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
      let shown = 0;
      const report = (s: LiveRunStatus) => {
        const done = opts.done?.(s);
        const increment = done === undefined ? undefined : Math.max(0, Math.min(1, done) * 100 - shown);
        if (increment !== undefined) shown += increment;
        progress.report({ message: line(s), ...(increment ? { increment } : {}) });
      };
      return new Promise<LiveRunStatus | undefined>((resolve) => {
        const now = statuses.get(runId)?.status;
        if (now && isWorkDone(now)) return resolve(now);
        if (now) report(now);
        const off = statuses.onChange((change) => {
          if (change.runId !== runId) return;
          const s = change.status?.status;
          if (s === undefined || isWorkDone(s)) {
            off();
            resolve(s);
          } else {
            report(s);
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

/** A code search's line names its evaluator's load while it runs. */
export function showSearchProgress(statuses: RunStatuses, runId: string, title: string, cancel: () => Promise<unknown>): Promise<unknown> {
  return showRunProgress(statuses, runId, title, cancel, {
    line: (s) => (s.evaluator && s.state === 'running' && !s.wait ? `${s.line} · ${loadText(s.evaluator)}` : s.line),
  });
}
