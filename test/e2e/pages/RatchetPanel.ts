/**
 * Ratchet's webview panel. VS Code nests every webview twice: an outer `iframe.webview` (gets
 * `.ready` once loaded) hosting an inner `iframe#active-frame` with the extension's HTML. The inner
 * frame's name stays `pending-frame`, so it is selected by id, never by name.
 */
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { waitVisible } from './waits';

export class RatchetPanel {
  /** The panel's document (the inner frame). */
  readonly frame: FrameLocator;

  constructor(page: Page) {
    this.frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  }

  locator(selector: string): Locator {
    return this.frame.locator(selector);
  }

  /** Waits until `selector` (default: the body) is visible inside the panel. */
  async waitForReady(selector = 'body', timeoutMs = 30_000): Promise<void> {
    await waitVisible(this.frame.locator(selector), `Ratchet panel element '${selector}'`, timeoutMs);
  }
}
