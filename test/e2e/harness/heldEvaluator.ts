/**
 * A code search whose evaluations the spec holds open: the circle-packing example (examples/code)
 * with an evaluator that, from its Nth evaluation on, starts a grandchild process and waits until
 * the spec releases it, then scores the program with the example's own evaluate.mjs. So a spec can
 * cancel or reload "mid-evaluation" without racing a sleep: it waits for the evaluation to say it
 * is held, acts, and releases it (or never does).
 *
 * Every process of a held evaluation carries the control folder's path in its command line — a
 * path no other process on the machine has —, which is how a spec finds them in /proc, and checks
 * that none is left once the sandbox was told to stop them.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '../pages/waits';

export const HELD_PROGRAM = 'code/circle-packing/pack.mjs';
const EVALUATOR_NAME = 'held-evaluate.mjs';

/**
 * Runs in the sandbox (a copy of it, beside the candidate). Argv: program, results, the control
 * folder, the first evaluation to hold. Evaluations are numbered by claiming `started-<n>` files
 * (exclusive create), so two evaluations running at once never share a number.
 */
const EVALUATOR = `// The e2e specs' held evaluator (test/e2e/harness/heldEvaluator.ts).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [program, results, control, holdFrom] = process.argv.slice(2);
let n = 1;
for (;; n++) {
  try {
    closeSync(openSync(join(control, 'started-' + n), 'wx'));
    break;
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
  }
}
if (n >= Number(holdFrom)) {
  // A grandchild in the evaluation's process group: stopping the evaluation must stop it too.
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', control], { stdio: 'ignore' });
  // Renamed into place, so the spec never reads it half written.
  writeFileSync(join(control, 'holding-' + n), JSON.stringify({ evaluator: process.pid, grandchild: child.pid }));
  renameSync(join(control, 'holding-' + n), join(control, 'held-' + n));
  const tick = new Int32Array(new SharedArrayBuffer(4));
  while (!existsSync(join(control, 'release'))) Atomics.wait(tick, 0, 0, 50);
  child.kill();
}
const here = dirname(fileURLToPath(import.meta.url));
const scored = spawnSync(process.execPath, [join(here, 'evaluate.mjs'), program, results], { stdio: ['ignore', 'inherit', 'inherit'] });
process.exit(scored.status ?? 1);
`;

export interface HeldEvaluator {
  /** The folder whose path marks the held evaluations' processes. */
  readonly control: string;
  /** Writes the evaluator and the program's run spec into the workspace copy. */
  populate(folder: string): Promise<void>;
  /** Waits until evaluation `n` is held (its evaluator and grandchild started); returns their pids. */
  untilHeld(n: number, timeoutMs: number): Promise<{ evaluator: number; grandchild: number }>;
  /** Lets every held evaluation, and every later one, go on. */
  release(): Promise<void>;
  /** How many evaluations have started so far. */
  started(): Promise<number>;
  close(): Promise<void>;
}

/** A run spec for HELD_PROGRAM: the example's, with a small budget and a timeout no spec waits out. */
function spec(control: string, holdFrom: number, budget: { proposals: number; evaluations: number }): string {
  return [
    'kind: code',
    'evaluator:',
    `  command: node ${EVALUATOR_NAME} {program} {results} ${control} ${holdFrom}`,
    `  supportFiles: [${EVALUATOR_NAME}, evaluate.mjs]`,
    // The evaluator talks to the spec through the control folder on the host: a jail (bubblewrap)
    // would show it a /tmp of its own. What these specs hold open is the run across a reload or a
    // Cancel, not the sandbox (cli-search-hostile.test.ts proves the jail).
    '  isolation: off',
    '  timeoutSeconds: 600',
    '  deterministic: true',
    'gate: pace+',
    `budget: { proposals: ${budget.proposals}, evaluations: ${budget.evaluations} }`,
    'concurrency: 2',
    'islands: 1',
    '',
  ].join('\n');
}

export async function startHeldEvaluator(opts: { holdFrom: number; budget: { proposals: number; evaluations: number } }): Promise<HeldEvaluator> {
  const control = await mkdtemp(join(tmpdir(), 'ratchet-e2e-held-'));
  const started = async () => (await readdir(control)).filter((f) => f.startsWith('started-')).length;
  return {
    control,
    async populate(folder) {
      const dir = join(folder, HELD_PROGRAM, '..');
      await writeFile(join(dir, EVALUATOR_NAME), EVALUATOR);
      await writeFile(join(folder, `${HELD_PROGRAM}.ratchet.yaml`), spec(control, opts.holdFrom, opts.budget));
    },
    async untilHeld(n, timeoutMs) {
      let startedSoFar = 0;
      return waitUntil(
        async () => {
          startedSoFar = await started();
          const text = await readFile(join(control, `held-${n}`), 'utf8').catch(() => undefined);
          return text === undefined ? undefined : (JSON.parse(text) as { evaluator: number; grandchild: number });
        },
        () => `evaluation ${n} of the search to be held (evaluations started: ${startedSoFar})`,
        timeoutMs,
      );
    },
    release: () => writeFile(join(control, 'release'), ''),
    started,
    close: () => rm(control, { recursive: true, force: true }),
  };
}

/** The processes on this machine whose command line holds `marker`, by pid. */
export async function processesMarked(marker: string): Promise<{ pid: number; cmdline: string }[]> {
  const found: { pid: number; cmdline: string }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    // A process may end between the listing and the read: then it is not left.
    const raw = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const cmdline = raw.split('\0').join(' ').trim();
    if (cmdline.includes(marker)) found.push({ pid: Number(entry), cmdline });
  }
  return found;
}
