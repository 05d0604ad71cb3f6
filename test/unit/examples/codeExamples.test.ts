// The code-search examples (examples/code/) are what a new user runs first: each evaluator must keep
// the evaluator contract on its initial program — one JSON object (or ShinkaEvolve's two files),
// correct, the score its README promises, per-instance scores where promised, {instances} honoured —
// and must report a broken program as incorrect with feedback that says what is broken. Each run
// happens the way the sandbox will do it: a temp directory holding a copy of the program and the
// spec's support files, the command from the spec with its placeholders filled in, and an
// environment of PATH and the RATCHET_* variables only. The program runs in a child process of the
// evaluator's own (#26): what it does can reach neither the verdict nor the evaluator.
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const CODE = path.resolve(__dirname, '../../../examples/code');
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

interface CodeSpec {
  kind: string;
  evaluator: { command: string; supportFiles: string[]; timeoutSeconds: number; deterministic?: boolean; shards?: boolean };
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  dir: string;
}

interface Metrics {
  correct: boolean;
  combined_score: number;
  instances?: Record<string, number>;
  public?: Record<string, unknown>;
  private?: Record<string, unknown>;
  text_feedback?: string;
  error?: string;
}

function readSpec(task: string, program: string): CodeSpec {
  return parse(readFileSync(path.join(CODE, task, `${program}.ratchet.yaml`), 'utf8')) as CodeSpec;
}

/** A sandbox-like directory: the program (its text replaced when `source` is given) and the support files. */
function sandbox(task: string, program: string, supportFiles: string[], source?: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `ratchet-example-${task}-`));
  scratch.push(dir);
  for (const file of supportFiles) copyFileSync(path.join(CODE, task, file), path.join(dir, path.basename(file)));
  writeFileSync(path.join(dir, program), source ?? readFileSync(path.join(CODE, task, program), 'utf8'));
  return dir;
}

function run(file: string, args: string[], dir: string, env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout, stderr, dir });
    });
  });
}

/** Runs the spec's command on a copy of the program, as the sandbox runner would. */
async function evaluate(task: string, program: string, opts: { source?: string; instances?: string[] } = {}): Promise<Outcome> {
  const spec = readSpec(task, program);
  const dir = sandbox(task, program, spec.evaluator.supportFiles, opts.source);
  const programPath = path.join(dir, program);
  let idsFile = '';
  if (opts.instances) {
    idsFile = path.join(dir, 'instances.txt');
    writeFileSync(idsFile, opts.instances.join('\n') + '\n');
  }
  const argv = spec.evaluator.command
    .replaceAll('{program}', programPath)
    .replaceAll('{instances}', idsFile)
    .split(/\s+/)
    .filter(Boolean);
  // The spec says `node`; run it with this Node so the test does not depend on which one PATH finds.
  const file = argv[0] === 'node' ? process.execPath : argv[0]!;
  return run(file, argv.slice(1), dir, { RATCHET_PROGRAM: programPath });
}

/** The contract: exit 0 and exactly one JSON object on stdout, its last line; no results folder is used. */
function metricsOf(outcome: Outcome): Metrics {
  expect(outcome.stderr).toBe('');
  expect(outcome.code).toBe(0);
  const lines = outcome.stdout.split('\n').filter((l) => l.trim() !== '');
  expect(lines).toHaveLength(1);
  const metrics = JSON.parse(lines[0]!) as Metrics;
  expect(existsSync(path.join(outcome.dir, 'results'))).toBe(false);
  expect(typeof metrics.correct).toBe('boolean');
  expect(Number.isFinite(metrics.combined_score)).toBe(true);
  return metrics;
}

/** The initial score a task's README states in bold, e.g. `**Initial program: 1.916…**`. */
function readmeScore(task: string, pattern: RegExp): number {
  const match = pattern.exec(readFileSync(path.join(CODE, task, 'README.md'), 'utf8'));
  expect(match, `${task}/README.md states the initial score`).not.toBeNull();
  return Number(match![1]);
}

/** The program's text with its EVOLVE-BLOCK body replaced, as a proposer's edit would do. */
function withBlock(task: string, program: string, body: string): string {
  const text = readFileSync(path.join(CODE, task, program), 'utf8');
  const replaced = text.replace(/(EVOLVE-BLOCK-START\n)[\s\S]*?(\n.*EVOLVE-BLOCK-END)/, `$1${body}$2`);
  expect(replaced).not.toBe(text);
  return replaced;
}

