/**
 * Runs one evaluation of a candidate program, sandboxed (issues #13, #26). The trust model: the
 * evaluator and its support files are the user's and trusted; the program is untrusted. It may
 * not read anything but its sandbox and what the evaluator hands it, see Ratchet's or any other
 * process, reach the network (unless `network: on`), write outside its sandbox, outlive its
 * evaluation, or change a result after the evaluator has ended. How much of that holds depends on
 * the machine: sandbox/jail.ts picks the tier (bubblewrap, `unshare`, or nothing) and says it.
 *
 * Every evaluation gets:
 * - a fresh folder holding its own copy of the candidate and the run's staged support files
 *   (read-only), removed afterwards; its outputs are kept in memory;
 * - an environment built from an allow-list (sandboxEnv.ts): no provider key, and not the results
 *   path, which goes to the evaluator alone as its {results} argument;
 * - limits on the whole evaluation: processes and threads (a pids cgroup, a user namespace's
 *   RLIMIT_NPROC, or the watch), memory (a memory cgroup, or the watch), disk (the jail's tmpfs
 *   and the watch), plus per-process rlimits (address space, CPU seconds, file size, open files);
 *   a limit hit makes the evaluation incorrect, with the limit named;
 * - an end: on timeout, cancel, and when the evaluator exits, everything of it is killed (the jail
 *   or pid namespace dies with its evaluator; the process group and cgroups are killed; the reaper
 *   kills them if Ratchet itself dies);
 * - its result read only once every process of it is gone: a process still running when the
 *   evaluator exited, or a change to the results folder after that, voids the evaluation;
 * - stdout and stderr kept up to a cap each, the END kept (where the JSON is).
 */
