/**
 * The sbatch script of a code-search array job and the command line that submits it. The spec's
 * resources become #SBATCH lines; what Ratchet must control is on the command line (array, name,
 * output files, folder, environment), where no #SBATCH line of the user's can override it.
 *
 * The job starts with `--export=NONE`: Slurm then gives it the user's login environment on the
 * node (SLURM_GET_USER_ENV) instead of a copy of Ratchet's, which holds the provider's API key.
 * The script sets the search path and the locale Ratchet sees (what the local sandbox passes an
 * evaluator too), then runs the spec's setup line (module load, a venv), then the task runner.
 */
import type { SlurmSpec } from '../../core/code/slurmSpec';
import { outputPattern } from './taskFiles';

/** A word for a POSIX shell, quoted so it stays one word whatever it holds. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The #SBATCH lines of the spec's resources. */
export function resourceLines(s: SlurmSpec): string[] {
  return [
    ...(s.partition ? [`--partition=${s.partition}`] : []),
    ...(s.account ? [`--account=${s.account}`] : []),
    ...(s.qos ? [`--qos=${s.qos}`] : []),
    `--time=${s.time}`,
    `--cpus-per-task=${s.cpus}`,
    `--mem=${s.memoryMb}M`,
    ...(s.gres ? [`--gres=${s.gres}`] : []),
    ...s.sbatch.map((l) => l.trim()),
  ].map((option) => `#SBATCH ${option}`);
}

/** The variables of Ratchet's environment a task starts with: the search path and the locale (never a key). */
const PASSED = /^(PATH|LANG|LANGUAGE|TZ|LC_[A-Z_]+)$/;

export interface ScriptInput {
  slurm: SlurmSpec;
  /** What this script is for, in a comment at its top. */
  title: string;
  /** The environment to pass PATH and the locale from. */
  env: Record<string, string | undefined>;
  /** The Node program on the nodes, and the runner file in the shared folder. */
  node: string;
  runner: string;
  /** The runner's arguments; `"$SLURM_ARRAY_TASK_ID"` is passed through unquoted-expanded. */
  args: string[];
}

export function jobScript(i: ScriptInput): string {
  const exports = Object.entries(i.env)
    .filter((e): e is [string, string] => PASSED.test(e[0]) && e[1] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `export ${k}=${shellQuote(v)}`);
  const args = i.args.map((a) => (a === '$SLURM_ARRAY_TASK_ID' ? '"$SLURM_ARRAY_TASK_ID"' : shellQuote(a)));
  return [
    '#!/bin/bash',
    `# ${i.title}`,
    '# Written by Ratchet (code search on Slurm); submitted with sbatch, one task per shard.',
    ...resourceLines(i.slurm),
    ...exports,
    ...(i.slurm.setup ? ["# The run spec's evaluator.slurm.setup:", i.slurm.setup] : []),
    `exec ${shellQuote(i.node)} ${shellQuote(i.runner)} ${args.join(' ')}`,
    '',
  ].join('\n');
}

/** sbatch's command line for `indices` of the job in `dir` (the script's path comes last). */
export function submitArgs(o: { jobName: string; dir: string; indices: readonly number[]; arrayLimit?: number }): string[] {
  return [
    '--parsable',
    `--job-name=${o.jobName}`,
    `--chdir=${o.dir}`,
    `--output=${outputPattern(o.dir, 'out')}`,
    `--error=${outputPattern(o.dir, 'err')}`,
    '--export=NONE',
    `--array=${arraySpec(o.indices)}${o.arrayLimit === undefined ? '' : `%${o.arrayLimit}`}`,
  ];
}

/** [0, 1, 2, 5, 7, 8] → `0-2,5,7-8`. */
export function arraySpec(indices: readonly number[]): string {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
