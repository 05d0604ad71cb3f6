/**
 * The machine's process table as /proc shows it (Linux), read synchronously: the watch over an
 * evaluation reads it while a fork bomb may be forking, and every await would let it grow. One
 * read of /proc/<pid>/stat per process gives everything the sandbox counts: parent, process
 * group, session, state, threads and resident memory.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

export interface ProcEntry {
  pid: number;
  ppid: number;
  pgrp: number;
  session: number;
  /** 'R', 'S', 'Z', … */
  state: string;
  threads: number;
  /** Resident set, in pages. */
  rssPages: number;
  /** Clock ticks after boot when it started: with the pid, who it is (a pid is reused, this pair is not). */
  start: number;
}

/**
 * The fields of a /proc/<pid>/stat line, "pid (comm) state ppid pgrp session … num_threads …
 * rss …". The command name may hold spaces and parentheses, so fields are counted after the last
 * ')'; undefined for a line that is not one.
 */
export function statEntry(stat: string): ProcEntry | undefined {
  const close = stat.lastIndexOf(')');
  if (close < 0) return undefined;
  const pid = Number.parseInt(stat, 10);
  // rest[0] is field 3 (state); field n is rest[n - 3].
  const rest = stat.slice(close + 2).split(' ');
  const field = (n: number): number => Number(rest[n - 3]);
  return { pid, state: rest[0] ?? '', ppid: field(4), pgrp: field(5), session: field(6), threads: field(20), rssPages: field(24), start: field(22) };
}

/** Every process /proc lists now; a process that exits while it is read is left out. */
export function readProcs(): ProcEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcEntry[] = [];
  for (const name of names) {
    if (name.charCodeAt(0) > 57) continue; // not a pid: /proc's other entries start with a letter
    try {
      const e = statEntry(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (e) out.push(e);
    } catch {
      // Exited while we looked.
    }
  }
  return out;
}

/** The processes descending from `root`, `root` included (a zombie is not counted: it holds nothing). */
export function descendants(procs: readonly ProcEntry[], root: number): ProcEntry[] {
  const children = new Map<number, ProcEntry[]>();
  for (const p of procs) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const out: ProcEntry[] = [];
  const self = procs.find((p) => p.pid === root);
  const queue = self ? [self] : [];
  while (queue.length > 0) {
    const p = queue.pop()!;
    if (p.state !== 'Z') out.push(p);
    queue.push(...(children.get(p.pid) ?? []));
  }
  return out;
}

/** The pid namespace a process is in (`pid:[4026531836]`), undefined when it is gone or not ours to read. */
export function pidNamespace(pid: number | 'self'): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}

/** Live (not zombie) processes whose process group is `pgid`. */
export function groupMembers(procs: readonly ProcEntry[], pgid: number): ProcEntry[] {
  return procs.filter((p) => p.pgrp === pgid && p.state !== 'Z');
}
