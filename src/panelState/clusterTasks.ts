/**
 * A code search's Slurm tasks as its journal tells them (the `slurm/*` events of issue #18): how
 * many wait in the queue, run and are over, over time; what the finished ones cost in
 * cluster-seconds; how they ended; which Ratchet cancelled and why. The Programs view's Throughput
 * draws it. It is folded from the journal, not from the live status, so a finished run or a
 * reloaded window shows the whole history (the live status has only the present).
 *
 * Only tasks still in flight are remembered one by one (a task leaves the map when it ends), so
 * the state a snapshot carries stays the size of the queue, not of the run.
 */
import type { EventOf } from '../core/journal/events';

type SlurmEvent = EventOf<'slurm/submitted' | 'slurm/task' | 'slurm/cancelled' | 'slurm/attached' | 'slurm/status'>;
type Outcome = NonNullable<EventOf<'slurm/task'>['outcome']>;
type CancelWhy = EventOf<'slurm/cancelled'>['why'];

export interface ClusterStep {
  at: number;
  queued: number;
  running: number;
  finished: number;
}

export interface ClusterTasks {
  /** Array jobs submitted (a retry's submission counts; a job adopted on resume too). */
  jobs: number;
  /** Tasks submitted, retries included. */
  submitted: number;
  queued: number;
  running: number;
  finished: number;
  /** sacct's ElapsedRaw × AllocCPUS summed over the finished tasks: what budget.clusterHours counts. */
  clusterSeconds: number;
  /** How the finished tasks ended, as the run took them. */
  outcomes: Record<Outcome, number>;
  /** Final Slurm states of tasks that failed (TIMEOUT, OUT_OF_MEMORY, NODE_FAIL, …), with counts. */
  failures: Record<string, number>;
  /** Tasks Ratchet asked Slurm to cancel, by why: past a gate's verdict, at the run's end, or for the budget. */
  cancelled: Record<CancelWhy, number>;
  /** The counts after each change, one point per `bucketMs` at most (the chart). */
  steps: ClusterStep[];
  /** The chart's time resolution: 1 s, doubled each time `steps` outgrows its limit, so a long run stays evenly drawn. */
  bucketMs: number;
  /** Why submissions wait now (Slurm does not answer); absent while the cluster answers. */
  paused?: string;
  /** By `jobId.index`: the tasks neither finished nor lost, and where they are. */
  inFlight: Record<string, 'queued' | 'running'>;
}

/** The most points `steps` keeps: past it, the resolution halves and the points are merged into the coarser buckets. */
export const CLUSTER_STEP_LIMIT = 4_000;

export function emptyClusterTasks(): ClusterTasks {
  return {
    jobs: 0,
    submitted: 0,
    queued: 0,
    running: 0,
    finished: 0,
    clusterSeconds: 0,
    outcomes: { done: 0, retry: 0, incorrect: 0, cancelled: 0 },
    failures: {},
    cancelled: { verdict: 0, run: 0, budget: 0 },
    steps: [],
    bucketMs: 1000,
    inFlight: {},
  };
}

/** Slurm's word for a task that waits: everything else short of a final state runs. */
const WAITING = new Set(['PENDING', 'REQUEUED', 'CONFIGURING', 'SUSPENDED']);

export function foldClusterEvent(c: ClusterTasks, e: SlurmEvent): void {
  switch (e.type) {
    case 'slurm/submitted':
      c.jobs += 1;
      for (const t of e.tasks) {
        const id = `${e.jobId}.${t.index}`;
        if (c.inFlight[id] !== undefined) continue; // a resume journals an adopted job again
        c.inFlight[id] = 'queued';
        c.queued += 1;
        c.submitted += 1;
      }
      break;
    case 'slurm/task': {
      const id = `${e.jobId}.${e.index}`;
      const was = c.inFlight[id];
      if (e.outcome === undefined) {
        const now = WAITING.has(e.state) ? 'queued' : 'running';
        if (was === now) return;
        if (was !== undefined) c[was] -= 1;
        c.inFlight[id] = now;
        c[now] += 1;
        break;
      }
      // A final state: the task is over, whether or not its submission was seen (a journal read from a resume on).
      if (was !== undefined) {
        c[was] -= 1;
        delete c.inFlight[id];
      }
      c.finished += 1;
      c.clusterSeconds += e.clusterSeconds ?? 0;
      c.outcomes[e.outcome] += 1;
      if (e.state !== 'COMPLETED' && e.state !== 'CANCELLED') c.failures[e.state] = (c.failures[e.state] ?? 0) + 1;
      break;
    }
    case 'slurm/cancelled':
      c.cancelled[e.why] += e.indices.length;
      return;
    case 'slurm/attached':
      return;
    case 'slurm/status':
      if (e.state === 'paused') c.paused = e.message;
      else delete c.paused;
      return;
  }
  step(c, e.at);
}

/** The counts as they are after an event: the last point in a bucket stands for it. */
function step(c: ClusterTasks, at: number): void {
  const point = { at, queued: c.queued, running: c.running, finished: c.finished };
  const last = c.steps.at(-1);
  if (last && Math.floor(last.at / c.bucketMs) === Math.floor(at / c.bucketMs)) c.steps[c.steps.length - 1] = point;
  else c.steps.push(point);
  while (c.steps.length > CLUSTER_STEP_LIMIT) {
    c.bucketMs *= 2;
    c.steps = c.steps.filter((p, i, all) => i === all.length - 1 || Math.floor(p.at / c.bucketMs) !== Math.floor(all[i + 1]!.at / c.bucketMs));
  }
}

/** Cluster time in the unit a budget is written in: `0.42 cluster-hours` (seconds while under a minute). */
export function clusterTime(seconds: number): string {
  if (seconds < 60) return `${seconds} cluster-second${seconds === 1 ? '' : 's'}`;
  const hours = seconds / 3600;
  return `${hours < 10 ? hours.toFixed(2) : hours.toFixed(1)} cluster-hours`;
}