import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { access, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { RatchetError } from '../../core/errors';
import { expandCommand, withProcessOutcome } from '../../core/code/evaluation';
import type { Evaluation } from '../../core/code/evaluation';
import { DEFAULT_LIMITS } from '../../core/code/evaluatorPort';
import type { EvaluationRequest, EvaluationRun, EvaluationSandbox, Preflight, SandboxLimits, SandboxReport } from '../../core/code/evaluatorPort';
import type { IsolationSetting, IsolationTier } from '../../core/code/isolation';
import { countUserTasks, sandboxCaps } from './sandboxCaps';
import type { SandboxCaps } from './sandboxCaps';
import { evaluatorEnv } from './sandboxEnv';
import type { WatchedLimit } from './sandboxWatchdog';
import { Cgroup } from './cgroups';
import { JAIL, chooseTier, jailArgv, ownsProcesses, privateSystemEntries } from './jail';
import { spawnSandboxed } from './evaluationProcess';
import { keyringFilter } from './seccomp';
import type { Ran } from './evaluationProcess';
import { fingerprint, readEvaluation } from './resultFiles';
import { EVAL_PREFIX, makeWritable, sweepOnce, sweepWords } from './sweep';

/** The request as the Node sandbox takes it: the port's, plus knobs of the host. */
export type NodeEvaluationRequest = EvaluationRequest & {
  /** Where allowed variables are read from. Default process.env. */
  baseEnv?: Record<string, string | undefined>;
  /** Use the pids and memory cgroups when writable. Default true; false leaves the fallbacks (tests). */
  pidsCgroup?: boolean;
  memoryCgroup?: boolean;
  /** Folders the jail never exposes (the workspace); HOME always. */
  hidden?: string[];
};

/** The EvaluationSandbox port on this machine. */
export const nodeEvaluationSandbox: EvaluationSandbox = { run: (req) => runEvaluation(req), preflight: (isolation) => preflight(isolation) };

/** How this machine caps each limit, in words, with the tier's own way first. */
function capWords(caps: SandboxCaps, tier: IsolationTier, limits: SandboxLimits, use: { pids: boolean; memory: boolean }): { processes: string; memory: string; disk: string } {
  const userNs = (tier === 'jail' || tier === 'namespaces') && !caps.root && caps.prlimit.ok;
  const processes = use.pids
    ? `cgroup pids.max=${limits.processes}`
    : userNs
      ? `watch: processes and threads counted every ${WATCH_MS.backed} ms, stopped past ${limits.processes}; the user namespace's RLIMIT_NPROC refuses forks past ${nsBackstop(limits.processes)}`
      : `watch: processes and threads counted every ${WATCH_MS.alone} ms, stopped past ${limits.processes} (best effort${caps.root || !caps.prlimit.ok ? '' : '; RLIMIT_NPROC over all of your threads stays as a wide backstop'})`;
  const memory = use.memory
    ? `cgroup ${Math.round(limits.memoryBytes / 1024 ** 2)} MB for the whole evaluation`
    : `watch: resident memory of the whole evaluation measured every ${use.pids || userNs ? WATCH_MS.backed : WATCH_MS.alone} ms, stopped past ${Math.round(limits.memoryBytes / 1024 ** 2)} MB; ${caps.prlimit.ok ? 'address space capped per process' : 'no per-process cap'}`;
  const disk =
    tier === 'jail' ? `a ${Math.round(limits.diskBytes / 1024 ** 2)} MB tmpfs` : `watch: the sandbox folder measured every ${WATCH_MS.disk} ms, stopped past ${Math.round(limits.diskBytes / 1024 ** 2)} MB; the program can write elsewhere`;
  return { processes, memory, disk };
}

/**
 * How often the watch looks (each look reads every process's /proc/<pid>/stat: a few ms on a
 * desktop). Often where it is the only cap on processes (root without a pids cgroup, a machine
 * without namespaces), less where the kernel keeps a backstop.
 */
const WATCH_MS = { alone: 100, backed: 500, disk: 250 };

/** Evaluates one candidate. Rejects only for a request that can never run (badInput); a failing program is `result.correct === false`. */
export async function runEvaluation(req: NodeEvaluationRequest): Promise<EvaluationRun> {
  const caps = await sandboxCaps();
  await sweepOnce();
  const limits: SandboxLimits = { ...DEFAULT_LIMITS, ...req.limits };
  checkRelative(req.programName, 'programName');
  for (const f of req.supportFiles ?? []) checkRelative(f.to, 'supportFiles.to');
  const tier = chooseTier(req.isolation ?? 'best', caps);
  const jailed = tier === 'jail';
  const network = req.network ?? 'off';
  const usesResults = req.shinka !== undefined || req.command.includes('{results}');

  const root = await mkdtemp(path.join(tmpdir(), `${EVAL_PREFIX}${process.pid}-`));
  const cgroups: Cgroup[] = [];
  try {
    // On the host: the program's copy, the results folder, the instance list; outside a jail also the working folder, HOME and TMPDIR.
    const host = { work: path.join(root, 'work'), home: path.join(root, 'home'), tmp: path.join(root, 'tmp'), results: usesResults ? path.join(root, 'results') : undefined };
    await Promise.all([mkdir(host.work), ...(jailed ? [] : [mkdir(host.home), mkdir(host.tmp)]), ...(host.results ? [mkdir(host.results)] : [])]);
    if (!jailed) {
      for (const f of req.supportFiles ?? []) {
        const to = path.join(host.work, f.to);
        await mkdir(path.dirname(to), { recursive: true });
        // Dereferenced: a symlink in a support folder must become a file of the sandbox, not a door back to the workspace.
        await cp(f.from, to, { recursive: true, dereference: true }).catch((err: unknown) => {
          throw new RatchetError('badInput', `Could not copy the support file ${f.from}: ${(err as Error).message}.`, { from: f.from }, err);
        });
      }
    }
    // Written after the support files, so a support file can never stand in for the candidate.
    const programHost = path.join(host.work, req.programName);
    await mkdir(path.dirname(programHost), { recursive: true });
    await writeFile(programHost, req.programText);
    let instancesHost: string | undefined;
    if (req.instances !== undefined) {
      instancesHost = path.join(root, 'instances.txt');
      await writeFile(instancesHost, req.instances.map((id) => `${id}\n`).join(''));
    }
    const inside = jailed
      ? { work: JAIL.work, home: JAIL.home, tmp: JAIL.tmp, program: path.posix.join(JAIL.work, req.programName), results: JAIL.results, instances: JAIL.instances, task: JAIL.task }
      : { ...host, program: programHost, results: host.results ?? '', instances: instancesHost, task: req.shinka?.taskDir };

    const mark = randomBytes(12).toString('hex');
    const env = evaluatorEnv(req.baseEnv ?? process.env, req.env ?? [], req.secrets ?? [], {
      work: inside.work,
      home: inside.home,
      tmp: inside.tmp,
      program: inside.program,
      instancesFile: instancesHost && inside.instances,
      isolation: tier,
      mark,
    });
    const argv = req.shinka
      ? [req.shinka.python ?? 'python3', path.join(inside.task!, 'evaluate.py'), '--program_path', inside.program, '--results_dir', inside.results]
      : expandCommand(req.command, { program: inside.program, results: inside.results, ...(instancesHost ? { instances: inside.instances! } : {}) });
    if (req.shinka) await mustExist(path.join(req.shinka.taskDir, 'evaluate.py'), 'the ShinkaEvolve task has no evaluate.py');
    const executable = await findExecutable(argv[0]!, env.PATH ?? '', jailed ? undefined : host.work, req.supportFiles ?? []);

    const use = { pids: req.pidsCgroup !== false && caps.pidsCgroup.ok, memory: req.memoryCgroup !== false && caps.memoryCgroup.ok };
    const makeCgroups = async (): Promise<void> => {
      if (use.pids && caps.pidsCgroup.ok) cgroups.push(await Cgroup.create('pids', caps.pidsCgroup.base, limits.processes));
      if (use.memory && caps.memoryCgroup.ok) cgroups.push(await Cgroup.create('memory', caps.memoryCgroup.base, limits.memoryBytes));
    };
    await makeCgroups();
    const words = capWords(caps, tier, limits, use);
    const ownTree = ownsProcesses(tier);
    // A user namespace's RLIMIT_NPROC counts only its own tasks; outside one it counts all of the user's, and root is exempt.
    const nsNproc = ownTree && !caps.root;
    const rlimits = caps.prlimit.ok ? ['prlimit', `--as=${limits.addressSpaceBytes}`, `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`, `--fsize=${limits.fileSizeBytes}`, `--nofile=${limits.openFiles}`] : [];
    let inner = argv;
    let outer: string[] = [];
    if (rlimits.length > 0) {
      if (ownTree) inner = [...rlimits, ...(nsNproc && !use.pids ? [`--nproc=${nsBackstop(limits.processes)}`] : []), '--', ...argv];
      else outer = [...rlimits, ...(!caps.root && !use.pids ? [`--nproc=${await nprocBackstop(limits.processes)}`] : []), '--'];
    }
    // The jail's seccomp filter (the kernel keyrings), handed to bubblewrap on a descriptor of its own.
    const filter = jailed && caps.bwrap.ok && caps.bwrap.seccomp.ok ? keyringFilter() : undefined;
    const seccomp = filter ? { fd: 3, bytes: filter } : undefined;
    const join = (): string[] => (cgroups.length > 0 ? ['/bin/sh', '-c', 'for f; do [ "$f" = -- ] && break; echo $$ > "$f" || exit 125; shift; done; shift; exec "$@"', 'ratchet-sandbox', ...cgroups.map((c) => c.procsFile), '--'] : []);
    const privateEntries = jailed ? await privateSystemEntries(req.secrets ?? []) : [];
    const full = (): string[] => [
      ...join(),
      ...outer,
      ...jailArgv(
        {
          tier,
          caps,
          network,
          diskBytes: limits.diskBytes,
          pathVar: env.PATH ?? '',
          executable,
          program: { host: programHost, name: req.programName },
          support: (req.supportFiles ?? []).map((f) => ({ host: f.from, to: f.to })),
          ...(host.results ? { results: host.results } : {}),
          ...(instancesHost ? { instances: instancesHost } : {}),
          ...(req.shinka ? { task: req.shinka.taskDir } : {}),
          ...(seccomp ? { seccompFd: seccomp.fd } : {}),
          ...(jailed ? { privateEntries } : {}),
          hidden: req.hidden ?? [],
        },
        inner,
      ),
    ];

    const report: SandboxReport = {
      isolation: tier,
      network: network === 'on' ? 'on' : ownTree ? 'off' : `on (${tier === 'off' ? 'evaluator.isolation: off' : caps.unshare.ok ? 'no namespace' : caps.unshare.reason})`,
      limits: caps.prlimit.ok ? 'prlimit' : `none (${caps.prlimit.reason})`,
      ...words,
      processLimitHit: false,
      leftoverProcesses: 0,
      incidents: [],
    };
    const spawnOptions = (): Parameters<typeof spawnSandboxed>[1] => ({
      cwd: jailed ? root : host.work,
      env,
      req,
      cgroups,
      results: host.results,
      watch: {
        sharedProcessTable: !ownTree,
        jail: jailed,
        ...(use.pids ? {} : { maxTasks: limits.processes }),
        ...(use.memory ? {} : { maxRssBytes: limits.memoryBytes }),
        // In a jail, the program's own copy (bound from the host's disk, not the tmpfs) and the results folder are measured beside the tmpfs.
        disk: { maxBytes: limits.diskBytes, hostDirs: jailed ? [host.work, ...(host.results ? [host.results] : [])] : [root], ...(jailed ? { jailMount: JAIL.work } : {}) },
        cgroupHits: cgroups.map((c) => ({ limit: c.controller === 'pids' ? ('processes' as const) : ('memory' as const), hit: () => c.limitHit() })),
        intervalMs: use.pids || nsNproc ? WATCH_MS.backed : WATCH_MS.alone,
      },
      mark,
      ...(seccomp ? { input: seccomp } : {}),
    });
    let ran = await spawnSandboxed(full(), spawnOptions());
    // A masked entry removed between jail.ts's look and bubblewrap's mount (a lock file of /etc) left
    // bubblewrap no mount point: it refused to start, and nothing of the evaluation ran. Asked again
    // with what exists then, twice at most, in cgroups of its own: a kill of the refused attempt's
    // leftovers still on its way would land on the next attempt's processes.
    for (let again = 0; again < 2 && jailed && maskVanished(ran, privateEntries); again++) {
      for (const c of cgroups.splice(0)) await c.destroy();
      await makeCgroups();
      ran = await spawnSandboxed(full(), spawnOptions());
    }
    // Every process of the evaluation is gone (or counted as left): only now are its results read.
    for (const c of cgroups) {
      if (c.controller === 'pids' && (await c.limitHit())) ran.limitsHit.add('processes');
      if (c.controller === 'memory' && (await c.limitHit())) ran.limitsHit.add('memory');
    }
    for (const c of cgroups.splice(0)) report.leftoverProcesses += await c.destroy();
    report.processLimitHit = ran.limitsHit.has('processes');
    const lateWrite = host.results !== undefined && ran.resultsAtExit !== undefined && (await fingerprint(host.results)) !== ran.resultsAtExit;
    const parsed = await readEvaluation(req.shinka ? 'shinka' : 'ratchet', host.results, ran.stdout.text());
    const outcome = withProcessOutcome({ exitCode: ran.exitCode, signal: ran.signal, timedOut: ran.timedOut, cancelled: ran.cancelled, timeoutMs: req.timeoutMs, stderr: ran.stderr.text() }, parsed);
    const voided = voidReasons(ran, lateWrite, limits);
    report.incidents.push(...voided, ...notes(ran, report));
    const result: Evaluation = voided.length > 0 && !ran.cancelled ? { ...withoutError(outcome), correct: false, error: [voided[0]!, ...(outcome.correct ? [] : [outcome.error ?? ''])].filter(Boolean).join('; ') } : outcome;
    return {
      stdout: ran.stdout.text(),
      stderr: ran.stderr.text(),
      truncated: { stdout: ran.stdout.dropped > 0, stderr: ran.stderr.dropped > 0 },
      droppedBytes: { stdout: ran.stdout.dropped, stderr: ran.stderr.dropped },
      exitCode: ran.exitCode,
      signal: ran.signal,
      timedOut: ran.timedOut,
      cancelled: ran.cancelled,
      wallMs: ran.wallMs,
      result,
      sandbox: report,
    };
  } finally {
    for (const c of cgroups) await c.destroy();
    // A folder the evaluator made hard to remove is left to the next start's sweep; it must not hide the result.
    await makeWritable(root);
    await rm(root, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}

function withoutError(e: Evaluation): Evaluation {
  const { error: _dropped, ...rest } = e;
  return rest;
}

const LIMIT_WORDS: Record<WatchedLimit, (l: SandboxLimits) => string> = {
  processes: (l) => `the evaluation hit its process limit (${l.processes} processes and threads)`,
  memory: (l) => `the evaluation hit its memory limit (${Math.round(l.memoryBytes / 1024 ** 2)} MB for all its processes)`,
  disk: (l) => `the evaluation hit its disk limit (${Math.round(l.diskBytes / 1024 ** 2)} MB in its sandbox)`,
};

/** What makes an evaluation's result untrustworthy, each in words; empty when it stands. */
function voidReasons(ran: Ran, lateWrite: boolean, limits: SandboxLimits): string[] {
  const out = [...ran.limitsHit].map((l) => LIMIT_WORDS[l](limits));
  if (ran.survivors > 0)
    out.push(
      `${ran.survivors} process${ran.survivors === 1 ? ' of the evaluation was' : 'es of the evaluation were'} still running when the evaluator exited (killed); results written while ${ran.survivors === 1 ? 'it' : 'they'} ran cannot be trusted`,
    );
  if (lateWrite) out.push('the results folder changed after the evaluator exited (a late write); the evaluation is void');
  return out;
}

/** What happened that does not void the result but is worth saying. */
function notes(ran: Ran, report: SandboxReport): string[] {
  const out: string[] = [];
  if (ran.detached > 0)
    out.push(`escape tried: ${ran.detached === 1 ? 'a process' : `${ran.detached} processes`} detached from ${ran.detached === 1 ? 'its parent' : 'their parents'} (a double fork); contained by the jail and ended with the evaluation`);
  if (report.leftoverProcesses > 0) out.push(`${report.leftoverProcesses} process${report.leftoverProcesses === 1 ? '' : 'es'} could not be killed`);
  if (ran.stdout.dropped > 0) out.push(`stdout was ${ran.stdout.dropped} bytes over its cap; its start was dropped`);
  return out;
}

/**
 * A user namespace's RLIMIT_NPROC counts only the evaluation's tasks, but refuses a fork silently
 * (a program that shrugs it off would pass). So it is a backstop at twice the limit, which stops a
 * bomb between two looks of the watch, and the watch — which sees the evaluation past the limit —
 * stops it and names the limit.
 */
function nsBackstop(processes: number): number {
  return Math.max(2 * processes, processes + 64);
}

/** bubblewrap refused to start over a masked path that is gone now (see runEvaluation). */
function maskVanished(ran: Ran, masked: readonly string[]): boolean {
  if (ran.exitCode !== 1) return false;
  const refusal = /^bwrap: .*$/m.exec(ran.stderr.text())?.[0];
  return refusal !== undefined && masked.some((p) => refusal.includes(p) && !existsSync(p));
}

/** RLIMIT_NPROC outside a user namespace counts every thread of the user: room for all of them, wide, as a backstop behind the watch. */
async function nprocBackstop(processes: number): Promise<number> {
  return (await countUserTasks(process.getuid?.() ?? 0)) + Math.max(4 * processes, 4096);
}

export async function preflight(isolation: IsolationSetting = 'best'): Promise<Preflight> {
  const caps = await sandboxCaps();
  const swept = sweepWords(await sweepOnce());
  const tier = chooseTier(isolation, caps);
  const limits = DEFAULT_LIMITS;
  const use = { pids: caps.pidsCgroup.ok, memory: caps.memoryCgroup.ok };
  const words = capWords(caps, tier, limits, use);
  const caveats: string[] = [];
  if (tier === 'jail' && caps.bwrap.ok && !caps.bwrap.seccomp.ok)
    caveats.push(`The jail runs without its seccomp filter (${caps.bwrap.seccomp.reason}): the program keeps the kernel keyrings Ratchet was started in, and can read a key held there.`);
  if (tier === 'jail' && caps.root) caveats.push('Ratchet runs as root: inside the jail the program is root of a user namespace without capabilities; files it can see are read-only.');
  if (tier === 'namespaces') {
    caveats.push(`Without bubblewrap the program runs in your file system: it can read what you can read, and write what you can write outside its sandbox folder (${caps.bwrap.ok ? '' : caps.bwrap.reason}).`);
    // Root of its user namespace is the machine's root to every file and sysctl root owns: nothing but a jail holds it.
    if (caps.root)
      caveats.push(
        'Ratchet runs as root without bubblewrap: the program is root to every file and kernel setting root owns (/etc/cron.d, kernel.core_pattern), and through them can run as root outside its namespace, after its evaluation, with the network. Install bubblewrap, or run Ratchet as an ordinary user.',
      );
  }
  if (tier === 'none' || tier === 'off') {
    caveats.push('The program runs as you, beside your processes: it can read your files, see your processes and reach the network; a process that leaves its process group is found only by best effort.');
  }
  if (!caps.setpriv.ok && (tier === 'namespaces' || tier === 'none' || tier === 'off')) caveats.push(`If Ratchet is killed, the reaper ends its evaluations; without setpriv (${caps.setpriv.reason}) nothing else does.`);
  if (caps.staleCgroupsRemoved > 0) caveats.push(`Removed ${caps.staleCgroupsRemoved} cgroup(s) left by Ratchet processes that died.`);
  return {
    isolation: tier,
    jail: caps.bwrap.ok ? `${caps.bwrap.version} (${caps.bwrap.path})` : `none (${caps.bwrap.reason})`,
    limits: caps.prlimit.ok ? 'prlimit: address space, CPU seconds, file size, open files' : `none (${caps.prlimit.reason})`,
    ...words,
    network: ownsProcesses(tier) ? 'off' : `on (${tier === 'off' ? 'evaluator.isolation: off' : caps.unshare.ok ? 'no namespace' : caps.unshare.reason})`,
    python3: caps.python3.ok ? caps.python3.version : caps.python3.reason,
    ...(swept ? { swept } : {}),
    caveats,
  };
}

// ---------------------------------------------------------------------------------------------
// Requests

function checkRelative(p: string, field: string): void {
  const norm = path.posix.normalize(p.replaceAll('\\', '/'));
  if (p === '' || path.isAbsolute(p) || norm.startsWith('../') || norm === '..' || norm === '.' || norm.startsWith('results/') || norm === 'results' || norm === 'home' || norm === 'tmp') {
    throw new RatchetError('badInput', `${field} "${p}" must be a relative path inside the sandbox (no "..", not "results", "home" or "tmp").`, { field, path: p });
  }
}

async function mustExist(file: string, message: string): Promise<void> {
  try {
    await access(file, constants.R_OK);
  } catch {
    throw new RatchetError('badInput', `${message}: ${file}.`, { path: file });
  }
}

/**
 * Like a shell's lookup: a name with a slash is relative to the working directory (in a jail: a
 * support file), else searched on PATH. Returns the host path found (a PATH program's, for the
 * jail to expose its toolchain).
 */
async function findExecutable(cmd: string, pathVar: string, cwd: string | undefined, support: readonly { from: string; to: string }[]): Promise<string | undefined> {
  if (cmd.includes('/') && !path.isAbsolute(cmd)) {
    const norm = path.posix.normalize(cmd);
    const staged = support.find((f) => norm === f.to || norm.startsWith(`${f.to}/`));
    const candidate = cwd !== undefined ? path.resolve(cwd, cmd) : staged ? path.join(staged.from, path.posix.relative(staged.to, norm)) : undefined;
    if (candidate !== undefined && (await isExecutable(candidate))) return undefined;
    throw new RatchetError('badInput', `Could not run the evaluator "${cmd}": no such program in the sandbox; check the evaluator command (relative paths are inside the sandbox: declare the file as a support file).`, { command: cmd });
  }
  const candidates = path.isAbsolute(cmd)
    ? [cmd]
    : pathVar
        .split(':')
        .filter(Boolean)
        .map((dir) => path.join(dir, cmd));
  for (const c of candidates) if (await isExecutable(c)) return c;
  throw new RatchetError('badInput', `Could not run the evaluator "${cmd}": no such program on PATH; check the evaluator command (relative paths are inside the sandbox: declare the file as a support file).`, { command: cmd });
}

async function isExecutable(p: string): Promise<boolean> {
  return access(p, constants.X_OK).then(
    () => true,
    () => false,
  );
}
