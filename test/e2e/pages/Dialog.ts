/**
 * A modal message (`showWarningMessage(…, { modal: true }, …)`): VS Code draws it in the workbench
 * as `.monaco-dialog-box`, its message and detail as text, its choices as buttons.
 */
import type { Locator, Page } from 'playwright-core';
import { defaultTimeoutMs, waitHidden, waitVisible } from './waits';

export class Dialog {
  readonly box: Locator;

  constructor(private readonly page: Page) {
    this.box = page.locator('.monaco-dialog-box');
  }

  /** Waits for a modal whose text matches; returns its message and detail as shown. */
  async waitFor(text: string | RegExp, timeoutMs = 30_000): Promise<string> {
    const box = this.box.filter({ hasText: text }).first();
    await waitVisible(box, `modal dialog ${String(text)}`, timeoutMs);
    return ((await box.locator('.dialog-message').textContent()) ?? '').trim();
  }

  /** Presses one of its buttons and waits for it to close. */
  async choose(button: string, timeoutMs = defaultTimeoutMs): Promise<void> {
    await this.box.getByRole('button', { name: button, exact: true }).click();
    await waitHidden(this.box, `modal dialog after '${button}'`, timeoutMs);
  }
}
