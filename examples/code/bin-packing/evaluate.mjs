// Evaluator for binpack.mjs: runs the program's solve() on the fixed instances in instances.json
// (read from beside this file), checks every packing and scores each instance by
// lower bound / bins used, a number in (0, 1]; 1 means provably optimal.
//
//   node evaluate.mjs <program> [<instances file>]     (or RATCHET_PROGRAM / RATCHET_INSTANCES)
//
// The instances file lists instance ids (bp-001 … bp-120), one per line; only those run. Left out
// or empty, all 120 run. The program's solve() runs in a child process of its own (see runChild).
// Prints one JSON object on stdout, its last line — `instances` maps each id to its score,
// `combined_score` is their mean. An incorrect program is reported with `correct: false` and exit
// code 0; exit code 2 means the evaluator itself was called wrongly (an unknown instance id, say).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { pathToFileURL } from 'node:url';

const TIME_LIMIT_MS = 20_000;
const MAX_LISTED = 8;

const CHILD = `
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
  parentPort.postMessage({ ok: true, value: answers });
})().catch((e) => parentPort.postMessage({ ok: false, error: e && e.message ? String(e.message) : String(e) }));
`;

async function runProgram(programPath, instances) {
  const run = await runChild(CHILD, { url: pathToFileURL(programPath).href, instances }, TIME_LIMIT_MS);
  if (run.message) return { ...run.message, output: run.output };
  if (run.timedOut) return { ok: false, error: `solve() did not finish ${instances.length} instances within ${TIME_LIMIT_MS / 1000} s`, output: run.output };
  return { ok: false, error: `the program exited (${run.signal ? `killed by ${run.signal}` : `code ${run.exitCode}`}) before solve() returned`, output: run.output };
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
  const idsFile = process.argv[3] || process.env.RATCHET_INSTANCES || '';
  if (!programArg) usage('no program given');
  const data = JSON.parse(readFileSync(new URL('instances.json', import.meta.url), 'utf8'));
  const instances = selectInstances(data.instances, idsFile);
  if (instances.length === 0) usage(`the instances file ${idsFile} names no instance`);

  const run = await runProgram(path.resolve(programArg), instances);
  if (!run.ok) return emit(incorrect(cleanStack(run.error), run.output));
  const problems = instances.flatMap((inst, k) => validate(inst, run.value[k]));
  if (problems.length) {
    const listed = problems.slice(0, MAX_LISTED).map((p) => `- ${p}`).join('\n');
    const more = problems.length > MAX_LISTED ? `\n- … and ${problems.length - MAX_LISTED} more` : '';
    return emit(incorrect(`invalid packing: ${problems.length} problem(s)\n${listed}${more}`, run.output));
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
  );
}

await main();
