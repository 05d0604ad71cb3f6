/**
 * The Runs view (Ratchet's activity-bar container): one row per run, labelled "09:41 · how it
 * stands · file" (src/extension/views/runsTree.ts), its state and progress line in the description.
 */
import type { Locator, Page } from 'playwright-core';
import type { CommandPalette } from './CommandPalette';
import { waitUntil, waitVisible } from './waits';

export class RunsView {
  constructor(
    private readonly page: Page,
    private readonly palette: CommandPalette,
  ) {}

  /** Reveals the view through the command VS Code makes for it. */
  async open(): Promise<void> {
    await this.palette.run('Ratchet: Focus on Runs View');
  }

  /** The rows of runs on a file with this name. */
  runRows(file: string): Locator {
    const pane = this.page.locator('.pane', { has: this.page.locator('.pane-header', { hasText: 'Runs' }) });
    return pane.locator('.monaco-list-row', { has: this.page.locator('.label-name', { hasText: file }) });
  }

  /** Waits until the newest run on `file` has a label matching `pattern` (e.g. / · cancelled · /); returns it. */
  async waitForRunLabel(file: string, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
    const row = this.runRows(file).first();
    await waitVisible(row, `a run on ${file} in the Runs view`, timeoutMs);
    let last = '';
    return waitUntil(
      async () => {
        last = (
          (await row
            .locator('.label-name')
            .textContent()
            .catch(() => null)) ?? ''
        ).trim();
        return pattern.test(last) ? last : undefined;
      },
      () => `the Runs view's run on ${file} to read ${String(pattern)}; its label: "${last}"`,
      timeoutMs,
    );
  }
}
