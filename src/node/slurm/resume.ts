/**
 * A resumed Slurm run (backend.ts): the jobs it submitted but never journaled found by its job
 * name, and its journaled tasks that saw no end watched again. No shard is submitted twice.
 */
import { sha256Hex } from '../../core/random';
import type { SlurmCli } from './cli';
import type { Known, SlurmEvent, Task } from './taskBook';
import { readBatch } from './taskFiles';

export interface AdoptContext {
  cli: SlurmCli;
  jobName: string;
  /** When the run started: its jobs are looked for from a minute before. */
  startedAt: number;
  signal: AbortSignal;
  emit: (e: SlurmEvent) => Promise<void>;
}

/** The jobs of the run's name the journal lacks (the process died between sbatch and the journal), journaled now and known. */
export async function adoptUnjournaledJobs(c: AdoptContext, known: Map<string, Known>): Promise<void> {
  const since = new Date(c.startedAt - 60_000).toISOString().slice(0, 19);
  const journaledJobs = new Set([...known.values()].map((k) => k.jobId));
  for (const job of await c.cli.jobsNamed(c.jobName, since, { signal: c.signal })) {
    if (journaledJobs.has(job.jobId) || job.workDir === '') continue;
    const found = await readBatch(job.workDir).catch(() => undefined);
    if (!found) continue; // the probe, or a job whose folder is gone
    const attempt = 1 + Math.max(0, ...found.batch.keys.map((k) => known.get(k)?.attempt ?? 0));
    const tasks = found.batch.keys.map((key, index) => ({ index, key, ...(found.batch.shards[index] ? { instances: found.batch.shards[index]! } : {}) }));
    await c.emit({ type: 'slurm/submitted', jobId: job.jobId, programHash: sha256Hex(found.programText), attempt, dir: job.workDir, tasks, adopted: true });
    for (const t of tasks) known.set(t.key, { jobId: job.jobId, index: t.index, attempt, dir: job.workDir, instances: t.instances });
  }
}

/** The tasks the journal submitted and saw no end of: they are watched again. */
export function unfinishedTasks(known: Map<string, Known>): Task[] {
  return [...known]
    .filter(([, k]) => k.outcome === undefined)
    .map(([key, k]): Task => ({ key, jobId: k.jobId, index: k.index, attempt: k.attempt, dir: k.dir, instances: k.instances, state: 'queued', cancelled: false, waiters: [], missing: 0, resultWaits: 0 }));
}
