/**
 * Notification toasts (window.showInformationMessage and friends). Toasts hide themselves after a
 * while, so waits look for the message as soon as the action that raises it is done.
 */
import type { Locator, Page } from 'playwright-core';
import { waitVisible } from './waits';

export class Notifications {
  readonly toasts: Locator;

  constructor(private readonly page: Page) {
    this.toasts = page.locator('.notifications-toasts .notification-toast');
  }

  /** A toast whose message contains `text` (or matches the RegExp). */
  toast(text: string | RegExp): Locator {
    return this.toasts.filter({ has: this.page.locator('.notification-list-item-message', { hasText: text }) });
  }

  /** Waits for a toast with the message and returns its full text. */
  async waitFor(text: string | RegExp, timeoutMs = 30_000): Promise<string> {
    const toast = this.toast(text).first();
    await waitVisible(toast, `notification ${String(text)}`, timeoutMs);
    return (await toast.locator('.notification-list-item-message').textContent())?.trim() ?? '';
  }

  /** Texts of the toasts shown now. */
  async messages(): Promise<string[]> {
    return (await this.toasts.locator('.notification-list-item-message').allTextContents()).map((t) => t.trim());
  }

  /** Clicks a button (e.g. "Accept") on the toast with this message. */
  async clickButton(text: string | RegExp, button: string, timeoutMs = 30_000): Promise<void> {
    const toast = this.toast(text).first();
    await waitVisible(toast, `notification ${String(text)}`, timeoutMs);
    await toast.getByRole('button', { name: button }).click();
  }
}
