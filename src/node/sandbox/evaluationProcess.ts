/**
 * The process of one evaluation, from its start to the moment every process of it is gone: its
 * output read to the end (the end kept), its watch, its timeout and cancel (SIGTERM, then SIGKILL
 * after a grace period), the reaper told of its group and cgroups, and — as the evaluator exits,
 * before anything else of it can act — the fingerprint of its results folder and, without a pid
 * namespace, the processes of it still running (killed and counted). sandbox.ts reads the results
 * only after this resolves.
 */
import { spawn } from 'node:child_process';
import type { StdioOptions } from 'node:child_process';
import type { Writable } from 'node:stream';
import { closeSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { RatchetError } from '../../core/errors';
import { DEFAULT_GRACE_MS, DEFAULT_OUTPUT_CAP_BYTES } from '../../core/code/evaluatorPort';
import type { EvaluationRequest } from '../../core/code/evaluatorPort';
import type { Cgroup } from './cgroups';
import { TailBytes } from './outputTail';
import { guard } from './reaper';
import { fingerprint } from './resultFiles';
import { EvaluationWatch } from './sandboxWatchdog';
import type { WatchPlan, WatchedLimit } from './sandboxWatchdog';
import { survivors } from './survivors';

/** What the process did, before its result files are read. */
export interface Ran {
  stdout: TailBytes;
  stderr: TailBytes;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  wallMs: number;
  limitsHit: Set<WatchedLimit>;
  /** The results folder as the evaluator left it (undefined: no results folder). */
  resultsAtExit: string | undefined;
  /** Processes of the evaluation found running after the evaluator exited (killed). */
  survivors: number;
  detached: number;
}

/** Evaluation groups still running, killed if Ratchet itself exits first (they are detached from ours). */
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
});

export interface SpawnOptions {
  cwd: string;
  env: Record<string, string>;
  req: Pick<EvaluationRequest, 'signal' | 'timeoutMs' | 'graceMs' | 'outputCapBytes'>;
  cgroups: Cgroup[];
  results: string | undefined;
  watch: Omit<WatchPlan, 'leader' | 'onLimit'>;
  /** RATCHET_EVALUATION's value: leftovers without a pid namespace are found by it. */
  mark: string;
  /** Bytes the first process reads on a descriptor of its own, to its end (the jail's seccomp filter). */
  input?: { fd: number; bytes: Buffer };
}

