/**
 * An evaluation's cgroups: a pids cgroup caps every process and thread of it (whoever runs it —
 * RLIMIT_NPROC counts all of a user's threads, and does not apply to root at all) and lists every
 * process it made, a setsid() grandchild included; a memory cgroup caps the memory of the whole
 * evaluation rather than of each process. Both need a writable hierarchy: root, or a delegated
 * cgroup. Without one the sandbox falls back to what sandboxCaps.ts reports (a user namespace's
 * RLIMIT_NPROC, the watch in watch.ts), and says so.
 *
 * cgroup v1 mounts one hierarchy per controller; v2 one for all, where a controller must also be
 * enabled for children (a child without pids.max / memory.max is refused here).
 */
import { mkdir, readFile, readdir, rmdir, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

export type CgroupController = 'pids' | 'memory';

/**
 * Directories where an evaluation's cgroup for `controller` may go: our own cgroup in each
 * hierarchy that has it, then the hierarchy's root. mountinfo fields: … mountpoint … - fstype
 * source superoptions; /proc/self/cgroup lines: `id:controllers:path` (`0::path` for v2).
 */
export function cgroupHierarchies(controller: CgroupController, mountinfo: string, selfCgroup: string): string[] {
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
    if (fstype === 'cgroup' && superOptions.split(',').includes(controller)) {
      ownPath = [...own.entries()].find(([controllers]) => controllers.split(',').includes(controller))?.[1];
    } else if (fstype === 'cgroup2') ownPath = own.get('');
    else continue;
    if (ownPath !== undefined && ownPath !== '/') out.push(path.join(mountPoint, ownPath));
    out.push(mountPoint);
  }
  return [...new Set(out)];
}

/** The files that set a controller's limit and report that it was hit, v1 then v2 names. */
const FILES = {
  pids: { limit: ['pids.max'], events: ['pids.events'] },
  memory: { limit: ['memory.limit_in_bytes', 'memory.max'], events: ['memory.oom_control', 'memory.events'] },
} as const;

let serial = 0;

/** A cgroup of one controller, made for one evaluation (or for the probe). */
export class Cgroup {
  private constructor(
    readonly controller: CgroupController,
    readonly dir: string,
    private readonly limitFile: string,
  ) {}

  /** Makes `<base>/ratchet-<pid>-<n>` with its limit set to `max`; throws when the hierarchy refuses. */
  static async create(controller: CgroupController, base: string, max: number): Promise<Cgroup> {
    const dir = path.join(base, `ratchet-${process.pid}-${++serial}`);
    await mkdir(dir);
    try {
      // On v2 the controller may exist but not be enabled for children: no limit file then.
      const limitFile = await firstExisting(dir, FILES[controller].limit);
      if (limitFile === undefined) throw new Error(`${controller} is not enabled for child cgroups of ${base}`);
      await writeFile(path.join(dir, limitFile), String(max));
      // No swap past the cap either, where the kernel offers the knob (memsw after the limit: it may not be below it).
      if (controller === 'memory') {
        const swap = limitFile === 'memory.max' ? ['memory.swap.max', '0'] : ['memory.memsw.limit_in_bytes', String(max)];
        await writeFile(path.join(dir, swap[0]!), swap[1]!).catch(() => undefined);
      }
      return new Cgroup(controller, dir, limitFile);
    } catch (err) {
      await rmdir(dir).catch(() => undefined);
      throw err;
    }
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

  /**
   * Whether the limit stopped the evaluation: a fork refused (pids.events `max`), a process
   * killed for memory (`oom_kill` in memory.oom_control or memory.events).
   */
  async limitHit(): Promise<boolean> {
    for (const name of FILES[this.controller].events) {
      const text = await readFile(path.join(this.dir, name), 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      const m = (this.controller === 'pids' ? /^max (\d+)/m : /^oom_kill (\d+)/m).exec(text);
      return m !== null && Number(m[1]) > 0;
    }
    return false;
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

  /** The limit as set (for the report). */
  get limitName(): string {
    return this.limitFile;
  }
}

async function firstExisting(dir: string, names: readonly string[]): Promise<string | undefined> {
  for (const name of names) {
    if (
      await stat(path.join(dir, name)).then(
        () => true,
        () => false,
      )
    )
      return name;
  }
  return undefined;
}

/**
 * Removes the empty cgroups a Ratchet process that died mid-evaluation left behind (their
 * processes were killed by the reaper, but a directory outlives that). A cgroup still holding a
 * process cannot be removed, so a live evaluation's never is. Returns how many were removed.
 */
export async function sweepStaleCgroups(base: string, isAlive: (pid: number) => boolean): Promise<number> {
  let removed = 0;
  for (const name of await readdir(base).catch(() => [] as string[])) {
    const m = /^ratchet-(\d+)-\d+$/.exec(name);
    if (!m || isAlive(Number(m[1]))) continue;
    const dir = path.join(base, name);
    // Its processes first: a leftover of a dead run is killed, not left to hold the folder.
    const procs = await readFile(path.join(dir, 'cgroup.procs'), 'utf8').catch(() => '');
    for (const pid of procs
      .split('\n')
      .map(Number)
      .filter((n) => n > 0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
    if (
      await rmdir(dir).then(
        () => true,
        () => false,
      )
    )
      removed++;
  }
  return removed;
}
