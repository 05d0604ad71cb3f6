// The panel's XSS guarantee rests on one rule: text goes in as text. A source scan makes the rule
// fail loudly the day someone reaches for an HTML-parsing sink in webview/.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));
}

describe('webview sources', () => {
  it('never parse strings as HTML', () => {
    const sinks = /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|createContextualFragment|DOMParser|\bsrcdoc\b/;
    const offenders = sources('webview').filter((file) => sinks.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
