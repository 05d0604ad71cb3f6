/**
 * Provenance on the file (issue #15, part 5): the editor's hover on a line, and the "Prompt History"
 * view in Ratchet's view container.
 */
import type { Locator, Page } from 'playwright-core';
import type { CommandPalette } from './CommandPalette';
import type { Editor } from './Editor';
import { attemptTimeoutMs, waitUntil, waitVisible } from './waits';

export class Provenance {
  /** The editor's hover widget (the one with content, not the sash). */
  readonly hover: Locator;
  readonly historyRows: Locator;

  constructor(
    private readonly page: Page,
    private readonly editor: Editor,
    private readonly palette: CommandPalette,
  ) {
    this.hover = page.locator('.monaco-hover .monaco-hover-content').filter({ hasText: 'Ratchet' });
    const pane = page.locator('.pane').filter({ has: page.locator('.pane-header', { hasText: /Prompt History/i }) });
    this.historyRows = pane.locator('.monaco-list-row');
  }

  /**
   * Hovers the first line of the active editor holding `text` until the Ratchet hover shows, and
   * returns its text. Each attempt moves away first: the editor shows a hover only on a move.
   */
  async hoverLine(text: string, timeoutMs = 30_000): Promise<string> {
    const line = this.editor.active.locator('.view-line', { hasText: text }).first();
    await waitVisible(line, `editor line '${text}'`, timeoutMs);
    return waitUntil(
      async () => {
        await this.page.mouse.move(5, 5);
        const box = await line.boundingBox();
        if (!box) return undefined;
        await this.page.mouse.move(box.x + 20, box.y + box.height / 2);
        try {
          await this.hover.first().waitFor({ state: 'visible', timeout: attemptTimeoutMs });
        } catch {
          return undefined;
        }
        return (await this.hover.first().innerText()).trim();
      },
      `a Ratchet hover on the line '${text}'`,
      timeoutMs,
      0,
    );
  }

  /** Opens the Prompt History view, through the "Focus on … View" command VS Code makes for every view. */
  async openHistory(): Promise<void> {
    await this.palette.run('Ratchet: Focus on Prompt History View');
  }

  async historyLabels(): Promise<string[]> {
    // The row's label and description as shown (its aria-label is the tooltip).
    return this.historyRows.evaluateAll((els) => els.map((el) => [el.querySelector('.label-name'), el.querySelector('.label-description')].map((x) => x?.textContent ?? '').join(' — ')));
  }
}
