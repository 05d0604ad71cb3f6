/**
 * `evaluator.slurm` of a code search's run spec (`evaluator.backend: slurm`), resolved: how its
 * evaluations are submitted as Slurm array jobs, with the checks a schema cannot express (a Slurm
 * time limit, sbatch lines that are options and not ones Ratchet sets itself).
 */
import { isPlainObject } from '../data/item';
import type { Report } from '../setup/specResolve';

/**
 * How a code search's evaluations are submitted to Slurm (issue #18): one program's shards as one
 * `sbatch --array` job, each task the sandboxed evaluator on its shard, on a node.
 */
export interface SlurmSpec {
  partition?: string;
  account?: string;
  qos?: string;
  /** sbatch --time for each task, in Slurm's format (`30`, `1:30:00`, `1-00:00:00`). */
  time: string;
  /** sbatch --cpus-per-task. */
  cpus: number;
  /** sbatch --mem, in MB (default: evaluator.limits.memoryMb). */
  memoryMb: number;
  /** sbatch --gres, e.g. `gpu:1`. */
  gres?: string;
  /** Further sbatch options, one `#SBATCH` line each (`--constraint=skylake`). */
  sbatch: string[];
  /** One shell line run in each task before the evaluator (`module load nodejs`, `source venv/bin/activate`). */
  setup?: string;
  /** A folder every node sees at the same path, for the run's scripts, programs and results (resolved); absent: the workspace's .ratchet/slurm. */
  sharedDir?: string;
  /** The Node the tasks run the sandbox with; absent: the one running Ratchet, at the same path. */
  node?: string;
  /** Times a task that Slurm ended without a result (node failure, time limit, out of memory, preemption) is submitted again before it counts as incorrect. */
  retries: number;
  /** Seconds between the first polls of squeue; it backs off to 30 s while nothing changes. */
  pollSeconds: number;
  /** Tasks of one array job running at once (`--array=…%N`); absent: as many as Slurm allows. */
  arrayLimit?: number;
}

/** sbatch options Ratchet sets itself on every job: a spec's `sbatch` lines may not repeat them. */
export const SBATCH_OWN = ['--array', '-a', '--output', '-o', '--error', '-e', '--job-name', '-J', '--export', '--parsable', '--chdir', '-D', '--wrap', '--wait', '-W'] as const;

/** evaluator.slurm's fixed defaults (its time and memory come from the evaluator's timeout and limit). */
export const SLURM_DEFAULTS = { cpus: 1, sbatch: [] as readonly string[], retries: 2, pollSeconds: 2 } as const;

/** Slurm's time formats: minutes, minutes:seconds, hours:minutes:seconds, days-hours, days-hours:minutes, days-hours:minutes:seconds. */
const SLURM_TIME = /^(\d+-\d+(:\d+){0,2}|\d+(:\d+){0,2})$/;

/** `evaluator.slurm`, checked field by field; its time and memory default from the evaluator's timeout and memory limit `e`. */
export function resolveSlurm(raw: unknown, e: { timeoutSeconds: number; memoryMb: number }, resolvePath: (relative: string) => string, report: Report): SlurmSpec {
  const r: Record<string, unknown> = isPlainObject(raw) ? raw : {};
  const d = SLURM_DEFAULTS;
  const str = (k: string): string | undefined => (typeof r[k] === 'string' && r[k] !== '' ? (r[k] as string) : undefined);
  const time = str('time');
  if (time !== undefined && !SLURM_TIME.test(time)) {
    report(['evaluator', 'slurm', 'time'], `evaluator.slurm.time "${time}" is not a Slurm time limit: write minutes (30), hours:minutes:seconds (1:30:00) or days-hours:minutes:seconds (1-00:00:00)`);
  }
  const sbatch = Array.isArray(r.sbatch) ? (r.sbatch as unknown[]).filter((x): x is string => typeof x === 'string') : [...d.sbatch];
  sbatch.forEach((line, i) => {
    const option = line.trim().split(/[=\s]/)[0]!;
    if (!option.startsWith('-')) report(['evaluator', 'slurm', 'sbatch', i], `evaluator.slurm.sbatch[${i}] "${line}" is not an sbatch option: write it as on sbatch's command line, e.g. --constraint=skylake`);
    else if ((SBATCH_OWN as readonly string[]).includes(option))
      report(['evaluator', 'slurm', 'sbatch', i], `evaluator.slurm.sbatch[${i}]: Ratchet sets ${option} itself on every job (its array, output files, name and environment); remove it`);
  });
  const sharedDir = str('sharedDir');
  const pos = (k: string): number | undefined => (typeof r[k] === 'number' ? r[k] : undefined);
  const arrayLimit = pos('arrayLimit');
  return {
    ...(str('partition') ? { partition: str('partition')! } : {}),
    ...(str('account') ? { account: str('account')! } : {}),
    ...(str('qos') ? { qos: str('qos')! } : {}),
    // The sandbox's own timeout ends a slow evaluation first; Slurm's limit leaves it room to start and report.
    time: time ?? String(Math.ceil((e.timeoutSeconds + 120) / 60)),
    cpus: pos('cpus') ?? d.cpus,
    memoryMb: pos('memoryMb') ?? e.memoryMb,
    ...(str('gres') ? { gres: str('gres')! } : {}),
    sbatch,
    ...(str('setup') ? { setup: str('setup')! } : {}),
    ...(sharedDir ? { sharedDir: resolvePath(sharedDir) } : {}),
    ...(str('node') ? { node: str('node')! } : {}),
    retries: pos('retries') ?? d.retries,
    pollSeconds: pos('pollSeconds') ?? d.pollSeconds,
    ...(arrayLimit === undefined ? {} : { arrayLimit }),
  };
}
