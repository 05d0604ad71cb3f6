// A played Slurm cluster behind the backend's SlurmRunner port: sbatch, squeue, sacct and scancel
// answered from a table of jobs the test moves along (start a task, finish it with a result, end
// it with TIMEOUT…), the way the real tools print them. Nothing here sleeps: a test waits on the
// state it needs (`until`), and the backend's own polls find it there.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SlurmCommand, SlurmOutput, SlurmRunner } from '../../../src/node/slurm/cli';
import type { ProgramEvaluation } from '../../../src/core/code/search';
import { readBatch, writeResult } from '../../../src/node/slurm/taskFiles';

export interface FakeTask {
  jobId: string;
  index: number;
  state: string;
  elapsed: number;
  cpus: number;
  /** Cancelled while pending: Slurm keeps no record of its own for it. */
  vanished: boolean;
}

export interface FakeJob {
  jobId: string;
  name: string;
  dir: string;
  script: string;
  probe: boolean;
  tasks: FakeTask[];
}

const FINAL = new Set(['COMPLETED', 'FAILED', 'TIMEOUT', 'CANCELLED', 'NODE_FAIL', 'OUT_OF_MEMORY', 'PREEMPTED']);

export class FakeSlurm implements SlurmRunner {
  readonly jobs: FakeJob[] = [];
  readonly calls: { command: SlurmCommand; args: string[] }[] = [];
  /** While set, every tool answers like an unreachable controller. */
  down = false;
  /** The nodes see the shared folder (the probe gets its token back). */
  nodesSeeFolder = true;
  private nextId = 100;

  constructor(private readonly cpus = 1) {}

  async run(command: SlurmCommand, args: readonly string[]): Promise<SlurmOutput> {
    this.calls.push({ command, args: [...args] });
    if (this.down) return { code: 1, stdout: '', stderr: `${command}: error: Unable to contact slurm controller (connect failure)` };
    switch (command) {
      case 'sbatch':
        return this.sbatch(args);
      case 'squeue':
        return this.squeue(args);
      case 'sacct':
        return this.sacct(args);
      case 'scancel':
        return this.scancel(args);
    }
  }

  submissions(): FakeJob[] {
    return this.jobs.filter((j) => !j.probe);
  }

  task(jobId: string, index: number): FakeTask {
    const t = this.jobs.find((j) => j.jobId === jobId)?.tasks[index];
    if (!t) throw new Error(`no task ${jobId}_${index}`);
    return t;
  }

  start(t: FakeTask): void {
    t.state = 'RUNNING';
  }

  /** Ends a task as the runner would: its evaluation written into the shared folder, COMPLETED. */
  async complete(t: FakeTask, evaluate: (programText: string, ids: string[] | null) => ProgramEvaluation, elapsed = 2): Promise<void> {
    const job = this.jobs.find((j) => j.jobId === t.jobId)!;
    const { batch, programText } = await readBatch(job.dir);
    await writeResult(job.dir, { format: 1, index: t.index, evaluation: evaluate(programText, batch.shards[t.index] ?? null), wallMs: 1000, host: 'fake-node' });
    t.state = 'COMPLETED';
    t.elapsed = elapsed;
  }

  /** Ends a task without a result, as Slurm would for a node failure, a time limit, memory… */
  end(t: FakeTask, state: string, elapsed = 2): void {
    t.state = state;
    t.elapsed = elapsed;
  }

  live(): FakeTask[] {
    return this.jobs.flatMap((j) => j.tasks.filter((t) => !FINAL.has(t.state)));
  }

  private sbatch(args: readonly string[]): SlurmOutput {
    const opt = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
    const script = args.at(-1)!;
    const dir = opt('chdir')!;
    const array = opt('array');
    const probe = readFileSync(script, 'utf8').includes('--probe');
    const jobId = String(this.nextId++);
    const indices = array ? expand(array.split('%')[0]!) : [0];
    const tasks = indices.map((index) => ({ jobId, index, state: 'PENDING', elapsed: 0, cpus: this.cpus, vanished: false }));
    this.jobs.push({ jobId, name: opt('job-name')!, dir, script, probe, tasks });
    if (probe) {
      // The probe runs at once: it answers if the nodes see the folder.
      if (this.nodesSeeFolder) writeFileSync(join(dir, 'answer.json'), JSON.stringify({ token: readFileSync(join(dir, 'token'), 'utf8'), node: 'v24.0.0', host: 'fake-node' }));
      tasks[0]!.state = 'COMPLETED';
      tasks[0]!.elapsed = 1;
    }
    return { code: 0, stdout: `${jobId}\n`, stderr: '' };
  }

  private squeue(args: readonly string[]): SlurmOutput {
    const named = args.includes('--name') ? args[args.indexOf('--name') + 1] : undefined;
    const ids = args.includes('-j') ? args[args.indexOf('-j') + 1]!.split(',') : undefined;
    const jobs = this.jobs.filter((j) => (named === undefined || j.name === named) && (ids === undefined || ids.includes(j.jobId)));
    if (ids && jobs.length === 0) return { code: 1, stdout: '', stderr: 'slurm_load_jobs error: Invalid job id specified' };
    const lines = jobs.flatMap((j) => j.tasks.filter((t) => !FINAL.has(t.state)).map((t) => `${j.jobId}_${t.index}|${t.state}|${t.state === 'PENDING' ? 'Resources' : 'None'}`));
    return { code: 0, stdout: lines.map((l) => `${l}\n`).join(''), stderr: '' };
  }

  private sacct(args: readonly string[]): SlurmOutput {
    if (args.includes('--name')) {
      const name = args[args.indexOf('--name') + 1];
      const lines = this.jobs.filter((j) => j.name === name).map((j) => `${j.jobId}_0|${j.dir}|${j.tasks[0]!.state}`);
      return { code: 0, stdout: lines.map((l) => `${l}\n`).join(''), stderr: '' };
    }
    const ids = args[args.indexOf('-j') + 1]!.split(',');
    const lines: string[] = [];
    for (const j of this.jobs.filter((x) => ids.includes(x.jobId))) {
      if (j.probe) {
        lines.push(`${j.jobId}|${j.tasks[0]!.state}|0:0|1|1|None`);
        continue;
      }
      for (const t of j.tasks) if (!t.vanished) lines.push(`${j.jobId}_${t.index}|${t.state === 'CANCELLED' ? 'CANCELLED by 0' : t.state}|0:0|${t.elapsed}|${t.cpus}|None`);
    }
    return { code: 0, stdout: lines.map((l) => `${l}\n`).join(''), stderr: '' };
  }

  private scancel(args: readonly string[]): SlurmOutput {
    const named = args[0] === '--name' ? args[1] : undefined;
    const targets = named ? this.jobs.filter((j) => j.name === named).flatMap((j) => j.tasks) : args.flatMap((a) => this.find(a));
    for (const t of targets) {
      if (FINAL.has(t.state)) continue;
      t.vanished = t.state === 'PENDING';
      t.state = 'CANCELLED';
    }
    return { code: 0, stdout: '', stderr: '' };
  }

  private find(id: string): FakeTask[] {
    const [jobId, index] = id.split('_');
    const job = this.jobs.find((j) => j.jobId === jobId);
    if (!job) return [];
    return index === undefined ? job.tasks : job.tasks.filter((t) => t.index === Number(index));
  }
}

function expand(spec: string): number[] {
  return spec.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number) as [number, number | undefined];
    return Array.from({ length: (b ?? a) - a + 1 }, (_, i) => a + i);
  });
}
