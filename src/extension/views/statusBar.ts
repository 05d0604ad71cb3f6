/**
 * The status bar item: the current run, the candidate under test, its wealth against 1/α, the
 * cost; the server's health when it is not ok. Click opens the panel. Repaints are throttled: a
 * run emits many events per second and the item needs only a glance's worth of freshness.
 */
import * as vscode from 'vscode';
import type { ServerStatusParams } from '../../protocol/lsp';
import type { RunStore } from '../panel';
import { commandId } from '../commandTable';
import type { ServerPhase } from './statusText';
import { statusView } from './statusText';

const REPAINT_MS = 250;

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private phase: ServerPhase = 'stopped';
  private health: ServerStatusParams | undefined;
  private interrupted: ReadonlySet<string> = new Set();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly store: RunStore) {
    this.item = vscode.window.createStatusBarItem('ratchet.status', vscode.StatusBarAlignment.Left, 0);
    this.item.name = 'Ratchet';
    this.item.command = commandId('showPanel');
    const unsubscribe = store.onEvent(() => this.schedule());
    this.disposables.push(this.item, { dispose: unsubscribe });
    this.paint();
    this.item.show();
  }

  setPhase(phase: ServerPhase): void {
    this.phase = phase;
    // A new server process has not said anything about its health yet.
    if (phase !== 'running') this.health = undefined;
    this.paint();
  }

  setHealth(status: ServerStatusParams): void {
    this.health = status;
    this.paint();
  }

  /** Runs the server lists as interrupted (after a restart mid-run). */
  setInterrupted(runIds: ReadonlySet<string>): void {
    this.interrupted = runIds;
    this.paint();
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    while (this.disposables.length > 0) this.disposables.pop()?.dispose();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.paint();
    }, REPAINT_MS);
  }

  /** The run worth showing: the newest one still running, else the newest. */
  private currentRun() {
    const runs = this.store.runs();
    const live = runs.find((r) => (r.status === 'running' || r.status === 'pending') && !this.interrupted.has(r.runId)) ?? runs[0];
    return live ? this.store.get(live.runId)?.state : undefined;
  }

  private paint(): void {
    const run = this.currentRun();
    const view = statusView(run, this.phase, this.health, run !== undefined && this.interrupted.has(run.runId));
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor =
      view.severity === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.severity === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
  }
}
