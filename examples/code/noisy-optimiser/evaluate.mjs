// Evaluator for optimise.mjs: runs the program's run() on the 3-dimensional Rastrigin function
// once per seed and scores each run by 1 / (1 + the best value found), a number in (0, 1]; 1 means
// the global minimum. The evaluator records every call to f itself, so the score is the best value
// the program actually evaluated, not one it reports.
//
//   node evaluate.mjs <program> [<results dir>] [<instances file>]
//       (or RATCHET_PROGRAM / RATCHET_RESULTS / RATCHET_INSTANCES)
//
// Instances are seeds: `seed-17` runs with Math.random seeded by 17. The instances file lists such
// ids, one per line, and exactly those run — so a child and its parent can be run on the same
// seeds. Without one, five fresh seeds are drawn for every evaluation, and two evaluations of the
// same program differ. Prints one JSON object on stdout (`instances` maps each seed id to its
// score, `combined_score` is their mean) and writes it to <results>/metrics.json when a results
// directory is given. An incorrect program is reported with `correct: false` and exit code 0;
// exit code 2 means the evaluator itself was called wrongly.
import { randomInt, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Seeds per evaluation when none are given. */
const SEEDS = 5;
const PROBLEM = { dim: 3, lower: -5.12, upper: 5.12, budget: 2000 };
const TIME_LIMIT_MS = 20_000;

// Runs in a worker of its own for each seed, so nothing one run leaves behind (module state,
// globals) reaches the next, and a program's score on a seed depends on that seed alone.
// Everything the scoring relies on is taken before the program loads, so a program that replaces
// Math.cos or postMessage changes nothing: the result goes out with a nonce the program never sees.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const post = parentPort.postMessage.bind(parentPort);
const { cos, PI } = Math;
const isFiniteNumber = Number.isFinite;
const nonce = workerData.nonce;
delete workerData.nonce;
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
  post({ nonce, ok: true, calls, best });
})().catch((e) => post({ nonce, ok: false, error: e && e.message ? String(e.message) : String(e) }));
`;

function runSeed(programPath, seed, timeLimitMs) {
  return new Promise((resolve) => {
    const nonce = randomUUID();
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { url: pathToFileURL(programPath).href, seed, problem: PROBLEM, nonce },
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    // The program's own console output must not reach our stdout, which carries the one JSON object.
    let output = '';
    const keep = (chunk) => {
      if (output.length < 4000) output += String(chunk);
    };
    worker.stdout.on('data', keep);
    worker.stderr.on('data', keep);
    let settled = false;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve({ ...result, seed, output });
    };
    const timer = setTimeout(() => finish({ ok: false, error: `run() did not finish within ${TIME_LIMIT_MS / 1000} s for all the seeds (seed ${seed} was running)` }), timeLimitMs);
    // What the program printed travels apart from its result and may arrive after it: the result
    // is kept until the worker's output has ended (it exits once it is done), or 5 s more for a
    // program that leaves a timer running.
    const ended = Promise.all([worker.stdout, worker.stderr].map((stream) => new Promise((r) => stream.once('end', r))));
    let returned;
    const keepResult = (result) => {
      returned = result;
      void ended.then(() => finish(result));
      setTimeout(() => finish(result), 5000).unref();
    };
    worker.on('message', (msg) => {
      if (msg && msg.nonce === nonce) keepResult(msg);
    });
    worker.on('error', (e) => finish({ ok: false, error: String(e && e.stack ? e.stack : e) }));
    worker.on('exit', (code) => {
      if (returned) void ended.then(() => finish(returned));
      else finish({ ok: false, error: `the program exited (code ${code}) before run() returned (seed ${seed})` });
    });
  });
}

/** Runs the seeds one after the other, each in its own worker, within one overall time limit. */
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

/** An error's message and the program's own frames; Node's internals and this harness are noise to a proposer. */
const cleanStack = (text) =>
  text
    .split('\n')
    .filter((line) => !/^\s+at .*(\(node:|\[worker eval\]|<anonymous>)/.test(line))
    .join('\n');

function emit(result, resultsDir) {
  const text = JSON.stringify(result);
  if (resultsDir) {
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'metrics.json'), text + '\n');
  }
  process.stdout.write(text + '\n');
}

function incorrect(error, output) {
  const tail = output ? `\nProgram output:\n${output.slice(0, 2000)}` : '';
  return { correct: false, combined_score: 0, error, text_feedback: `${error}${tail}` };
}

function usage(message) {
  process.stderr.write(`${message}\nusage: node evaluate.mjs <program> [<results dir>] [<instances file>]\n`);
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
  const resultsDir = process.argv[3] || process.env.RATCHET_RESULTS || '';
  const idsFile = process.argv[4] || process.env.RATCHET_INSTANCES || '';
  if (!programArg) usage('no program given');
  const seeds = selectSeeds(idsFile);
  if (seeds.length === 0) usage(`the instances file ${idsFile} names no seed`);

  const run = await runProgram(path.resolve(programArg), seeds);
  if (!run.ok) return emit(incorrect(cleanStack(run.error), run.output), resultsDir);
  const idle = run.value.filter((r) => r.calls === 0);
  if (idle.length) {
    return emit(incorrect(`run() never called f (seed${idle.length > 1 ? 's' : ''} ${idle.map((r) => r.seed).join(', ')}): there is nothing to score`, run.output), resultsDir);
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
    resultsDir,
  );
}

await main();
