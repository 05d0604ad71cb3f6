/**
 * The panel singleton: one webview panel, created by `createOrShow` or handed back by VS Code's
 * serializer after a reload (`revive`). It owns its disposables and drains them in `dispose()`.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { EvaluatorLoadSample, ViewMessage } from '../../protocol/webview';
import type { PanelActions } from './controller';
import { PanelController } from './controller';
import { WEBVIEW_RESOURCE_ROOTS, makeNonce, panelHtml } from './html';
import type { RunStore } from '../runs/runStore';
import { FIRST, panelPlace } from './panelPlace';
import { PANEL_VIEW_TYPE } from './viewType';

export interface PanelDeps {
  store: RunStore;
  actions: PanelActions;
}

export class RatchetPanel {
  private static current: RatchetPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly controller: PanelController;
  private disposed = false;

  static createOrShow(context: vscode.ExtensionContext, deps: PanelDeps): RatchetPanel {
    const current = RatchetPanel.current;
    const place = panelPlace(current ? (current.panel.viewColumn ?? null) : undefined, vscode.window.activeTextEditor?.viewColumn);
    if (current && 'reveal' in place) {
      const reveal = () => current.panel.reveal(place.reveal, true);
      // The file the command came from sat in the panel's group: it moves out first (it is the active
      // editor only until the panel is revealed), so the panel neither hides it nor moves beside itself.
      if (place.moveEditor) {
        const move = place.moveEditor === 'previous' ? 'workbench.action.moveEditorToPreviousGroup' : 'workbench.action.moveEditorToNextGroup';
        void Promise.resolve(vscode.commands.executeCommand(move)).then(reveal, reveal);
      } else reveal();
      return current;
    }
    const panel = vscode.window.createWebviewPanel(PANEL_VIEW_TYPE, 'Ratchet', 'create' in place ? place.create : FIRST, webviewOptions(context.extensionUri));
    RatchetPanel.current = new RatchetPanel(panel, context, deps);
    return RatchetPanel.current;
  }

  /** Called by the serializer with the panel VS Code restored; the view restores its UI state itself. */
  static revive(panel: vscode.WebviewPanel, context: vscode.ExtensionContext, deps: PanelDeps): RatchetPanel {
    RatchetPanel.current?.dispose();
    RatchetPanel.current = new RatchetPanel(panel, context, deps);
    return RatchetPanel.current;
  }

  static get instance(): RatchetPanel | undefined {
    return RatchetPanel.current;
  }

  /** The editor group it is in (undefined while VS Code does not say). */
  get column(): number | undefined {
    return this.panel.viewColumn;
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    context: vscode.ExtensionContext,
    deps: PanelDeps,
  ) {
    const webview = panel.webview;
    webview.options = webviewOptions(context.extensionUri);
    panel.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'ratchet.svg');
    this.controller = new PanelController(deps.store, { post: (msg) => void webview.postMessage(msg) }, deps.actions);
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce((n) => randomBytes(n)),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, 'out', 'webview.js')).toString(),
      codiconsUri: webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, 'out', 'codicons', 'codicon.css')).toString(),
    });
    this.disposables.push(
      webview.onDidReceiveMessage((msg: ViewMessage) => this.controller.receive(msg)),
      // Without retainContextWhenHidden the view's script is torn down when hidden and sends
      // view/ready again when shown; until then nothing is posted into the void.
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.controller.detach();
      }),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Shows this run, whatever the panel was showing. */
  showRun(runId: string): void {
    this.controller.showRun(runId);
  }

  /** Shows `runId` with `candidateId`'s decision selected and its evidence open, once the view is ready. */
  focus(runId: string, candidateId: string): void {
    this.controller.focus(runId, candidateId);
  }

  /** A code search's evaluator load changed (the Throughput section's slot timeline). */
  evaluatorLoad(runId: string, sample: EvaluatorLoadSample): void {
    this.controller.evaluatorLoad(runId, sample);
  }

  dispose(): void {
    // panel.dispose() fires onDidDispose, which calls back here.
    if (this.disposed) return;
    this.disposed = true;
    if (RatchetPanel.current === this) RatchetPanel.current = undefined;
    this.controller.dispose();
    this.panel.dispose();
    while (this.disposables.length > 0) this.disposables.pop()?.dispose();
  }
}

function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: WEBVIEW_RESOURCE_ROOTS.map((dir) => vscode.Uri.joinPath(extensionUri, dir)),
  };
}
