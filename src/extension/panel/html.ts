/**
 * The panel's HTML, from one pure function so the CSP is testable without VS Code. Scripts run
 * only with the per-load nonce; styles, fonts and images load only from the extension's own
 * resources (the panel's styles are constructed stylesheets, which CSP does not treat as inline).
 */

export interface PanelHtmlParams {
  /** `webview.cspSource`: the origin the webview serves extension resources from. */
  cspSource: string;
  nonce: string;
  /** `webview.asWebviewUri(out/webview.js)`, as a string. */
  scriptUri: string;
  /** `webview.asWebviewUri(out/codicons/codicon.css)`, as a string. */
  codiconsUri: string;
  title?: string;
  /** An extra script run before the panel's (the bench's stub host); it gets the same nonce. */
  preludeScript?: string;
}

/** The folders the webview may load from, relative to the extension root. */
export const WEBVIEW_RESOURCE_ROOTS = ['out', 'media'] as const;

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return ["default-src 'none'", `script-src 'nonce-${nonce}'`, `style-src ${cspSource}`, `font-src ${cspSource}`, `img-src ${cspSource} data:`].join('; ');
}

export function panelHtml(p: PanelHtmlParams): string {
  const nonce = attr(p.nonce);
  const prelude = p.preludeScript === undefined ? '' : `\n    <script nonce="${nonce}">${p.preludeScript.replace(/<\/script/gi, '<\\/script')}</script>`;
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(p.cspSource, p.nonce))}" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <link id="vscode-codicon-stylesheet" rel="stylesheet" href="${attr(p.codiconsUri)}" />
    <title>${text(p.title ?? 'Ratchet')}</title>
  </head>
  <body>
    <div id="root"></div>${prelude}
    <script nonce="${nonce}" src="${attr(p.scriptUri)}"></script>
  </body>
</html>
`;
}

/** 128 random bits, base64: a fresh one per page load, so no injected markup can guess it. */
export function makeNonce(randomBytes: (n: number) => Uint8Array): string {
  return Buffer.from(randomBytes(16)).toString('base64');
}

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function text(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