describe('examples/code/circle-packing', () => {
  const task = 'circle-packing';
  const program = 'pack.mjs';

  it('has a code spec whose command and support files run the evaluator', () => {
    const spec = readSpec(task, program);
    expect(spec.kind).toBe('code');
    expect(spec.evaluator).toMatchObject({ command: 'node evaluate.mjs {program}', supportFiles: ['evaluate.mjs'], deterministic: true });
  });

  it('scores the initial program correct, with the sum of radii its README states', async () => {
    const metrics = metricsOf(await evaluate(task, program));
    expect(metrics.correct).toBe(true);
    expect(metrics.combined_score).toBe(readmeScore(task, /\*\*Initial program: ([\d.]+)\*\*/));
    expect(metrics.combined_score).toBe(1.9169561144739518);
    expect(metrics.public).toMatchObject({ sum_of_radii: metrics.combined_score });
    expect(metrics.text_feedback).toMatch(/^Valid packing of 26 circles/);
  });

  it('names the overlapping pair, and keeps what the program prints out of its JSON', async () => {
    const source = withBlock(
      task,
      program,
      `function construct() {
  console.log('placing circles');
  return Array.from({ length: 26 }, (_, i) => ({ x: 0.1 + 0.04 * i, y: 0.5, r: 0.05 }));
}`,
    );
    const metrics = metricsOf(await evaluate(task, program, { source }));
    expect(metrics).toMatchObject({ correct: false, combined_score: 0 });
    expect(metrics.text_feedback).toContain('circle 0 (x=0.1, y=0.5, r=0.05) overlaps circle 1 (x=0.14, y=0.5, r=0.05) by 6.000e-2');
    expect(metrics.text_feedback).toContain('circle 24 (x=1.06, y=0.5, r=0.05) sticks out of the unit square by 1.100e-1');
    expect(metrics.text_feedback).toContain('Program output:\nplacing circles');
  });

  it('reports a crash with its message and the program frame, and a NaN radius as not finite', async () => {
    const crash = metricsOf(await evaluate(task, program, { source: withBlock(task, program, "function construct() {\n  throw new Error('no circles today');\n}") }));
    expect(crash).toMatchObject({ correct: false, combined_score: 0 });
    expect(crash.error).toMatch(/^pack\(\) failed: Error: no circles today\n\s+at construct \(file:.*pack\.mjs:\d+:\d+\)/);

    const nan = metricsOf(
      await evaluate(task, program, { source: withBlock(task, program, 'function construct() {\n  return Array.from({ length: 26 }, () => ({ x: 0.5, y: 0.5, r: NaN }));\n}') }),
    );
    expect(nan.correct).toBe(false);
    expect(nan.error).toContain('circle 0: r is NaN, not finite');
  });
});

