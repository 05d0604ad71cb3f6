/**
 * The program each Slurm array task runs on its node (bundled to out/slurmTask.js and copied into
 * the shared run folder, so every node runs the Ratchet that submitted the job):
 *
 *   node slurmTask.js <batch dir> <array index>    one evaluation: the sandbox (src/node/sandbox/sandbox.ts,
 *                                                  the same rules as a local run) on the task's
 *                                                  shard, its result written beside the batch
 *   node slurmTask.js --probe <probe dir>          the probe job: proves the node sees the shared
 *                                                  folder, can write to it, and runs this Node
 *
 * It exits 0 whenever it wrote a result, an incorrect program's included; a non-zero exit means the
 * task itself could not run (an unreadable batch, a full disk), which Slurm records as FAILED and
 * the backend retries like a node failure.
 */
import { hostname } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runEvaluation } from '../sandbox/sandbox';
import { evaluationRequest, programEvaluation } from '../sandbox/sandboxEvaluation';
import { readBatch, writeResult } from './taskFiles';

export const PROBE_TOKEN = 'token';
export const PROBE_ANSWER = 'answer.json';

async function evaluate(dir: string, index: number): Promise<void> {
  const { batch, programText } = await readBatch(dir);
  const shard = batch.shards[index];
  if (shard === undefined) throw new Error(`${dir}/batch.json has no task ${index}`);
  const controller = new AbortController();
  // Slurm ends a task with SIGTERM (scancel, its time limit, preemption): the sandbox then kills
  // the evaluator's process group at once, rather than leaving it to outlive the task.
  for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => controller.abort());
  // The node knows no key (the submitting process cleans what the program printed when it reads the result back).
  const req = evaluationRequest(batch.setup, programText, shard ?? undefined, controller.signal, []);
  const run = await runEvaluation({ ...req, baseEnv: { ...process.env, ...batch.envValues } });
  if (controller.signal.aborted) process.exit(143);
  await writeResult(dir, { format: 1, index, evaluation: programEvaluation(run, []), wallMs: run.wallMs, host: hostname() });
}

async function probe(dir: string): Promise<void> {
  const token = await readFile(join(dir, PROBE_TOKEN), 'utf8');
  await writeFile(join(dir, PROBE_ANSWER), JSON.stringify({ token, node: process.version, host: hostname(), execPath: process.execPath }));
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === '--probe' && argv[1]) return probe(argv[1]);
  const [dir, index] = argv;
  if (!dir || index === undefined || !/^\d+$/.test(index)) throw new Error('usage: slurmTask.js <batch dir> <array index> | --probe <dir>');
  await evaluate(dir, Number(index));
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`ratchet slurm task: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
