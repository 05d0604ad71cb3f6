/**
 * Runs one evaluation of a candidate program, sandboxed (issue #13). Evaluators run code an LLM
 * wrote, so every run gets:
 * - a fresh temporary directory holding a copy of the candidate and the spec's support files —
 *   never the user's file in place; it is removed afterwards and the outputs are kept in memory;
 * - its own process group (and, where a pids cgroup is writable, its own cgroup), killed as a
 *   whole — SIGTERM, then SIGKILL after a grace period — on timeout, on cancel, and when the
 *   evaluator exits, so no grandchild outlives the evaluation (OpenEvolve#79: timeouts that left
 *   the work running; ShinkaEvolve kills only the direct child);
 * - an environment built from an allow-list (sandboxEnv.ts), so no provider key reaches it;
 * - resource limits through prlimit (address space, CPU seconds, file size, open files) and a
 *   process cap (see sandboxCaps.ts for why a cgroup and not RLIMIT_NPROC alone);
 * - stdout and stderr kept up to a cap each, the rest read and dropped so the evaluator never
 *   stalls on a full pipe and Ratchet never buffers without bound;
 * - no network where `unshare` allows (a new, empty network namespace; loopback is down too).
 * What it does not do: hide the file system. The evaluator runs as Ratchet's user and can read or
 * write whatever that user can; the temp directory is its working directory, not a jail. Run as
 * root, the confinement holds against accidents (runaway loops, fork bombs, hogs), not against a
 * program that sets out to undo it; preflight() says so.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, cp, mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { RatchetError } from '../../core/errors';
import { expandCommand, fromRatchetOutput, fromShinkaResults, withProcessOutcome } from '../../core/code/evaluation';
import type { Evaluation } from '../../core/code/evaluation';
import { DEFAULT_GRACE_MS, DEFAULT_LIMITS, DEFAULT_OUTPUT_CAP_BYTES } from '../../core/code/evaluatorPort';
import type { EvaluationRequest, EvaluationRun, EvaluationSandbox, Preflight, SandboxReport } from '../../core/code/evaluatorPort';
import { PidsCgroup, countUserProcesses, sandboxCaps } from './sandboxCaps';
import type { SandboxCaps } from './sandboxCaps';
import { evaluatorEnv } from './sandboxEnv';
import { GroupWatchdog, WATCHDOG_INTERVAL_MS } from './sandboxWatchdog';

/** The request as the Node sandbox takes it: the port's, plus two knobs of the host. */
export type NodeEvaluationRequest = EvaluationRequest & {
  /** Where allowed variables are read from. Default process.env. */
  baseEnv?: Record<string, string | undefined>;
  /** Use a pids cgroup when one is writable. Default true; false leaves only the process-group kill (tests). */
  pidsCgroup?: boolean;
};

/** The most of a result file (metrics.json, correct.json) that is read. */
const RESULT_FILE_CAP_BYTES = 16 * 1024 * 1024;

/** The EvaluationSandbox port on this machine. */
export const nodeEvaluationSandbox: EvaluationSandbox = { run: (req) => runEvaluation(req), preflight: () => preflight() };

