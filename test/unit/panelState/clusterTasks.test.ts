import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../../src/core/journal/events';
import { CLUSTER_STEP_LIMIT, emptyClusterTasks, foldClusterEvent } from '../../../src/panelState/clusterTasks';

const base = (at: number) => ({ runId: 'run-1', at });
const submitted = (at: number, jobId: string, indices: number[], attempt = 1): EventOf<'slurm/submitted'> => ({
  ...base(at),
  type: 'slurm/submitted',
  jobId,
  programHash: 'h',
  attempt,
  dir: '/shared/run-1',
  tasks: indices.map((index) => ({ index, key: `k${index}`, instances: [`i${index}`] })),
});
const task = (at: number, jobId: string, index: number, state: string, more: Partial<EventOf<'slurm/task'>> = {}): EventOf<'slurm/task'> => ({
  ...base(at),
  type: 'slurm/task',
  jobId,
  index,
  key: `k${index}`,
  attempt: 1,
  state,
  ...more,
});

describe('a search’s Slurm tasks, from its journal', () => {
  it('follows each task from the queue to its end, with what the finished ones cost and how they ended', () => {
    const c = emptyClusterTasks();
    const events = [
      submitted(1_000, '41', [0, 1, 2, 3]),
      task(2_000, '41', 0, 'RUNNING'),
      task(2_100, '41', 1, 'RUNNING'),
      task(5_000, '41', 0, 'COMPLETED', { outcome: 'done', elapsedSeconds: 3, cpus: 1, clusterSeconds: 3 }),
      task(6_000, '41', 1, 'TIMEOUT', { outcome: 'retry', elapsedSeconds: 60, cpus: 2, clusterSeconds: 120 }),
      { ...base(6_500), type: 'slurm/cancelled', jobId: '41', indices: [2, 3], why: 'verdict' } as EventOf<'slurm/cancelled'>,
      task(7_000, '41', 2, 'CANCELLED', { outcome: 'cancelled' }),
      task(7_000, '41', 3, 'CANCELLED', { outcome: 'cancelled', elapsedSeconds: 1, cpus: 1, clusterSeconds: 1 }),
      submitted(8_000, '42', [1], 2),
      task(9_000, '42', 1, 'TIMEOUT', { attempt: 2, outcome: 'incorrect', clusterSeconds: 120 }),
    ];
    for (const e of events) foldClusterEvent(c, e);
    expect(c).toEqual({
      bucketMs: 1000,
      jobs: 2,
      submitted: 5,
      queued: 0,
      running: 0,
      finished: 5,
      clusterSeconds: 244,
      outcomes: { done: 1, retry: 1, incorrect: 1, cancelled: 2 },
      failures: { TIMEOUT: 2 },
      cancelled: { verdict: 2, run: 0, budget: 0 },
      inFlight: {},
      steps: [
        { at: 1_000, queued: 4, running: 0, finished: 0 },
        { at: 2_100, queued: 2, running: 2, finished: 0 },
        { at: 5_000, queued: 2, running: 1, finished: 1 },
        { at: 6_000, queued: 2, running: 0, finished: 2 },
        { at: 7_000, queued: 0, running: 0, finished: 4 },
        { at: 8_000, queued: 1, running: 0, finished: 4 },
        { at: 9_000, queued: 0, running: 0, finished: 5 },
      ],
    });
  });

  it('counts a job a resume journals again once, a final state whose submission it never saw, and says while Slurm is paused', () => {
    const c = emptyClusterTasks();
    foldClusterEvent(c, submitted(1_000, '7', [0, 1]));
    foldClusterEvent(c, { ...submitted(2_000, '7', [0, 1]), adopted: true });
    expect([c.queued, c.submitted]).toEqual([2, 2]);
    foldClusterEvent(c, task(3_000, '9', 0, 'COMPLETED', { outcome: 'done', clusterSeconds: 4 }));
    expect([c.queued, c.finished, c.clusterSeconds]).toEqual([2, 1, 4]);
    foldClusterEvent(c, { ...base(4_000), type: 'slurm/status', state: 'paused', message: 'Slurm does not answer: sbatch: error: Unable to contact slurm controller', retryMs: 2000 });
    expect(c.paused).toMatch(/^Slurm does not answer/);
    foldClusterEvent(c, { ...base(5_000), type: 'slurm/status', state: 'resumed', message: 'Slurm answers again.' });
    expect(c.paused).toBeUndefined();
  });

  it('keeps at most its limit of chart points over a long run, evenly spread, the latest among them', () => {
    const c = emptyClusterTasks();
    for (let i = 0; i < 3 * CLUSTER_STEP_LIMIT; i++) {
      foldClusterEvent(c, submitted(i * 2_000, `j${i}`, [0]));
      foldClusterEvent(c, task(i * 2_000 + 1_000, `j${i}`, 0, 'COMPLETED', { outcome: 'done', clusterSeconds: 1 }));
    }
    expect(c.steps.length).toBeLessThanOrEqual(CLUSTER_STEP_LIMIT);
    expect(c.steps.at(-1)).toEqual({ at: (3 * CLUSTER_STEP_LIMIT - 1) * 2_000 + 1_000, queued: 0, running: 0, finished: 3 * CLUSTER_STEP_LIMIT });
    expect(c.steps.map((p) => p.at)).toEqual([...c.steps.map((p) => p.at)].sort((a, b) => a - b));
    // As dense in the first third of the run as in the last: one point per bucket throughout.
    const span = c.steps.at(-1)!.at;
    const inFirstThird = c.steps.filter((p) => p.at < span / 3).length;
    const inLastThird = c.steps.filter((p) => p.at >= (2 * span) / 3).length;
    expect(Math.abs(inFirstThird - inLastThird)).toBeLessThanOrEqual(2);
    expect(c.inFlight).toEqual({});
  });
});