export function spawnSandboxed(argv: string[], o: SpawnOptions): Promise<Ran> {
  const { req, cgroups } = o;
  const started = performance.now();
  const cap = req.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES;
  const graceMs = req.graceMs ?? DEFAULT_GRACE_MS;
  const stdout = new TailBytes(cap);
  const stderr = new TailBytes(cap);
  const base = { stdout, stderr, limitsHit: new Set<WatchedLimit>(), resultsAtExit: undefined, survivors: 0, detached: 0 };
  if (req.signal?.aborted) return Promise.resolve({ ...base, exitCode: null, signal: null, timedOut: false, cancelled: true, wallMs: 0 });
  return new Promise<Ran>((resolve, reject) => {
    const { stdio, devNull } = stdioWithoutLeaks(o.input?.fd);
    const child = (() => {
      try {
        return spawn(argv[0]!, argv.slice(1), { cwd: o.cwd, env: o.env, detached: true, stdio, windowsHide: true });
      } finally {
        // The child has its own copies by now (spawn forks and execs before it returns).
        if (devNull !== undefined) closeSync(devNull);
      }
    })();
    const [childOut, childErr] = [child.stdout!, child.stderr!];
    if (o.input !== undefined) {
      const input = child.stdio[o.input.fd] as Writable;
      // A first process that never reads it (it failed to start) must not fail the evaluation here.
      input.on('error', () => undefined);
      input.end(o.input.bytes);
    }
    const pid = child.pid;
    if (pid !== undefined) liveGroups.add(pid);
    const unguard = guard(
      pid,
      cgroups.map((c) => c.procsFile),
    );
    childOut.on('data', (chunk: Buffer) => stdout.push(chunk));
    childErr.on('data', (chunk: Buffer) => stderr.push(chunk));

    let timedOut = false;
    let cancelled = false;
    let killing = false;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let drainTimer: ReturnType<typeof setTimeout> | undefined;
    let resultsAtExit: Promise<string | undefined> = Promise.resolve(undefined);
    let survivorsFound: Promise<number> = Promise.resolve(0);
    const killAll = (sig: NodeJS.Signals): void => {
      if (pid !== undefined) {
        if (process.platform === 'win32') {
          // No process groups on Windows; taskkill /T walks the tree (no limits or namespaces there either).
          spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
        } else signalGroup(pid, sig);
      }
      for (const c of cgroups) void c.signalAll(sig);
    };
    // Past a limit there is no grace period: SIGKILL at once.
    const watch = pid !== undefined && process.platform === 'linux' ? new EvaluationWatch({ ...o.watch, leader: pid, onLimit: () => killAll('SIGKILL') }) : undefined;
    const stop = (): void => {
      if (killing) return;
      killing = true;
      killAll('SIGTERM');
      graceTimer = setTimeout(() => killAll('SIGKILL'), graceMs);
    };
    // setTimeout fires at once for delays past 2^31 - 1 ms; clamp so "no practical limit" stays so.
    const timer = setTimeout(
      () => {
        timedOut = true;
        stop();
      },
      Math.min(req.timeoutMs, 2 ** 31 - 1),
    );
    const onAbort = (): void => {
      cancelled = true;
      stop();
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (): void => {
      watch?.stop();
      clearTimeout(timer);
      clearTimeout(graceTimer);
      clearTimeout(drainTimer);
      req.signal?.removeEventListener('abort', onAbort);
      if (pid !== undefined) liveGroups.delete(pid);
      unguard();
    };

    child.once('error', (err) => {
      finish();
      reject(new RatchetError('badInput', `Could not start the evaluator ${argv[0]}: ${err.message}.`, { argv }, err));
    });
    child.once('exit', () => {
      // A timeout or cancel from now on would describe a run that already ended.
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      // What the evaluator left in its results folder, before anything else of it can act again.
      if (o.results !== undefined) resultsAtExit = fingerprint(o.results);
      // Without a pid namespace, what is still running now outlived the evaluator: found, killed and counted.
      if (o.watch.sharedProcessTable && pid !== undefined && process.platform === 'linux') survivorsFound = Promise.resolve(survivors(watch, o.mark, pid));
      watch?.stop();
      // The evaluation is over when its leader exits: whatever it left behind is a runaway.
      killAll('SIGKILL');
      // A process outside group and cgroup (possible only without a cgroup) may hold the pipes open.
      drainTimer = setTimeout(() => {
        childOut.destroy();
        childErr.destroy();
      }, 1000);
    });
    child.once('close', (exitCode, signal) => {
      finish();
      void Promise.all([resultsAtExit, survivorsFound]).then(([atExit, survived]) =>
        resolve({
          stdout,
          stderr,
          exitCode,
          signal,
          timedOut,
          cancelled,
          wallMs: Math.round(performance.now() - started),
          limitsHit: watch?.hits ?? new Set(),
          resultsAtExit: atExit,
          survivors: survived,
          detached: watch?.detached ?? 0,
        }),
      );
    });
  });
}

/**
 * The evaluation's stdio: none for stdin, pipes for stdout and stderr, and /dev/null over every
 * descriptor above them that this process would hand down. Node marks close-on-exec only the
 * descriptors it inherited up to the first gap past 15 (libuv's uv_disable_stdio_inheritance); one
 * its launcher left open past that (a shell's fd 200, a harness's pipe) would reach every process of
 * the evaluation, and neither bubblewrap nor unshare closes it — a directory's descriptor is a way
 * out of the jail (/proc/self/fd/N/… is the host folder), a pipe's a line into whatever reads it.
 */
function stdioWithoutLeaks(inputFd: number | undefined): { stdio: StdioOptions; devNull: number | undefined } {
  const leaks = inheritableFds().filter((fd) => fd !== inputFd);
  const devNull = leaks.length > 0 ? openSync('/dev/null', 'r') : undefined;
  const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
  const put = (fd: number, what: 'pipe' | number) => {
    while (stdio.length < fd) stdio.push('ignore');
    stdio[fd] = what;
  };
  for (const fd of leaks) put(fd, devNull!);
  // The input's pipe, written and closed at once: the first process reads it and closes it.
  if (inputFd !== undefined) put(inputFd, 'pipe');
  return { stdio, devNull };
}

/** This process's descriptors above stdio without close-on-exec (Linux: /proc/self/fdinfo says); elsewhere none can be told. */
function inheritableFds(): number[] {
  if (process.platform !== 'linux') return [];
  const O_CLOEXEC = 0o2000000;
  const out: number[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd < 3) continue;
    let info: string;
    try {
      info = readFileSync(`/proc/self/fdinfo/${name}`, 'utf8');
    } catch {
      // The listing's own descriptor, closed since.
      continue;
    }
    const flags = /^flags:\s+([0-7]+)$/m.exec(info)?.[1];
    if (flags !== undefined && (parseInt(flags, 8) & O_CLOEXEC) === 0) out.push(fd);
  }
  return out.sort((a, b) => a - b);
}

function signalGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    // ESRCH: the group is gone, which is the goal.
  }
}
