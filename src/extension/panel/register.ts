/**
 * Wires the panel into the extension: the `ratchet.showPanel` command, the serializer that brings
 * the panel back after a reload, and read-only documents for candidate texts and diffs.
 *
 * The panel itself (RatchetPanel, its controller, the evidence, results and program views) is
 * imported on first use: scripts/build.mjs bundles it apart (out/panel.js), so activation neither
 * reads nor parses it. Until it is loaded there is no panel, so nothing needs it.
 */
import * as vscode from 'vscode';
import { commandId } from '../commandTable';
import type { RunStatuses } from '../runs/runStatuses';
import type { PanelActions } from './controller';
import { evaluatorSample } from './evaluatorSample';
import type * as PanelModuleExports from './ratchetPanel';
import type { PanelDeps, RatchetPanel } from './ratchetPanel';
import { besidePanel, fileColumn } from './panelPlace';
import { PANEL_VIEW_TYPE } from './viewType';
import type { RunStore } from '../runs/runStore';

type PanelModule = typeof PanelModuleExports;

/** The panel's module once imported; undefined before its first use. */
let loaded: PanelModule | undefined;

async function panelModule(): Promise<PanelModule> {
  loaded ??= await import('./ratchetPanel');
  return loaded;
}

/** The open panel, if the panel's module was ever loaded and a panel is open. */
function openPanel(): RatchetPanel | undefined {
  return loaded?.RatchetPanel.instance;
}

export const SHOW_PANEL_COMMAND = commandId('showPanel');
export const CANDIDATE_SCHEME = 'ratchet-candidate';

export interface RegisterPanelDeps {
  store: RunStore;
  /** The panel's Cancel and Resume buttons (main.ts routes them through the commands). */
  cancelRun(runId: string): void | Promise<void>;
  resumeRun(runId: string): void | Promise<void>;
  /** Fills the store with a run from its journal (see PanelActions.loadRun). */
  loadRun(runId: string): void | Promise<void>;
  /** The live run statuses: a code search's evaluator load feeds the Programs view's slot timeline. */
  statuses?: RunStatuses;
  log?: vscode.LogOutputChannel;
}

/** Each resolves once the panel is open (its module loaded on the first call); a failure to load is logged. */
export interface PanelHandle {
  show(): Promise<void>;
  /**
   * Opens (or reveals) the panel on a run: one the user just started, resumed or opened. A run just
   * started passes its file (`target`): the panel shows it at once, as starting, instead of the
   * previous run until the new one's first event arrives.
   */
  showRun(runId: string, target?: string): Promise<void>;
  /** Opens (or reveals) the panel on a run's decision with its evidence open. */
  focus(runId: string, candidateId: string): Promise<void>;
  /** The group for a file a command opens for one in group `from`: never over the panel (panelPlace.ts `besidePanel`). */
  columnFor(from: number | undefined): number | undefined;
}

export function registerPanel(context: vscode.ExtensionContext, deps: RegisterPanelDeps): PanelHandle {
  const panelDeps: PanelDeps = { store: deps.store, actions: panelActions(deps, context.extensionUri) };
  const show = async () => (await panelModule()).RatchetPanel.createOrShow(context, panelDeps);
  context.subscriptions.push(vscode.commands.registerCommand(SHOW_PANEL_COMMAND, show), registerPanelSerializer(context, panelDeps), vscode.workspace.registerTextDocumentContentProvider(CANDIDATE_SCHEME, candidateDocuments(deps.store)), {
    dispose: () => openPanel()?.dispose(),
  });
  const unwatchStatuses = deps.statuses?.onChange(({ runId, status, previous }) => {
    const sample = evaluatorSample(status?.status, previous, Date.now());
    if (sample) openPanel()?.evaluatorLoad(runId, sample);
  });
  if (unwatchStatuses) context.subscriptions.push({ dispose: unwatchStatuses });
  // The callers (commands) do not wait on the panel: a failure to load it is logged, not thrown at them.
  const logFailure = (err: unknown) => deps.log?.error(`The Ratchet panel failed to open: ${err instanceof Error ? err.message : String(err)}`);
  return {
    show: () => show().then(() => undefined, logFailure),
    showRun(runId, target) {
      if (target !== undefined) deps.store.begin(runId, target);
      return show().then((panel) => panel.showRun(runId), logFailure);
    },
    focus(runId, candidateId) {
      return show().then((panel) => panel.focus(runId, candidateId), logFailure);
    },
    columnFor: (from) => besidePanel(openPanel()?.column, from),
  };
}

export function registerPanelSerializer(context: vscode.ExtensionContext, deps: PanelDeps): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPE, {
    async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
      (await panelModule()).RatchetPanel.revive(panel, context, deps);
    },
  });
}

/** `ratchet-candidate:/<runId>/<candidateId>.md`: a candidate's text, read-only, from the store. */
export function candidateUri(runId: string, candidateId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: CANDIDATE_SCHEME, path: `/${encodeURIComponent(runId)}/${encodeURIComponent(candidateId)}.md` });
}

function candidateDocuments(store: RunStore): vscode.TextDocumentContentProvider {
  return {
    provideTextDocumentContent(uri: vscode.Uri): string {
      const [, runId = '', file = ''] = uri.path.split('/');
      const candidateId = decodeURIComponent(file.replace(/\.md$/, ''));
      const text = store.get(decodeURIComponent(runId))?.detail.texts.get(candidateId);
      return text ?? `Candidate ${candidateId} is not in memory any more; its text is in the run's journal.`;
    },
  };
}

/** The page the panel's "How Ratchet decides" link opens; it ships in the .vsix (.vscodeignore). */
export const HOW_RATCHET_DECIDES = 'docs/how-ratchet-decides.md';

function panelActions(deps: RegisterPanelDeps, extensionUri: vscode.Uri): PanelActions {
  return {
    cancel: deps.cancelRun,
    resume: deps.resumeRun,
    loadRun: deps.loadRun,
    async openDocs() {
      // Rendered, beside the panel's editor group: the page is read, not edited.
      await vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.joinPath(extensionUri, HOW_RATCHET_DECIDES));
    },
    async openCandidate(runId, candidateId, as) {
      const uri = candidateUri(runId, candidateId);
      if (as === 'text') {
        await vscode.window.showTextDocument(uri, { preview: true, viewColumn: fileColumn(openPanel()?.column) });
        return;
      }
      const parentId = deps.store.get(runId)?.state.candidates[candidateId]?.parentId;
      if (parentId === undefined) {
        await vscode.window.showTextDocument(uri, { preview: true, viewColumn: fileColumn(openPanel()?.column) });
        return;
      }
      await vscode.commands.executeCommand('vscode.diff', candidateUri(runId, parentId), uri, `Ratchet: ${parentId.slice(0, 8)} ↔ ${candidateId.slice(0, 8)}`, {
        viewColumn: fileColumn(openPanel()?.column),
        preview: true,
      });
    },
    async saveExport(suggestedName, text) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const target = await vscode.window.showSaveDialog({
        title: 'Export Ratchet results',
        saveLabel: 'Export',
        ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, suggestedName) } : {}),
        filters: suggestedName.endsWith('.csv') ? { CSV: ['csv'] } : { JSON: ['json'] },
      });
      if (!target) return;
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
      void vscode.window.showInformationMessage(`Saved the results to ${vscode.workspace.asRelativePath(target)}.`);
    },
    reportError(message) {
      deps.log?.error(message);
    },
  };
}
