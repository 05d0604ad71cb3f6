// Workspaces and cluster look-ups for the Slurm tests (issue #18), which run the built CLI against
// the local cluster of scripts/slurm-local.sh and the fake OpenAI-compatible server, with the real
// sbatch, squeue, sacct and scancel.
//
// The program holds one literal, `rate`, that the fake proposer nudges; the evaluator scores each of
// its 40 instances 1 when rate is above the seed's 0.3, else 0, so a child the nudge moved up wins
// every instance and PACE+ commits it after 7, long before the last. To hold a race open without a
// sleep, a child's evaluation parks until a file the test creates exists (PARK=all), or parks
// forever in the array tasks from index 2 on (PARK=late): tasks the gate must never need.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PROGRAM = ['// The harness imports step(); only the block changes.', 'export function step() {', '  // EVOLVE-BLOCK-START', '  const rate = 0.300;', '  // EVOLVE-BLOCK-END', '  return rate;', '}', ''].join('\n');

export const EVALUATOR = `
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [program, , instancesFile] = process.argv.slice(2);
const { step } = await import(pathToFileURL(program).href);
const rate = step();
const listed = instancesFile ? readFileSync(instancesFile, 'utf8').split('\\n').filter(Boolean) : [];
const ids = listed.length > 0 ? listed : Array.from({ length: 40 }, (_, i) => 'inst-' + (i + 1));
const park = process.env.PARK === 'all' || (process.env.PARK === 'late' && Number(process.env.SLURM_ARRAY_TASK_ID) >= 2);
if (rate !== 0.3 && park) {
  while (!(process.env.RELEASE_FILE && existsSync(process.env.RELEASE_FILE))) await new Promise((r) => setTimeout(r, 100));
}
const instances = Object.fromEntries(ids.map((id) => [id, rate > 0.3 ? 1 : 0]));
console.log(JSON.stringify({ correct: true, instances, public: { rate } }));
`;

export interface Workspace {
  dir: string;
  program: string;
  release: string;
}

/** A fresh workspace with step.mjs, its evaluator and a spec on Slurm; `spec` lines are added under evaluator.slurm, `extra` at the top level. */
export function slurmWorkspace(o: { shards?: boolean; slurm?: string[]; extra?: string[] } = {}): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-slurm-'));
  const program = join(dir, 'step.mjs');
  writeFileSync(program, PROGRAM);
  writeFileSync(join(dir, 'evaluate.mjs'), EVALUATOR);
  writeFileSync(
    join(dir, 'step.mjs.ratchet.yaml'),
    [
      'kind: code',
      'evaluator:',
      `  command: node evaluate.mjs {program} {results}${o.shards === false ? '' : ' {instances}'}`,
      '  supportFiles: [evaluate.mjs]',
      '  timeoutSeconds: 600',
      `  shards: ${o.shards === false ? 'false' : 'true'}`,
      '  shardSize: 4',
      '  env: [PARK, RELEASE_FILE, SLURM_ARRAY_TASK_ID]',
      // The evaluator waits for RELEASE_FILE, a file of the test's that a jail on the node would hide.
      '  isolation: off',
      '  backend: slurm',
      '  slurm:',
      '    pollSeconds: 0.5',
      ...(o.slurm ?? []).map((l) => `    ${l}`),
      'models:',
      '  proposer: { model: sim-proposer }',
      'islands: 1',
      'concurrency: 2',
      ...(o.extra ?? []),
      '',
    ].join('\n'),
  );
  return { dir, program, release: join(dir, 'release') };
}

/** A copy of examples/code/bin-packing (the per-instance example), its spec's evaluator on `backend`. */
export function binPacking(backend: 'local' | 'slurm', proposals: number): { dir: string; program: string } {
  const dir = mkdtempSync(join(tmpdir(), `ratchet-bin-packing-${backend}-`));
  cpSync(join('examples/code', 'bin-packing'), dir, { recursive: true });
  const spec = join(dir, 'binpack.mjs.ratchet.yaml');
  const text = readFileSync(spec, 'utf8').replace('budget: { proposals: 60, evaluations: 200 }', `budget: { proposals: ${proposals} }`);
  writeFileSync(spec, backend === 'slurm' ? text.replace('  shards: true\n', "  shards: true\n  backend: slurm\n  slurm: { pollSeconds: 0.5, time: '10' }\n") : text);
  return { dir, program: join(dir, 'binpack.mjs') };
}

/** sacct's records of the run's jobs (the probe's among them: its folder is a probe-… one). */
export function sacctRows(runId: string): { id: string; state: string; elapsed: number; workDir: string }[] {
  const out = execFileSync('sacct', ['-X', '-n', '-P', '--name', `ratchet-${runId}`, '-S', 'now-1days', '-o', 'JobID,State,ElapsedRaw,WorkDir'], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [id = '', state = '', elapsed = '0', workDir = ''] = l.split('|');
      return { id, state: state.split(' ')[0]!, elapsed: Number(elapsed), workDir };
    });
}

/** What squeue still holds of the run. */
export function queued(runId: string): string[] {
  return execFileSync('squeue', ['-h', '--name', `ratchet-${runId}`, '-o', '%i %T'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.trim() !== '');
}
