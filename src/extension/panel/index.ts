// The panel's public surface for src/extension/main.ts.
export { registerPanel, registerPanelSerializer, SHOW_PANEL_COMMAND, CANDIDATE_SCHEME } from './register';
export type { PanelHandle, RegisterPanelDeps } from './register';
export { PANEL_VIEW_TYPE } from './viewType';
// Not RatchetPanel: the panel's code is loaded on first use (register.ts), never at activation.
export type { PanelDeps } from './ratchetPanel';
export { RunStore } from '../runs/runStore';
