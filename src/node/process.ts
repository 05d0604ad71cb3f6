/**
 * The ProcessRunner port over child_process.spawn, for evaluator commands. Evaluators are user
 * code that may spawn their own children (a test runner, a compiler), so each one starts as the
 * leader of its own process group and a timeout or a cancel kills the whole group — an orphaned
 * grandchild would keep burning CPU after the run moved on. No shell unless the caller asks: the
 * candidate's file path is an argument, never text a shell would interpret.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { RatchetError } from '../core/errors';
import type { ProcessResult, ProcessRunner } from '../core/ports';
import type { RunOwner } from '../core/journal/journal';
import { abortReason } from './clock';
import { userProgramEnv } from './sandbox/sandboxEnv';

export interface NodeProcessRunnerOptions {
  /** Bytes kept of each of stdout and stderr; the rest is counted and dropped. Default 8 MiB. */
  maxOutputBytes?: number;
  /** Time between SIGTERM and SIGKILL when a run times out or is cancelled. Default 2 s. */
  killGraceMs?: number;
}

/** The port's options (cwd, env, passEnv, timeout, stdin, signal), plus what only this runner offers. */
export type ProcessRunOptions = Parameters<ProcessRunner['run']>[2] & {
  /** Run `command` through the platform shell. Only for command lines the user wrote themselves. */
  shell?: boolean;
};

const isWindows = process.platform === 'win32';

export class NodeProcessRunner implements ProcessRunner {
  private readonly maxOutputBytes: number;
  private readonly killGraceMs: number;

  constructor(options: NodeProcessRunnerOptions = {}) {
    this.maxOutputBytes = options.maxOutputBytes ?? 8 * 1024 * 1024;
    this.killGraceMs = options.killGraceMs ?? 2000;
  }

  /**
   * Resolves when the process has exited and its output is read, `timedOut` set when the timeout
   * killed it. Rejects with the signal's reason (a `cancelled` RatchetError) when `signal` aborts,
   * and with `badInput` when the command cannot be started.
   */
  run(command: string, args: string[], opts: ProcessRunOptions = {}): Promise<ProcessResult> {
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<ProcessResult>((resolve, reject) => {
      const child = spawn(command, args, {
        cwd: opts.cwd,
        env: userProgramEnv(process.env, opts.passEnv ?? [], opts.env ?? {}),
        shell: opts.shell === true,
        detached: !isWindows,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
      const stdout = new CappedBuffer(this.maxOutputBytes);
      const stderr = new CappedBuffer(this.maxOutputBytes);
      child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
      // A child that exits without reading its stdin makes our write fail with EPIPE; its exit code says what happened.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(opts.stdin ?? '');
      if (child.pid !== undefined) liveGroups.add(child.pid);

      let timedOut = false;
      let killing = false;
      let settled = false;
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      let drainTimer: ReturnType<typeof setTimeout> | undefined;

      const kill = (): void => {
        if (killing) return;
        killing = true;
        killTree(child, 'SIGTERM');
        graceTimer = setTimeout(() => killTree(child, 'SIGKILL'), this.killGraceMs);
      };
      const onTimeout = (): void => {
        timedOut = true;
        kill();
      };
      const timeout = opts.timeoutMs === undefined ? undefined : setTimeout(onTimeout, opts.timeoutMs);
      const onAbort = (): void => kill();
      signal?.addEventListener('abort', onAbort, { once: true });

      const finish = (): void => {
        settled = true;
        clearTimeout(timeout);
        clearTimeout(graceTimer);
        clearTimeout(drainTimer);
        signal?.removeEventListener('abort', onAbort);
        if (child.pid !== undefined) liveGroups.delete(child.pid);
      };

      child.once('error', (err) => {
        if (settled) return;
        finish();
        reject(startError(command, opts.cwd, err));
      });
      child.once('exit', () => {
        // The leader may go on SIGTERM while a grandchild ignores it: finish the group off.
        if (killing) killTree(child, 'SIGKILL');
        // A grandchild that daemonized can hold the pipes open forever; stop waiting for it.
        drainTimer = setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
        }, 1000);
      });
      child.once('close', (exitCode, exitSignal) => {
        if (settled) return;
        finish();
        if (signal?.aborted) {
          reject(abortReason(signal));
          return;
        }
        resolve({ exitCode, signal: exitSignal, stdout: stdout.text(), stderr: stderr.text(), timedOut });
      });
    });
  }
}

/** Process groups still running, killed if Ratchet itself exits first (they are detached from ours). */
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
});

function killTree(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  if (isWindows) {
    // No process groups on Windows; taskkill /T walks the tree.
    spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
    return;
  }
  signalGroup(child.pid, sig);
}

function signalGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    // ESRCH: the group is already gone, which is the goal.
  }
}

function startError(command: string, cwd: string | undefined, err: Error): RatchetError {
  const code = (err as { code?: unknown }).code;
  const where = cwd === undefined ? '' : ` (in ${cwd})`;
  const message = code === 'ENOENT' ? `Could not run "${command}"${where}: no such program on PATH or directory; check the evaluator command.` : `Could not run "${command}"${where}: ${err.message}.`;
  return new RatchetError('badInput', message, { command, ...(cwd === undefined ? {} : { cwd }) }, err);
}

/** Keeps the first `max` bytes and counts the rest, so a chatty evaluator cannot exhaust memory. */
class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    const room = this.max - this.kept;
    if (room >= chunk.length) {
      this.chunks.push(chunk);
      this.kept += chunk.length;
    } else {
      if (room > 0) this.chunks.push(chunk.subarray(0, room));
      this.kept += Math.max(0, room);
      this.dropped += chunk.length - Math.max(0, room);
    }
  }

  text(): string {
    const text = Buffer.concat(this.chunks).toString('utf8');
    return this.dropped === 0 ? text : `${text}\n…[${this.dropped} more bytes not kept]`;
  }
}

/** Who holds a run open, for the journal's lock.json. */
export function currentOwner(now: Date = new Date()): RunOwner {
  return { pid: process.pid, host: hostname(), since: now.toISOString() };
}

/** Whether a run's owner still runs; undefined when it ran on another host, where we cannot look. */
export function isOwnerAlive(owner: RunOwner): boolean | undefined {
  if (owner.host !== hostname()) return undefined;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as { code?: unknown }).code === 'EPERM';
  }
  return !isZombie(owner.pid);
}

/**
 * A process that died but was not reaped yet still answers signal 0. A run daemon killed in a
 * window whose extension host (its parent) is gone can stay so for a moment, and its run must
 * read as interrupted at once. Linux only (/proc); elsewhere a zombie counts as alive.
 */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return procState(readFileSync(`/proc/${pid}/stat`, 'utf8')) === 'Z';
  } catch {
    return false;
  }
}

/**
 * The state letter of a /proc/<pid>/stat line, "pid (comm) state …" ('R', 'S', 'Z', …). The
 * command name may hold spaces and parentheses, so it is read after the last ')'.
 */
export function procState(stat: string): string {
  const close = stat.lastIndexOf(')');
  return close < 0 ? '' : stat.slice(close + 2, close + 3);
}
