// Evaluator for optimise.mjs: runs the program's run() on the 3-dimensional Rastrigin function
// once per seed and scores each run by 1 / (1 + the best value found), a number in (0, 1]; 1 means
// the global minimum. The evaluator records every call to f itself, so the score is the best value
// the program actually evaluated, not one it reports.
//
//   node evaluate.mjs <program> [<instances file>]     (or RATCHET_PROGRAM / RATCHET_INSTANCES)
//
// Instances are seeds: `seed-17` runs with Math.random seeded by 17. The instances file lists such
// ids, one per line, and exactly those run — so a child and its parent can be run on the same
// seeds. Without one, five fresh seeds are drawn for every evaluation, and two evaluations of the
// same program differ. Prints one JSON object on stdout, its last line (`instances` maps each seed
// id to its score, `combined_score` is their mean). An incorrect program is reported with
// `correct: false` and exit code 0; exit code 2 means the evaluator itself was called wrongly.
import { spawn } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { pathToFileURL } from 'node:url';

/** Seeds per evaluation when none are given. */
const SEEDS = 5;
const PROBLEM = { dim: 3, lower: -5.12, upper: 5.12, budget: 2000 };
const TIME_LIMIT_MS = 20_000;

// Runs in a child process of its own for each seed (runChild), so nothing one run leaves behind
// (module state, globals, a process) reaches the next, and a program's score on a seed depends on
// that seed alone. Everything the scoring relies on is taken before the program loads, so a program
// that replaces Math.cos or postMessage changes nothing: the result goes out with a nonce the
// program never sees.
const CHILD = `
const post = parentPort.postMessage.bind(parentPort);
const { cos, PI } = Math;
const isFiniteNumber = Number.isFinite;
const { dim, lower, upper, budget } = workerData.problem;
const seed = workerData.seed;
const BUDGET_SPENT = new Error('the evaluation budget of ' + budget + ' calls to f is spent');

function mulberry32(s) {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let calls = 0;
let best = Infinity;
const point = new Float64Array(dim);
const f = (x) => {
  if (calls >= budget) throw BUDGET_SPENT;
  if (x === null || typeof x !== 'object' || x.length !== dim) {
    throw new TypeError('f expects an array of ' + dim + ' numbers, got ' + (x && typeof x === 'object' ? 'one of length ' + x.length : String(x)));
  }
  // Read each coordinate once, so what is checked is what is scored.
  for (let i = 0; i < dim; i++) {
    const v = x[i];
    if (typeof v !== 'number' || !isFiniteNumber(v)) throw new TypeError('f got x[' + i + '] = ' + String(v) + ', not a finite number');
    if (v < lower || v > upper) throw new RangeError('f got x[' + i + '] = ' + v + ', outside [' + lower + ', ' + upper + ']');
    point[i] = v;
  }
  calls++;
  let y = 10 * dim;
  for (let i = 0; i < dim; i++) y += point[i] * point[i] - 10 * cos(2 * PI * point[i]);
  if (y < best) best = y;
  return y;
};

(async () => {
  Math.random = mulberry32(seed);
  const mod = await import(workerData.url);
  if (typeof mod.run !== 'function') throw new Error('the program does not export a function run()');
  try {
    await mod.run(f, { dim, lower, upper, budget });
  } catch (e) {
    if (e !== BUDGET_SPENT) throw new Error('run() failed with seed ' + seed + ': ' + (e && e.stack ? e.stack : e));
  }
  post({ ok: true, calls, best });
})().catch((e) => post({ ok: false, error: e && e.message ? String(e.message) : String(e) }));
`;

async function runSeed(programPath, seed, timeLimitMs) {
  const run = await runChild(CHILD, { url: pathToFileURL(programPath).href, seed, problem: PROBLEM }, timeLimitMs);
  if (run.message) return { ...run.message, seed, output: run.output };
  if (run.timedOut) return { ok: false, error: `run() did not finish within ${TIME_LIMIT_MS / 1000} s for all the seeds (seed ${seed} was running)`, seed, output: run.output };
  return { ok: false, error: `the program exited (${run.signal ? `killed by ${run.signal}` : `code ${run.exitCode}`}) before run() returned (seed ${seed})`, seed, output: run.output };
}

