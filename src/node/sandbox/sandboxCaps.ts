/**
 * What the evaluation sandbox can do on this machine, probed once per process, and the pids cgroup
 * it uses against fork bombs. Split from sandbox.ts because each probe is a guess about the host
 * (is prlimit there, may we unshare a network namespace, is a pids cgroup writable) that must be
 * reported to the user either way, not silently assumed.
 *
 * Why a pids cgroup for the process count: RLIMIT_NPROC is checked against all of the user's
 * processes, and the kernel does not apply it at all to root (or to anyone with CAP_SYS_RESOURCE /
 * CAP_SYS_ADMIN) — an evaluator run as root, as in CI containers, could fork without bound. A pids
 * cgroup caps the evaluation's own process tree whoever runs it, and lists every process in it,
 * so the sandbox can also kill a grandchild that left the process group with setsid(). It needs a
 * writable pids hierarchy (root, or a delegated cgroup); without one, a non-root user gets
 * RLIMIT_NPROC and root a polling watchdog (sandboxWatchdog.ts), and preflight() says so.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, rmdir, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

export type Capability<T = object> = ({ ok: true } & T) | { ok: false; reason: string };

export interface SandboxCaps {
  root: boolean;
  /** `prlimit` (util-linux) to set address space, CPU, file size, open files and nproc on the evaluator. */
  prlimit: Capability;
  /** The argv prefix that runs a command without network. */
  networkOff: Capability<{ argv: string[] }>;
  /** A directory in a pids cgroup hierarchy under which a per-evaluation cgroup can be made. */
  pidsCgroup: Capability<{ base: string }>;
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
    const reason = `${process.platform} is not Linux`;
    const python3 = await probePython();
    return { root, prlimit: { ok: false, reason }, networkOff: { ok: false, reason }, pidsCgroup: { ok: false, reason }, python3 };
  }
  const [prlimit, networkOff, pidsCgroup, python3] = await Promise.all([probePrlimit(), probeNetworkOff(root), probePidsCgroup(), probePython()]);
  return { root, prlimit, networkOff, pidsCgroup, python3 };
}

function run(file: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, (err, stdout, stderr) => {
      resolve({ ok: err === null, out: `${stdout}${stderr}`.trim() || (err?.message ?? '') });
    });
  });
}

async function probePrlimit(): Promise<Capability> {
  const r = await run('prlimit', ['--nofile=64', '--', 'true']);
  return r.ok ? { ok: true } : { ok: false, reason: `prlimit does not run (${firstLine(r.out)}); install util-linux` };
}

/**
 * `unshare -n` needs CAP_SYS_ADMIN; a non-root user gets one through a user namespace
 * (`--map-root-user`) where the kernel allows unprivileged ones. Tried in that order, for real.
 */
async function probeNetworkOff(root: boolean): Promise<Capability<{ argv: string[] }>> {
  const tries = root ? [['unshare', '--net']] : [['unshare', '--net', '--map-root-user']];
  let reason = '';
  for (const argv of tries) {
    const r = await run(argv[0]!, [...argv.slice(1), '--', 'true']);
    if (r.ok) return { ok: true, argv: [...argv, '--'] };
    reason = firstLine(r.out);
  }
  return { ok: false, reason: `unshare unavailable: ${reason}` };
}

async function probePython(): Promise<Capability<{ version: string }>> {
  const r = await run('python3', ['--version']);
  return r.ok ? { ok: true, version: firstLine(r.out) } : { ok: false, reason: `python3 not found on PATH (${firstLine(r.out)})` };
}

/** Finds the pids hierarchy (cgroup v1 `pids` or v2 with the pids controller) and proves a child cgroup can be made there. */
async function probePidsCgroup(): Promise<Capability<{ base: string }>> {
  let candidates: string[];
  try {
    candidates = pidsHierarchies(await readFile('/proc/self/mountinfo', 'utf8'), await readFile('/proc/self/cgroup', 'utf8'));
  } catch (err) {
    return { ok: false, reason: `cannot read /proc (${(err as Error).message})` };
  }
  if (candidates.length === 0) return { ok: false, reason: 'no pids cgroup controller is mounted' };
  let reason = '';
  for (const base of candidates) {
    await sweepStale(base);
    try {
      const probe = await PidsCgroup.create(base, 8);
      await probe.destroy();
      return { ok: true, base };
    } catch (err) {
      reason = `${base}: ${(err as Error).message}`;
    }
  }
  return { ok: false, reason: `no writable pids cgroup (${reason}); run as root or delegate a cgroup` };
}

/**
 * Removes the empty cgroups a Ratchet process that died mid-evaluation left behind (their
 * processes were SIGKILLed by its exit handler, but a directory outlives that). A cgroup still
 * holding a process cannot be removed, so a live evaluation's never is.
 */
