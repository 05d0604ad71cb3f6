/**
 * The "Runs" tree in Ratchet's activity bar container: runs → candidates → decisions. Runs come
 * from `ratchet/listRuns`, joined with the runs' statuses and the RunStore; expanding a run the
 * store does not hold loads its journal. Refreshes are debounced: a run's events arrive many per
 * second. Runs no daemon of this window runs — started by an agent through `ratchet mcp`, or by
 * the CLI — reach the list through their journals on disk, watched, at a slower pace.
 */
import * as vscode from 'vscode';
import { isOver } from '../../core/journal/runStatus';
import { ListRunsRequest } from '../../protocol/lsp';
import type { RunListEntry } from '../../protocol/lsp';
import type { RunStore } from '../panel';
import { commandId } from '../commandTable';
import { RUNS_VIEW_ID } from '../menuTable';
import type { EditorErrors } from '../errors';
import type { RunFeed } from '../runs/runFeed';
import type { RunStatuses } from '../runs/runStatuses';
import type { ServerHost } from '../server/serverHost';
import { candidateNodes, decisionNodes, groupedRunNodes, runNodes } from './runsTree';
import type { RunNode, RunsNode } from './runsTree';

const REFRESH_MS = 500;
/** A journal another process writes (an agent's judged edit, a CLI run): the list follows it at this pace. */
const EXTERNAL_REFRESH_MS = 2000;

const RUN_ICONS: Record<RunNode['icon'], vscode.ThemeIcon> = {
  running: new vscode.ThemeIcon('sync~spin'),
  waiting: new vscode.ThemeIcon('bell', new vscode.ThemeColor('editorWarning.foreground')),
  finished: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  cancelled: new vscode.ThemeIcon('circle-slash'),
  interrupted: new vscode.ThemeIcon('debug-pause', new vscode.ThemeColor('editorWarning.foreground')),
  corrupt: new vscode.ThemeIcon('warning', new vscode.ThemeColor('editorWarning.foreground')),
};
const CANDIDATE_ICONS = {
  commit: new vscode.ThemeIcon('check', new vscode.ThemeColor('testing.iconPassed')),
  reject: new vscode.ThemeIcon('close'),
  testing: new vscode.ThemeIcon('beaker'),
  untested: new vscode.ThemeIcon('circle-outline'),
  baseline: new vscode.ThemeIcon('home'),
  applied: new vscode.ThemeIcon('git-commit', new vscode.ThemeColor('testing.iconPassed')),
  userRejected: new vscode.ThemeIcon('thumbsdown'),
};

