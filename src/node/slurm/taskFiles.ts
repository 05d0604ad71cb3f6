/**
 * What one Slurm array job and its tasks leave in the shared run folder, written by one side and
 * read by the other:
 *
 *   <runDir>/jobs/<batch>/batch.json        the submitting process: the evaluator setup, the program
 *                                           file, each task's shard (by array index)
 *   <runDir>/jobs/<batch>/program.txt       the program's text
 *   <runDir>/jobs/<batch>/job.sh            the sbatch script (script.ts)
 *   <runDir>/jobs/<batch>/result-<i>.json   task i on its node (taskMain.ts): its evaluation
 *   <runDir>/jobs/<batch>/task-<i>-<job>.out/.err   Slurm's output files of task i
 *
 * A result is written to a temporary name and renamed, so a reader never sees half of one; a task
 * that died before writing it leaves none, and its Slurm state says why.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { ProgramEvaluation } from '../../core/code/search';
import type { EvaluatorSetup } from '../sandbox/sandboxEvaluation';

export const BATCH_FORMAT = 1;

export interface BatchFile {
  format: typeof BATCH_FORMAT;
  runId: string;
  setup: EvaluatorSetup;
  /** Values of the evaluator.env names, read where the run started (as the local sandbox reads them). */
  envValues: Record<string, string>;
  /** By array index: the shard's instances, or null for a whole evaluation. */
  shards: (string[] | null)[];
  /** By array index: the evaluation's key. */
  keys: string[];
}

export interface TaskResult {
  format: typeof BATCH_FORMAT;
  index: number;
  evaluation: ProgramEvaluation;
  /** The evaluator's own wall time in the sandbox, and the node it ran on. */
  wallMs: number;
  host: string;
}

export const batchPath = (dir: string): string => join(dir, 'batch.json');
export const programPath = (dir: string): string => join(dir, 'program.txt');
export const scriptPath = (dir: string): string => join(dir, 'job.sh');
export const resultPath = (dir: string, index: number): string => join(dir, `result-${index}.json`);
/** Slurm's output files of a task, as sbatch --output / --error name them (%a the index, %A the job). */
export const outputPattern = (dir: string, stream: 'out' | 'err'): string => join(dir, `task-%a-%A.${stream}`);
export const outputPath = (dir: string, index: number, jobId: string, stream: 'out' | 'err'): string => join(dir, `task-${index}-${jobId}.${stream}`);

export async function writeBatch(dir: string, batch: BatchFile, programText: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeAtomic(programPath(dir), programText);
  await writeAtomic(batchPath(dir), JSON.stringify(batch));
}

export async function readBatch(dir: string): Promise<{ batch: BatchFile; programText: string }> {
  const batch = JSON.parse(await readFile(batchPath(dir), 'utf8')) as BatchFile;
  if (batch.format !== BATCH_FORMAT) throw new Error(`${batchPath(dir)} has format ${String(batch.format)}; this Ratchet reads ${BATCH_FORMAT}`);
  return { batch, programText: await readFile(programPath(dir), 'utf8') };
}

export async function writeScript(dir: string, text: string): Promise<void> {
  await writeFileAtomic(scriptPath(dir), text, { mode: 0o755 });
}

export async function writeResult(dir: string, result: TaskResult): Promise<void> {
  await writeAtomic(resultPath(dir, result.index), JSON.stringify(result));
}

/** Task `index`'s result; undefined while there is none (not written yet, or the task died first). */
export async function readResult(dir: string, index: number): Promise<TaskResult | undefined> {
  let text: string;
  try {
    text = await readFile(resultPath(dir, index), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const r = JSON.parse(text) as TaskResult;
    return r.format === BATCH_FORMAT && r.index === index && typeof r.evaluation?.correct === 'boolean' ? r : undefined;
  } catch {
    return undefined;
  }
}

/** The end of a task's Slurm error output, for the reason a failed task gives. */
export async function outputTail(dir: string, index: number, jobId: string): Promise<string> {
  try {
    const text = await readFile(outputPath(dir, index, jobId, 'err'), 'utf8');
    return text.trim().split('\n').slice(-3).join(' | ').slice(-400);
  } catch {
    return '';
  }
}

function writeAtomic(path: string, text: string): Promise<void> {
  return writeFileAtomic(path, text);
}