async function sweepStale(base: string): Promise<void> {
  for (const name of await readdir(base).catch(() => [] as string[])) {
    const m = /^ratchet-(\d+)-\d+$/.exec(name);
    if (!m || isAlive(Number(m[1]))) continue;
    await rmdir(path.join(base, name)).catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: unknown }).code === 'EPERM';
  }
}

/**
 * Directories where a per-evaluation pids cgroup may go: our own cgroup in each pids hierarchy,
 * then the hierarchy's root. Exported for tests. mountinfo fields: … mountpoint … - fstype source
 * superoptions; /proc/self/cgroup lines: `id:controllers:path` (`0::path` for v2).
 */
export function pidsHierarchies(mountinfo: string, selfCgroup: string): string[] {
  const own = new Map<string, string>();
  for (const line of selfCgroup.split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line.trim());
    if (m) own.set(m[1]!, m[2]!);
  }
  const out: string[] = [];
  for (const line of mountinfo.split('\n')) {
    const [left, right] = line.split(' - ');
    if (left === undefined || right === undefined) continue;
    const mountPoint = left.split(' ')[4];
    const [fstype, , superOptions = ''] = right.split(' ');
    if (mountPoint === undefined) continue;
    let ownPath: string | undefined;
    if (fstype === 'cgroup' && superOptions.split(',').includes('pids')) {
      ownPath = [...own.entries()].find(([controllers]) => controllers.split(',').includes('pids'))?.[1];
    } else if (fstype === 'cgroup2') ownPath = own.get('');
    else continue;
    if (ownPath !== undefined && ownPath !== '/') out.push(path.join(mountPoint, ownPath));
    out.push(mountPoint);
  }
  return [...new Set(out)];
}

let serial = 0;

/** One evaluation's pids cgroup: a cap on its process count and a list of every process it left. */
export class PidsCgroup {
  private constructor(readonly dir: string) {}

  /** Makes `<base>/ratchet-<pid>-<n>` with pids.max = max; throws when the hierarchy refuses. */
  static async create(base: string, max: number): Promise<PidsCgroup> {
    const dir = path.join(base, `ratchet-${process.pid}-${++serial}`);
    await mkdir(dir);
    const group = new PidsCgroup(dir);
    try {
      // On cgroup v2 the controller may exist but not be enabled for children: no pids.max then.
      await stat(path.join(dir, 'pids.max'));
      await writeFile(path.join(dir, 'pids.max'), String(max));
    } catch (err) {
      await rmdir(dir).catch(() => undefined);
      throw err;
    }
    return group;
  }

  /** The file a process writes its pid into to join (the sandbox's wrapper does it before exec). */
  get procsFile(): string {
    return path.join(this.dir, 'cgroup.procs');
  }

  async pids(): Promise<number[]> {
    const text = await readFile(this.procsFile, 'utf8').catch(() => '');
    return text
      .split('\n')
      .map(Number)
      .filter((n) => n > 0);
  }

  async signalAll(sig: NodeJS.Signals): Promise<void> {
    for (const pid of await this.pids()) {
      try {
        process.kill(pid, sig);
      } catch {
        // Gone already.
      }
    }
  }

  /** Whether a fork was refused for the limit (pids.events counts them). */
  async limitHit(): Promise<boolean> {
    const text = await readFile(path.join(this.dir, 'pids.events'), 'utf8').catch(() => '');
    const m = /^max (\d+)/m.exec(text);
    return m !== null && Number(m[1]) > 0;
  }

  /**
   * Kills what is left and removes the cgroup; returns how many processes outlived every attempt.
   * Each pass SIGKILLs the listed processes; a fork racing a pass lands in the next one, and the
   * cap keeps the list short. A dead process leaves cgroup.procs once reaped, so passes repeat.
   */
  async destroy(): Promise<number> {
    let left: number[] = [];
    for (let pass = 0; pass < 200; pass++) {
      left = await this.pids();
      if (left.length === 0) break;
      await this.signalAll('SIGKILL');
      await new Promise((r) => setTimeout(r, pass < 20 ? 5 : 50));
    }
    try {
      await rmdir(this.dir);
    } catch {
      // Busy only when a process survived; left.length says so.
    }
    return left.length;
  }
}

/** Number of processes whose real uid is `uid` (for an RLIMIT_NPROC that leaves room for them). */
export async function countUserProcesses(uid: number): Promise<number> {
  let n = 0;
  for (const name of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    const st = await stat(`/proc/${name}`).catch(() => undefined);
    if (st?.uid === uid) n++;
  }
  return n;
}

function firstLine(s: string): string {
  return s.split('\n')[0]?.slice(0, 200) ?? '';
}
