/**
 * Waits until a condition holds: vitest's `vi.waitFor`, checking every 10 ms, failing after a
 * generous deadline with what it waited for (a loaded machine is slow, not wrong). For conditions
 * on state a test cannot be told about (a child process, a file, a socket); where the test holds
 * the code under test, it should park and release calls instead.
 */
import { vi } from 'vitest';

export async function until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await ok())) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: 10 },
  );
}
