// Evaluator for binpack.mjs: runs the program's solve() on the fixed instances in instances.json
// (read from beside this file), checks every packing and scores each instance by
// lower bound / bins used, a number in (0, 1]; 1 means provably optimal.
//
//   node evaluate.mjs <program> [<results dir>] [<instances file>]
//       (or RATCHET_PROGRAM / RATCHET_RESULTS / RATCHET_INSTANCES)
//
// The instances file lists instance ids (bp-001 … bp-120), one per line; only those run. Left out
// or empty, all 120 run. Prints one JSON object on stdout — `instances` maps each id to its score,
// `combined_score` is their mean — and writes the same object to <results>/metrics.json when a
// results directory is given. An incorrect program is reported with `correct: false` and exit code
// 0; exit code 2 means the evaluator itself was called wrongly (an unknown instance id, say).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const TIME_LIMIT_MS = 20_000;
const MAX_LISTED = 8;

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const mod = await import(workerData.url);
  if (typeof mod.solve !== 'function') throw new Error('the program does not export a function solve()');
  const answers = [];
  for (const inst of workerData.instances) {
    let bins;
    try {
      bins = await mod.solve({ capacity: inst.capacity, sizes: inst.sizes.slice() });
    } catch (e) {
      throw new Error('solve() failed on ' + inst.id + ': ' + (e && e.stack ? e.stack : e));
    }
    answers.push(bins);
  }
  try {
    parentPort.postMessage({ ok: true, value: answers });
  } catch (e) {
    throw new Error('solve() returned a value that is not plain data (' + e.message + ')');
  }
})().catch((e) => parentPort.postMessage({ ok: false, error: e && e.message ? String(e.message) : String(e) }));
`;

function runProgram(programPath, instances) {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { url: pathToFileURL(programPath).href, instances },
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
      resolve({ ...result, output });
    };
    const timer = setTimeout(
      () => finish({ ok: false, error: `solve() did not finish ${instances.length} instances within ${TIME_LIMIT_MS / 1000} s` }),
      TIME_LIMIT_MS,
    );
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
    worker.on('message', keepResult);
    worker.on('error', (e) => finish({ ok: false, error: String(e && e.stack ? e.stack : e) }));
    worker.on('exit', (code) => {
      if (returned) void ended.then(() => finish(returned));
      else finish({ ok: false, error: `the program exited (code ${code}) before solve() returned` });
    });
  });
}

/** An error's message and the program's own frames; Node's internals and this harness are noise to a proposer. */
const cleanStack = (text) =>
  text
    .split('\n')
    .filter((line) => !/^\s+at .*(\(node:|\[worker eval\]|<anonymous>)/.test(line))
    .join('\n');

/** max(⌈Σ size / capacity⌉, number of items over half the capacity): no packing can use fewer bins. */
function lowerBound({ capacity, sizes }) {
  const total = sizes.reduce((a, b) => a + b, 0);
  return Math.max(Math.ceil(total / capacity), sizes.filter((s) => 2 * s > capacity).length);
}

/** Returns the problems with one instance's answer; empty when every item is packed once and no bin overflows. */
function validate(inst, bins) {
  if (!Array.isArray(bins)) return [`${inst.id}: solve() must return an array of bins (arrays of item indices); it returned ${bins === null ? 'null' : typeof bins}`];
  const problems = [];
  const seen = new Map();
  bins.forEach((bin, b) => {
    if (!Array.isArray(bin)) {
      problems.push(`${inst.id}: bin ${b} is ${bin === null ? 'null' : typeof bin}, not an array of item indices`);
      return;
    }
    let load = 0;
    for (const item of bin) {
      if (!Number.isInteger(item) || item < 0 || item >= inst.sizes.length) {
        problems.push(`${inst.id}: bin ${b} holds ${JSON.stringify(item)}, which is not an item index (0 to ${inst.sizes.length - 1})`);
        continue;
      }
      if (seen.has(item)) problems.push(`${inst.id}: item ${item} is in bin ${seen.get(item)} and again in bin ${b}`);
      else seen.set(item, b);
      load += inst.sizes[item];
    }
    if (load > inst.capacity) problems.push(`${inst.id}: bin ${b} holds ${load}, more than the capacity ${inst.capacity} (items ${bin.join(', ')})`);
  });
  const missing = inst.sizes.map((_, i) => i).filter((i) => !seen.has(i));
  if (missing.length) problems.push(`${inst.id}: ${missing.length} item(s) in no bin: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`);
  return problems;
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

function usage(message) {
  process.stderr.write(`${message}\nusage: node evaluate.mjs <program> [<results dir>] [<instances file>]\n`);
  process.exit(2);
}

/** The instances to run: all, or those the ids file names (in the file's order). */
function selectInstances(all, idsFile) {
  if (!idsFile) return all;
  let text;
  try {
    text = readFileSync(idsFile, 'utf8');
  } catch (e) {
    usage(`cannot read the instances file ${idsFile}: ${e.message}`);
  }
  const byId = new Map(all.map((inst) => [inst.id, inst]));
  const ids = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  // An empty list is a whole run: Ratchet's first evaluation asks which instances there are.
  if (ids.length === 0) return all;
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length) usage(`unknown instance id(s) in ${idsFile}: ${unknown.slice(0, 5).join(', ')} (the ids are bp-001 … bp-${String(all.length).padStart(3, '0')})`);
  return [...new Set(ids)].map((id) => byId.get(id));
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main() {
  const programArg = process.argv[2] || process.env.RATCHET_PROGRAM;
  const resultsDir = process.argv[3] || process.env.RATCHET_RESULTS || '';
  const idsFile = process.argv[4] || process.env.RATCHET_INSTANCES || '';
  if (!programArg) usage('no program given');
  const data = JSON.parse(readFileSync(new URL('instances.json', import.meta.url), 'utf8'));
  const instances = selectInstances(data.instances, idsFile);
  if (instances.length === 0) usage(`the instances file ${idsFile} names no instance`);

  const run = await runProgram(path.resolve(programArg), instances);
  if (!run.ok) return emit(incorrect(cleanStack(run.error), run.output), resultsDir);
  const problems = instances.flatMap((inst, k) => validate(inst, run.value[k]));
  if (problems.length) {
    const listed = problems.slice(0, MAX_LISTED).map((p) => `- ${p}`).join('\n');
    const more = problems.length > MAX_LISTED ? `\n- … and ${problems.length - MAX_LISTED} more` : '';
    return emit(incorrect(`invalid packing: ${problems.length} problem(s)\n${listed}${more}`, run.output), resultsDir);
  }

  const rows = instances.map((inst, k) => {
    const bins = run.value[k].filter((bin) => bin.length > 0).length;
    const bound = lowerBound(inst);
    return { id: inst.id, family: inst.family, bins, bound, score: bound / bins };
  });
  const scores = Object.fromEntries(rows.map((r) => [r.id, r.score]));
  const families = [...new Set(rows.map((r) => r.family))];
  const byFamily = Object.fromEntries(families.map((f) => [f, mean(rows.filter((r) => r.family === f).map((r) => r.score))]));
  const atBound = rows.filter((r) => r.bins === r.bound).length;
  const worst = [...rows].sort((a, b) => a.score - b.score).slice(0, 3);
  const combined = mean(rows.map((r) => r.score));
  emit(
    {
      correct: true,
      combined_score: combined,
      instances: scores,
      public: {
        instances_run: rows.length,
        at_lower_bound: atBound,
        extra_bins: rows.reduce((a, r) => a + r.bins - r.bound, 0),
        ...Object.fromEntries(Object.entries(byFamily).map(([f, s]) => [`mean_${f}`, s])),
      },
      private: {},
      text_feedback:
        `Mean lower bound / bins ${combined.toFixed(4)} over ${rows.length} instances; ${atBound} packed in the lower bound ` +
        `(provably optimal). By family: ${families.map((f) => `${f} ${byFamily[f].toFixed(4)}`).join(', ')}. ` +
        `Weakest: ${worst.map((r) => `${r.id} (${r.family}) ${r.bins} bins for a bound of ${r.bound}`).join('; ')}.`,
    },
    resultsDir,
  );
}

await main();