/** Runs the seeds one after the other, each in its own child process, within one overall time limit. */
async function runProgram(programPath, seeds) {
  const deadline = Date.now() + TIME_LIMIT_MS;
  const results = [];
  let output = '';
  for (const seed of seeds) {
    const r = await runSeed(programPath, seed, Math.max(1, deadline - Date.now()));
    output += r.output;
    if (!r.ok) return { ok: false, error: r.error, output };
    results.push({ seed, calls: r.calls, best: r.best });
  }
  return { ok: true, value: results, output };
}

// ---------------------------------------------------------------------------------------------
// The program runs in a child process of its own, never in this one: a clean environment (PATH
// only), its own process group, its input on stdin and its answer on a pipe of its own (fd 3),
// read with a nonce the program never sees. This evaluator's results go to stdout alone, after
// every process the program started is gone — so nothing the program does, in the foreground or
// in a process it leaves behind, can reach the verdict. (Under Ratchet's jail or namespaces,
// RATCHET_ISOLATION says the evaluation has a process tree of its own, and every process in it but
// this evaluator and those it runs under is the program's: all are ended before the verdict.)

/** Prepended to the child's code: `workerData` from stdin, `parentPort.postMessage` to fd 3, both taken before the program loads. */
const CHILD_PRELUDE = `
const __fs = require('node:fs');
const __input = JSON.parse(__fs.readFileSync(0, 'utf8'));
const __nonce = __input.nonce;
const __write = __fs.writeSync.bind(__fs);
const __stringify = JSON.stringify;
const workerData = __input.data;
const parentPort = {
  postMessage(message) {
    const text = __stringify({ nonce: __nonce, message }, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? { nonFinite: String(v) } : v));
    __write(3, text + '\\n');
  },
};
`;

/**
 * Runs `code` (which uses `workerData` and `parentPort.postMessage`, as a worker would) in a child
 * process with `data` as its input. Resolves with the first message it posted, what it printed
 * (up to 4000 characters), and how it ended; a child still running `timeLimitMs` after its start
 * is killed with everything it started.
 */
function runChild(code, data, timeLimitMs) {
  return new Promise((resolve) => {
    const nonce = randomUUID();
    // In a block of its own: nothing the prelude keeps (the nonce, fd 3) is a global the program could name.
    const child = spawn(process.execPath, ['--max-old-space-size=512', '-e', `{\n${CHILD_PRELUDE}\n${code}\n}`], {
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      detached: true,
      env: { PATH: process.env.PATH ?? '' },
      cwd: tmpdir(),
    });
    let output = '';
    const keep = (chunk) => {
      if (output.length < 4000) output += String(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let answers = '';
    child.stdio[3].on('data', (chunk) => (answers += String(chunk)));
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify({ nonce, data }));
    let settled = false;
    const finish = (ended) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killGroup(child.pid);
      const message = readAnswer(answers, nonce);
      resolve({ ...ended, ...(message === undefined ? {} : { message }), output });
    };
    const timer = setTimeout(() => finish({ timedOut: true }), timeLimitMs);
    child.on('error', (e) => finish({ error: String(e) }));
    // After the answer, what the program printed may still arrive: the result waits for the child's end, or 5 s more for one that leaves a timer running.
    child.stdio[3].on('data', () => {
      if (readAnswer(answers, nonce) !== undefined) setTimeout(() => finish({ exitCode: null }), 5000).unref();
    });
    child.on('close', (exitCode, signal) => finish({ exitCode, signal }));
  });
}

