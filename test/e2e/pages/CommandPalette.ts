/**
 * The command palette (F1). Its list is computed when it opens, so right after start-up the first
 * open often lacks an extension's commands: `run` closes and reopens it until the command is
 * listed, within one overall deadline.
 */
import type { Locator, Page } from 'playwright-core';
import { attemptTimeoutMs, defaultTimeoutMs, escapeRegExp, waitHidden, waitVisible } from './waits';

export class CommandPalette {
  readonly widget: Locator;
  readonly input: Locator;
  readonly rows: Locator;
  /** How many openings the last `show` needed (1 = listed at once); reported by the smoke spec. */
  lastOpenings = 0;

  constructor(private readonly page: Page) {
    this.widget = page.locator('.quick-input-widget');
    this.input = page.locator('.quick-input-widget input');
    this.rows = page.locator('.quick-input-list .monaco-list-row');
  }

  /** The row whose label is exactly `title` ("Category: Title", as the palette shows it). */
  row(title: string): Locator {
    return this.rows.filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) });
  }

  /** In a quick pick already open: filters it to `title` and, once that row is the focused one, picks it with Enter. */
  async pick(title: string): Promise<void> {
    await this.input.fill(title);
    await waitVisible(this.row(title).and(this.page.locator('.focused')), `the ${title} row, focused`);
    await this.input.press('Enter');
  }

  async open(): Promise<void> {
    await this.page.keyboard.press('F1');
    await waitVisible(this.input, 'command palette input', defaultTimeoutMs);
  }

  async close(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await waitHidden(this.widget, 'command palette', defaultTimeoutMs);
  }

  /**
   * Opens the palette filtered to `title` and waits until that command is listed, reopening the
   * palette while it is not (each attempt waits `attemptMs` for the row). Leaves the palette open.
   */
  async show(title: string, { timeoutMs = 60_000, attemptMs = 3_000 } = {}): Promise<Locator> {
    const deadline = Date.now() + timeoutMs;
    const row = this.row(title);
    for (let attempt = 1; ; attempt++) {
      await this.open();
      try {
        // Inside the retry: something else taking focus (a panel revealed by a command still
        // finishing) closes the palette under us, and the next opening starts over.
        await this.input.fill(`>${title}`, { timeout: attemptMs });
        await row.first().waitFor({ state: 'visible', timeout: Math.max(1, Math.min(attemptMs, deadline - Date.now())) });
        this.lastOpenings = attempt;
        return row.first();
      } catch (cause) {
        const listed = await this.rows.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
        if (await this.widget.isVisible()) await this.close();
        if (Date.now() >= deadline) {
          throw new Error(`command palette row '${title}' (${String(row)}) not listed after ${attempt} opening(s) in ${timeoutMs} ms; last list: ${JSON.stringify(listed)}`, { cause });
        }
      }
    }
  }

  /** Runs a command by its palette title and waits for the palette to close. */
  async run(title: string, opts?: { timeoutMs?: number }): Promise<void> {
    await this.accept(await this.show(title, opts));
    await waitHidden(this.widget, `command palette after running '${title}'`, defaultTimeoutMs);
  }

  /**
   * Runs a command that opens a quick input of its own (an input box, a pick list): done when
   * `next` shows. The palette's closing cannot be awaited, since the command's input reuses its
   * widget. In the seconds after the window's start-up the palette has been seen to take Enter on
   * the command's focused row and close without running it: nothing showed, and a build that logged
   * each command's call logged none (firstRun, each time right after Set API Key: three times in CI;
   * locally, with four spinning processes on the two cores, 2 of 9 runs, then 5 of 17 with the
   * focus awaited before Enter). So, as a user would, this runs it again when an attempt ends with
   * `next` absent, and says so in the log; a command that did start and is only slow is then asked
   * twice, which a command opening a quick input survives (the second input replaces the first).
   */
  async runInto(title: string, next: Locator, what: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const how = await this.accept(await this.show(title));
      try {
        await next.first().waitFor({ state: 'visible', timeout: Math.max(1, Math.min(attemptTimeoutMs, deadline - Date.now())) });
        return;
      } catch (cause) {
        if (Date.now() >= deadline) throw new Error(`${what} (${String(next)}) not visible within ${timeoutMs} ms of running '${title}'`, { cause });
        const showing = (await this.widget.isVisible()) ? (await this.widget.innerText()).replace(/\s+/g, ' ').slice(0, 200) : 'nothing';
        console.log(`[e2e] '${title}' brought no ${what} within ${attemptTimeoutMs} ms after ${how} (quick input showing: ${showing}); running it again`);
        if (await this.widget.isVisible()) await this.close();
      }
    }
  }

  /**
   * Picks the command's row as a user would: Enter once it is the focused row. The row can show
   * before the list has moved its focus there (the filter still settling), so this waits for the
   * focus first and clicks only a row that never gets it (a click can land on a row the list is
   * re-rendering, and then nothing runs). Returns which it did, for the log.
   */
  private async accept(row: Locator): Promise<'Enter' | 'click'> {
    try {
      await row.and(this.page.locator('.focused')).first().waitFor({ state: 'visible', timeout: 5_000 });
    } catch {
      await row.click();
      return 'click';
    }
    await this.input.press('Enter');
    return 'Enter';
  }
}
