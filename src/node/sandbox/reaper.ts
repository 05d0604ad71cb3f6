/**
 * No evaluation outlives Ratchet. Killed with SIGKILL, Ratchet runs no exit handler, so each
 * running evaluation must be ended by something else:
 * - a jail ends itself (bubblewrap's --die-with-parent), and so does a pid namespace whose first
 *   process got `setpriv --pdeathsig KILL`: the kernel kills the rest of the namespace with it;
 * - for everything else — a process group without a namespace, a cgroup's members — there is
 *   this reaper: one small `sh` per Ratchet process, in a session of its own, reading on its
 *   stdin which process groups and cgroups are live. When Ratchet dies, however it dies, the pipe
 *   closes, `read` sees the end, and the reaper kills every group and cgroup still listed.
 * It is started with no secret in its environment or arguments (PATH only), like the
 * evaluations: a program that finds it learns nothing.
 *
 * Folders left behind are swept at the next start (sweep.ts), and said.
 */
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';

const SCRIPT = `
groups=; cgroups=
drop() { out=; for x in $1; do [ "$x" = "$2" ] || out="$out $x"; done; echo "$out"; }
while IFS= read -r line; do
  case $line in
    "+g "*) groups="$groups \${line#+g }" ;;
    "-g "*) groups=$(drop "$groups" "\${line#-g }") ;;
    "+c "*) cgroups="$cgroups \${line#+c }" ;;
    "-c "*) cgroups=$(drop "$cgroups" "\${line#-c }") ;;
  esac
done
for g in $groups; do kill -KILL -- "-$g" 2>/dev/null; done
for c in $cgroups; do
  for pass in 1 2 3 4 5 6 7 8 9 10; do
    pids=$(cat "$c" 2>/dev/null); [ -z "$pids" ] && break
    kill -KILL $pids 2>/dev/null; sleep 0.1
  done
done
`;

let reaper: Writable | undefined | null;

function start(): Writable | null {
  if (process.platform === 'win32') return null;
  try {
    const child = spawn('/bin/sh', ['-c', SCRIPT, 'ratchet-reaper'], { stdio: ['pipe', 'ignore', 'ignore'], detached: true, env: { PATH: '/usr/bin:/bin' } });
    child.on('error', () => {
      reaper = null;
    });
    child.unref();
    // The pipe must not keep Ratchet alive: it is there to close when Ratchet goes.
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    child.stdin.on('error', () => undefined);
    return child.stdin;
  } catch {
    return null;
  }
}

function tell(line: string): void {
  if (reaper === undefined) reaper = start();
  reaper?.write(`${line}\n`);
}

/** While an evaluation runs: kill process group `pgid`, and every process in the cgroups whose cgroup.procs files are given, if Ratchet dies. */
export function guard(pgid: number | undefined, cgroupProcs: readonly string[]): () => void {
  if (pgid !== undefined) tell(`+g ${pgid}`);
  for (const c of cgroupProcs) tell(`+c ${c}`);
  return () => {
    if (pgid !== undefined) tell(`-g ${pgid}`);
    for (const c of cgroupProcs) tell(`-c ${c}`);
  };
}
