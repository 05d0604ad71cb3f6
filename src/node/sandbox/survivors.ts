/**
 * Without a pid namespace, an evaluation's processes live among the user's: when the evaluator
 * exits, what of it is still running is found here — by what the watch saw of it while it ran,
 * by its process group and session, and by the random mark in its environment that every process
 * of it inherited (RATCHET_EVALUATION) — then killed and counted. A process that both cleared its
 * environment and left the group and session before the watch saw it is not found: best effort,
 * and said so (docs/sandbox.md).
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { EvaluationWatch } from './sandboxWatchdog';
import { readProcs } from './procTable';

/** Kills and counts the processes of the evaluation led by `leader` that are still running. */
export function survivors(watch: EvaluationWatch | undefined, mark: string, leader: number): number {
  const procs = readProcs();
  const live = new Map(procs.filter((p) => p.state !== 'Z' && p.pid !== leader && p.pid !== process.pid).map((p) => [p.pid, p]));
  const found = new Set<number>();
  for (const p of watch?.members(procs) ?? []) if (live.has(p.pid)) found.add(p.pid);
  // Seen while it ran, and the same process still (a reused pid starts later).
  for (const [pid, start] of watch?.seenStarts ?? []) if (live.get(pid)?.start === start) found.add(pid);
  const needle = `RATCHET_EVALUATION=${mark}\0`;
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!live.has(pid) || found.has(pid)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(needle)) found.add(pid);
    } catch {
      // Not ours to read, or gone.
    }
  }
  for (const pid of found) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      found.delete(pid);
    }
  }
  return found.size;
}
