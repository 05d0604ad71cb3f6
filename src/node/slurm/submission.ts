/**
 * One array job of the Slurm backend (backend.ts): its folder in the shared run folder (the batch
 * file, the program, the job script) written, then `sbatch`. The backend journals what it returns.
 */
import { join } from 'node:path';
import type { SlurmSpec } from '../../core/code/slurmSpec';
import { sha256Hex } from '../../core/random';
import { RatchetError } from '../../core/errors';
import { isSecretName } from '../../core/code/evaluatorPort';
import type { EvaluatorSetup } from '../sandbox/sandboxEvaluation';
import type { SlurmCli } from './cli';
import { RUNNER_NAME } from './runFolder';
import { jobScript, submitArgs } from './script';
import { scriptPath, writeBatch, writeScript } from './taskFiles';

export interface JobContext {
  runId: string;
  runDir: string;
  jobName: string;
  slurm: SlurmSpec;
  /** The sandbox setup with paths in the shared run folder. */
  setup: EvaluatorSetup;
  /** The evaluator.env values the tasks get. */
  envValues: Record<string, string>;
  /** The environment PATH and the locale are read from. */
  env: Record<string, string | undefined>;
  node: string;
  cli: SlurmCli;
}

/**
 * The evaluator.env values (`names`, read from `env`) the job files carry to the tasks. A provider
 * key or another secret among them is refused: secrets never reach evaluated code, nor job files.
 */
export function jobEnvValues(names: readonly string[], env: Record<string, string | undefined>, secrets: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value === undefined) continue;
    if (isSecretName(name) || secrets.some((s) => s.length >= 8 && value.includes(s))) {
      throw new RatchetError('badInput', `The evaluator's environment may not include ${name}: provider keys and other secrets never reach evaluated code, nor a cluster's job files. Remove it from the spec's env list.`, { name });
    }
    values[name] = value;
  }
  return values;
}

export interface JobItem {
  key: string;
  instances: readonly string[] | undefined;
}

/**
 * Writes the folder of one array job for `items` (a task each, all of one `attempt`) and submits
 * it unless `signal` (the engine's batch) was aborted meanwhile; it or `runSignal` ends an sbatch
 * waiting out an outage. Returns the job's id and folder.
 */
export async function submitArrayJob(c: JobContext, text: string, items: readonly JobItem[], attempt: number, signal: AbortSignal, runSignal: AbortSignal): Promise<{ jobId: string; dir: string }> {
  const dir = join(c.runDir, 'jobs', sha256Hex(JSON.stringify({ keys: items.map((x) => x.key), attempt })).slice(0, 16));
  await writeBatch(dir, { format: 1, runId: c.runId, setup: c.setup, envValues: c.envValues, shards: items.map((x) => (x.instances ? [...x.instances] : null)), keys: items.map((x) => x.key) }, text);
  await writeScript(
    dir,
    jobScript({
      slurm: c.slurm,
      title: `Run ${c.runId}: ${items.length} evaluation${items.length === 1 ? '' : 's'} of one program`,
      env: c.env,
      node: c.node,
      runner: join(c.runDir, RUNNER_NAME),
      args: [dir, '$SLURM_ARRAY_TASK_ID'],
    }),
  );
  signal.throwIfAborted();
  const both = AbortSignal.any([signal, runSignal]);
  const jobId = await c.cli.submit(scriptPath(dir), submitArgs({ jobName: c.jobName, dir, indices: items.map((_, i) => i), ...(c.slurm.arrayLimit === undefined ? {} : { arrayLimit: c.slurm.arrayLimit }) }), {
    signal: both,
  });
  return { jobId, dir };
}
