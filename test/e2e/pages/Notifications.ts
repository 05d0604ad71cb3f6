/**
 * Notification toasts (window.showInformationMessage and friends). Toasts hide themselves after a
 * while, so waits look for the message as soon as the action that raises it is done. A message
 * that arrives while the window is still restoring may never show as a toast: it waits in the
 * notification center (the bell), which `clickButtonAnywhere` opens when needed.
 */
import type { Locator, Page } from 'playwright-core';
import type { CommandPalette } from './CommandPalette';
import { waitUntil, waitVisible } from './waits';

export class Notifications {
  readonly toasts: Locator;
  readonly center: Locator;

  constructor(
    private readonly page: Page,
    private readonly palette?: CommandPalette,
  ) {
    this.toasts = page.locator('.notifications-toasts .notification-toast');
    this.center = page.locator('.notifications-center');
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

  /**
   * Clicks `button` on the notification with this message, wherever it is: a toast, or else the
   * notification center (opened through its command). Returns the message's text.
   */
  async clickButtonAnywhere(text: string | RegExp, button: string, timeoutMs = 30_000): Promise<string> {
    const item = (scope: Locator) =>
      scope
        .locator('.notification-list-item')
        .filter({ has: this.page.locator('.notification-list-item-message', { hasText: text }) })
        .first();
    const found = await waitUntil(
      async () => {
        if (await item(this.toasts).isVisible()) return item(this.toasts);
        if (await item(this.center).isVisible()) return item(this.center);
        if (this.palette && !(await this.center.isVisible())) await this.palette.run('Notifications: Show Notifications');
        return undefined;
      },
      `notification ${String(text)} in a toast or the notification center`,
      timeoutMs,
      250,
    );
    const message = (await found.locator('.notification-list-item-message').textContent())?.trim() ?? '';
    await found.getByRole('button', { name: button }).click();
    return message;
  }
}
