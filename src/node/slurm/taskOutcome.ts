/**
 * A Slurm task's end (backend.ts): its cost counted, its result read and handed to the engine,
 * or, when Slurm ended it without one, a retry asked for or an incorrect evaluation in Slurm's words.
 */
import type { ProgramEvaluation } from '../../core/code/search';
import type { SlurmSpec } from '../../core/code/slurmSpec';
import type { AccountingRow } from './cli';
import type { SlurmEvent, Task, TaskBook } from './taskBook';
import { outputTail, readResult } from './taskFiles';

/** Polls a COMPLETED task's result may take to appear (a shared filesystem's attribute cache lags). */
const RESULT_WAIT_POLLS = 3;

export interface FinishContext {
  book: TaskBook;
  slurm: SlurmSpec;
  emit: (e: SlurmEvent) => Promise<void>;
  /** A task's evaluation as the run keeps it (the node knew no key, so what the program printed is cleaned). */
  cleaned: (e: ProgramEvaluation) => ProgramEvaluation;
  /** Which cluster budget is spent, if one is: no retry then. */
  spent: () => string | undefined;
  /** The task is to be submitted again (at the next poll). */
  retry: (t: Task) => void;
}

/** The row of a task sacct keeps no record of its own for (cancelled before it started, or lost). */
export function unrecordedRow(jobId: string, tasks: string[], state: string, reason = ''): AccountingRow {
  return { tasks, jobId, state, exitCode: '', elapsedSeconds: 0, cpus: 0, reason, grouped: false };
}

/** A task reached a final state: its cost counted, its result read, retried, or counted incorrect. Returns false when it must be looked at again (a result not visible yet). */
export async function finishTask(c: FinishContext, t: Task, row: AccountingRow): Promise<boolean> {
  const result = row.state === 'COMPLETED' && !t.cancelled ? await readResult(t.dir, t.index) : undefined;
  if (row.state === 'COMPLETED' && !t.cancelled && !result && ++t.resultWaits <= RESULT_WAIT_POLLS) return false;
  t.state = 'final';
  const clusterSeconds = row.elapsedSeconds * row.cpus;
  c.book.clusterSeconds += clusterSeconds;
  const base = { type: 'slurm/task' as const, jobId: t.jobId, index: t.index, key: t.key, attempt: t.attempt, state: row.state, elapsedSeconds: row.elapsedSeconds, cpus: row.cpus, clusterSeconds };
  if (t.cancelled) {
    c.book.mark(t, 'cancelled');
    await c.emit({ ...base, outcome: 'cancelled' });
  } else if (result) {
    c.book.mark(t, 'done');
    await c.emit({ ...base, outcome: 'done' });
    for (const w of t.waiters) w.resolve(c.cleaned(result.evaluation));
  } else {
    const tail = await outputTail(t.dir, t.index, t.jobId);
    const said = row.state === 'COMPLETED' ? 'COMPLETED without writing its result' : row.state;
    const why = `${said}${row.reason ? ` (${row.reason})` : ''}${row.state === 'FAILED' && row.exitCode ? ` with exit code ${row.exitCode}` : ''}${row.state === 'TIMEOUT' ? ` at its time limit (evaluator.slurm.time: ${c.slurm.time})` : ''}`;
    if (t.attempt <= c.slurm.retries && !c.spent()) {
      c.book.mark(t, 'retry', why);
      await c.emit({ ...base, reason: why, outcome: 'retry' });
      c.retry(t);
    } else {
      const error = `Slurm ended the evaluation's task ${why}${t.attempt > 1 ? `, on each of its ${t.attempt} attempts` : ''}${tail ? `; its error output: ${tail}` : ''}`;
      c.book.mark(t, 'incorrect', error);
      await c.emit({ ...base, reason: why, outcome: 'incorrect' });
      for (const w of t.waiters) w.resolve({ correct: false, error });
    }
  }
  return true;
}
