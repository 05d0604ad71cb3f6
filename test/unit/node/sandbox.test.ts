/**
 * The evaluation sandbox against real processes (issues #13 and #26). No assertion depends on
 * how long anything took: a timeout test runs a program that would run forever and checks the
 * outcome and that no process of it is left; waits poll a state with a generous deadline.
 *
 * It runs with the isolation this machine offers (a bubblewrap jail, `unshare`'s namespaces, or
 * none); CI runs it once with bubblewrap and once with RATCHET_BWRAP=off. Inside a pid namespace
 * the evaluator's `$$` is not a host pid, so processes are found by a unique marker in their
 * command line rather than by the pids they print.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { procState } from '../../../src/node/process';
import { DEFAULT_LIMITS } from '../../../src/core/code/evaluatorPort';
import { preflight, runEvaluation } from '../../../src/node/sandbox/sandbox';
import type { EvaluationRun } from '../../../src/core/code/evaluatorPort';
import type { NodeEvaluationRequest } from '../../../src/node/sandbox/sandbox';
import { sandboxCaps } from '../../../src/node/sandbox/sandboxCaps';
import { keyringFilter } from '../../../src/node/sandbox/seccomp';
import type { SandboxCaps } from '../../../src/node/sandbox/sandboxCaps';
import type { IsolationTier } from '../../../src/core/code/isolation';
import { until } from '../../until';

const FIXTURES = path.resolve(__dirname, '../../fixtures/evaluators');
const linux = process.platform === 'linux';

let caps: SandboxCaps;
let dir: string;
/** The tier evaluations get here with the default setting. */
let tier: IsolationTier;
let ownTree: boolean;
beforeAll(async () => {
  caps = await sandboxCaps();
  dir = await mkdtemp(path.join(tmpdir(), 'ratchet-sandbox-test-'));
  tier = (await preflight()).isolation;
  ownTree = tier === 'jail' || tier === 'namespaces';
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** A Ratchet-form evaluation of a one-line candidate; `more` overrides any field but the evaluator. */
function evaluate(command: string, more: Partial<Omit<NodeEvaluationRequest, 'command' | 'shinka'>> = {}): Promise<EvaluationRun> {
  return runEvaluation({ programText: 'print(1)\n', programName: 'main.py', timeoutMs: 30_000, graceMs: 300, ...more, command });
}

/** Alive and not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return procState(readFileSync(`/proc/${pid}/stat`, 'utf8')) !== 'Z';
  } catch {
    return false;
  }
}

/** Pids of live processes whose command line mentions `marker`. */
function processesMentioning(marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker) && alive(Number(name))) out.push(Number(name));
    } catch {
      // Exited while we looked.
    }
  }
  return out;
}

/** A number no other process on the machine has in its command line. */
const uniqueMarker = (): string => String(1_000_000 + Math.floor(Math.random() * 8_000_000));

