/**
 * The script the bench page runs before the panel's bundle: a stand-in for VS Code's
 * `acquireVsCodeApi`, a recorder for CSP violations and page errors, and --vscode-* variables
 * like VS Code's Dark Modern, Light Modern or High Contrast themes, so screenshots look like the
 * real panel. Set through CSSOM, which a strict CSP allows.
 */
import { ISLAND_COLORS, THEME_COLORS } from '../../src/extension/themeColors';
import type { ColorSpec } from '../../src/extension/themeColors';

export type BenchTheme = 'dark' | 'light' | 'hc';

/** Ratchet's own theme colours, as VS Code gives a webview the defaults a theme of this kind gets. */
const DEFAULTS_OF: Record<BenchTheme, keyof ColorSpec['defaults']> = { dark: 'dark', light: 'light', hc: 'highContrast' };
function contributedColors(theme: BenchTheme): Record<string, string> {
  const table: readonly ColorSpec[] = [...Object.values(THEME_COLORS), ...ISLAND_COLORS];
  return Object.fromEntries(table.map((c) => [c.id.replace(/\./g, '-'), c.defaults[DEFAULTS_OF[theme]]]));
}

const THEMES: Record<BenchTheme, Record<string, string>> = {
  dark: {
    foreground: '#cccccc',
    descriptionForeground: '#9d9d9d',
    errorForeground: '#f85149',
    'editor-background': '#1f1f1f',
    'panel-border': '#2b2b2b',
    'widget-border': '#313131',
    'editorWidget-border': '#454545',
    'list-hoverBackground': '#2a2d2e',
    'list-activeSelectionBackground': '#04395e',
    'list-activeSelectionForeground': '#ffffff',
    'list-inactiveSelectionBackground': '#37373d',
    'list-focusOutline': '#0078d4',
    focusBorder: '#0078d4',
    'button-background': '#0078d4',
    'button-foreground': '#ffffff',
    'button-secondaryBackground': '#313131',
    'button-secondaryForeground': '#cccccc',
    'charts-blue': '#3794ff',
    'charts-green': '#89d185',
    'charts-red': '#f14c4c',
    'charts-orange': '#d18616',
    'charts-purple': '#b180d7',
    'charts-yellow': '#cca700',
    'testing-iconPassed': '#73c991',
    'testing-iconFailed': '#f14c4c',
    'textCodeBlock-background': '#2b2b2b',
    'diffEditor-insertedLineBackground': '#9bb95533',
    'diffEditor-removedLineBackground': '#ff000033',
    'progressBar-background': '#0078d4',
    'dropdown-background': '#313131',
    'dropdown-foreground': '#cccccc',
    'panel-background': '#181818',
    'panelTitle-activeForeground': '#cccccc',
    'panelTitle-inactiveForeground': '#9d9d9d',
    'panelTitle-activeBorder': '#0078d4',
    'settings-headerBorder': '#2b2b2b',
    'button-hoverBackground': '#026ec1',
    'button-secondaryHoverBackground': '#3c3c3c',
  },
  light: {
    foreground: '#3b3b3b',
    descriptionForeground: '#717171',
    errorForeground: '#f85149',
    'editor-background': '#ffffff',
    'panel-border': '#e5e5e5',
    'widget-border': '#e5e5e5',
    'editorWidget-border': '#c8c8c8',
    'list-hoverBackground': '#f2f2f2',
    'list-activeSelectionBackground': '#e8e8e8',
    'list-activeSelectionForeground': '#000000',
    'list-inactiveSelectionBackground': '#e4e6f1',
    'list-focusOutline': '#005fb8',
    focusBorder: '#005fb8',
    'button-background': '#005fb8',
    'button-foreground': '#ffffff',
    'button-secondaryBackground': '#e5e5e5',
    'button-secondaryForeground': '#3b3b3b',
    'charts-blue': '#1a85ff',
    'charts-green': '#388a34',
    'charts-red': '#e51400',
    'charts-orange': '#d18616',
    'charts-purple': '#652d90',
    'charts-yellow': '#bf8803',
    'testing-iconPassed': '#388a34',
    'testing-iconFailed': '#f14c4c',
    'textCodeBlock-background': '#f8f8f8',
    'diffEditor-insertedLineBackground': '#9bb95533',
    'diffEditor-removedLineBackground': '#ff000033',
    'progressBar-background': '#005fb8',
    'dropdown-background': '#ffffff',
    'dropdown-foreground': '#3b3b3b',
    'panel-background': '#f8f8f8',
    'panelTitle-activeForeground': '#3b3b3b',
    'panelTitle-inactiveForeground': '#3b3b3b',
    'panelTitle-activeBorder': '#005fb8',
    'settings-headerBorder': '#e5e5e5',
    'button-hoverBackground': '#0258a8',
    'button-secondaryHoverBackground': '#cccccc',
  },
  hc: {
    foreground: '#ffffff',
    descriptionForeground: '#ffffff',
    errorForeground: '#f48771',
    'editor-background': '#000000',
    contrastBorder: '#6fc3df',
    contrastActiveBorder: '#f38518',
    focusBorder: '#f38518',
    'list-activeSelectionBackground': '#000000',
    'list-focusOutline': '#f38518',
    'list-hoverBackground': '#000000',
    'button-background': '#000000',
    'button-foreground': '#ffffff',
    'button-border': '#6fc3df',
    'button-secondaryBackground': '#000000',
    'button-secondaryForeground': '#ffffff',
    'charts-blue': '#3794ff',
    'charts-green': '#89d185',
    'charts-red': '#f14c4c',
    'charts-orange': '#d18616',
    'charts-purple': '#b180d7',
    'charts-yellow': '#ffd700',
    'testing-iconPassed': '#73c991',
    'testing-iconFailed': '#f14c4c',
    'textCodeBlock-background': '#000000',
    'diffEditor-insertedTextBackground': '#9bb95533',
    'diffEditor-removedTextBackground': '#ff000033',
    'progressBar-background': '#6fc3df',
    'dropdown-background': '#000000',
    'dropdown-foreground': '#ffffff',
    'dropdown-border': '#6fc3df',
    'panel-background': '#000000',
    'panel-border': '#6fc3df',
    'panelTitle-activeForeground': '#ffffff',
    'panelTitle-inactiveForeground': '#ffffff',
    'panelTitle-activeBorder': '#6fc3df',
    'settings-headerBorder': '#6fc3df',
  },
};

