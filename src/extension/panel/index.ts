// The panel's public surface for src/extension/main.ts.
export { registerPanel, registerPanelSerializer, SHOW_PANEL_COMMAND, CANDIDATE_SCHEME } from './register';
export type { PanelHandle, RegisterPanelDeps } from './register';
export { RatchetPanel, PANEL_VIEW_TYPE } from './ratchetPanel';
export type { PanelDeps } from './ratchetPanel';
export { RunStore } from '../runs/runStore';
