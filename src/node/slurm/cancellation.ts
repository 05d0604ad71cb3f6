/** Cancelling Slurm tasks of the backend's (backend.ts): past a verdict, for the budget, at the run's end. */
import type { Clock } from '../../core/ports';
import type { EventOf } from '../../core/journal/events';
import type { SlurmCli } from './cli';
import { indicesByJob } from './taskBook';
import type { SlurmEvent, Task } from './taskBook';

/** How long `close()` waits for the run's jobs to leave the queue after cancelling them (and one scancel at most). */
export const CLOSE_WAIT_MS = 90_000;

export interface CancelContext {
  cli: SlurmCli;
  clock: Clock;
  emit: (e: SlurmEvent) => Promise<void>;
}

/**
 * Asks Slurm to cancel `tasks` (those not over), journaled; their waiters are rejected with
 * `reason` at once, and they stay watched until their final state is accounted. Returns whether
 * any was cancelled.
 */
export async function cancelTasks(c: CancelContext, tasks: readonly Task[], why: EventOf<'slurm/cancelled'>['why'], reason: unknown): Promise<boolean> {
  const live = tasks.filter((t) => t.state !== 'final' && !t.cancelled);
  if (live.length === 0) return false;
  for (const t of live) {
    t.cancelled = true;
    for (const w of t.waiters) w.reject(reason);
  }
  for (const [jobId, indices] of indicesByJob(live)) {
    await c.emit({ type: 'slurm/cancelled', jobId, indices, why }).catch(() => undefined);
    await c.cli
      .cancel(
        indices.map((i) => `${jobId}_${i}`),
        { deadline: c.clock.now() + CLOSE_WAIT_MS },
      )
      .catch(() => undefined);
  }
  return true;
}
