// Evaluator for pack.mjs: calls the program's pack() in a child process of its own (so an endless
// loop, a runaway allocation or a process it leaves behind cannot hang the evaluation or touch its
// verdict), checks the 26 circles exactly and scores the sum of their radii. The evaluator computes
// that sum itself: nothing the program reports is trusted.
//
//   node evaluate.mjs <program>     (or RATCHET_PROGRAM)
//
// Prints one JSON object on stdout, its last line. An incorrect program is reported with
// `correct: false` and exit code 0; exit code 2 means the evaluator itself was called wrongly.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { pathToFileURL } from 'node:url';

const N = 26;
/** Slack allowed for floating-point rounding in containment and overlap checks. */
const TOL = 1e-12;
const TIME_LIMIT_MS = 10_000;
const BEST_KNOWN = 2.635983;
/** Violations listed in the feedback; the count says how many there were in all. */
const MAX_LISTED = 8;

const CHILD = `
(async () => {
  const mod = await import(workerData.url);
  if (typeof mod.pack !== 'function') throw new Error('the program does not export a function pack()');
  const value = await mod.pack();
  parentPort.postMessage({ ok: true, value });
})().catch((e) => parentPort.postMessage({ ok: false, error: e && e.stack ? String(e.stack) : String(e) }));
`;

async function runProgram(programPath) {
  const run = await runChild(CHILD, { url: pathToFileURL(programPath).href }, TIME_LIMIT_MS);
  if (run.message) return { ...run.message, output: run.output };
  if (run.timedOut) return { ok: false, error: `pack() did not return within ${TIME_LIMIT_MS / 1000} s`, output: run.output };
  return { ok: false, error: `the program exited (${run.signal ? `killed by ${run.signal}` : `code ${run.exitCode}`}) before pack() returned`, output: run.output };
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

/** The verdict, once every process of the program is gone: on a line of its own, the last of stdout. */
function emit(result) {
  endProgramProcesses();
  process.stdout.write(`\n${JSON.stringify(result)}\n`);
}

function incorrect(error, output) {
  const tail = output ? `\nProgram output:\n${output.slice(0, 2000)}` : '';
  return { correct: false, combined_score: 0, error, text_feedback: `${error}${tail}` };
}

async function main() {
  const programArg = process.argv[2] || process.env.RATCHET_PROGRAM;
  if (!programArg) {
    process.stderr.write('usage: node evaluate.mjs <program>\n');
    process.exit(2);
  }
  const run = await runProgram(path.resolve(programArg));
  if (!run.ok) return emit(incorrect(`pack() failed: ${cleanStack(run.error)}`, run.output));
  const problems = validate(run.value);
  if (problems.length) {
    const listed = problems.slice(0, MAX_LISTED).map((p) => `- ${p}`).join('\n');
    const more = problems.length > MAX_LISTED ? `\n- … and ${problems.length - MAX_LISTED} more` : '';
    return emit(incorrect(`invalid packing: ${problems.length} problem(s)\n${listed}${more}`, run.output));
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
  );
}

await main();