const BODY_CLASS: Record<BenchTheme, string> = { dark: 'vscode-dark', light: 'vscode-light', hc: 'vscode-high-contrast' };

export function stubHostScript(theme: BenchTheme = 'dark'): string {
  const vars = { ...THEMES[theme], ...contributedColors(theme), 'font-family': 'system-ui, sans-serif', 'font-size': '13px', 'editor-font-family': 'monospace', 'editor-font-size': '13px' };
  return `(() => {
  const bench = { sent: [], csp: [], errors: [], state: undefined };
  window.__bench = bench;
  document.addEventListener('securitypolicyviolation', (e) => bench.csp.push(e.violatedDirective + ' ' + e.blockedURI));
  window.addEventListener('error', (e) => bench.errors.push(String(e.message)));
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => {
      // Navigation start → the panel's view/ready: script load, parse and first mount.
      if (m && m.type === 'view/ready' && bench.readyAt === undefined) bench.readyAt = performance.now();
      bench.sent.push(m);
    },
    getState: () => bench.state,
    setState: (s) => { bench.state = s; },
  });
  const vars = ${JSON.stringify(vars)};
  for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty('--vscode-' + k, v);
  document.addEventListener('DOMContentLoaded', () => document.body.classList.add(${JSON.stringify(BODY_CLASS[theme])}));
})();`;
}
