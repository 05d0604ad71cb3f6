/**
 * The Problems panel (diagnostics). Rows are read by their accessible names, which VS Code builds
 * from severity, message, source and position, e.g. "Error: … at line 3 column 1".
 */
import type { Locator, Page } from 'playwright-core';
import type { CommandPalette } from './CommandPalette';
import { waitCount, waitVisible } from './waits';

export class ProblemsPanel {
  readonly view: Locator;
  readonly rows: Locator;

  constructor(
    page: Page,
    private readonly palette: CommandPalette,
  ) {
    this.view = page.locator('.markers-panel');
    this.rows = this.view.locator('.monaco-list-row');
  }

  /** Opens the panel through its command (a keybinding could be shadowed by the page). */
  async open(): Promise<void> {
    await this.palette.run('View: Focus Problems (Errors, Warnings, Infos)');
    await waitVisible(this.view, 'Problems panel', 15_000);
  }

  /** Waits for the panel's own "no problems" message (an empty list alone could be not yet rendered). */
  async waitForNoProblems(timeoutMs = 30_000): Promise<void> {
    await waitVisible(this.view.getByText('No problems have been detected in the workspace.'), 'Problems panel "no problems" message', timeoutMs);
    await waitCount(this.rows, 0, 'Problems rows', timeoutMs);
  }

  /** Accessible names of the rows shown (file rows and marker rows). */
  async rowLabels(): Promise<string[]> {
    return this.rows.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
  }

  /** Waits for a marker row whose text contains `text` and returns its accessible name. */
  async waitForProblem(text: string | RegExp, timeoutMs = 30_000): Promise<string> {
    const row = this.rows.filter({ hasText: text }).first();
    await waitVisible(row, `problem ${String(text)}`, timeoutMs);
    return (await row.getAttribute('aria-label')) ?? '';
  }
}
