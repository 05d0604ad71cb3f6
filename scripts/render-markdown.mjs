// Renders a Markdown file (a `ratchet check` report, a job summary) to a PNG in Chromium, styled
// roughly as GitHub shows it, so a report can be looked at as a reviewer sees it:
//   node scripts/render-markdown.mjs report.md docs/images/check-report.png [chromium path]
import { readFileSync } from 'node:fs';
import MarkdownIt from 'markdown-it';
import { chromium } from 'playwright-core';

const [input, output, executablePath = '/usr/bin/chromium'] = process.argv.slice(2);
if (!input || !output) {
  process.stderr.write('usage: node scripts/render-markdown.mjs <in.md> <out.png> [chromium]\n');
  process.exit(2);
}
// html: true as GitHub allows <details>; the report escapes everything else it shows.
const body = new MarkdownIt({ html: true }).render(readFileSync(input, 'utf8'));
const css = `body{font:14px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;max-width:980px;margin:24px auto;padding:0 16px}
table{border-collapse:collapse;margin:12px 0}th,td{border:1px solid #d0d7de;padding:6px 13px;vertical-align:top}th{background:#f6f8fa}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;background:#f6f8fa;border-radius:6px}code{padding:2px 4px}pre{padding:12px;overflow:auto}
details{border:1px solid #d0d7de;border-radius:6px;padding:8px 12px;margin:10px 0}summary{cursor:pointer;font-weight:600}h2{border-bottom:1px solid #d0d7de;padding-bottom:6px}`;
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1040, height: 600 } });
  await page.setContent(`<!doctype html><meta charset="utf-8"><style>${css}</style><body>${body}</body>`);
  // The first fold open, as a reviewer would click it; the others stay folded.
  await page
    .locator('details')
    .first()
    .evaluate((el) => el.setAttribute('open', ''));
  await page.screenshot({ path: output, fullPage: true });
} finally {
  await browser.close();
}
