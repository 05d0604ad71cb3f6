/**
 * What the evaluation sandbox can do on this machine, probed once per process, each probe by
 * running the real thing: is bubblewrap there and may it make namespaces (Ubuntu ≥ 23.10 and
 * Docker's default seccomp refuse unprivileged user namespaces), may `unshare` give a pid and a
 * network namespace, is a pids or memory cgroup writable, is prlimit / setpriv there. Every answer
 * is reported to the user either way (preflight), never silently assumed.
 *
 * `RATCHET_BWRAP` names the bubblewrap to use (a path), or `off` to run without it (docs/sandbox.md).
 */
import { execFile, spawn } from 'node:child_process';
import { readFile, readdir, stat } from 'node:fs/promises';
import { Cgroup, cgroupHierarchies, sweepStaleCgroups } from './cgroups';
import { keyringFilter } from './seccomp';
import type { CgroupController } from './cgroups';

export type Capability<T = object> = ({ ok: true } & T) | { ok: false; reason: string };

export interface SandboxCaps {
  root: boolean;
  /** `prlimit` (util-linux) to set address space, CPU, file size, open files and nproc on the evaluator. */
  prlimit: Capability;
  /** `setpriv --pdeathsig` (util-linux): the evaluation's first process dies with Ratchet. */
  setpriv: Capability;
  /** bubblewrap, able to make its namespaces here; `seccomp`: whether it can also load the jail's keyring filter (seccomp.ts). */
  bwrap: Capability<{ path: string; version: string; seccomp: Capability }>;
  /** `unshare` making a pid namespace (and a user namespace where needed): the argv prefix, without the network part. */
  unshare: Capability<{ argv: string[]; network: string[] }>;
  /** Directories under which a per-evaluation cgroup can be made. */
  pidsCgroup: Capability<{ base: string }>;
  memoryCgroup: Capability<{ base: string }>;
  /** Empty cgroups of dead Ratchet processes removed by the probe. */
  staleCgroupsRemoved: number;
  /** python3, which ShinkaEvolve-form tasks need. */
  python3: Capability<{ version: string }>;
}

let cached: Promise<SandboxCaps> | undefined;

/** The machine's sandbox capabilities, probed on the first call only. */
export function sandboxCaps(): Promise<SandboxCaps> {
  cached ??= probeAll();
  return cached;
}

async function probeAll(): Promise<SandboxCaps> {
  const root = process.getuid?.() === 0;
  if (process.platform !== 'linux') {
    const no = { ok: false as const, reason: `${process.platform} is not Linux` };
    return { root, prlimit: no, setpriv: no, bwrap: no, unshare: no, pidsCgroup: no, memoryCgroup: no, staleCgroupsRemoved: 0, python3: await probePython() };
  }
  const [prlimit, setpriv, bwrap, unshare, pids, memory, python3] = await Promise.all([
    probe('prlimit', ['--nofile=64', '--', 'true'], 'install util-linux'),
    probe('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], 'install util-linux ≥ 2.33'),
    probeBwrap(),
    probeUnshare(root),
    probeCgroup('pids'),
    probeCgroup('memory'),
    probePython(),
  ]);
  return { root, prlimit, setpriv, bwrap, unshare, pidsCgroup: pids.cap, memoryCgroup: memory.cap, staleCgroupsRemoved: pids.swept + memory.swept, python3 };
}

function run(file: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, (err, stdout, stderr) => {
      resolve({ ok: err === null, out: `${stdout}${stderr}`.trim() || (err?.message ?? '') });
    });
  });
}

async function probe(file: string, args: string[], fix: string): Promise<Capability> {
  const r = await run(file, args);
  return r.ok ? { ok: true } : { ok: false, reason: `${file} does not run (${firstLine(r.out)}); ${fix}` };
}