export class RunsView implements vscode.TreeDataProvider<RunsNode>, vscode.Disposable {
  private listed: RunListEntry[] = [];
  private readonly changed = new vscode.EventEmitter<RunsNode | undefined>();
  private readonly listedEmitter = new vscode.EventEmitter<readonly RunListEntry[]>();
  /** The server's list of runs changed (after each `ratchet/listRuns`). */
  readonly onDidList = this.listedEmitter.event;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly deps: { store: RunStore; statuses: RunStatuses; host: ServerHost; feed: RunFeed; errors: EditorErrors }) {
    const offEvent = deps.store.onEvent(() => this.scheduleRefresh(false));
    const offStatus = deps.statuses.onChange(({ status, previous }) => {
      // A run that begins or ends changes the list on disk too; anything else only what is shown.
      const begins = status !== undefined && !isOver(status.status) && (previous === undefined || isOver(previous));
      const ends = status !== undefined && isOver(status.status) && (previous === undefined || !isOver(previous));
      this.scheduleRefresh(begins || ends);
    });
    this.disposables.push(
      this.changed,
      this.listedEmitter,
      { dispose: offEvent },
      { dispose: offStatus },
      vscode.window.createTreeView(RUNS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true }),
      deps.host.onDidChangePhase((phase) => {
        if (phase === 'running') void this.refresh();
      }),
      ...this.watchJournals(),
    );
  }

  /** A journal written by a process whose runs this window does not hear of: relisted when it changes. */
  private watchJournals(): vscode.Disposable[] {
    // The folders too: a folder made with its files at once (the first run's .ratchet/runs/<id>/) can
    // reach the watcher as the folder's creation alone.
    const watcher = vscode.workspace.createFileSystemWatcher('**/.ratchet{,/runs,/runs/*,/runs/*/events.jsonl}', false, false, true);
    const changed = (uri: vscode.Uri) => {
      const parts = uri.path.split('/');
      const runId = parts.at(-1) === 'events.jsonl' ? (parts.at(-2) ?? '') : parts.at(-2) === 'runs' ? (parts.at(-1) ?? '') : '';
      // The daemon's runs come with their events and statuses already.
      if (this.deps.statuses.get(runId) !== undefined) return;
      this.externalTimer ??= setTimeout(() => {
        this.externalTimer = undefined;
        void this.refresh();
      }, EXTERNAL_REFRESH_MS);
    };
    return [watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), { dispose: () => clearTimeout(this.externalTimer) }];
  }

  /** Asks the server for the runs on disk again, then repaints. */
  async refresh(): Promise<void> {
    if (this.deps.host.running) {
      try {
        this.listed = (await this.deps.host.request(ListRunsRequest, {})).runs;
        this.listedEmitter.fire(this.listed);
      } catch (err) {
        void this.deps.errors.report('Listing runs', err);
      }
    }
    this.changed.fire(undefined);
  }

  listedRuns(): readonly RunListEntry[] {
    return this.listed;
  }

  getTreeItem(node: RunsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'group': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `group:${node.label}`;
        item.description = node.description;
        item.contextValue = 'group';
        item.iconPath = new vscode.ThemeIcon('folder-library');
        return item;
      }
      case 'run': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `run:${node.runId}`;
        item.description = node.description;
        item.tooltip = node.tooltip;
        item.contextValue = node.contextValue;
        item.iconPath = RUN_ICONS[node.icon];
        return item;
      }
      case 'candidate': {
        const item = new vscode.TreeItem(node.label, node.hasDecisions ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
        item.id = `candidate:${node.runId}:${node.candidateId}`;
        item.description = node.description;
        item.tooltip = node.tooltip;
        item.contextValue = 'candidate';
        item.iconPath = CANDIDATE_ICONS[node.icon];
        return item;
      }
      case 'decision': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.id = `decision:${node.runId}:${node.candidateId}:${node.seq}`;
        item.description = node.description;
        item.tooltip = node.tooltip;
        item.contextValue = 'decision';
        item.iconPath = new vscode.ThemeIcon('law');
        item.command = { command: commandId('showEvidence'), title: 'Show Evidence', arguments: [undefined, node.runId, node.candidateId] };
        return item;
      }
    }
  }

  async getChildren(node?: RunsNode): Promise<RunsNode[]> {
    const { store, statuses, feed } = this.deps;
    if (node === undefined) {
      const live = store
        .runs()
        .map((r) => store.get(r.runId)?.state)
        .filter((s) => s !== undefined);
      return groupedRunNodes(runNodes(this.listed, live, statuses.all()));
    }
    switch (node.kind) {
      case 'group':
        return node.runs;
      case 'run': {
        if (!node.loaded && node.workspace !== undefined) {
          try {
            await feed.load(node.workspace, node.runId);
          } catch (err) {
            void this.deps.errors.report(`Reading run ${node.runId}'s journal`, err);
          }
        }
        const run = store.get(node.runId)?.state;
        return run ? candidateNodes(run) : [];
      }
      case 'candidate': {
        const run = store.get(node.runId)?.state;
        return run ? decisionNodes(run, node.candidateId) : [];
      }
      case 'decision':
        return [];
    }
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    while (this.disposables.length > 0) this.disposables.pop()?.dispose();
  }

  private relist = false;
  private externalTimer: ReturnType<typeof setTimeout> | undefined;
  private scheduleRefresh(relist: boolean): void {
    this.relist ||= relist;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const relistNow = this.relist;
      this.relist = false;
      if (relistNow) void this.refresh();
      else this.changed.fire(undefined);
    }, REFRESH_MS);
  }
}
