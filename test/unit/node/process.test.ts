import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RatchetError, cancelledError } from '../../../src/core/errors';
import { NodeProcessRunner, currentOwner, isOwnerAlive, procState } from '../../../src/node/process';
import { until } from '../../until';

const node = process.execPath;
const runner = new NodeProcessRunner({ killGraceMs: 300 });
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ratchet-proc-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

/** A child that starts a grandchild in its own process group, records the grandchild's pid, then hangs. */
function parentOfSleeper(pidFile: string): string[] {
  const script = `
    const { spawn } = require('node:child_process');
    const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(g.pid));
    console.log('grandchild ' + g.pid);
    setInterval(() => {}, 1000);`;
  return ['-e', script];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function readPid(file: string): Promise<number> {
  let pid = NaN;
  await until('the grandchild pid', async () => {
    pid = Number(await readFile(file, 'utf8').catch(() => ''));
    return pid > 0;
  });
  return pid;
}

describe('NodeProcessRunner', () => {
  it('gives a program the system’s basics, the variables passEnv names and env, never the rest of Ratchet’s environment (its keys)', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: 'sk-must-not-leak-0123456789', JUDGE_KEY: 'judge-key', VIRTUAL_ENV: '/venv', UNRELATED: 'x' });
    try {
      const script = 'console.log(JSON.stringify(process.env))';
      const seen = JSON.parse((await runner.run(node, ['-e', script], { env: { RATCHET_T: 'x1' }, passEnv: ['VIRTUAL_ENV', 'JUDGE_KEY'] })).stdout) as Record<string, string>;
      expect(seen).toMatchObject({ RATCHET_T: 'x1', VIRTUAL_ENV: '/venv', JUDGE_KEY: 'judge-key', PATH: process.env.PATH });
      expect(seen.HOME).toBe(process.env.HOME);
      expect(Object.keys(seen)).not.toContain('OPENAI_API_KEY');
      expect(Object.keys(seen)).not.toContain('UNRELATED');
    } finally {
      for (const name of ['OPENAI_API_KEY', 'JUDGE_KEY', 'VIRTUAL_ENV', 'UNRELATED']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });

  it('returns exit code and output, passes stdin, and adds env to the system’s basics', async () => {
    const script = `let s=''; process.stdin.on('data', d => s += d).on('end', () => { console.log(s.toUpperCase() + ' ' + process.env.RATCHET_T + ' ' + (process.env.PATH ? 'path' : 'nopath')); console.error('warn'); process.exit(3); });`;
    const result = await runner.run(node, ['-e', script], { stdin: 'candidate', env: { RATCHET_T: 'x1' } });
    expect(result).toEqual({ exitCode: 3, signal: null, stdout: 'CANDIDATE x1 path\n', stderr: 'warn\n', timedOut: false });
  });

  it('passes arguments literally: no shell interprets them unless asked', async () => {
    const result = await runner.run(node, ['-e', 'console.log(process.argv[1])', '$(echo injected); echo $HOME'], {});
    expect(result.stdout).toBe('$(echo injected); echo $HOME\n');
    const viaShell = await runner.run('echo', ['$((6*7))'], { shell: true });
    expect(viaShell.stdout).toBe('42\n');
  });

  it('kills the whole process group on timeout, grandchildren included', async () => {
    const pidFile = path.join(dir, 'pid');
    const result = await runner.run(node, parentOfSleeper(pidFile), { timeoutMs: 1500 });
    const grandchild = Number(await readFile(pidFile, 'utf8'));
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBe(null);
    expect(result.stdout).toBe(`grandchild ${grandchild}\n`);
    await until('the grandchild to die', () => !alive(grandchild));
  });

  it('escalates to SIGKILL when the process ignores SIGTERM', async () => {
    const result = await runner.run(node, ['-e', "process.on('SIGTERM', () => {}); console.log('up'); setInterval(() => {}, 1000)"], { timeoutMs: 800 });
    expect(result).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
  });

  it('kills the group and rejects with the cancellation when the signal aborts', async () => {
    const pidFile = path.join(dir, 'pid');
    const ac = new AbortController();
    const running = runner.run(node, parentOfSleeper(pidFile), { signal: ac.signal });
    const grandchild = await readPid(pidFile);
    ac.abort(cancelledError('the evaluation'));
    const err = await running.catch((e: unknown) => e);
    expect(RatchetError.is(err, 'cancelled')).toBe(true);
    expect((err as Error).message).toBe('Cancelled the evaluation.');
    await until('the grandchild to die', () => !alive(grandchild));
  });

  it('does not start anything when the signal is already aborted', async () => {
    const pidFile = path.join(dir, 'pid');
    await expect(runner.run(node, parentOfSleeper(pidFile), { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'cancelled' });
    await expect(readFile(pidFile)).rejects.toThrow(/ENOENT/);
  });

  it('keeps only the first maxOutputBytes of a chatty process and says how much it dropped', async () => {
    const small = new NodeProcessRunner({ maxOutputBytes: 1000 });
    const result = await small.run(node, ['-e', "process.stdout.write('y'.repeat(50000))"], {});
    expect(result.stdout).toBe(`${'y'.repeat(1000)}\n…[49000 more bytes not kept]`);
  });

  it('says which command could not be started', async () => {
    const err = await runner.run('ratchet-no-such-evaluator', ['x'], { cwd: dir }).catch((e: unknown) => e);
    expect(RatchetError.is(err, 'badInput')).toBe(true);
    expect((err as Error).message).toBe(`Could not run "ratchet-no-such-evaluator" (in ${dir}): no such program on PATH or directory; check the evaluator command.`);
  });
});

describe('run owners', () => {
  it('knows this process is alive and a finished one is not', async () => {
    expect(isOwnerAlive(currentOwner())).toBe(true);
    const done = await runner.run(node, ['-e', 'console.log(process.pid)'], {});
    expect(isOwnerAlive({ ...currentOwner(), pid: Number(done.stdout) })).toBe(false);
    expect(isOwnerAlive({ ...currentOwner(), host: 'some-other-host.invalid' })).toBe(undefined);
  });

  it('reads the state letter of a /proc stat line, whatever the command name holds', () => {
    // Recorded from Linux: a zombie whose name has a space and a parenthesis, and a sleeping process.
    expect(procState('48213 (run (daemon) x) Z 48200 48213 48200 0 -1 4227084 120 0 0 0 0 0 0 0 20 0 1 0')).toBe('Z');
    expect(procState('812 (node) S 1 812 812 0 -1 4194560 53251 0 0 0 311 57 0 0 20 0 11 0')).toBe('S');
    expect(procState('garbage')).toBe('');
  });

  it.skipIf(process.platform !== 'linux')('counts a dead process nobody reaped yet (a zombie) as not alive', async ({ skip }) => {
    // The zombie is made so that it holds on any machine: a python parent forks a child that exits
    // at once and never waits for it, so nothing but that parent could reap it. (A shell's
    // background job is not that: some shells reap it before they exec.)
    const parent = spawn('python3', ['-c', 'import os, sys, time\npid = os.fork()\nif pid == 0: os._exit(0)\nprint(pid, flush=True)\ntime.sleep(30)'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const started = await new Promise<Buffer | Error>((r) => {
      parent.stdout.once('data', r);
      parent.once('error', r);
    });
    if (started instanceof Error) skip(`no python3 to make a zombie with (${started.message})`);
    try {
      const pid = Number(started.toString().trim());
      // The child exits right after the fork; wait for the kernel to say so (bounded, no fixed sleep).
      for (let i = 0; i < 500 && procState(await readFile(`/proc/${pid}/stat`, 'utf8')) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
      expect(procState(await readFile(`/proc/${pid}/stat`, 'utf8'))).toBe('Z');
      expect(() => process.kill(pid, 0)).not.toThrow(); // it still answers signal 0…
      expect(isOwnerAlive({ ...currentOwner(), pid })).toBe(false); // …but is dead
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
