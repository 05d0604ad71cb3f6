/**
 * What the Slurm backend knows of its tasks: those it watches, what the journal says of every
 * evaluation key's latest submission, and the counts the editor shows (backend.ts).
 */
import type { ProgramEvaluation } from '../../core/code/search';
import type { EngineEvent, EventOf } from '../../core/journal/events';
import type { ClusterLoad } from '../../core/journal/runStatus';
import type { EventPayload } from '../../core/journal/control';
import type { Deferred } from '../deferred';

/** One of the backend's journal events (`slurm/…`). */
export type SlurmEvent = EventPayload<Extract<EngineEvent, { type: `slurm/${string}` }>>;

export interface Task {
  key: string;
  jobId: string;
  index: number;
  attempt: number;
  dir: string;
  instances: readonly string[] | undefined;
  state: 'queued' | 'running' | 'final';
  /** Cancelled by Ratchet (past a verdict, at the run's end, for the budget). */
  cancelled: boolean;
  /** The engine's evaluations waiting on this task (a resume may attach one to a task already running). */
  waiters: Deferred<ProgramEvaluation>[];
  /** The tasks of the engine's batch this one serves, and its signal: a retry joins them, so the verdict cancels it too. */
  group?: Task[];
  signal?: AbortSignal;
  missing: number;
  resultWaits: number;
}

export type Outcome = NonNullable<EventOf<'slurm/task'>['outcome']>;

/** What the journal says of an evaluation key: its latest submission and, once over, how it ended. */
export interface Known {
  jobId: string;
  index: number;
  attempt: number;
  dir: string;
  instances: readonly string[] | undefined;
  outcome?: Outcome;
  reason?: string;
}

/** A task's id as squeue and sacct write it. */
export function taskId(t: { jobId: string; index: number }): string {
  return `${t.jobId}_${t.index}`;
}

/** The array jobs `tasks` belong to, each once. */
export function jobIdsOf(tasks: readonly Task[]): string[] {
  return [...new Set(tasks.map((t) => t.jobId))];
}

export class TaskBook {
  /** The tasks watched, by task id. */
  readonly tasks = new Map<string, Task>();
  /** By evaluation key. */
  readonly known = new Map<string, Known>();
  clusterSeconds = 0;
  submittedTasks = 0;

  /** What the journal says was submitted and how each task ended. */
  readJournal(events: readonly EngineEvent[]): void {
    for (const e of events) {
      if (e.type === 'slurm/submitted') {
        for (const t of e.tasks) this.known.set(t.key, { jobId: e.jobId, index: t.index, attempt: e.attempt, dir: e.dir, instances: t.instances });
        this.submittedTasks += e.tasks.length;
      } else if (e.type === 'slurm/task' && e.outcome !== undefined) {
        this.clusterSeconds += e.clusterSeconds ?? 0;
        this.mark(e, e.outcome, e.reason);
      }
    }
  }

  /** How a task ended, kept for its key while it is the key's latest submission. */
  mark(t: { key: string; jobId: string; index: number }, outcome: Outcome, reason?: string): void {
    const k = this.known.get(t.key);
    if (k && k.jobId === t.jobId && k.index === t.index) {
      k.outcome = outcome;
      if (reason !== undefined) k.reason = reason;
    }
  }

  /** The task a key's latest submission made, when it is watched. */
  watched(k: Known): Task | undefined {
    return this.tasks.get(taskId(k));
  }

  live(): Task[] {
    return [...this.tasks.values()].filter((t) => t.state !== 'final');
  }

  /** The counts the editor shows: tasks queued, running and finished, array jobs in flight, cluster-seconds. */
  load(clusterHours: number | undefined, paused: string | undefined): ClusterLoad {
    const live = this.live();
    const running = live.filter((t) => t.state === 'running').length;
    return {
      queued: live.length - running,
      running,
      finished: this.submittedTasks - live.length,
      jobs: jobIdsOf(live).length,
      clusterSeconds: this.clusterSeconds,
      ...(clusterHours === undefined ? {} : { clusterHoursBudget: clusterHours }),
      ...(paused === undefined ? {} : { paused }),
    };
  }
}

/** The indices of `tasks` in each of their array jobs, the jobs in the order their first task comes. */
export function indicesByJob(tasks: readonly Task[]): Map<string, number[]> {
  const byJob = new Map<string, number[]>();
  for (const t of tasks) byJob.set(t.jobId, [...(byJob.get(t.jobId) ?? []), t.index]);
  return byJob;
}
