/**
 * The watch over one running evaluation, for the limits the kernel cannot keep on this machine:
 * - processes and threads, where neither a pids cgroup nor a user namespace's RLIMIT_NPROC counts
 *   them (root without a pids cgroup, where RLIMIT_NPROC does not apply; a machine without user
 *   namespaces, where it would count all of the user's threads, and an honest evaluation in a
 *   desktop session with hundreds of them alive would die);
 * - the memory of the whole evaluation, where no memory cgroup is writable: the resident memory of
 *   its processes, summed;
 * - its disk: the sandbox's files (the jail's tmpfs is capped by the kernel; it is checked too, to
 *   say the limit was hit).
 * It polls /proc (Linux) and kills the evaluation past a limit: best effort, and said so — a
 * fork bomb forks many processes between two polls (RLIMIT_NPROC stays as a wide backstop), and
 * a process that leaves the process group without a pid namespace is found only while it is a
 * descendant, in the group or in the session.
 *
 * It also notes a process that detached itself from its parent (a double fork, as a daemon does)
 * inside a jail: contained there, and said as an escape tried.
 */
import { readdir, lstat, statfs } from 'node:fs/promises';
import * as path from 'node:path';
import { descendants, readProcs } from './procTable';
import type { ProcEntry } from './procTable';

export type WatchedLimit = 'processes' | 'memory' | 'disk';

export interface WatchPlan {
  /** The evaluation's first process (the jail's outer process, or the evaluator). */
  leader: number;
  /** The evaluation has no pid namespace: its group and session members count too. */
  sharedProcessTable: boolean;
  /** The leader is bubblewrap: a child of the jail's init other than the evaluator was orphaned by a double fork. */
  jail: boolean;
  /** Tasks (processes and threads) allowed; undefined when the kernel counts them. */
  maxTasks?: number;
  /** Resident bytes of the whole evaluation allowed; undefined when a memory cgroup caps it. */
  maxRssBytes?: number;
  /** Bytes the sandbox may hold: host folders summed, and the jail's tmpfs (seen through a process inside). */
  disk?: { maxBytes: number; hostDirs: string[]; jailMount?: string };
  /** Limits a cgroup keeps: asked whether they were hit, so the evaluation ends at once rather than limp on. */
  cgroupHits?: { limit: WatchedLimit; hit: () => Promise<boolean> }[];
  /** The poll period for processes and memory. */
  intervalMs: number;
  onLimit(limit: WatchedLimit): void;
}

const PAGE = 4096;
/** The disk's look: du of the host folders, statfs of the jail's tmpfs. */
const DISK_INTERVAL_MS = 250;
/** du walks stop here: a flood of tiny files is a disk limit of its own. */
const MAX_ENTRIES = 200_000;

export class EvaluationWatch {
  readonly hits = new Set<WatchedLimit>();
  /** Processes seen detaching from their parent inside a jail (adopted by its init). */
  detached = 0;
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  private diskBusy = false;
  private stopped = false;
  private seenDetached = new Set<number>();
  /** Without a pid namespace: every process seen as the evaluation's, by pid → start time (a leftover is looked for among them). */
  readonly seenStarts = new Map<number, number>();

  constructor(private readonly plan: WatchPlan) {
    if (plan.maxTasks !== undefined || plan.maxRssBytes !== undefined || plan.jail || plan.sharedProcessTable) {
      this.timers.push(setInterval(() => this.checkProcesses(), plan.intervalMs));
    }
    if (plan.disk) this.timers.push(setInterval(() => void this.checkDisk(), DISK_INTERVAL_MS));
    if (plan.cgroupHits && plan.cgroupHits.length > 0) this.timers.push(setInterval(() => void this.checkCgroups(), 250));
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
  }

