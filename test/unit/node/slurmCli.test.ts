// The Slurm tools' output as the backend reads it, the kinds of failure it tells apart, and the
// backoff with which it waits out a controller that does not answer — against recorded output of
// Slurm 22.05 (Debian 12's), no cluster needed.
import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import type { Clock } from '../../../src/core/ports';
import { SlurmCli, classifyFailure, expandTaskIds, parseAccounting, parseJobId, parseQueue } from '../../../src/node/slurm/cli';
import type { SlurmOutput, SlurmRunner } from '../../../src/node/slurm/cli';
import { arraySpec, jobScript, shellQuote, submitArgs } from '../../../src/node/slurm/script';

describe('reading Slurm', () => {
  it('sbatch --parsable prints the job id, with the cluster after a semicolon on a federation', () => {
    expect(parseJobId('1234\n')).toBe('1234');
    expect(parseJobId('sbatch: warning: something\n1234;cluster2\n')).toBe('1234');
    expect(() => parseJobId('Submitted batch job 12')).toThrow(/not a job id/);
  });

  it('squeue -r lists one line per task, pending array tasks expanded', () => {
    expect(parseQueue('10_2|PENDING|Resources\n10_0|RUNNING|None\n')).toEqual([
      { task: '10_2', state: 'PENDING', reason: 'Resources' },
      { task: '10_0', state: 'RUNNING', reason: 'None' },
    ]);
  });

  it("sacct: a task with its own record, the state's first word, and the grouped records of tasks that never started", () => {
    const rows = parseAccounting(['13_0|CANCELLED by 0|0:0|3|1|None', '13_1|TIMEOUT|0:0|75|2|None', '13_[2-4,7%2]|PENDING|0:0|0|1|None', '13|CANCELLED by 0|0:0|0|1|None', ''].join('\n'));
    expect(rows.map((r) => [r.tasks, r.state, r.elapsedSeconds, r.cpus, r.grouped])).toEqual([
      [['13_0'], 'CANCELLED', 3, 1, false],
      [['13_1'], 'TIMEOUT', 75, 2, false],
      [['13_2', '13_3', '13_4', '13_7'], 'PENDING', 0, 1, true],
      [[], 'CANCELLED', 0, 1, true],
    ]);
    expect(expandTaskIds('5_[0-2]')).toEqual(['5_0', '5_1', '5_2']);
  });

  it('tells a controller that does not answer and a full queue from a request Slurm refuses', () => {
    const out = (stderr: string, code: number | null = 1): SlurmOutput => ({ code, stdout: '', stderr });
    expect(classifyFailure(out('slurm_load_jobs error: Unable to contact slurm controller (connect failure)'))).toBe('unreachable');
    expect(classifyFailure(out('sacct: error: Problem talking to the database: Connection refused'))).toBe('unreachable');
    expect(classifyFailure(out('sbatch: error: Batch job submission failed: Socket timed out on send/recv operation'))).toBe('unreachable');
    expect(classifyFailure(out('sbatch: error: QOSMaxSubmitJobPerUserLimit'))).toBe('busy');
    expect(classifyFailure(out('sbatch: error: Batch job submission failed: Resource temporarily unavailable'))).toBe('busy');
    expect(classifyFailure(out('sbatch: error: Batch job submission failed: Invalid partition name specified'))).toBe('refused');
    expect(classifyFailure(out('sbatch: not found on PATH', null))).toBe('refused');
  });
});