/** The bubblewrap `RATCHET_BWRAP` names, else `bwrap` on PATH, tried with every namespace the jail uses. */
async function probeBwrap(): Promise<SandboxCaps['bwrap']> {
  const setting = process.env.RATCHET_BWRAP;
  if (setting !== undefined && /^(off|none|no|false|0)$/i.test(setting.trim())) return { ok: false, reason: `RATCHET_BWRAP=${setting} turns bubblewrap off` };
  const path = setting?.trim() || 'bwrap';
  const version = await run(path, ['--version']);
  if (!version.ok) {
    return { ok: false, reason: setting ? `RATCHET_BWRAP=${setting} does not run (${firstLine(version.out)})` : 'bubblewrap (bwrap) is not installed; install it: apt install bubblewrap, dnf install bubblewrap, pacman -S bubblewrap' };
  }
  const r = await run(path, ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', 'true']);
  if (!r.ok) {
    return { ok: false, reason: `${path} cannot make its namespaces here (${firstLine(r.out)}); user namespaces are off for unprivileged users (docs/sandbox.md says how to allow them for bubblewrap)` };
  }
  return { ok: true, path, version: firstLine(version.out), seccomp: await probeSeccomp(path) };
}

/**
 * The jail's seccomp filter, loaded for real: a kernel without seccomp filters (or a container that
 * forbids them) makes bubblewrap refuse to start, and then every evaluation would fail. Without it
 * the jail runs unfiltered, and the pre-flight says what that leaves open.
 */
async function probeSeccomp(bwrap: string): Promise<Capability> {
  const filter = keyringFilter();
  if (filter === undefined) return { ok: false, reason: `no keyring filter is built for ${process.arch}` };
  return new Promise((resolve) => {
    const child = spawn(bwrap, ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--seccomp', '3', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', 'true'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      timeout: 10_000,
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const input = child.stdio[3] as NodeJS.WritableStream & { on(event: 'error', f: () => void): void };
    // bubblewrap that fails before reading it closes the pipe: not this probe's failure to report.
    input.on('error', () => undefined);
    input.end(filter);
    child.on('error', (e) => resolve({ ok: false, reason: `bubblewrap with --seccomp does not run (${e.message})` }));
    child.on('close', (code) => resolve(code === 0 ? { ok: true } : { ok: false, reason: `bubblewrap cannot load a seccomp filter here (${firstLine(err.trim()) || `exit ${code}`})` }));
  });
}

/**
 * `unshare` with a pid namespace of its own (mounted /proc, the child killed when unshare dies)
 * and ipc/uts; a user namespace makes it possible without privileges, and takes root's
 * capabilities away as root. Tried for real, with and without the network part.
 */
async function probeUnshare(root: boolean): Promise<Capability<{ argv: string[]; network: string[] }>> {
  const user = root ? ['--user', '--map-root-user'] : ['--user', '--map-current-user'];
  const argv = ['unshare', ...user, '--pid', '--fork', '--kill-child=SIGKILL', '--mount-proc', '--ipc', '--uts'];
  const r = await run(argv[0]!, [...argv.slice(1), '--net', '--', 'true']);
  if (!r.ok) return { ok: false, reason: `unshare cannot make a pid namespace here (${firstLine(r.out)})` };
  return { ok: true, argv, network: ['--net'] };
}

async function probePython(): Promise<Capability<{ version: string }>> {
  const r = await run('python3', ['--version']);
  return r.ok ? { ok: true, version: firstLine(r.out) } : { ok: false, reason: `python3 not found on PATH (${firstLine(r.out)})` };
}

/** Finds a hierarchy with the controller and proves a child cgroup with a limit can be made there. */
async function probeCgroup(controller: CgroupController): Promise<{ cap: Capability<{ base: string }>; swept: number }> {
  let candidates: string[];
  try {
    candidates = cgroupHierarchies(controller, await readFile('/proc/self/mountinfo', 'utf8'), await readFile('/proc/self/cgroup', 'utf8'));
  } catch (err) {
    return { cap: { ok: false, reason: `cannot read /proc (${(err as Error).message})` }, swept: 0 };
  }
  if (candidates.length === 0) return { cap: { ok: false, reason: `no ${controller} cgroup controller is mounted` }, swept: 0 };
  let reason = '';
  let swept = 0;
  for (const base of candidates) {
    swept += await sweepStaleCgroups(base, isAlive);
    try {
      const probeGroup = await Cgroup.create(controller, base, controller === 'pids' ? 8 : 64 * 1024 ** 2);
      await probeGroup.destroy();
      return { cap: { ok: true, base }, swept };
    } catch (err) {
      reason = `${base}: ${(err as Error).message}`;
    }
  }
  return { cap: { ok: false, reason: `no writable ${controller} cgroup (${reason}); run as root or delegate a cgroup` }, swept };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: unknown }).code === 'EPERM';
  }
}

/** Threads (tasks) whose real uid is `uid`: what RLIMIT_NPROC counts against outside a user namespace. */
export async function countUserTasks(uid: number): Promise<number> {
  let n = 0;
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    const st = await stat(`/proc/${name}`).catch(() => undefined);
    if (st?.uid !== uid) continue;
    const status = await readFile(`/proc/${name}/status`, 'utf8').catch(() => '');
    n += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
  }
  return n;
}

function firstLine(s: string): string {
  return s.split('\n')[0]?.slice(0, 200) ?? '';
}
