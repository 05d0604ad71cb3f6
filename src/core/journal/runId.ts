/**
 * Run ids: `YYYYMMDD-HHMMSS-xxxxxx` (UTC time, then 24 random bits in hex). Sorting ids as strings
 * sorts runs by start time, so `.ratchet/runs/` lists oldest first in any file browser and
 * `listRuns` needs no other key; the suffix separates runs started in the same second.
 */
import type { Entropy } from '../ports';

const RUN_ID = /^\d{8}-\d{6}-[0-9a-f]{6}$/;

export function isRunId(text: string): boolean {
  return RUN_ID.test(text);
}

/** A new id for a run started at `nowMs`; `entropy` supplies the suffix. */
export function newRunId(nowMs: number, entropy: Entropy): string {
  const d = new Date(nowMs);
  const date = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
  const suffix = entropy.int(0x1000000).toString(16).padStart(6, '0');
  return `${date}-${time}-${suffix}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