/** The first message posted with the nonce; a line the program wrote to fd 3 itself has none. */
function readAnswer(text, nonce) {
  for (const line of text.split('\n')) {
    try {
      const parsed = JSON.parse(line, (_k, v) => (v !== null && typeof v === 'object' && Object.keys(v).length === 1 && typeof v.nonFinite === 'string' ? Number(v.nonFinite) : v));
      if (parsed && parsed.nonce === nonce) return parsed.message;
    } catch {
      // Not a line of ours.
    }
  }
  return undefined;
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/**
 * Before the verdict: with a process tree of the evaluation's own, every process in it but this one
 * and those it runs under (a wrapper that called this evaluator, the tree's first) is the
 * program's. A few passes, for a process forked while the last one looked.
 */
function endProgramProcesses() {
  if (!['jail', 'namespaces'].includes(process.env.RATCHET_ISOLATION ?? '')) return;
  const parentOf = (pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return 0;
    }
  };
  const keep = new Set();
  for (let pid = process.pid; pid > 0 && !keep.has(pid); pid = parentOf(pid)) keep.add(pid);
  for (let pass = 0; pass < 3; pass++) {
    for (const name of readdirSync('/proc')) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid <= 0 || keep.has(pid)) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  }
}

/** An error's message and the program's own frames; Node's internals and this harness are noise to a proposer. */
const cleanStack = (text) =>
  text
    .split('\n')
    .filter((line) => !/^\s+at .*(\(node:|\[eval\]|\[worker eval\]|<anonymous>)/.test(line))
    .join('\n');

/** The verdict, once every process of the program is gone: on a line of its own, the last of stdout. */
function emit(result) {
  endProgramProcesses();
  process.stdout.write(`\n${JSON.stringify(result)}\n`);
}

function incorrect(error, output) {
  const tail = output ? `\nProgram output:\n${output.slice(0, 2000)}` : '';
  return { correct: false, combined_score: 0, error, text_feedback: `${error}${tail}` };
}

function usage(message) {
  process.stderr.write(`${message}\nusage: node evaluate.mjs <program> [<instances file>]\n`);
  process.exit(2);
}

/** The seeds to run: those the ids file names (`seed-<n>`, in the file's order), or fresh ones. */
function selectSeeds(idsFile) {
  if (!idsFile) {
    const seeds = new Set();
    while (seeds.size < SEEDS) seeds.add(randomInt(1, 1_000_000));
    return [...seeds];
  }
  let text;
  try {
    text = readFileSync(idsFile, 'utf8');
  } catch (e) {
    usage(`cannot read the instances file ${idsFile}: ${e.message}`);
  }
  const ids = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const bad = ids.filter((id) => !/^seed-\d{1,9}$/.test(id));
  if (bad.length) usage(`instance ids here are seeds, written seed-<n> (n a whole number below 10⁹); ${idsFile} has ${bad.slice(0, 5).join(', ')}`);
  return [...new Set(ids.map((id) => Number(id.slice('seed-'.length))))];
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main() {
  const programArg = process.argv[2] || process.env.RATCHET_PROGRAM;
  const idsFile = process.argv[3] || process.env.RATCHET_INSTANCES || '';
  if (!programArg) usage('no program given');
  const seeds = selectSeeds(idsFile);
  if (seeds.length === 0) usage(`the instances file ${idsFile} names no seed`);

  const run = await runProgram(path.resolve(programArg), seeds);
  if (!run.ok) return emit(incorrect(cleanStack(run.error), run.output));
  const idle = run.value.filter((r) => r.calls === 0);
  if (idle.length) {
    return emit(incorrect(`run() never called f (seed${idle.length > 1 ? 's' : ''} ${idle.map((r) => r.seed).join(', ')}): there is nothing to score`, run.output));
  }
  const rows = run.value.map((r) => ({ id: `seed-${r.seed}`, ...r, score: 1 / (1 + r.best) }));
  const combined = mean(rows.map((r) => r.score));
  emit(
    {
      correct: true,
      combined_score: combined,
      instances: Object.fromEntries(rows.map((r) => [r.id, r.score])),
      public: {
        seeds: rows.length,
        mean_best_value: mean(rows.map((r) => r.best)),
        worst_best_value: Math.max(...rows.map((r) => r.best)),
        mean_calls: mean(rows.map((r) => r.calls)),
      },
      private: {},
      text_feedback:
        `Mean score ${combined.toFixed(4)} over ${rows.length} seeds (score = 1 / (1 + best value); the global minimum is 0). ` +
        `Best values found: ${rows.map((r) => `${r.id} ${r.best.toFixed(4)} in ${r.calls} calls`).join('; ')}. ` +
        `A single evaluation is noisy: compare programs on the same seeds.`,
    },
  );
}

await main();