describe.skipIf(!linux)('runEvaluation: results', () => {
  it('reads a Ratchet evaluator that prints logs and then one JSON object on stdout', async () => {
    const run = await evaluate(`sh -c 'echo "warming up"; echo "{\\"correct\\": true, \\"combined_score\\": 2.61, \\"instances\\": {\\"i1\\": 0.9, \\"i2\\": 1}, \\"text_feedback\\": \\"fine\\"}"'`);
    expect(run.result).toEqual({ correct: true, score: 2.61, instances: { i1: 0.9, i2: 1 }, feedback: 'fine' });
    expect(run).toMatchObject({ exitCode: 0, signal: null, timedOut: false, cancelled: false, truncated: { stdout: false, stderr: false } });
    expect(run.stdout).toContain('warming up');
  });

  it('runs an evaluator whose toolchain lies under /tmp (a Node unpacked there, a CI checkout of its own tools)', async () => {
    const tools = await mkdtemp('/tmp/ratchet-toolchain-');
    try {
      await mkdir(path.join(tools, 'bin'));
      await writeFile(path.join(tools, 'bin', 'score-tool'), '#!/bin/sh\necho "{\\"combined_score\\": 3}"\n', { mode: 0o755 });
      const run = await evaluate('score-tool', { baseEnv: { ...process.env, PATH: `${path.join(tools, 'bin')}:${process.env.PATH ?? ''}` } });
      expect(run.result, run.stderr).toEqual({ correct: true, score: 3 });
    } finally {
      await rm(tools, { recursive: true, force: true });
    }
  });

  it('fills {program} and {results} as single arguments, reads {results}/metrics.json, and gives the results path to the evaluator alone', async () => {
    const script = 'cat "$1" > "$2/seen.txt"; echo "{\\"combined_score\\": $(wc -c < "$1")}" > "$2/metrics.json"; echo "$1 $RATCHET_PROGRAM $2 ${RATCHET_RESULTS:-unset}"';
    const run = await evaluate(`sh -c '${script}' sh {program} {results}`, { programText: 'x = 42\n', programName: 'pkg/main.py' });
    expect(run.result).toEqual({ correct: true, score: 7 });
    const [program, programEnv, results, resultsEnv] = run.stdout.trim().split(' ');
    expect(program).toBe(programEnv);
    // Every process of the evaluation inherits the environment: the results folder is not in it.
    expect(resultsEnv).toBe('unset');
    expect(program).toMatch(tier === 'jail' ? /^\/sandbox\/pkg\/main\.py$/ : /ratchet-eval-[^/]+\/work\/pkg\/main\.py$/);
    expect(results).toMatch(tier === 'jail' ? /^\/ratchet\/results$/ : /ratchet-eval-[^/]+\/results$/);
    // The sandbox is gone once the evaluation is over; its outputs were kept in memory.
    if (tier !== 'jail') expect(existsSync(program!)).toBe(false);
  });

  it('reads stdout alone when the command has no {results}: a metrics.json the program leaves anywhere is not read', async () => {
    const run = await evaluate(`sh -c 'mkdir -p results; echo "{\\"combined_score\\": 99}" > results/metrics.json; echo "{\\"combined_score\\": 99}" > metrics.json; echo "{\\"combined_score\\": 1}"'`);
    expect(run.result).toEqual({ correct: true, score: 1 });
  });

  it('keeps the end of a long stdout, where the JSON is', async () => {
    const run = await evaluate(`sh -c 'head -c 3000000 /dev/zero | tr "\\0" "x" | fold -w 100; echo; echo "{\\"combined_score\\": 0.5}"'`, { timeoutMs: 120_000 });
    expect(run.result).toEqual({ correct: true, score: 0.5 });
    expect(run.truncated.stdout).toBe(true);
    expect(Buffer.byteLength(run.stdout)).toBe(1024 * 1024);
    expect(run.stdout.trimEnd().endsWith('{"combined_score": 0.5}')).toBe(true);
    expect(run.sandbox.incidents).toContainEqual(expect.stringMatching(/^stdout was \d+ bytes over its cap; its start was dropped$/));
  });

  it('copies support files next to the candidate', async () => {
    const data = path.join(dir, 'data.txt');
    await writeFile(data, 'support\n');
    const run = await evaluate(`sh -c 'echo "{\\"combined_score\\": $(wc -c < fixtures/data.txt)}"'`, { supportFiles: [{ from: data, to: 'fixtures/data.txt' }] });
    expect(run.result).toEqual({ correct: true, score: 8 });
  });

  it('writes the instance list for a sharded run and names it with {instances}', async () => {
    const run = await evaluate(`sh -c 'n=$(wc -l < "$1"); echo "{\\"combined_score\\": $n}"; cat "$RATCHET_INSTANCES" >&2' sh {instances}`, { instances: ['a', 'b', 'c'] });
    expect(run.result).toEqual({ correct: true, score: 3 });
    expect(run.stderr).toBe('a\nb\nc\n');
  });

  it.each([
    ['a non-zero exit, whatever stdout says', `sh -c 'echo "{\\"correct\\": true, \\"combined_score\\": 1}"; echo boom >&2; exit 1'`, 'the evaluator exited with code 1: boom'],
    ['correct: false', `sh -c 'echo "{\\"correct\\": false, \\"error\\": \\"wrong answer\\", \\"combined_score\\": 1}"'`, 'wrong answer'],
    ['a NaN score (as Python writes it)', `sh -c 'echo "{\\"correct\\": true, \\"combined_score\\": NaN}"'`, 'stdout: "combined_score" is NaN'],
    ['no output at all', 'true', 'the evaluator printed no JSON object on stdout and wrote no {results}/metrics.json'],
    ['unparsable output', `sh -c 'echo "{\\"combined_score\\": 1,"'`, expect.stringMatching(/^stdout is not JSON: /)],
  ])('an incorrect program: %s', async (_what, command, error) => {
    const run = await evaluate(command);
    expect(run.result.correct).toBe(false);
    expect(run.result.error).toEqual(error);
  });

  it('never blocks on a result file the candidate replaced with a FIFO or a symlink to /dev/zero', async () => {
    const fifo = await evaluate(`sh -c 'mkfifo "$1/metrics.json"' sh {results}`);
    expect(fifo.result).toEqual({ correct: false, error: 'metrics.json is not a regular file; write a plain file' });
    const link = await evaluate(`sh -c 'ln -s /dev/zero "$1/metrics.json"' sh {results}`);
    expect(link.result).toEqual({ correct: false, error: 'metrics.json could not be opened (ELOOP); write a plain file' });
  });

  it('never reads results through a results folder replaced by a link (without a jail the program can replace it: a link to / would have every file hashed)', async () => {
    const swap = `d=$(mktemp -d); echo "{\\"combined_score\\": 7}" > "$d/metrics.json"; rm -rf "$1" 2>/dev/null; ln -sfn "$d" "$1" 2>/dev/null; echo "{\\"combined_score\\": 1}"`;
    const run = await evaluate(`sh -c '${swap}' sh {results}`);
    // In the jail the results folder is a mount point: it stays, and the verdict is stdout's.
    if (tier === 'jail') expect(run.result).toEqual({ correct: true, score: 1 });
    else expect(run.result).toEqual({ correct: false, error: 'the results folder was replaced (by a link or a file); its results cannot be trusted' });
  });

  it('refuses a request that can never run, before running anything', async () => {
    await expect(evaluate('no-such-evaluator-xyz {program}')).rejects.toThrow(/no such program on PATH/);
    await expect(evaluate('cat {program} | head')).rejects.toThrow(/without a shell/);
    await expect(evaluate('true', { programName: '../main.py' })).rejects.toThrow(RatchetError);
    await expect(evaluate('true', { programName: 'results/main.py' })).rejects.toThrow(/relative path inside the sandbox/);
  });

  it('reports what the sandbox can do here, and refuses `required` without a jail, saying how to get one', async () => {
    const p = await preflight();
    expect(p.isolation).toBe(caps.bwrap.ok ? 'jail' : caps.unshare.ok ? 'namespaces' : 'none');
    expect(p.limits).toMatch(caps.prlimit.ok ? /^prlimit/ : /^none \(/);
    expect(p.network).toMatch(ownTree ? /^off$/ : /^on \(/);
    expect(p.jail).toMatch(caps.bwrap.ok ? /^bubblewrap / : /^none \(/);
    expect((await preflight('off')).isolation).toBe('off');
    if (caps.bwrap.ok) {
      expect((await preflight('required')).isolation).toBe('jail');
      // This kind of machine loads the jail's keyring filter (sandboxNoSeccomp.test.ts: one that cannot).
      if (keyringFilter() !== undefined) expect(caps.bwrap.seccomp).toEqual({ ok: true });
      expect(p.caveats.some((c) => c.startsWith('The jail runs without its seccomp filter'))).toBe(!caps.bwrap.seccomp.ok);
    } else {
      await expect(preflight('required')).rejects.toThrow(/evaluator\.isolation is required, and this machine cannot jail the evaluation: .*Install bubblewrap \(docs\/sandbox\.md\)/);
      await expect(evaluate('true', { isolation: 'required' })).rejects.toThrow(/Install bubblewrap/);
    }
  });
});

describe.skipIf(!linux)('runEvaluation: the ShinkaEvolve form, unchanged', () => {
  const taskDir = path.join(FIXTURES, 'shinka');
  const shinka = (programText: string): Promise<EvaluationRun> => runEvaluation({ programText, programName: 'main.py', shinka: { taskDir }, timeoutMs: 60_000, graceMs: 300 });

  it('runs evaluate.py --program_path P --results_dir R and reads correct.json, metrics.json and private.instances (skipped without python3)', async (ctx) => {
    if (!caps.python3.ok) ctx.skip();
    const good = await shinka(readFileSync(path.join(taskDir, 'initial.py'), 'utf8'));
    expect(good.result).toEqual({ correct: true, score: 1, instances: { x1: 0.5, x2: 1, x3: 1.5 }, public: { mean: 1 }, private: { instances: { x1: 0.5, x2: 1, x3: 1.5 } }, feedback: 'ran' });
    expect(good.stdout).toBe('scored 3 instances\n');

    const raising = await shinka('def run(x):\n    raise ValueError("no")\n');
    expect(raising.result).toEqual({ correct: false, error: 'ValueError: no', score: 0 });

    const nan = await shinka('def run(x):\n    return float("nan")\n');
    expect(nan.result.correct).toBe(false);
    expect(nan.result.error).toMatch(/"combined_score" is NaN/);
    // The task folder is left as it was: no __pycache__, no results.
    expect(readdirSync(taskDir).sort()).toEqual(['evaluate.py', 'initial.py']);
  });
});

describe.skipIf(!linux)('runEvaluation: the sandbox', () => {
  it.each([
    ['with the pids cgroup', true],
    ['without it', false],
  ])('a timeout kills the evaluator and its grandchildren (%s): no process is left', async (_how, pidsCgroup) => {
    const marker = uniqueMarker();
    // (sleep &) in a subshell: the grandchild is orphaned at once, as daemonising helpers are.
    const run = await evaluate(`sh -c '(sleep ${marker} &); sleep ${marker} & sleep ${marker}; wait'`, { timeoutMs: 1000, pidsCgroup });
    // (Its exit status is not asserted: a jail's outer process may exit normally after its child was killed.)
    expect(run).toMatchObject({ timedOut: true, cancelled: false, result: { correct: false } });
    expect(run.result.error).toMatch(/did not finish within 1 s/);
    await until('every process of the evaluation to be gone', () => processesMentioning(`sleep\0${marker}`).length === 0);
    expect(run.sandbox.leftoverProcesses).toBe(0);
  });

  it('a cancel kills the evaluator and its grandchildren', async () => {
    const marker = uniqueMarker();
    const ac = new AbortController();
    const running = evaluate(`sh -c '(sleep ${marker} &); sleep ${marker} & sleep ${marker}; wait'`, { signal: ac.signal });
    await until('the evaluator to start its children', () => processesMentioning(`sleep\0${marker}`).length === 3);
    ac.abort();
    const run = await running;
    expect(run).toMatchObject({ cancelled: true, timedOut: false, result: { correct: false, error: 'the evaluation was cancelled' } });
    await until('every process of the evaluation to be gone', () => processesMentioning(`sleep\0${marker}`).length === 0);
  });

  it('escalates to SIGKILL when the evaluator ignores SIGTERM', async () => {
    const marker = uniqueMarker();
    const run = await evaluate(`sh -c 'trap "" TERM; while :; do sleep ${marker}; done'`, { timeoutMs: 1000 });
    expect(run).toMatchObject({ timedOut: true });
    expect(run.result.correct).toBe(false);
    await until('the evaluator to be gone', () => processesMentioning(`sleep\0${marker}`).length === 0);
  });

  it('ends a grandchild that left the process group with setsid, and voids the evaluation where it could outlive the evaluator', async () => {
    const marker = uniqueMarker();
    const run = await evaluate(`sh -c 'setsid sleep ${marker} & echo "{\\"combined_score\\": 1}"'`);
    await until('the setsid grandchild to be gone', () => processesMentioning(`sleep\0${marker}`).length === 0);
    // With a process tree of its own, the kernel ends it with the evaluator: nothing outlived it.
    if (ownTree) expect(run.result).toEqual({ correct: true, score: 1 });
    else {
      expect(run.result.correct).toBe(false);
      expect(run.result.error).toMatch(/^1 process of the evaluation was still running when the evaluator exited \(killed\)/);
    }
  });

  it('a background process that rewrites metrics.json after the evaluator wrote it never forges the score', async () => {
    const forge = 'echo "{\\"combined_score\\": 1}" > "$1/metrics.json"; (sleep 1; echo "{\\"combined_score\\": 99}" > "$1/metrics.json") & exit 0';
    const run = await evaluate(`sh -c '${forge}' sh {results}`);
    expect(run.result.score).not.toBe(99);
    if (ownTree) expect(run.result).toEqual({ correct: true, score: 1 });
    else expect(run.result).toMatchObject({ correct: false, error: expect.stringMatching(/still running when the evaluator exited|changed after the evaluator exited/) });
  });

  it('passes only allow-listed variables: never OPENAI_API_KEY or a key from SecretStorage', async () => {
    const secretStorageKey = 'sk-from-secret-storage-0123456789';
    // Set in this very process, as a developer's shell would: the evaluator must still not see them.
    const planted = {
      OPENAI_API_KEY: 'sk-openai-env-0123456789',
      ANTHROPIC_API_KEY: 'sk-ant-0123456789',
      EVAL_CONFIG: secretStorageKey,
      GITHUB_TOKEN: 'ghp_0123456789',
      UNRELATED_SETTING: 'x',
      LANG: 'C.UTF-8',
      SEED_FOR_EVAL: '7',
    };
    const saved = Object.fromEntries(Object.keys(planted).map((k) => [k, process.env[k]]));
    Object.assign(process.env, planted);
    let run: EvaluationRun;
    try {
      run = await evaluate('cat /proc/self/environ', { env: ['SEED_FOR_EVAL'], secrets: [secretStorageKey] });
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    const baseEnv = { ...process.env, ...planted };
    const vars = Object.fromEntries(
      run.stdout
        .split('\0')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
    const allowed = /^(PATH|LANG|LANGUAGE|TZ|LC_[A-Z_]+|PWD|HOME|TMPDIR|TMP|TEMP|RATCHET_PROGRAM|RATCHET_ISOLATION|RATCHET_EVALUATION|PYTHONDONTWRITEBYTECODE|PYTHONUNBUFFERED|PYTHONIOENCODING|SEED_FOR_EVAL)$/;
    expect(Object.keys(vars).filter((name) => !allowed.test(name))).toEqual([]);
    expect(vars).toMatchObject({ SEED_FOR_EVAL: '7', LANG: 'C.UTF-8' });
    expect(vars.HOME).toMatch(tier === 'jail' ? /^\/sandbox\/home$/ : /ratchet-eval-[^/]+\/home$/);
    expect(vars.RATCHET_ISOLATION).toBe(tier);
    expect(vars.OPENAI_API_KEY).toBeUndefined();
    expect(run.stdout).not.toContain('sk-');
    expect(run.stdout).not.toContain('ghp_');
    // Even when the spec asks: a secret's name or a secret's value is refused, never passed.
    await expect(evaluate('true', { env: ['OPENAI_API_KEY'], baseEnv })).rejects.toThrow(/may not include OPENAI_API_KEY/);
    await expect(evaluate('true', { env: ['EVAL_CONFIG'], baseEnv, secrets: [secretStorageKey] })).rejects.toThrow(/holds a secret/);
  });

  it('caps 100 MiB of stdout at the cap without stalling the evaluator', async () => {
    const run = await evaluate('head -c 104857600 /dev/zero', { timeoutMs: 120_000, limits: { processes: 64 } });
    // It ran to the end: the sandbox kept reading and dropped what was over the cap.
    expect(run).toMatchObject({ exitCode: 0, timedOut: false, truncated: { stdout: true, stderr: false } });
    expect(Buffer.byteLength(run.stdout)).toBe(1024 * 1024);
    expect(run.droppedBytes.stdout).toBe(100 * 1024 * 1024 - 1024 * 1024);
    expect(run.result.correct).toBe(false);
  });

  it.for([
    ['the pids cgroup', true],
    ['the fallback (a user namespace’s RLIMIT_NPROC, or the watch as root)', false],
  ] as const)('stops a fork bomb with %s, names the limit, and leaves no process behind', async ([, pidsCgroup], ctx) => {
    // Without any cap nothing would stop it: do not set a bomb off on a shared machine.
    if (pidsCgroup && !caps.pidsCgroup.ok) ctx.skip();
    const name = `bomb-${process.pid}-${Date.now()}.sh`;
    const run = await evaluate(`sh ${name}`, {
      supportFiles: [{ from: path.join(FIXTURES, 'forkbomb.sh'), to: name }],
      limits: { processes: 32 },
      timeoutMs: 5000,
      pidsCgroup,
    });
    // A pids cgroup counts the refused forks, and as root the watch is the only cap and looks every
    // 100 ms: the limit is named. A user namespace's RLIMIT_NPROC (a little above the limit) refuses
    // forks silently and the watch looks every 500 ms: dash's bomb, whose shells give up at a failed
    // fork, can collapse before it looks — stopped all the same, an incorrect program either way.
    expect(run.result.correct).toBe(false);
    if (pidsCgroup || caps.root) {
      expect(run.result.error).toMatch(/^the evaluation hit its process limit \(32 processes and threads\)/);
      expect(run.sandbox.processLimitHit).toBe(true);
    }
    if (pidsCgroup) expect(run.sandbox).toMatchObject({ processes: 'cgroup pids.max=32', leftoverProcesses: 0 });
    await until('every shell of the bomb to be gone', () => processesMentioning(name).length === 0);
  });

  it("caps the whole evaluation's memory, not each process's, and names the limit", async () => {
    const node = `'${process.execPath}' -e 'const b = Buffer.alloc(96 * 1024 * 1024, 1); setTimeout(() => b.length, 15000)'`;
    const run = await evaluate(`sh -c '${node.replaceAll("'", '"')} & ${node.replaceAll("'", '"')} & ${node.replaceAll("'", '"')} & wait; echo "{\\"combined_score\\": 1}"'`, {
      limits: { memoryBytes: 192 * 1024 ** 2 },
      timeoutMs: 60_000,
      baseEnv: { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}` },
    });
    expect(run.result.correct).toBe(false);
    expect(run.result.error).toMatch(/^the evaluation hit its memory limit \(192 MB for all its processes\)/);
  });

  it('caps what the evaluation writes in its sandbox, and names the limit', async () => {
    const run = await evaluate(`sh -c 'for i in 1 2 3 4 5 6; do head -c 20000000 /dev/zero > f$i || break; done; sleep 5; echo "{\\"combined_score\\": 1}"'`, {
      limits: { diskBytes: 64 * 1024 ** 2 },
      timeoutMs: 60_000,
    });
    expect(run.result.correct).toBe(false);
    expect(run.result.error).toMatch(/^the evaluation hit its disk limit \(64 MB in its sandbox\)/);
  });

  it('in a jail, hides a workspace a system folder holds (under /opt), but for a toolchain on PATH inside it', async (ctx) => {
    if (tier !== 'jail' || process.getuid?.() !== 0) ctx.skip();
    const ws = path.join('/opt', `ratchet-sandbox-test-${process.pid}`, 'ws');
    const bin = path.join(ws, 'venv', 'bin');
    await mkdir(path.join(ws, '.ratchet'), { recursive: true });
    await mkdir(bin, { recursive: true });
    try {
      await writeFile(path.join(ws, '.ratchet', 'secret'), 'workspace-secret\n');
      await writeFile(path.join(ws, 'venv', 'pyvenv.cfg'), '');
      await writeFile(path.join(bin, 'hello-tool'), '#!/bin/sh\necho tool-ran\n', { mode: 0o755 });
      const run = await evaluate(`sh -c 'hello-tool; cat ${ws}/.ratchet/secret; ls ${ws}'`, { hidden: [ws], baseEnv: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` } });
      expect(run.stdout).toContain('tool-ran');
      expect(run.stdout).not.toContain('workspace-secret');
      // The workspace shows only the toolchain's own folder.
      expect(run.stdout.trim().split('\n').slice(1)).toEqual(['venv']);
    } finally {
      await rm(path.dirname(ws), { recursive: true, force: true });
    }
  });

  it("counts the program's own copy towards the disk limit: in a jail it is a file of the host's disk, bound in, outside the tmpfs", async () => {
    const run = await evaluate(`sh -c 'head -c 100000000 /dev/zero >> "$1"; sleep 5; echo "{\\"combined_score\\": 1}"' sh {program}`, { limits: { diskBytes: 64 * 1024 ** 2 }, timeoutMs: 60_000 });
    expect(run.result.correct).toBe(false);
    expect(run.result.error).toMatch(/^the evaluation hit its disk limit \(64 MB in its sandbox\)/);
  });

  it("in a jail, nothing outside the sandbox's tmpfs is writable but /dev/shm, capped like it: no tmpfs to fill the machine's memory through", async (ctx) => {
    if (tier !== 'jail') ctx.skip();
    // 80 MB in each place, past the 64 MB disk limit; what each write ended with is printed.
    const fill = `for d in / /var /dev /dev/shm; do if head -c 80000000 /dev/zero > $d/fill 2>/dev/null; then echo "$d:all"; else echo "$d:$(wc -c < $d/fill 2>/dev/null || echo none)"; fi; rm -f $d/fill; done`;
    const run = await evaluate(`sh -c '${fill}'`, { limits: { diskBytes: 64 * 1024 ** 2 } });
    const ended = Object.fromEntries(
      run.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(':') as [string, string]),
    );
    // The root's tmpfs and /dev: read-only, not a byte written.
    expect(ended).toMatchObject({ '/': 'none', '/var': 'none', '/dev': 'none' });
    // /dev/shm: full at its cap.
    expect(Number(ended['/dev/shm'])).toBeLessThanOrEqual(64 * 1024 ** 2);
  });

  it.for([
    ['python3', `python3 -c 'b = bytearray(4 * 1024 ** 3); print("allocated")'`, /MemoryError/],
    ['node', `node -e 'Buffer.alloc(4 * 1024 ** 3); console.log("allocated")'`, /allocation failed/i],
  ] as const)('a 4 GiB allocation (%s) fails under the default address-space limit', async ([runtime, command, message], ctx) => {
    if (!caps.prlimit.ok) ctx.skip();
    if (runtime === 'python3' && !caps.python3.ok) ctx.skip();
    const run = await evaluate(command, { limits: DEFAULT_LIMITS, ...(runtime === 'node' ? { baseEnv: { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}` } } : {}) });
    expect(run.stdout).not.toContain('allocated');
    expect(run.stderr).toMatch(message);
    expect(run.result.correct).toBe(false);
    expect(run.sandbox.limits).toBe('prlimit');
  });

  it('stops a busy loop at the CPU-seconds limit and a large file at the file-size limit', async (ctx) => {
    if (!caps.prlimit.ok) ctx.skip();
    const cpu = await evaluate(`sh -c 'while :; do :; done'`, { limits: { cpuSeconds: 1 }, timeoutMs: 120_000 });
    expect(cpu.timedOut).toBe(false);
    // A jail's outer process reports its child's death by a signal as the exit code 128 + n.
    expect(cpu.result.error).toMatch(/killed by SIGXCPU \(its CPU-time limit\)|killed by SIGKILL|code 152 \(128 \+ SIGXCPU|code 137 \(128 \+ SIGKILL/);
    const big = await evaluate(`sh -c 'exec head -c 2097152 /dev/zero > big.bin'`, { limits: { fileSizeBytes: 1024 * 1024 } });
    expect(big.result.error).toMatch(/file-size limit/);
    // Through a shell that does not exec, the limit shows as the exit code 128 + SIGXFSZ.
    const viaShell = await evaluate(`sh -c 'head -c 2097152 /dev/zero > big.bin; exit $?'`, { limits: { fileSizeBytes: 1024 * 1024 } });
    expect(viaShell.result.error).toMatch(/^the evaluator exited with code 153 \(128 \+ SIGXFSZ: its file-size limit\)/);
  });

  it('turns the network off with a process tree of its own, and says so either way', async () => {
    const run = await evaluate('cat /proc/self/net/dev');
    if (ownTree) {
      expect(run.sandbox.network).toBe('off');
      const interfaces = run.stdout
        .split('\n')
        .slice(2)
        .map((l) => l.split(':')[0]!.trim())
        .filter(Boolean);
      expect(interfaces).toEqual(['lo']);
    } else expect(run.sandbox.network).toMatch(/^on \(/);
    const on = await evaluate('true', { network: 'on' });
    expect(on.sandbox.network).toBe('on');
  });

  it("never touches the user's file: the evaluator overwrites its copy, and cannot reach the original", async () => {
    const workspace = path.join(dir, 'workspace');
    await mkdir(workspace, { recursive: true });
    const userFile = path.join(workspace, 'main.py');
    const userData = path.join(workspace, 'data.csv');
    await writeFile(userFile, 'def run(x):\n    return x\n');
    await writeFile(userData, 'a,b\n1,2\n');
    const hash = (f: string): string => createHash('sha256').update(readFileSync(f)).digest('hex');
    const before = [hash(userFile), hash(userData)];
    // A support folder holding a symlink to the user's file: the sandbox copies the file, not the link.
    const supportDir = path.join(dir, 'support');
    await mkdir(supportDir, { recursive: true });
    await symlink(userFile, path.join(supportDir, 'link.py'));
    // Every path the evaluator could guess for "the original": the copy, its neighbours, the
    // folders above, the support file's copy. It knows no more than its own environment.
    const script = [
      'echo pwned > "$RATCHET_PROGRAM"',
      'echo pwned > main.py',
      'echo pwned > ../main.py',
      'echo pwned > "$HOME/../main.py"',
      'echo pwned > data.csv',
      'echo pwned > support/link.py',
      'echo "{\\"combined_score\\": $(grep -c pwned "$RATCHET_PROGRAM")}"',
    ].join('; ');
    const run = await runEvaluation({
      programText: readFileSync(userFile, 'utf8'),
      programName: 'main.py',
      supportFiles: [
        { from: userData, to: 'data.csv' },
        { from: supportDir, to: 'support' },
      ],
      command: `sh -c '${script}'`,
      timeoutMs: 30_000,
    });
    expect(run.result).toEqual({ correct: true, score: 1 });
    expect([hash(userFile), hash(userData)]).toEqual(before);
    expect(readdirSync(workspace).sort()).toEqual(['data.csv', 'main.py']);
  });
});
