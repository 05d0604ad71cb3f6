// Evaluator for pack.mjs: imports the program, calls pack() in a worker thread (so an endless loop
// or a runaway allocation cannot hang the evaluation), checks the 26 circles exactly and scores the
// sum of their radii. The evaluator computes that sum itself: nothing the program reports is trusted.
//
//   node evaluate.mjs <program> [<results dir>]     (or RATCHET_PROGRAM / RATCHET_RESULTS)
//
// Prints one JSON object on stdout and, when a results directory is given, writes the same object
// to <results>/metrics.json. An incorrect program is reported with `correct: false` and exit code 0;
// exit code 2 means the evaluator itself was called wrongly.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const N = 26;
/** Slack allowed for floating-point rounding in containment and overlap checks. */
const TOL = 1e-12;
const TIME_LIMIT_MS = 10_000;
const BEST_KNOWN = 2.635983;
/** Violations listed in the feedback; the count says how many there were in all. */
const MAX_LISTED = 8;

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const mod = await import(workerData.url);
  if (typeof mod.pack !== 'function') throw new Error('the program does not export a function pack()');
  const value = await mod.pack();
  try {
    parentPort.postMessage({ ok: true, value });
  } catch (e) {
    throw new Error('pack() returned a value that is not plain data (' + e.message + ')');
  }
})().catch((e) => parentPort.postMessage({ ok: false, error: e && e.stack ? String(e.stack) : String(e) }));
`;

function runProgram(programPath) {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { url: pathToFileURL(programPath).href },
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
    let returned;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve({ ...result, output });
    };
    const timer = setTimeout(() => finish({ ok: false, error: `pack() did not return within ${TIME_LIMIT_MS / 1000} s` }), TIME_LIMIT_MS);
    // What the program printed travels apart from its result and may arrive after it: the result
    // is kept until the worker's output has ended (it exits once pack() is done), or 5 s more
    // for a program that leaves a timer running.
    const ended = Promise.all([worker.stdout, worker.stderr].map((stream) => new Promise((r) => stream.once('end', r))));
    worker.on('message', (result) => {
      returned = result;
      void ended.then(() => finish(result));
      setTimeout(() => finish(result), 5000).unref();
    });
    worker.on('error', (e) => finish({ ok: false, error: String(e && e.stack ? e.stack : e) }));
    worker.on('exit', (code) => {
      if (returned) void ended.then(() => finish(returned));
      else finish({ ok: false, error: `the program exited (code ${code}) before pack() returned` });
    });
  });
}

/** An error's message and the program's own frames; Node's internals and this harness are noise to a proposer. */
const cleanStack = (text) =>
  text
    .split('\n')
    .filter((line) => !/^\s+at .*(\(node:|\[worker eval\]|<anonymous>)/.test(line))
    .join('\n');

const fmt = (v) => (typeof v === 'number' ? Number(v.toPrecision(12)).toString() : JSON.stringify(v));
const describe = (i, c) => `circle ${i} (x=${fmt(c.x)}, y=${fmt(c.y)}, r=${fmt(c.r)})`;

/** Returns the list of problems with `circles`; empty when the packing is valid. */
function validate(circles) {
  if (!Array.isArray(circles)) return [`pack() must return an array of ${N} circles { x, y, r }; it returned ${circles === null ? 'null' : typeof circles}`];
  if (circles.length !== N) return [`pack() must return exactly ${N} circles; it returned ${circles.length}`];
  const problems = [];
  circles.forEach((c, i) => {
    if (c === null || typeof c !== 'object') {
      problems.push(`circle ${i} is ${c === null ? 'null' : typeof c}, not an object { x, y, r }`);
      return;
    }
    for (const k of ['x', 'y', 'r']) {
      if (typeof c[k] !== 'number') problems.push(`circle ${i}: ${k} is ${typeof c[k]}, not a number`);
      else if (!Number.isFinite(c[k])) problems.push(`circle ${i}: ${k} is ${c[k]}, not finite`);
    }
  });
  if (problems.length) return problems;
  circles.forEach((c, i) => {
    if (c.r < 0) problems.push(`${describe(i, c)} has a negative radius`);
    const out = Math.max(c.r - c.x, c.x + c.r - 1, c.r - c.y, c.y + c.r - 1);
    if (out > TOL) problems.push(`${describe(i, c)} sticks out of the unit square by ${out.toExponential(3)}`);
  });
  for (let i = 0; i < N; i++) {
    for (let j = i + 1; j < N; j++) {
      const a = circles[i];
      const b = circles[j];
      const overlap = a.r + b.r - Math.sqrt((a.x - b.x) ** 2 + (a.y - b.y) ** 2);
      if (overlap > TOL) problems.push(`${describe(i, a)} overlaps ${describe(j, b)} by ${overlap.toExponential(3)}`);
    }
  }
  return problems;
}

function summarise(circles) {
  let sum = 0;
  for (const c of circles) sum += c.r;
  let tightest = { gap: Infinity, i: -1, j: -1 };
  for (let i = 0; i < N; i++) {
    for (let j = i + 1; j < N; j++) {
      const a = circles[i];
      const b = circles[j];
      const gap = Math.sqrt((a.x - b.x) ** 2 + (a.y - b.y) ** 2) - a.r - b.r;
      if (gap < tightest.gap) tightest = { gap, i, j };
    }
  }
  const radii = circles.map((c) => c.r);
  return { sum, tightest, minR: Math.min(...radii), maxR: Math.max(...radii) };
}

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

async function main() {
  const programArg = process.argv[2] || process.env.RATCHET_PROGRAM;
  const resultsDir = process.argv[3] || process.env.RATCHET_RESULTS || '';
  if (!programArg) {
    process.stderr.write('usage: node evaluate.mjs <program> [<results dir>]\n');
    process.exit(2);
  }
  const run = await runProgram(path.resolve(programArg));
  if (!run.ok) return emit(incorrect(`pack() failed: ${cleanStack(run.error)}`, run.output), resultsDir);
  const problems = validate(run.value);
  if (problems.length) {
    const listed = problems.slice(0, MAX_LISTED).map((p) => `- ${p}`).join('\n');
    const more = problems.length > MAX_LISTED ? `\n- … and ${problems.length - MAX_LISTED} more` : '';
    return emit(incorrect(`invalid packing: ${problems.length} problem(s)\n${listed}${more}`, run.output), resultsDir);
  }
  const s = summarise(run.value);
  emit(
    {
      correct: true,
      combined_score: s.sum,
      public: {
        sum_of_radii: s.sum,
        fraction_of_best_known: s.sum / BEST_KNOWN,
        smallest_radius: s.minR,
        largest_radius: s.maxR,
        tightest_gap: s.tightest.gap,
      },
      private: { best_known: BEST_KNOWN },
      text_feedback:
        `Valid packing of ${N} circles, sum of radii ${s.sum.toFixed(6)} (best known ${BEST_KNOWN}). ` +
        `Radii range from ${s.minR.toFixed(4)} to ${s.maxR.toFixed(4)}; the closest pair is circles ${s.tightest.i} and ${s.tightest.j} ` +
        `(gap ${s.tightest.gap.toExponential(2)}).`,
    },
    resultsDir,
  );
}

await main();
