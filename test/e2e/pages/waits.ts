/**
 * Bounded waits on a state of the page. Every failure names what was awaited and the locator, so a
 * red run says "palette row 'Ratchet: Show Runs' (locator(...)) not visible within 30000 ms" rather
 * than a bare timeout. There is no sleep here: each helper polls a condition until a deadline.
 */
import type { Locator } from 'playwright-core';

/**
 * How long a state of the page may take to come. Generous on purpose: on a loaded machine (two
 * cores, load 20) the workbench can take many seconds to answer a key, and a deadline only ends a
 * run that has already failed; it never slows a passing one.
 */
export const defaultTimeoutMs = 30_000;

/**
 * One attempt inside a retrying wait (hover again, reopen a list): long enough that a slow page
 * still answers within it, since the retry cannot make a loaded machine faster.
 */
export const attemptTimeoutMs = 15_000;

export async function waitVisible(locator: Locator, what: string, timeoutMs = defaultTimeoutMs): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout: timeoutMs });
  } catch (cause) {
    throw new Error(`${what} (${String(locator)}) not visible within ${timeoutMs} ms`, { cause });
  }
}

export async function waitHidden(locator: Locator, what: string, timeoutMs = defaultTimeoutMs): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'hidden', timeout: timeoutMs });
  } catch (cause) {
    throw new Error(`${what} (${String(locator)}) still visible after ${timeoutMs} ms`, { cause });
  }
}

/** Like Playwright Test's `toHaveCount`: waits until the locator matches exactly `count` elements. */
export async function waitCount(locator: Locator, count: number, what: string, timeoutMs = defaultTimeoutMs): Promise<void> {
  let last = -1;
  await waitUntil(
    async () => {
      last = await locator.count();
      return last === count ? true : undefined;
    },
    () => `${what} (${String(locator)}): expected ${count} element(s), last saw ${last}`,
    timeoutMs,
  );
}

/**
 * Polls `probe` until it returns something other than `undefined` and returns that value.
 * `describe` is evaluated on timeout so the message can report the last observed state.
 */
export async function waitUntil<T>(probe: () => Promise<T | undefined>, describe: string | (() => string), timeoutMs = defaultTimeoutMs, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms: ${typeof describe === 'function' ? describe() : describe}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Escapes text for use inside a RegExp (labels such as "Ratchet: Show Runs (beta)"). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
