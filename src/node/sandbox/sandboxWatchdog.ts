/**
 * The last line against a fork bomb where nothing better exists: Ratchet runs as root (so
 * RLIMIT_NPROC does not apply) and no pids cgroup is writable (a container without cgroup
 * delegation). It polls /proc for the processes of the evaluation's process group and kills the
 * whole group once they outnumber the limit. Best effort, and said so in the sandbox report: a
 * bomb can fork many processes between two polls, and a process that leaves the group with
 * setsid() is not counted. Linux only (/proc).
 */
import { readFileSync, readdirSync } from 'node:fs';

export const WATCHDOG_INTERVAL_MS = 50;

export class GroupWatchdog {
  /** The group outgrew the limit and was killed. */
  hit = false;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly pgid: number,
    private readonly max: number,
    private readonly kill: () => void,
  ) {
    this.timer = setInterval(() => this.check(), WATCHDOG_INTERVAL_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private check(): void {
    // Synchronous on purpose: while a bomb forks, each await would let it grow further.
    if (countGroup(this.pgid) <= this.max) return;
    this.hit = true;
    this.kill();
  }
}

/** Live (not zombie) processes whose process group is `pgid`. */
export function countGroup(pgid: number): number {
  let n = 0;
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const name of names) {
    if (name.charCodeAt(0) > 57) continue; // not a pid: /proc's other entries start with a letter
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    const fields = statFields(stat);
    if (fields.state !== 'Z' && fields.pgrp === pgid) n++;
  }
  return n;
}

/**
 * State and process group of a /proc/<pid>/stat line, "pid (comm) state ppid pgrp …". The command
 * name may hold spaces and parentheses, so the fields are read after the last ')'.
 */
export function statFields(stat: string): { state: string; pgrp: number } {
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: rest[0] ?? '', pgrp: Number(rest[2]) };
}