describe('examples/code/bin-packing', () => {
  const task = 'bin-packing';
  const program = 'binpack.mjs';
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `bp-${String(i + 1).padStart(3, '0')}`);

  it('has a sharded code spec carrying the instances file', () => {
    expect(readSpec(task, program).evaluator).toMatchObject({
      command: 'node evaluate.mjs {program} {instances}',
      supportFiles: ['evaluate.mjs', 'instances.json'],
      shards: true,
    });
  });

  it('keeps instances.json what the seeded generator writes, and small', () => {
    const check = spawnSync(process.execPath, [path.join(CODE, task, 'generate-instances.mjs'), '--check'], { encoding: 'utf8' });
    expect([check.status, check.stdout.trim()]).toEqual([0, 'instances.json is up to date']);
    expect(readFileSync(path.join(CODE, task, 'instances.json')).length).toBeLessThan(200_000);
  });

  let full: Metrics;
  it('scores all 120 instances of the initial program, each in (0, 1], their mean as its README states', async () => {
    full = metricsOf(await evaluate(task, program));
    expect(full.correct).toBe(true);
    expect(Object.keys(full.instances!)).toEqual(ids(120));
    for (const score of Object.values(full.instances!)) expect(score > 0 && score <= 1).toBe(true);
    const scores = Object.values(full.instances!);
    expect(full.combined_score).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 12);
    expect(full.combined_score).toBe(readmeScore(task, /\*\*initial: first fit\*\* \| \*\*([\d.]+)\*\*/));
  });

  it('runs only the instances {instances} names, with the same scores as in the full run', async () => {
    const subset = metricsOf(await evaluate(task, program, { instances: ['bp-031', 'bp-002', 'bp-120'] }));
    expect(subset.instances).toEqual({ 'bp-031': full.instances!['bp-031'], 'bp-002': full.instances!['bp-002'], 'bp-120': full.instances!['bp-120'] });
    expect(subset.public).toMatchObject({ instances_run: 3 });
  });

  it('refuses an unknown instance id with exit code 2, naming it', async () => {
    const outcome = await evaluate(task, program, { instances: ['bp-001', 'bp-999'] });
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toContain('unknown instance id(s)');
    expect(outcome.stderr).toContain('bp-999');
  });

  it('reports a packing that drops an item as incorrect, naming the instance and the item', async () => {
    const source = withBlock(task, program, 'function packBins(sizes) {\n  return sizes.slice(1).map((_, i) => [i + 1]);\n}');
    const metrics = metricsOf(await evaluate(task, program, { source, instances: ['bp-001', 'bp-002'] }));
    expect(metrics).toMatchObject({ correct: false, combined_score: 0 });
    expect(metrics.error).toBe('invalid packing: 2 problem(s)\n- bp-001: 1 item(s) in no bin: 0\n- bp-002: 1 item(s) in no bin: 0');
  });
});

describe('examples/code/noisy-optimiser', () => {
  const task = 'noisy-optimiser';
  const program = 'optimise.mjs';
  const seeds = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `seed-${from + i}`);

  it('has a sharded code spec that does not claim determinism', () => {
    const { evaluator } = readSpec(task, program);
    expect(evaluator).toMatchObject({ command: 'node evaluate.mjs {program} {instances}', supportFiles: ['evaluate.mjs'], shards: true });
    expect(evaluator.deterministic).toBeUndefined();
  });

  it('draws five fresh seeds when no instances are named', async () => {
    const metrics = metricsOf(await evaluate(task, program));
    expect(metrics.correct).toBe(true);
    expect(Object.keys(metrics.instances!)).toHaveLength(5);
    for (const [id, score] of Object.entries(metrics.instances!)) {
      expect(id).toMatch(/^seed-\d+$/);
      expect(score > 0 && score <= 1).toBe(true);
    }
  });

  it('gives the same scores for the same seeds: seeds 1–5 score what the README states', async () => {
    const first = metricsOf(await evaluate(task, program, { instances: seeds(1, 5) }));
    expect(Object.keys(first.instances!)).toEqual(seeds(1, 5));
    expect(first.combined_score).toBe(readmeScore(task, /initial program on seeds 1–5 \(the command above\) \| \*\*([\d.]+)\*\*/));

    const again = metricsOf(await evaluate(task, program, { instances: ['seed-3', 'seed-1'] }));
    expect(again.instances).toEqual({ 'seed-3': first.instances!['seed-3'], 'seed-1': first.instances!['seed-1'] });
  });

  it('scores what the program evaluated: replacing Math.cos, posting a result or keeping globals gains nothing', async () => {
    // The answer pipe is fd 3 of the program's process: a line written there without the nonce is not the answer.
    const source = `import { writeSync } from 'node:fs';
export function run(f) {
  Math.cos = () => 1;
  writeSync(3, JSON.stringify({ nonce: 'guessed', message: { ok: true, calls: 2000, best: 0 } }) + '\\n');
  writeSync(3, JSON.stringify({ ok: true, calls: 2000, best: 0 }) + '\\n');
  if (globalThis.ranBefore) throw new Error('a global survived from another seed');
  globalThis.ranBefore = true;
  f([0.5, 0.5, 0.5]);
}
`;
    const metrics = metricsOf(await evaluate(task, program, { source, instances: ['seed-1', 'seed-2'] }));
    // Rastrigin at (0.5, 0.5, 0.5) is 30 + 3 × (0.25 + 10) = 60.75.
    expect(metrics).toMatchObject({ correct: true, instances: { 'seed-1': 1 / 61.75, 'seed-2': 1 / 61.75 }, public: { mean_calls: 1 } });
  });

  it('refuses instance ids that are not seeds, and reports a point outside the box as incorrect', async () => {
    const bad = await evaluate(task, program, { instances: ['bp-001'] });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('written seed-<n>');

    const source = withBlock(task, program, 'function minimise(f, { dim }) {\n  f(Array(dim).fill(6));\n}');
    const metrics = metricsOf(await evaluate(task, program, { source, instances: ['seed-5'] }));
    expect(metrics).toMatchObject({ correct: false, combined_score: 0 });
    expect(metrics.error).toMatch(/^run\(\) failed with seed 5: RangeError: f got x\[0\] = 6, outside \[-5\.12, 5\.12\]/);
  });
});

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const hasPython = python.status === 0;