describe('writing the job', () => {
  it("the script: the spec's resources as #SBATCH lines, the search path and locale, the setup line, then the runner", () => {
    const text = jobScript({
      slurm: { partition: 'short', account: 'p42', qos: 'normal', time: '30', cpus: 2, memoryMb: 4096, gres: 'gpu:1', sbatch: ['--constraint=skylake'], setup: 'module load nodejs/24', retries: 2, pollSeconds: 2 },
      title: 'Run r1',
      env: { PATH: '/opt/node/bin:/usr/bin', LANG: 'C.UTF-8', OPENAI_API_KEY: 'sk-never', HOME: '/root' },
      node: '/opt/node/bin/node',
      runner: '/scratch/r1/slurmTask.js',
      args: ['/scratch/r1/jobs/ab cd', '$SLURM_ARRAY_TASK_ID'],
    });
    expect(text.split('\n')).toEqual([
      '#!/bin/bash',
      '# Run r1',
      '# Written by Ratchet (code search on Slurm); submitted with sbatch, one task per shard.',
      '#SBATCH --partition=short',
      '#SBATCH --account=p42',
      '#SBATCH --qos=normal',
      '#SBATCH --time=30',
      '#SBATCH --cpus-per-task=2',
      '#SBATCH --mem=4096M',
      '#SBATCH --gres=gpu:1',
      '#SBATCH --constraint=skylake',
      'export LANG=C.UTF-8',
      'export PATH=/opt/node/bin:/usr/bin',
      "# The run spec's evaluator.slurm.setup:",
      'module load nodejs/24',
      `exec /opt/node/bin/node /scratch/r1/slurmTask.js '/scratch/r1/jobs/ab cd' "$SLURM_ARRAY_TASK_ID"`,
      '',
    ]);
    expect(text).not.toContain('sk-never');
  });

  it('the command line: parsable, named, output per task, no environment copied, the array with its limit', () => {
    expect(submitArgs({ jobName: 'ratchet-r1', dir: '/s/j', indices: [0, 1, 2, 5], arrayLimit: 4 })).toEqual([
      '--parsable',
      '--job-name=ratchet-r1',
      '--chdir=/s/j',
      '--output=/s/j/task-%a-%A.out',
      '--error=/s/j/task-%a-%A.err',
      '--export=NONE',
      '--array=0-2,5%4',
    ]);
    expect(arraySpec([7, 3, 4, 5, 9, 10])).toBe('3-5,7,9-10');
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

/** A clock whose sleeps return at once and are recorded. */
function recordingClock(): Clock & { slept: number[] } {
  const slept: number[] = [];
  return { slept, now: () => 0, sleep: async (ms) => void slept.push(ms) };
}

describe('SlurmCli waits out a Slurm that does not answer', () => {
  it('pauses once with the reason, doubles its waits, and says when Slurm answers again', async () => {
    let fails = 3;
    const runner: SlurmRunner = {
      run: async () => (fails-- > 0 ? { code: 1, stdout: '', stderr: 'squeue: error: Unable to contact slurm controller (connect failure)' } : { code: 0, stdout: '10_0|RUNNING|None\n', stderr: '' }),
    };
    const said: string[] = [];
    const clock = recordingClock();
    const cli = new SlurmCli(runner, clock, { paused: (m, ms) => said.push(`paused ${ms}: ${m}`), resumed: (m) => said.push(`resumed: ${m}`) }, { firstMs: 100, maxMs: 300 });
    expect([...(await cli.queue(['10'])).keys()]).toEqual(['10_0']);
    expect(clock.slept).toEqual([100, 200, 300]);
    expect(said).toEqual([
      'paused 100: Slurm does not answer (squeue: error: Unable to contact slurm controller (connect failure)): submissions and polls are paused and retried with backoff',
      'resumed: Slurm answers again (after: Slurm does not answer (squeue: error: Unable to contact slurm controller (connect failure))); submissions go on',
    ]);
    expect(cli.calls.squeue).toBe(4);
  });

  it("a refusal is a badInput error with Slurm's words, not a wait; a job that left the queue long ago is no error", async () => {
    const runner: SlurmRunner = {
      run: async (command) =>
        command === 'sbatch'
          ? { code: 1, stdout: '', stderr: 'sbatch: error: invalid partition specified: nosuch\nsbatch: error: Batch job submission failed: Invalid partition name specified' }
          : { code: 1, stdout: '', stderr: 'slurm_load_jobs error: Invalid job id specified' },
    };
    const cli = new SlurmCli(runner, recordingClock(), { paused: () => undefined, resumed: () => undefined });
    const err = await cli.submit('/s/job.sh', ['--parsable']).catch((e: unknown) => e);
    expect(RatchetError.is(err, 'badInput')).toBe(true);
    expect((err as Error).message).toBe('Slurm refused sbatch: sbatch: error: invalid partition specified: nosuch | sbatch: error: Batch job submission failed: Invalid partition name specified');
    expect((await cli.queue(['7'])).size).toBe(0);
  });
});
