/**
 * vitest's global setup for `npm test`: one folder for every throwaway workspace of the run
 * (evolveWorkspace.ts's SCRATCH), removed when the run ends. The workspaces go to /dev/shm, which
 * is memory: left behind, each `npm test` kept about 800 of them there (some 200 MB) until the
 * machine restarted. The workers inherit the folder through the environment this sets before they start.
 */
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SCRATCH_VARIABLE = 'RATCHET_TEST_SCRATCH';

export default function setup(): () => void {
  const dir = mkdtempSync(join(memoryOrTmp(), 'ratchet-tests-'));
  process.env[SCRATCH_VARIABLE] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}

/**
 * A RAM file system when the machine has one. A run fsyncs every journal line and every
 * response-cache file (that is the product's durability); on a disk those syncs are most of a test
 * run's time, on tmpfs they cost nothing and the code path is the same.
 */
export function memoryOrTmp(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}
