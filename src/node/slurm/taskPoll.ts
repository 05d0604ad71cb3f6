/**
 * What squeue and sacct say of the Slurm backend's tasks (backend.ts): `squeue` while they are
 * queued or running, `sacct` once they leave the queue, for their final state and what they cost —
 * in a poll while the run goes on, and once more after `close()` cancelled what was left.
 */
import type { Clock } from '../../core/ports';
import type { AccountingRow, SlurmCli } from './cli';
import { FINAL } from './runFolder';
import { jobIdsOf, taskId } from './taskBook';
import type { Task } from './taskBook';
import { unrecordedRow } from './taskOutcome';

/** Polls a task may be missing from both squeue and sacct (their records lag) before it counts as lost. */
const LOST_AFTER_POLLS = 10;
/** How long `close()` waits for sacct to record what the cancelled tasks that ran cost. */
const ACCOUNTING_WAIT_MS = 30_000;

export interface PollContext {
  cli: SlurmCli;
  /** A queued task is running: journaled. */
  started: (t: Task, state: string) => Promise<void>;
  /** A task reached a final state (taskOutcome.ts); false when it must be looked at again. */
  finish: (t: Task, row: AccountingRow) => Promise<boolean>;
}

/** One poll of the tasks in flight, `live`. Returns whether anything changed. */
export async function pollTasks(c: PollContext, live: readonly Task[], signal: AbortSignal): Promise<boolean> {
  let changed = false;
  const queued = await c.cli.queue(jobIdsOf(live), { signal });
  const gone: Task[] = [];
  for (const t of live) {
    const row = queued.get(taskId(t));
    if (!row) gone.push(t);
    else if (row.state !== 'PENDING' && t.state === 'queued') {
      t.state = 'running';
      changed = true;
      await c.started(t, row.state);
    }
  }
  if (gone.length > 0) {
    const rows = await c.cli.accounting(jobIdsOf(gone), { signal });
    const own = new Map<string, AccountingRow>();
    const grouped = new Map<string, AccountingRow>();
    for (const r of rows) {
      if (!r.grouped) own.set(r.tasks[0]!, r);
      else for (const id of r.tasks.length > 0 ? r.tasks : [r.jobId]) grouped.set(id, r);
    }
    for (const t of gone) {
      const id = taskId(t);
      const row = own.get(id);
      if (row && FINAL.has(row.state)) {
        if (await c.finish(t, row)) changed = true;
      } else if (t.cancelled && (grouped.get(id)?.state === 'CANCELLED' || grouped.get(t.jobId)?.state === 'CANCELLED' || (t.state === 'queued' && ++t.missing >= 2) || ++t.missing >= LOST_AFTER_POLLS)) {
        // Cancelled before it started: Slurm keeps no record of its own for it. (One that ran gets
        // its record, with what it cost, once the accounting daemon has it: it is waited for.)
        await c.finish(t, unrecordedRow(t.jobId, [id], 'CANCELLED'));
        changed = true;
      } else if (!row && ++t.missing >= LOST_AFTER_POLLS) {
        await c.finish(t, unrecordedRow(t.jobId, [id], 'LOST', 'neither squeue nor sacct knows the task'));
        changed = true;
      }
    }
  }
  return changed;
}

/** Waits until squeue shows no job named `jobName`, or until `deadline`. */
export async function untilNoneQueued(cli: SlurmCli, clock: Clock, jobName: string, deadline: number): Promise<void> {
  let wait = 500;
  while (clock.now() < deadline) {
    const any = await cli.anyNamed(jobName, { deadline }).catch(() => false);
    if (!any) break;
    await clock.sleep(wait);
    wait = Math.min(5000, wait * 1.5);
  }
}

/**
 * After the run's end cancelled its tasks: what they cost, from sacct, which records a task that
 * ran a moment after it leaves the queue; one that never started has no record of its own and cost
 * nothing. Every task `live()` still returns is finished, by `deadline` at the latest.
 */
export async function accountCancelled(c: PollContext, clock: Clock, live: () => Task[], deadline: number): Promise<void> {
  const accountBy = Math.min(deadline, clock.now() + ACCOUNTING_WAIT_MS);
  let wait = 250;
  for (let still = live(); still.length > 0; still = live()) {
    const rows = await c.cli.accounting(jobIdsOf(still), { deadline: accountBy }).catch(() => []);
    const own = new Map(rows.filter((r) => !r.grouped).map((r) => [r.tasks[0]!, r]));
    const over = clock.now() >= accountBy;
    for (const t of still) {
      const row = own.get(taskId(t));
      if (row && FINAL.has(row.state)) await c.finish(t, row).catch(() => undefined);
      else if (t.state === 'queued' || over) await c.finish(t, unrecordedRow(t.jobId, [], 'CANCELLED', over && t.state === 'running' ? 'sacct had no record of it yet' : '')).catch(() => undefined);
    }
    if (live().length === 0) break;
    await clock.sleep(wait);
    wait = Math.min(2000, wait * 1.5);
  }
}