/** Evaluates one candidate. Rejects only for a request that can never run (badInput); a failing program is `result.correct === false`. */
export async function runEvaluation(req: NodeEvaluationRequest): Promise<EvaluationRun> {
  const caps = await sandboxCaps();
  const limits = { ...DEFAULT_LIMITS, ...req.limits };
  checkRelative(req.programName, 'programName');
  for (const f of req.supportFiles ?? []) checkRelative(f.to, 'supportFiles.to');

  const root = await mkdtemp(path.join(tmpdir(), 'ratchet-eval-'));
  let cgroup: PidsCgroup | undefined;
  try {
    const work = path.join(root, 'work');
    const results = path.join(work, 'results');
    const home = path.join(root, 'home');
    const tmp = path.join(root, 'tmp');
    await Promise.all([mkdir(results, { recursive: true }), mkdir(home), mkdir(tmp)]);
    for (const f of req.supportFiles ?? []) {
      const to = path.join(work, f.to);
      await mkdir(path.dirname(to), { recursive: true });
      // Dereferenced: a symlink in a support folder must become a file of the sandbox, not a door back to the workspace.
      await cp(f.from, to, { recursive: true, dereference: true }).catch((err: unknown) => {
        throw new RatchetError('badInput', `Could not copy the support file ${f.from}: ${(err as Error).message}.`, { from: f.from }, err);
      });
    }
    // Written after the support files, so a support file can never stand in for the candidate.
    const program = path.join(work, req.programName);
    await mkdir(path.dirname(program), { recursive: true });
    await writeFile(program, req.programText);
    let instancesFile: string | undefined;
    if (req.instances !== undefined) {
      instancesFile = path.join(root, 'instances.txt');
      await writeFile(instancesFile, req.instances.map((id) => `${id}\n`).join(''));
    }

    const env = evaluatorEnv(req.baseEnv ?? process.env, req.env ?? [], req.secrets ?? [], { work, home, tmp, program, results, instancesFile });
    const argv = req.shinka
      ? [req.shinka.python ?? 'python3', path.join(req.shinka.taskDir, 'evaluate.py'), '--program_path', program, '--results_dir', results]
      : expandCommand(req.command, { program, results, ...(instancesFile ? { instances: instancesFile } : {}) });
    if (req.shinka) await mustExist(path.join(req.shinka.taskDir, 'evaluate.py'), 'the ShinkaEvolve task has no evaluate.py');
    await mustFindExecutable(argv[0]!, env.PATH ?? '', work);

    const report: SandboxReport = { network: 'on', limits: '', processes: '', processLimitHit: false, leftoverProcesses: 0 };
    const wrap: string[] = [];
    if (req.pidsCgroup !== false && caps.pidsCgroup.ok) {
      cgroup = await PidsCgroup.create(caps.pidsCgroup.base, limits.processes);
      // The wrapper joins the cgroup before it execs the rest, so no process of the evaluation is ever outside it.
      wrap.push('/bin/sh', '-c', 'echo $$ > "$1" || exit 125; shift; exec "$@"', 'ratchet-sandbox', cgroup.procsFile);
      report.processes = `cgroup pids.max=${limits.processes}`;
    }
    if (caps.prlimit.ok) {
      wrap.push('prlimit', `--as=${limits.addressSpaceBytes}`, `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`, `--fsize=${limits.fileSizeBytes}`, `--nofile=${limits.openFiles}`);
      if (!cgroup && !caps.root) {
        // RLIMIT_NPROC counts every process of the user, not just this evaluation's: leave room for those.
        const nproc = (await countUserProcesses(process.getuid?.() ?? 0)) + limits.processes;
        wrap.push(`--nproc=${nproc}`);
        report.processes = `rlimit nproc=${nproc} (counted over all of the user's processes; a setsid() grandchild can escape the group kill)`;
      }
      wrap.push('--');
      report.limits = 'prlimit';
    } else report.limits = `none (${caps.prlimit.reason})`;
    let watchdogMax: number | undefined;
    if (report.processes === '') {
      report.processes = noProcessCap(caps, req.pidsCgroup === false, limits.processes);
      if (usesWatchdog(caps)) watchdogMax = limits.processes;
    }
    if ((req.network ?? 'off') === 'off') {
      if (caps.networkOff.ok) {
        wrap.push(...caps.networkOff.argv);
        report.network = 'off';
      } else report.network = `on (${caps.networkOff.reason})`;
    }

    const { watchdogHit, ...ran } = await spawnSandboxed([...wrap, ...argv], { cwd: work, env, req, cgroup, watchdogMax });
    report.processLimitHit = watchdogHit;
    if (cgroup) {
      report.processLimitHit = await cgroup.limitHit();
      report.leftoverProcesses = await cgroup.destroy();
      cgroup = undefined;
    }
    const parsed = await readEvaluation(req, results, ran.stdout);
    const result = withProcessOutcome(
      { exitCode: ran.exitCode, signal: ran.signal, timedOut: ran.timedOut, cancelled: ran.cancelled, timeoutMs: req.timeoutMs, stderr: ran.stderr },
      parsed,
    );
    return { ...ran, result, sandbox: report };
  } finally {
    if (cgroup) await cgroup.destroy();
    // A temp directory the evaluator made hard to remove is left to the OS; it must not hide the result.
    await rm(root, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}

export async function preflight(): Promise<Preflight> {
  const caps = await sandboxCaps();
  const caveats = ['The evaluator runs as your user and can read and write what you can; its working directory is a temporary copy, not a jail.'];
  if (caps.root) {
    caveats.push(
      'Ratchet runs as root, and so does the evaluator: the limits, the cgroup and the network namespace stop runaway or careless code, but a program that sets out to undo them can (root may raise its own limits, leave its cgroup, enter the host network namespace).',
    );
  }
  if (!caps.pidsCgroup.ok) caveats.push('Without a pids cgroup, a grandchild that calls setsid() leaves the process group and is not killed with it.');
  if (caps.networkOff.ok) caveats.push('With network off, loopback is down too: an evaluator cannot serve on 127.0.0.1.');
  return {
    limits: caps.prlimit.ok ? 'prlimit: address space, CPU seconds, file size, open files' : `none (${caps.prlimit.reason})`,
    processes: caps.pidsCgroup.ok ? `pids cgroup under ${caps.pidsCgroup.base}` : noProcessCap(caps, false),
    network: caps.networkOff.ok ? `off (${caps.networkOff.argv.slice(0, -1).join(' ')})` : `on (${caps.networkOff.reason})`,
    python3: caps.python3.ok ? caps.python3.version : caps.python3.reason,
    caveats,
  };
}

/** Root without a pids cgroup: neither the cgroup nor RLIMIT_NPROC can cap the count. */
function usesWatchdog(caps: SandboxCaps): boolean {
  return caps.root && process.platform === 'linux';
}

/** Why there is no cgroup cap, and what stands in for it. */
function noProcessCap(caps: SandboxCaps, notUsed: boolean, max?: number): string {
  const why = notUsed ? 'the pids cgroup was turned off for this run' : caps.pidsCgroup.ok ? 'no cgroup' : caps.pidsCgroup.reason;
  if (usesWatchdog(caps)) {
    return `watchdog: the process group is counted every ${WATCHDOG_INTERVAL_MS} ms and killed past ${max ?? 'the limit'} (best effort: as root RLIMIT_NPROC does not apply, and ${why})`;
  }
  if (caps.root) return `none (running as root, where RLIMIT_NPROC does not apply; ${why})`;
  if (caps.prlimit.ok) return `rlimit nproc, counted over all of the user's processes (${why})`;
  return `none (${why}; ${caps.prlimit.reason})`;
}

// ---------------------------------------------------------------------------------------------
// The process

/** What the process did, before its result files are read: the run's report minus the parsed parts. */
type Ran = Omit<EvaluationRun, 'result' | 'sandbox'> & {
  /** The fallback watchdog killed the group for having too many processes. */
  watchdogHit: boolean;
};

/** Evaluation groups still running, killed if Ratchet itself exits first (they are detached from ours). */
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
});

