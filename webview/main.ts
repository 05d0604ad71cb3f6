// The Ratchet panel's script: adopts the styles, wraps the VS Code API once, and mounts the app.
// Styles are adopted as constructed stylesheets, which a strict CSP (no 'unsafe-inline') allows.
import uplotCss from 'uplot/dist/uPlot.min.css';
import panelCss from './styles.css';
import './elements';
import './components/programs-genealogy';
import './components/programs-throughput';
import { mountPanel } from './components/panel-app';
import { vscodeHost } from './host';

function adoptStyles(...texts: string[]): void {
  const sheets = texts.map((text) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    return sheet;
  });
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, ...sheets];
}

adoptStyles(uplotCss, panelCss);
const host = vscodeHost();
try {
  const root = document.getElementById('root') ?? document.body;
  mountPanel(root, { host });
} catch (err) {
  host.post({ type: 'view/error', message: `The panel failed to start: ${err instanceof Error ? err.message : String(err)}` });
  throw err;
}
