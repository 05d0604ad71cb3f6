import { describe, expect, it } from 'vitest';
import { WEBVIEW_RESOURCE_ROOTS, contentSecurityPolicy, makeNonce, panelHtml } from '../../../src/extension/panel/html';

const params = { cspSource: 'https://ext.vscode-cdn.net', nonce: 'n0nce+/=', scriptUri: 'https://ext.vscode-cdn.net/out/webview.js', codiconsUri: 'https://ext.vscode-cdn.net/out/codicons/codicon.css' };

describe('panel HTML', () => {
  it('sets a strict CSP: scripts only with the nonce, styles and fonts only from the extension', () => {
    expect(contentSecurityPolicy('https://ext.vscode-cdn.net', 'abc')).toBe("default-src 'none'; script-src 'nonce-abc'; style-src https://ext.vscode-cdn.net; font-src https://ext.vscode-cdn.net; img-src https://ext.vscode-cdn.net data:");
    const html = panelHtml(params);
    expect(html).toContain(`content="default-src 'none'; script-src 'nonce-n0nce+/='; style-src https://ext.vscode-cdn.net;`);
    expect(html).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('gives every script the nonce and loads the bundle and the codicons from the given URIs', () => {
    const html = panelHtml({ ...params, preludeScript: 'window.stub = "</script>";' });
    // The prelude cannot close its own element early: only the two real closing tags remain.
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html.match(/<script [^>]*>/g)).toEqual(['<script nonce="n0nce+/=">', '<script nonce="n0nce+/=" src="https://ext.vscode-cdn.net/out/webview.js">']);
    expect(html).toContain('<link id="vscode-codicon-stylesheet" rel="stylesheet" href="https://ext.vscode-cdn.net/out/codicons/codicon.css" />');
    expect(html).toContain('<div id="root"></div>');
  });

  it('escapes what it interpolates', () => {
    const html = panelHtml({ ...params, title: '<b>x</b>', scriptUri: 'x" onload="alert(1)' });
    expect(html).toContain('<title>&lt;b&gt;x&lt;/b&gt;</title>');
    expect(html).toContain('src="x&quot; onload=&quot;alert(1)"');
  });

  it('makes a fresh 128-bit nonce and limits resources to out/ and media/', () => {
    let seed = 0;
    const bytes = (n: number) => Uint8Array.from({ length: n }, () => seed++);
    const a = makeNonce(bytes);
    const b = makeNonce(bytes);
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64')).toHaveLength(16);
    expect(WEBVIEW_RESOURCE_ROOTS).toEqual(['out', 'media']);
  });
});
