/**
 * The run's folder on the shared filesystem, and the probe job that proves the nodes see it.
 *
 * Everything a task needs is copied there before the first submission: the task runner (so every
 * node runs the Ratchet that submitted the job), the evaluator's support files (and a ShinkaEvolve
 * task folder), which live in the workspace, a folder the nodes may not mount. The probe is one
 * small job running the copied runner with `--probe`: it reads a token Ratchet wrote and writes it
 * back with its Node version and host. A probe that cannot do so means the folder is not shared
 * (or not writable, or Node does not run there), said in those words before any evaluation waits
 * on a node that can never answer.
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { RatchetError } from '../../core/errors';
import type { Clock } from '../../core/ports';
import type { SlurmSpec } from '../../core/code/slurmSpec';
import type { EvaluatorSetup } from '../sandbox/sandboxEvaluation';
import type { SlurmCli } from './cli';
import { jobScript, shellQuote } from './script';

export const RUNNER_NAME = 'slurmTask.js';

/** Copies the runner and the evaluator's files into the run folder; returns the setup as the nodes see it. */
export async function stageRunFolder(runDir: string, runnerFile: string, setup: EvaluatorSetup): Promise<EvaluatorSetup> {
  await mkdir(runDir, { recursive: true }).catch((err: unknown) => {
    throw new RatchetError('badInput', `Could not create the shared run folder ${runDir}: ${(err as Error).message}. Set evaluator.slurm.sharedDir to a folder you can write that every node mounts.`, { field: 'evaluator.slurm.sharedDir' });
  });
  await cp(runnerFile, join(runDir, RUNNER_NAME)).catch((err: unknown) => {
    throw new RatchetError('internal', `Ratchet's Slurm task runner ${runnerFile} could not be copied (${(err as Error).message}); rebuild Ratchet (npm run build writes out/slurmTask.js).`);
  });
  const supportFiles: EvaluatorSetup['supportFiles'] = [];
  for (const [i, f] of setup.supportFiles.entries()) {
    const to = join(runDir, 'support', String(i), basename(f.from));
    await mkdir(join(runDir, 'support', String(i)), { recursive: true });
    // Dereferenced, as the sandbox copies them: a symlink must become a file the nodes can read.
    await cp(f.from, to, { recursive: true, dereference: true }).catch((err: unknown) => {
      throw new RatchetError('badInput', `Could not copy the support file ${f.from} into the shared run folder ${runDir}: ${(err as Error).message}.`, { from: f.from });
    });
    supportFiles.push({ from: to, to: f.to });
  }
  let shinkaDir: string | undefined;
  if (setup.shinkaDir !== undefined) {
    // ShinkaEvolve's evaluate.py may import its neighbours: the task folder travels whole, but for Ratchet's own.
    shinkaDir = join(runDir, 'shinka');
    await mkdir(shinkaDir, { recursive: true });
    for (const name of await readdir(setup.shinkaDir)) {
      if (name === '.ratchet') continue;
      await cp(join(setup.shinkaDir, name), join(shinkaDir, name), { recursive: true, dereference: true });
    }
  }
  return { ...setup, supportFiles, ...(shinkaDir === undefined ? {} : { shinkaDir }) };
}

export interface ProbeInput {
  cli: SlurmCli;
  clock: Clock;
  slurm: SlurmSpec;
  runDir: string;
  jobName: string;
  node: string;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
  /** Told the probe's job id and state while it waits in the queue. */
  onWaiting: (message: string) => Promise<void>;
}

/** Runs the probe job; resolves with what the node said of itself, or throws badInput saying what the nodes could not do. */
export async function probeSharedFolder(p: ProbeInput): Promise<{ host: string; node: string; jobId: string }> {
  const token = randomBytes(12).toString('hex');
  const dir = join(p.runDir, `probe-${token.slice(0, 8)}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'token'), token);
  const script = join(dir, 'probe.sh');
  await writeFile(script, jobScript({ slurm: { ...p.slurm, time: '5' }, title: 'Probe: can the nodes see the shared run folder?', env: p.env, node: p.node, runner: join(p.runDir, RUNNER_NAME), args: ['--probe', dir] }));
  const args = ['--parsable', `--job-name=${p.jobName}`, `--chdir=${dir}`, `--output=${join(dir, 'task-0-%j.out')}`, `--error=${join(dir, 'task-0-%j.err')}`, '--export=NONE'];
  const jobId = await p.cli.submit(script, args, { signal: p.signal });
  await p.onWaiting(`probe job ${jobId} checks that the nodes see ${p.runDir} and run ${p.node}`);
  let wait = 500;
  let final: { state: string; reason: string; exitCode: string } | undefined;
  while (!final) {
    await p.clock.sleep(wait, p.signal);
    wait = Math.min(10_000, wait * 1.5);
    if ((await p.cli.queue([jobId], { signal: p.signal })).size > 0) continue;
    const row = (await p.cli.accounting([jobId], { signal: p.signal })).find((r) => r.tasks.length === 0 && FINAL.has(r.state));
    if (row) final = row;
  }
  const answer = await readFile(join(dir, 'answer.json'), 'utf8').then(
    (t) => JSON.parse(t) as { token?: string; node?: string; host?: string },
    () => undefined,
  );
  if (answer?.token === token) return { host: answer.host ?? '?', node: answer.node ?? '?', jobId };
  const err = await readFile(join(dir, `task-0-${jobId}.err`), 'utf8').then(
    (t) => t.trim().split('\n').slice(-3).join(' | '),
    () => '',
  );
  throw new RatchetError(
    'badInput',
    `The nodes cannot use the shared run folder ${p.runDir}: the probe job ${jobId} ended ${final.state}${final.exitCode && final.exitCode !== '0:0' ? ` (exit ${final.exitCode})` : ''} without writing its answer there` +
      `${err ? ` (its error output: ${err})` : ' (and no error output reached the folder, which the nodes then cannot see)'}. ` +
      `Set evaluator.slurm.sharedDir to a folder every node mounts at the same path and can write to (a cluster filesystem such as /scratch or your home), ` +
      `and check that ${shellQuote(p.node)} runs on the nodes (evaluator.slurm.node, or a setup line that loads Node).`,
    { field: 'evaluator.slurm.sharedDir', jobId },
  );
}

/** Slurm's final job states. */
export const FINAL = new Set(['COMPLETED', 'FAILED', 'TIMEOUT', 'CANCELLED', 'NODE_FAIL', 'OUT_OF_MEMORY', 'PREEMPTED', 'BOOT_FAIL', 'DEADLINE', 'REVOKED', 'SPECIAL_EXIT']);