describe.skipIf(!hasPython)(`examples/code/shinka-sorting-network${hasPython ? '' : ' (skipped: python3 is not on PATH)'}`, () => {
  const task = 'shinka-sorting-network';

  /** ShinkaEvolve's call: evaluate.py --program_path P --results_dir R, then correct.json and metrics.json. */
  async function shinka(source?: string) {
    const dir = sandbox(task, 'initial.py', ['evaluate.py'], source);
    const results = path.join(dir, 'results');
    const outcome = await run('python3', ['evaluate.py', '--program_path', path.join(dir, 'initial.py'), '--results_dir', results], dir, {});
    expect([outcome.code, outcome.stderr]).toEqual([0, '']);
    return {
      correct: JSON.parse(readFileSync(path.join(results, 'correct.json'), 'utf8')) as { correct: boolean; error: string | null },
      metrics: JSON.parse(readFileSync(path.join(results, 'metrics.json'), 'utf8')) as Metrics,
    };
  }

  const withPyBlock = (body: string) => {
    const text = readFileSync(path.join(CODE, task, 'initial.py'), 'utf8');
    return text.replace(/(# EVOLVE-BLOCK-START\n)[\s\S]*?(\n# EVOLVE-BLOCK-END)/, `$1${body}$2`);
  };

  it('needs no run spec: the folder is initial.py + evaluate.py', () => {
    expect(() => readFileSync(path.join(CODE, task, 'initial.py.ratchet.yaml'))).toThrow();
  });

  it("writes ShinkaEvolve's two files for the initial program, with the score its README states", async () => {
    const { correct, metrics } = await shinka();
    expect(correct).toEqual({ correct: true, error: null });
    expect(Object.keys(metrics).sort()).toEqual(['combined_score', 'private', 'public', 'text_feedback']);
    expect(metrics.combined_score).toBe(readmeScore(task, /\*\*initial: bubble sort as a network\*\* \| 45 \| 17 \| \*\*([\d.]+)\*\*/));
    expect(metrics.combined_score).toBe(29 / 45);
    expect(metrics.public).toEqual({ comparators: 45, depth: 17 });
  });

  it("judges the network in a process the program never ran in: replacing the evaluator's check gains nothing", async () => {
    const source = 'import __main__\n\ndef run_network():\n    __main__.first_unsorted_input = lambda pairs: None\n    return []\n';
    const { correct } = await shinka(source);
    expect(correct.correct).toBe(false);
    expect(correct.error).toMatch(/^the network does not sort: .* \(wire 0 first; 0 comparators\)$/);
  });

  it('reports a network that does not sort with an input it leaves unsorted, and a crash with its traceback', async () => {
    const unsorted = await shinka(withPyBlock('def build_network(n):\n    return [(i, i + 1) for i in range(n - 1)]'));
    expect(unsorted.correct.correct).toBe(false);
    expect(unsorted.correct.error).toMatch(/^the network does not sort: the input \[.*\] comes out as \[.*\] \(wire 0 first; 9 comparators\)$/);
    expect(unsorted.metrics.combined_score).toBe(0);

    const crash = await shinka(withPyBlock('def build_network(n):\n    return sorted(n)'));
    expect(crash.correct.correct).toBe(false);
    expect(crash.correct.error).toMatch(/^TypeError: 'int' object is not iterable\n[\s\S]*File ".*initial\.py", line \d+, in build_network\n {4}return sorted\(n\)/);
  });
});
