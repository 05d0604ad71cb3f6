/**
 * "Developer: Show Running Extensions": the workbench's own record of each extension's activation
 * (the extension host logs only when activation starts, not how long it took). The shown figure is
 * code loading + the synchronous part of `activate()`; work `activate()` awaits is not included.
 */
import type { Locator, Page } from 'playwright-core';
import type { CommandPalette } from './CommandPalette';
import { attemptTimeoutMs, escapeRegExp, waitUntil, waitVisible } from './waits';

export interface ActivationRecord {
  /** The row's text, e.g. "Activation: 41ms" or "Startup Activation: 41ms". */
  text: string;
  ms: number;
  startup: boolean;
}

export class RunningExtensions {
  readonly view: Locator;

  constructor(
    private readonly page: Page,
    private readonly palette: CommandPalette,
  ) {
    this.view = page.locator('.runtime-extensions-editor');
  }

  async open(): Promise<void> {
    await this.palette.run('Developer: Show Running Extensions');
    await waitVisible(this.view, 'Running Extensions editor');
  }

  /**
   * Finds the extension's row by display name and reads its activation time, scrolling the
   * (virtualised) list until the row is rendered and waiting while it still says "Activating...".
   */
  async activationOf(displayName: string, timeoutMs = 30_000): Promise<ActivationRecord> {
    if (!(await this.view.isVisible())) await this.open();
    const list = this.view.locator('.monaco-list').first();
    const row = this.view
      .locator('.monaco-list-row')
      .filter({ has: this.page.locator('.name', { hasText: new RegExp(`^${escapeRegExp(displayName)}$`) }) })
      .first();
    let seen = '';
    return waitUntil(
      async () => {
        if (!(await row.isVisible())) {
          // Only the rows in view exist in the DOM; scroll on and look again.
          await list.hover({ timeout: attemptTimeoutMs });
          await this.page.mouse.wheel(0, 300);
          seen = 'row not rendered yet';
          return undefined;
        }
        seen = (await row.locator('.activation-time').textContent())?.trim() ?? '';
        const match = /^(Startup )?Activation: (\d+)ms$/.exec(seen);
        return match ? { text: seen, ms: Number(match[2]), startup: match[1] !== undefined } : undefined;
      },
      () => `activation time of '${displayName}' in Running Extensions (last seen: '${seen}')`,
      timeoutMs,
      250,
    );
  }
}
