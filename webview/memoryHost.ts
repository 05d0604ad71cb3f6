/** An in-memory `PanelHost` for unit tests: records what the view sends and lets a test deliver host messages. */
import type { HostMessage, UiState, ViewMessage } from '../src/protocol/webview';
import type { PanelHost } from './host';

export interface MemoryHost extends PanelHost {
  readonly sent: ViewMessage[];
  state: UiState | undefined;
  deliver(msg: HostMessage): void;
}

export function memoryHost(initialState?: UiState): MemoryHost {
  const listeners = new Set<(msg: HostMessage) => void>();
  const host: MemoryHost = {
    sent: [],
    state: initialState,
    post: (msg) => {
      // A real webview clones every message; cloning here catches a non-serialisable payload.
      host.sent.push(structuredClone(msg));
    },
    onMessage(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getState: () => host.state,
    setState: (state) => {
      host.state = structuredClone(state);
    },
    deliver(msg) {
      const copy = structuredClone(msg);
      for (const l of [...listeners]) l(copy);
    },
  };
  return host;
}
