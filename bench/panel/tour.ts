/**
 * With --shots, the bench also walks through every tab of one run and screenshots it, answering
 * the panel's evidence request the way the host does. For looking at, not for timing.
 */
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { buildEvidence } from '../../src/extension/panel/evidence';
import type { RunStore } from '../../src/extension/runs/runStore';
import type { HostMessage, ViewMessage } from '../../src/protocol/webview';
import type { BenchTheme } from './stubHost';

export async function tour(context: BrowserContext, store: RunStore, runId: string, dir: string, open: (c: BrowserContext, theme: BenchTheme) => Promise<Page>): Promise<void> {
  for (const theme of ['dark', 'light', 'hc'] as const) await tourTheme(context, store, runId, dir, theme, open);
}

async function tourTheme(context: BrowserContext, store: RunStore, runId: string, dir: string, theme: BenchTheme, open: (c: BrowserContext, theme: BenchTheme) => Promise<Page>): Promise<void> {
  const page = await open(context, theme);
  const name = (what: string) => join(dir, `${theme}-${what}.png`);
  const deliver = (m: HostMessage) => page.evaluate((msg) => window.postMessage(msg, '*'), m);
  await deliver({ type: 'run/snapshot', runs: store.runs(), run: store.snapshot(runId)! });
  await page.waitForSelector('ratchet-verdict-feed .vlist-row');
  await page.click('ratchet-verdict-feed .vlist-row >> nth=1');
  const request = await page.waitForFunction(() => {
    const sent = (window as unknown as { __bench: { sent: ViewMessage[] } }).__bench.sent;
    return sent.findLast((m) => m.type === 'evidence/request') ?? false;
  });
  const { candidateId } = (await request.jsonValue()) as Extract<ViewMessage, { type: 'evidence/request' }>;
  const evidence = buildEvidence(store.get(runId)!, candidateId);
  if (evidence) await deliver({ type: 'evidence/show', evidence });
  await page.waitForSelector('ratchet-evidence-view .evidence-summary');
  await page.screenshot({ path: name('evidence') });
  await page.evaluate(() => window.scrollTo(0, 800));
  await page.screenshot({ path: name('evidence-items') });
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const tab of ['verdicts', 'ratings', 'lineage', 'cost']) {
    await page.click(`vscode-tab-header[data-tab="${tab}"]`);
    await page.waitForTimeout(300);
    await page.screenshot({ path: name(tab) });
  }
  if (theme === 'dark') await interactions(page);
  await page.close();
}

/** The real components in a real browser: the filter radios, the Cancel button and the keyboard reach the host. */
async function interactions(page: Page): Promise<void> {
  const sent = () => page.evaluate(() => (window as unknown as { __bench: { sent: ViewMessage[] } }).__bench.sent.map((m) => m.type));
  await page.click('vscode-tab-header[data-tab="verdicts"]');
  const before = (await sent()).length;
  await page.click('vscode-radio[data-filter="reject"]');
  await page.waitForFunction(() => [...document.querySelectorAll('ratchet-verdict-feed .vlist-row:not([hidden])')].every((r) => r.classList.contains('decision-reject')));
  await page.click('[data-action="cancel"]');
  await page.focus('ratchet-verdict-feed ratchet-virtual-list');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const types = (await sent()).slice(before);
  for (const expected of ['run/cancel', 'evidence/request']) {
    if (!types.includes(expected as ViewMessage['type'])) throw new Error(`interaction check: no ${expected} after clicking/typing (sent: ${types.join(', ')})`);
  }
  const state = await page.evaluate(() => (window as unknown as { __bench: { state: unknown } }).__bench.state);
  if ((state as { filter?: string }).filter !== 'reject') throw new Error(`interaction check: setState kept ${JSON.stringify(state)}`);
}