function spawnSandboxed(
  argv: string[],
  o: { cwd: string; env: Record<string, string>; req: NodeEvaluationRequest; cgroup: PidsCgroup | undefined; watchdogMax: number | undefined },
): Promise<Ran> {
  const { req, cgroup } = o;
  const started = performance.now();
  const cap = req.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES;
  const graceMs = req.graceMs ?? DEFAULT_GRACE_MS;
  if (req.signal?.aborted) {
    return Promise.resolve({ stdout: '', stderr: '', truncated: { stdout: false, stderr: false }, droppedBytes: { stdout: 0, stderr: 0 }, exitCode: null, signal: null, timedOut: false, cancelled: true, wallMs: 0, watchdogHit: false });
  }
  return new Promise<Ran>((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: o.cwd, env: o.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const pid = child.pid;
    if (pid !== undefined) liveGroups.add(pid);
    const stdout = new CappedBytes(cap);
    const stderr = new CappedBytes(cap);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));

    let timedOut = false;
    let cancelled = false;
    let killing = false;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let drainTimer: ReturnType<typeof setTimeout> | undefined;
    const killAll = (sig: NodeJS.Signals): void => {
      if (pid !== undefined) {
        if (process.platform === 'win32') {
          // No process groups on Windows; taskkill /T walks the tree (no limits or namespaces there either).
          spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
        } else signalGroup(pid, sig);
      }
      void cgroup?.signalAll(sig);
    };
    // A fork bomb gets no grace period: SIGKILL at once.
    const watchdog = o.watchdogMax !== undefined && pid !== undefined ? new GroupWatchdog(pid, o.watchdogMax, () => killAll('SIGKILL')) : undefined;
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
      watchdog?.stop();
      clearTimeout(timer);
      clearTimeout(graceTimer);
      clearTimeout(drainTimer);
      req.signal?.removeEventListener('abort', onAbort);
      if (pid !== undefined) liveGroups.delete(pid);
    };

    child.once('error', (err) => {
      finish();
      reject(new RatchetError('badInput', `Could not start the evaluator ${argv[0]}: ${err.message}.`, { argv }, err));
    });
    child.once('exit', () => {
      // A timeout or cancel from now on would describe a run that already ended.
      clearTimeout(timer);
      watchdog?.stop();
      req.signal?.removeEventListener('abort', onAbort);
      // The evaluation is over when its leader exits: whatever it left behind is a runaway.
      killAll('SIGKILL');
      // A process outside group and cgroup (possible only without a cgroup) may hold the pipes open.
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, 1000);
    });
    child.once('close', (exitCode, signal) => {
      finish();
      resolve({
        stdout: stdout.text(),
        stderr: stderr.text(),
        truncated: { stdout: stdout.dropped > 0, stderr: stderr.dropped > 0 },
        droppedBytes: { stdout: stdout.dropped, stderr: stderr.dropped },
        exitCode,
        signal,
        timedOut,
        cancelled,
        wallMs: Math.round(performance.now() - started),
        watchdogHit: watchdog?.hit ?? false,
      });
    });
  });
}

function signalGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    // ESRCH: the group is gone, which is the goal.
  }
}

/** Keeps the first `max` bytes and counts the rest. */
class CappedBytes {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  dropped = 0;

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    const room = Math.max(0, this.max - this.kept);
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.chunks.push(part);
      this.kept += part.length;
    }
    this.dropped += chunk.length - Math.min(room, chunk.length);
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

// ---------------------------------------------------------------------------------------------
// Files

async function readEvaluation(req: NodeEvaluationRequest, results: string, stdout: string): Promise<Evaluation> {
  const metrics = await readResultFile(path.join(results, 'metrics.json'));
  if (typeof metrics === 'object') return metrics;
  if (req.shinka) {
    const correct = await readResultFile(path.join(results, 'correct.json'));
    if (typeof correct === 'object') return correct;
    return fromShinkaResults(correct, metrics);
  }
  return fromRatchetOutput(stdout, metrics);
}

/**
 * The file's text, undefined when it was not written, or an incorrect evaluation when it cannot be
 * trusted. Only a regular file is read, and only up to its size: the candidate could have left a
 * FIFO (open would block forever) or a symlink to /dev/zero (a read that never ends) in its place.
 */
async function readResultFile(file: string): Promise<string | undefined | Evaluation> {
  const name = path.basename(file);
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT') return undefined;
    return { correct: false, error: `${name} could not be opened (${String(code)}); write a plain file` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { correct: false, error: `${name} is not a regular file; write a plain file` };
    if (info.size > RESULT_FILE_CAP_BYTES) return { correct: false, error: `${name} is ${info.size} bytes, more than the ${RESULT_FILE_CAP_BYTES} read` };
    const buffer = Buffer.alloc(info.size);
    const { bytesRead } = await handle.read(buffer, 0, info.size, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch (err) {
    return { correct: false, error: `${name} could not be read: ${(err as Error).message}` };
  } finally {
    await handle.close();
  }
}

function checkRelative(p: string, field: string): void {
  const norm = path.posix.normalize(p.replaceAll('\\', '/'));
  if (p === '' || path.isAbsolute(p) || norm.startsWith('../') || norm === '..' || norm === '.' || norm.startsWith('results/') || norm === 'results') {
    throw new RatchetError('badInput', `${field} "${p}" must be a relative path inside the sandbox (no "..", not "results").`, { field, path: p });
  }
}

async function mustExist(file: string, message: string): Promise<void> {
  try {
    await access(file, constants.R_OK);
  } catch {
    throw new RatchetError('badInput', `${message}: ${file}.`, { path: file });
  }
}

/** Like a shell's lookup: a name with a slash is relative to the working directory, else searched on PATH. */
async function mustFindExecutable(cmd: string, pathVar: string, cwd: string): Promise<void> {
  const candidates = cmd.includes('/') ? [path.resolve(cwd, cmd)] : pathVar.split(':').filter(Boolean).map((dir) => path.join(dir, cmd));
  for (const c of candidates) {
    try {
      await access(c, constants.X_OK);
      return;
    } catch {
      // Next.
    }
  }
  throw new RatchetError('badInput', `Could not run the evaluator "${cmd}": no such program ${cmd.includes('/') ? 'in the sandbox' : 'on PATH'}; check the evaluator command (relative paths are inside the sandbox: declare the file as a support file).`, { command: cmd });
}
