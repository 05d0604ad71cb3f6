/**
 * The status bar item: the current run, the candidate under test, its wealth against 1/α, what it
 * waits for, the cost; the server's health when it is not ok. Click opens the panel. Repaints are
 * throttled: a run emits many events per second and the item needs only a glance's worth of
 * freshness. A wait counts down once a second, and leaves the item when it ends, with no event.
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
  private timer: ReturnType<typeof setTimeout> | undefined;
  private tick: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly store: RunStore) {
    this.item = vscode.window.createStatusBarItem('ratchet.status', vscode.StatusBarAlignment.Left, 0);
    this.item.name = 'Ratchet';
    this.item.command = commandId('showPanel');
    // The store's run list says which runs are interrupted (the server's listing, until the run's
    // events go on past it): a run resumed and finished since then is no longer shown so.
    const offEvent = store.onEvent(() => this.schedule());
    const offList = store.onListChanged(() => this.schedule());
    this.disposables.push(this.item, { dispose: offEvent }, { dispose: offList });
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

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.tick !== undefined) clearTimeout(this.tick);
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
    const entry = runs.find((r) => (r.status === 'running' || r.status === 'pending') && !r.interrupted) ?? runs[0];
    const state = entry ? this.store.get(entry.runId)?.state : undefined;
    return { state, interrupted: entry?.interrupted === true };
  }

  private paint(): void {
    const { state, interrupted } = this.currentRun();
    const now = Date.now();
    const view = statusView(state, this.phase, this.health, interrupted, now);
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor =
      view.severity === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.severity === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    const until = state?.waiting?.until;
    if (this.tick === undefined && until !== undefined && until > now) {
      this.tick = setTimeout(() => {
        this.tick = undefined;
        this.paint();
      }, Math.min(1000, until - now));
    }
  }
}
