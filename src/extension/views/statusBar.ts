/**
 * The status bar item: the current run as its status says (its line while it goes on, how it
 * ended), its cost, the server's health when it is not ok. Click opens the panel. Repaints are
 * throttled: a run emits many events per second and the item needs only a glance's worth of
 * freshness. The daemon puts a wait's line back when the wait is over, so nothing here keeps time.
 */
import * as vscode from 'vscode';
import type { ServerStatusParams } from '../../protocol/lsp';
import type { RunStore } from '../panel';
import { commandId } from '../commandTable';
import type { RunStatuses } from '../runs/runStatuses';
import type { ServerPhase, ShownRun } from './statusText';
import { statusView } from './statusText';

const REPAINT_MS = 250;

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private phase: ServerPhase = 'stopped';
  private health: ServerStatusParams | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: RunStore,
    private readonly statuses: RunStatuses,
  ) {
    this.item = vscode.window.createStatusBarItem('ratchet.status', vscode.StatusBarAlignment.Left, 0);
    this.item.name = 'Ratchet';
    this.item.command = commandId('showPanel');
    // Events bring the cost; the store's run list says which runs no daemon reports on were
    // interrupted (the server's listing, until the run's events go on past it).
    const offEvent = store.onEvent(() => this.schedule());
    const offList = store.onListChanged(() => this.schedule());
    const offStatus = statuses.onChange(() => this.schedule());
    this.disposables.push(this.item, { dispose: offEvent }, { dispose: offList }, { dispose: offStatus });
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
    while (this.disposables.length > 0) this.disposables.pop()?.dispose();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.paint();
    }, REPAINT_MS);
  }

  /** The run worth showing: the newest one its daemon says goes on, else the newest one heard of. */
  private currentRun(): ShownRun | undefined {
    const runId = this.statuses.live()[0]?.status.runId ?? this.statuses.all()[0]?.status.runId ?? this.store.runs()[0]?.runId;
    if (runId === undefined) return undefined;
    const entry = this.store.runs().find((r) => r.runId === runId);
    return { runId, status: this.statuses.get(runId), state: this.store.get(runId)?.state, interrupted: entry?.interrupted === true };
  }

  private paint(): void {
    const view = statusView(this.currentRun(), this.phase, this.health);
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor = view.severity === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : view.severity === 'warning' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }
}
