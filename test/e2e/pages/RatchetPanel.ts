/**
 * Ratchet's webview panel. VS Code nests every webview twice: an outer `iframe.webview` (gets
 * `.ready` once loaded) hosting an inner `iframe#active-frame` with the extension's HTML. The inner
 * frame's name stays `pending-frame`, so it is selected by id, never by name.
 *
 * Inside, the parts are Ratchet's own components (`ratchet-*` tags, light DOM): the run header,
 * the tabs, the verdict feed (one `.feed-row` per gate decision, `decision-commit|reject`), the
 * wealth chart (a uPlot canvas plus a text summary that is also its accessible name) and the
 * lineage tree (`.lineage-row`, whose aria-label says what became of each candidate).
 */
import type { FrameLocator, Locator, Page } from 'playwright-core';
import type { TabId } from '../../../src/protocol/webview';
import { waitUntil, waitVisible } from './waits';

/** What the chart's summary says about one trace, e.g. "Selected c1: evidence ×24 (needs ×20) after 9 … ; committed." */
export interface WealthSummary {
  who: 'Under test' | 'Selected';
  candidate: string;
  wealth: number;
  threshold: number;
  pairs: number;
  outcome: 'committed' | 'rejected' | 'futile' | undefined;
}

/** Reads "×1.2k"-style factors the panel prints (format.ts's formatFactor). */
export function parseFactor(text: string): number {
  const m = /^([\d.]+)(k|M)?$/.exec(text.trim());
  if (!m) return Number.NaN;
  return Number(m[1]) * (m[2] === 'k' ? 1e3 : m[2] === 'M' ? 1e6 : 1);
}

export function parseWealthSummary(summary: string): WealthSummary[] {
  const out: WealthSummary[] = [];
  const re = /(Under test|Selected) (\S+): evidence ×(\S+)(?: \(needs ×(\S+)\))? after (\d+) discordant pairs? and \d+ ties?(?:; (committed|rejected|futile))?\./g;
  for (const m of summary.matchAll(re)) {
    out.push({
      who: m[1] as WealthSummary['who'],
      candidate: m[2]!,
      wealth: parseFactor(m[3]!),
      // Absent before a candidate's first discordant pair: the threshold is not known yet.
      threshold: m[4] === undefined ? Number.NaN : parseFactor(m[4]),
      pairs: Number(m[5]),
      outcome: m[6] as WealthSummary['outcome'],
    });
  }
  return out;
}

export class RatchetPanel {
  /** The panel's document (the inner frame). */
  readonly frame: FrameLocator;
  readonly app: Locator;
  /** The editor tab that holds the panel. */
  readonly tab: Locator;
  /** The header's status word ("running", "finished · 1 commit"…), classed `status-<status>`. */
  readonly status: Locator;
  /** Rendered verdict-feed rows, newest first (the list is virtual: only rows on screen exist). */
  readonly feedRows: Locator;
  readonly chart: Locator;
  readonly chartCanvas: Locator;
  readonly chartSummary: Locator;
  readonly lineageRows: Locator;

  constructor(private readonly page: Page) {
    this.frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    this.app = this.frame.locator('ratchet-panel-app');
    this.tab = page.locator('.tabs-container .tab', { hasText: /^Ratchet$/ });
    this.status = this.frame.locator('ratchet-run-header .run-status');
    this.feedRows = this.frame.locator('ratchet-verdict-feed .feed-row');
    this.chart = this.frame.locator('ratchet-wealth-chart');
    this.chartCanvas = this.chart.locator('.chart canvas');
    this.chartSummary = this.chart.locator('.chart-summary');
    this.lineageRows = this.frame.locator('ratchet-lineage-tree .lineage-row');
  }

  locator(selector: string): Locator {
    return this.frame.locator(selector);
  }

  /** Waits until `selector` (default: the body) is visible inside the panel. */
  async waitForReady(selector = 'body', timeoutMs = 30_000): Promise<void> {
    await waitVisible(this.frame.locator(selector), `Ratchet panel element '${selector}'`, timeoutMs);
  }

  /** Feed rows of one decision kind. */
  decisionRows(decision: 'commit' | 'reject'): Locator {
    return this.feedRows.and(this.frame.locator(`.decision-${decision}`));
  }

  async showTab(tab: TabId): Promise<void> {
    const header = this.frame.locator(`vscode-tab-header[data-tab="${tab}"]`);
    await waitVisible(header, `panel tab header '${tab}'`);
    await header.click();
    await waitVisible(this.frame.locator(`vscode-tab-panel[data-tab="${tab}"]`), `panel tab '${tab}'`);
  }

  /** Waits for the header's status to read `status` (e.g. 'finished'); returns its text. */
  async waitForStatus(status: 'running' | 'finished' | 'failed' | 'cancelled', timeoutMs = 60_000): Promise<string> {
    const target = this.frame.locator(`ratchet-run-header .run-status.status-${status}`);
    let seen = '';
    return waitUntil(
      async () => {
        if (await target.isVisible()) return (await target.textContent())?.trim() ?? '';
        seen = (await this.status.textContent({ timeout: 1_000 }).catch(() => null))?.trim() ?? '(no header yet)';
        return undefined;
      },
      () => `panel run status '${status}' (${String(target)}); last status: '${seen}'`,
      timeoutMs,
      200,
    );
  }

  /** The chart's summary once it mentions a candidate that `accept` approves of. */
  async waitForWealth(accept: (traces: WealthSummary[]) => boolean, what: string, timeoutMs = 30_000): Promise<WealthSummary[]> {
    let text = '';
    return waitUntil(
      async () => {
        text = (await this.chartSummary.textContent({ timeout: 1_000 }).catch(() => null)) ?? '';
        const traces = parseWealthSummary(text);
        return accept(traces) ? traces : undefined;
      },
      () => `wealth chart summary showing ${what} (${String(this.chartSummary)}); last: '${text}'`,
      timeoutMs,
      200,
    );
  }

  /** Aria-labels of the rendered lineage rows ("c1 committed, incumbent, applied by you"…). */
  async lineageLabels(): Promise<string[]> {
    return this.lineageRows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  }
}
