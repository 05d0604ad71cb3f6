/**
 * The "Prompt History" view: the active prompt file's accepted edits across runs, newest first,
 * each opening a diff of the file before ↔ after that edit. The texts come from the provenance log
 * through a read-only content provider (`ratchet-history:`), so a diff never shows a file that
 * could be edited or saved by mistake. Before any file is active, it lists every file with accepted
 * edits, grouped by kind of file (Prompt files, Skills, Instructions…, the file-kind table's groups).
 *
 * Each row says what became of its edit in the words and from the fold every label uses
 * (panelState/answers.ts): "applied, then undone" once Ctrl+Z took it back in the editor, "accepted
 * by you" again after Ctrl+Y. The log only says who applied it; the run the editor holds says the rest.
 */
import * as vscode from 'vscode';
import { KIND_GROUPS, PROGRAMS_GROUP, kindGroup } from '../../core/files/fileKinds';
import type { ProvenanceRecord } from '../../core/journal/provenance';
import type { RunStore } from '../runs/runStore';
import { evidencePhrase, historyLabel, timeAgo } from './hoverText';
import { readAllProvenance, readProvenanceLog, workspacePlace } from './provenanceLogs';

export const PROMPT_HISTORY_VIEW_ID = 'ratchet.promptHistory';
export const HISTORY_SCHEME = 'ratchet-history';

type Side = 'before' | 'after';

/** One row: an accepted edit, with the file it is of (the view may follow another file by the time it is drawn). */
interface EditRow {
  type: 'edit';
  file: vscode.Uri;
  record: ProvenanceRecord;
}
/** With no file followed: a kind of file, then a file with accepted edits. */
interface GroupRow {
  type: 'group';
  label: string;
  files: FileRow[];
}
interface FileRow {
  type: 'file';
  file: vscode.Uri;
  records: ProvenanceRecord[];
}
type HistoryEntry = EditRow | GroupRow | FileRow;

/** `ratchet-history:/<side>/<runId>/<candidateId>/<file name>?<the prompt file's URI>`: the name keeps the language. */
export function historyUri(file: vscode.Uri, r: ProvenanceRecord, side: Side): vscode.Uri {
  const name = file.path.split('/').at(-1) ?? 'prompt';
  const path = `/${side}/${encodeURIComponent(r.runId)}/${encodeURIComponent(r.candidateId)}/${encodeURIComponent(name)}`;
  return vscode.Uri.from({ scheme: HISTORY_SCHEME, path, query: file.toString() });
}

export class PromptHistory implements vscode.TreeDataProvider<HistoryEntry>, vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly view: vscode.TreeView<HistoryEntry>;
  /** The prompt file shown: the active editor's, kept while an editor of another kind (a diff, the panel) is active. */
  private file: vscode.Uri | undefined;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly store: RunStore,
  ) {
    this.view = vscode.window.createTreeView(PROMPT_HISTORY_VIEW_ID, { treeDataProvider: this });
    const watcher = vscode.workspace.createFileSystemWatcher('**/.ratchet/provenance/*.jsonl');
    // An edit landing or taken back (undo, redo) changes what a row says.
    const offEdit = store.onEvent((_runId, e) => {
      if (e.type === 'edit/applied' || e.type === 'edit/undone') this.changed.fire(undefined);
    });
    this.disposables.push(
      { dispose: offEdit },
      this.changed,
      this.view,
      watcher,
      watcher.onDidCreate(() => this.changed.fire(undefined)),
      watcher.onDidChange(() => this.changed.fire(undefined)),
      this.view.onDidChangeVisibility((e) => {
        if (e.visible) this.changed.fire(undefined);
      }),
      vscode.window.onDidChangeActiveTextEditor((e) => this.follow(e)),
      vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, this),
    );
    this.follow(vscode.window.activeTextEditor);
  }

  private follow(editor: vscode.TextEditor | undefined): void {
    const uri = editor?.document.uri;
    if (!uri || !workspacePlace(uri) || uri.toString() === this.file?.toString()) return;
    this.file = uri;
    this.view.description = `${uri.path.split('/').at(-1)} · ${kindGroup(uri.path)}`;
    this.changed.fire(undefined);
  }

  async getChildren(element?: HistoryEntry): Promise<HistoryEntry[]> {
    if (element?.type === 'group') return element.files;
    if (element?.type === 'file') return edits(element.file, element.records);
    if (element) return [];
    const file = this.file;
    if (file) return edits(file, (await readProvenanceLog(file, this.log)).records);
    return groupRows(await readAllProvenance(this.log));
  }

  getTreeItem(row: HistoryEntry): vscode.TreeItem {
    if (row.type === 'group') {
      const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.Expanded);
      item.description = `${row.files.length} file${row.files.length === 1 ? '' : 's'}`;
      item.iconPath = new vscode.ThemeIcon('folder-library');
      return item;
    }
    if (row.type === 'file') {
      const item = new vscode.TreeItem(row.file, vscode.TreeItemCollapsibleState.Collapsed);
      item.description = `${row.records.length} accepted edit${row.records.length === 1 ? '' : 's'}`;
      return item;
    }
    const { file, record: r } = row;
    const item = new vscode.TreeItem(historyLabel(r, this.store.get(r.runId)?.state.candidates[r.candidateId]));
    item.description = `${timeAgo(Date.parse(r.at), Date.now())} · run ${r.runId}`;
    item.tooltip = `${r.candidateId} of run ${r.runId}, ${new Date(r.at).toLocaleString()}: ${evidencePhrase(r.evidence)}`;
    item.iconPath = new vscode.ThemeIcon('git-commit');
    item.contextValue = 'acceptedEdit';
    const name = file.path.split('/').at(-1) ?? 'prompt';
    item.command = {
      command: 'vscode.diff',
      title: 'Show the accepted edit',
      arguments: [historyUri(file, r, 'before'), historyUri(file, r, 'after'), `${name} (${r.candidateId}, run ${r.runId}): before ↔ after`, { preview: true }],
    };
    return item;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const [, side, runId, candidateId] = uri.path.split('/').map(decodeURIComponent);
    const { records } = await readProvenanceLog(vscode.Uri.parse(uri.query), this.log);
    const r = records.find((x) => x.runId === runId && x.candidateId === candidateId);
    if (!r) return `Ratchet has no record of ${candidateId ?? '?'} of run ${runId ?? '?'} for this file any more.`;
    return side === 'before' ? r.before : r.after;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function edits(file: vscode.Uri, records: readonly ProvenanceRecord[]): EditRow[] {
  return [...records].reverse().map((record) => ({ type: 'edit', file, record }));
}

/** Every file's accepted edits, by kind of file in the table's order. */
function groupRows(all: readonly { file: vscode.Uri; records: ProvenanceRecord[] }[]): GroupRow[] {
  const groupOf = (f: { file: vscode.Uri; records: ProvenanceRecord[] }) => (f.records.some((r) => r.runKind === 'search') ? PROGRAMS_GROUP : kindGroup(f.file.path));
  return KIND_GROUPS.flatMap((label) => {
    const files = all.filter((f) => groupOf(f) === label).map((f): FileRow => ({ type: 'file', file: f.file, records: f.records }));
    return files.length === 0 ? [] : [{ type: 'group', label, files }];
  });
}
