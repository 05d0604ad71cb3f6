/** The panel's webview type (package.json's `onWebviewPanel:ratchet.panel`): registering its serializer must not load the panel's code. */
export const PANEL_VIEW_TYPE = 'ratchet.panel';
