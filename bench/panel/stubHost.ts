/**
 * The script the bench page runs before the panel's bundle: a stand-in for VS Code's
 * `acquireVsCodeApi`, a recorder for CSP violations, and a Dark Modern–like set of --vscode-*
 * variables so screenshots look like the real panel. Set through CSSOM, which a strict CSP allows.
 */
export const STUB_HOST_SCRIPT = `(() => {
  const bench = { sent: [], csp: [], errors: [], state: undefined };
  window.__bench = bench;
  document.addEventListener('securitypolicyviolation', (e) => bench.csp.push(e.violatedDirective + ' ' + e.blockedURI));
  window.addEventListener('error', (e) => bench.errors.push(String(e.message)));
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => bench.sent.push(m),
    getState: () => bench.state,
    setState: (s) => { bench.state = s; },
  });
  const vars = {
    'foreground': '#cccccc', 'descriptionForeground': '#9d9d9d', 'errorForeground': '#f85149',
    'editor-background': '#1f1f1f', 'font-family': 'system-ui, sans-serif', 'font-size': '13px',
    'editor-font-family': 'monospace', 'editor-font-size': '13px', 'focusBorder': '#0078d4',
    'panel-border': '#2b2b2b', 'widget-border': '#313131', 'editorWidget-border': '#454545',
    'list-hoverBackground': '#2a2d2e', 'list-activeSelectionBackground': '#04395e', 'list-activeSelectionForeground': '#ffffff',
    'list-inactiveSelectionBackground': '#37373d', 'list-focusOutline': '#0078d4',
    'button-background': '#0078d4', 'button-foreground': '#ffffff', 'button-secondaryBackground': '#313131', 'button-secondaryForeground': '#cccccc',
    'charts-blue': '#3794ff', 'charts-green': '#89d185', 'charts-red': '#f14c4c', 'charts-orange': '#d18616', 'charts-purple': '#b180d7', 'charts-yellow': '#cca700', 'charts-lines': '#cccccc80',
    'testing-iconPassed': '#73c991', 'testing-iconFailed': '#f14c4c', 'textCodeBlock-background': '#2b2b2b',
    'diffEditor-insertedLineBackground': '#9bb95533', 'diffEditor-removedLineBackground': '#ff000033',
    'progressBar-background': '#0078d4', 'dropdown-background': '#313131', 'dropdown-foreground': '#cccccc',
  };
  for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty('--vscode-' + k, v);
})();`;
