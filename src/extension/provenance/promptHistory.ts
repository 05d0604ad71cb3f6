/**
 * The "Prompt History" view: the active prompt file's accepted edits across runs, newest first,
 * each opening a diff of the file before ↔ after that edit. The texts come from the provenance log
 * through a read-only content provider (`ratchet-history:`), so a diff never shows a file that
 * could be edited or saved by mistake.
 */
import * as vscode from 'vscode';
import type { ProvenanceRecord } from '../../core/journal/provenance';
import { evidencePhrase, timeAgo } from './hoverText';
import { readProvenanceLog, workspacePlace } from './provenanceLogs';

export const PROMPT_HISTORY_VIEW_ID = 'ratchet.promptHistory';
export const HISTORY_SCHEME = 'ratchet-history';

type Side = 'before' | 'after';

/** One row: an accepted edit, with the file it is of (the view may follow another file by the time it is drawn). */
interface HistoryEntry {
  file: vscode.Uri;
  record: ProvenanceRecord;
}

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

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.view = vscode.window.createTreeView(PROMPT_HISTORY_VIEW_ID, { treeDataProvider: this });
    const watcher = vscode.workspace.createFileSystemWatcher('**/.ratchet/provenance/*.jsonl');
    this.disposables.push(
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
    this.view.description = uri.path.split('/').at(-1);
    this.changed.fire(undefined);
  }

  async getChildren(element?: HistoryEntry): Promise<HistoryEntry[]> {
    const file = this.file;
    if (element || !file) return [];
    return (await readProvenanceLog(file, this.log)).records.reverse().map((record) => ({ file, record }));
  }

  getTreeItem({ file, record: r }: HistoryEntry): vscode.TreeItem {
    const item = new vscode.TreeItem(`${r.candidateId} · ${r.by === 'user' ? 'accepted by you' : 'applied by autopilot'}`);
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