  /** The evaluation's live processes now, by the plan's rule. */
  members(procs: readonly ProcEntry[] = readProcs()): ProcEntry[] {
    const tree = descendants(procs, this.plan.leader);
    if (!this.plan.sharedProcessTable) return tree;
    const ids = new Set(tree.map((p) => p.pid));
    // Without a pid namespace, a process that left the tree (reparented to init) still shows by its group or session.
    const extra = procs.filter((p) => !ids.has(p.pid) && p.state !== 'Z' && (p.pgrp === this.plan.leader || p.session === this.plan.leader));
    return [...tree, ...extra];
  }

  private hit(limit: WatchedLimit): void {
    if (this.stopped) return;
    this.hits.add(limit);
    this.plan.onLimit(limit);
  }

  private checkProcesses(): void {
    // Synchronous on purpose: while a bomb forks, each await would let it grow further.
    const procs = readProcs();
    const members = this.members(procs);
    if (this.plan.sharedProcessTable) for (const p of members) if (p.pid !== this.plan.leader) this.seenStarts.set(p.pid, p.start);
    if (this.plan.jail) this.noteDetached(procs, members);
    const tasks = members.reduce((n, p) => n + Math.max(1, p.threads), 0);
    if (this.plan.maxTasks !== undefined && tasks > this.plan.maxTasks) this.hit('processes');
    const rss = members.reduce((n, p) => n + p.rssPages * PAGE, 0);
    if (this.plan.maxRssBytes !== undefined && rss > this.plan.maxRssBytes) this.hit('memory');
  }

  /**
   * In a jail the leader is bwrap, its one child the jail's init, whose one child is the
   * evaluator: any other child of the init was orphaned by a double fork.
   */
  private noteDetached(procs: readonly ProcEntry[], members: readonly ProcEntry[]): void {
    const init = procs.find((p) => p.ppid === this.plan.leader);
    if (!init) return;
    const children = members.filter((p) => p.ppid === init.pid);
    if (children.length <= 1) return;
    const first = Math.min(...children.map((c) => c.pid));
    for (const c of children) {
      if (c.pid !== first && !this.seenDetached.has(c.pid)) {
        this.seenDetached.add(c.pid);
        this.detached++;
      }
    }
  }

  private async checkCgroups(): Promise<void> {
    for (const c of this.plan.cgroupHits ?? []) if (!this.hits.has(c.limit) && (await c.hit())) this.hit(c.limit);
  }

  private async checkDisk(): Promise<void> {
    const disk = this.plan.disk;
    if (!disk || this.diskBusy) return;
    this.diskBusy = true;
    try {
      let used = 0;
      for (const dir of disk.hostDirs) used += await du(dir);
      if (used > disk.maxBytes) return this.hit('disk');
      if (disk.jailMount !== undefined) {
        const inside = this.jailMountPath(disk.jailMount);
        if (inside === undefined) return;
        const s = await statfs(inside).catch(() => undefined);
        // The tmpfs is the disk limit: when it is full, the limit was reached.
        if (s && s.bavail === 0) this.hit('disk');
      }
    } finally {
      this.diskBusy = false;
    }
  }

  /** The jail's tmpfs seen from outside, through the root of a process inside it. */
  private jailMountPath(mount: string): string | undefined {
    const inside = descendants(readProcs(), this.plan.leader).find((p) => p.pid !== this.plan.leader);
    return inside ? path.join(`/proc/${inside.pid}/root`, mount) : undefined;
  }
}

/** Bytes under `dir` (files' sizes, links not followed), up to MAX_ENTRIES entries (then Infinity). */
export async function du(dir: string): Promise<number> {
  let total = 0;
  let entries = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const name of await readdir(d).catch(() => [] as string[])) {
      if (++entries > MAX_ENTRIES) return Number.POSITIVE_INFINITY;
      const p = path.join(d, name);
      const st = await lstat(p).catch(() => undefined);
      if (!st) continue;
      if (st.isDirectory()) stack.push(p);
      else total += st.blocks * 512;
    }
  }
  return total;
}
