/**
 * Debian's chromium driven by playwright-core (no Playwright-downloaded browser: the machine has
 * no internet and one pinned browser is easier to reason about). A persistent context is the only
 * way to give it our own fresh profile folder: Playwright refuses `--user-data-dir` in `args`.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { chromiumPath } from './paths';

/** Flags that keep a headless chromium from reaching the network or needing a GPU or a sandbox. */
export const chromiumArgs: readonly string[] = [
  '--headless',
  '--no-sandbox', // we run as root in a container; the setuid sandbox is unavailable
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage', // /dev/shm is small in containers; chromium falls back to /tmp
];

export interface BrowserHandle {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Closes the browser process itself (for a persistent context, closing it ends the browser). */
  close(): Promise<void>;
}

export async function launchBrowser(runDir: string): Promise<BrowserHandle> {
  const context = await chromium.launchPersistentContext(join(runDir, 'chromium-profile'), {
    executablePath: chromiumPath,
    headless: true,
    args: [...chromiumArgs],
    // The window a new user tried Ratchet in (issue #15): the panel opens beside the editor at its default width.
    viewport: { width: 1400, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  // The page's console errors are the first thing to read when a spec fails; keep them per run.
  const consoleLog = createWriteStream(join(runDir, 'browser-console.log'), { flags: 'a' });
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') consoleLog.write(`[${msg.type()}] ${msg.text()}\n`);
  });
  page.on('pageerror', (err) => consoleLog.write(`[pageerror] ${err.stack ?? err.message}\n`));
  let closed = false;
  return {
    context,
    page,
    async close() {
      if (closed) return;
      closed = true;
      // Bounded: a wedged renderer must not hang teardown; Playwright's own exit hook kills the
      // browser process group if this times out.
      await Promise.race([context.close(), new Promise((r) => setTimeout(r, 10_000))]);
      consoleLog.end();
    },
  };
}
