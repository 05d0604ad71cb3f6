/**
 * The one place that touches `acquireVsCodeApi()`. Components talk to a `PanelHost`, so tests and
 * the bench drive the whole panel through an in-memory host instead of VS Code.
 */
import type { HostMessage, UiState, ViewMessage } from '../src/protocol/webview';

export interface PanelHost {
  post(msg: ViewMessage): void;
  /** Returns the unsubscribe function. */
  onMessage(listener: (msg: HostMessage) => void): () => void;
  getState(): UiState | undefined;
  setState(state: UiState): void;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

let api: VsCodeApi | undefined;

/** VS Code allows one acquireVsCodeApi() call per page load; later calls throw, so it is cached. */
function vscodeApi(): VsCodeApi {
  if (api) return api;
  const acquire = (globalThis as { acquireVsCodeApi?: () => VsCodeApi }).acquireVsCodeApi;
  if (!acquire) throw new Error('acquireVsCodeApi is not defined: the panel script must run inside a VS Code webview.');
  api = acquire();
  return api;
}

export function vscodeHost(win: Window = window): PanelHost {
  const vscode = vscodeApi();
  return {
    post: (msg) => vscode.postMessage(msg),
    onMessage(listener) {
      const handler = (event: MessageEvent) => listener(event.data as HostMessage);
      win.addEventListener('message', handler);
      return () => win.removeEventListener('message', handler);
    },
    getState: () => vscode.getState() as UiState | undefined,
    setState: (state) => vscode.setState(state),
  };
}
