/**
 * Process-group bookkeeping for everything the e2e harness starts. code-server exits 0 on SIGTERM
 * but leaves its children (file watcher, extension host, Ratchet's language server) running, so
 * each long-lived tool is spawned `detached` (its own process group, pgid = pid) and stopped by
 * signalling the whole group. Groups still registered when this process ends are SIGKILLed from an
 * `exit` hook, so a failed or interrupted test never leaves a code-server behind.
 */
import type { ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

const liveGroups = new Set<number>();
let hooksInstalled = false;
let stopSignal: NodeJS.Signals | undefined;

/** The signal that started a shutdown, if one did (start.mjs then lets the hook finish the exit). */
export function shutdownSignal(): NodeJS.Signals | undefined {
  return stopSignal;
}

/** True while any process of the group still exists (signal 0 probes without delivering). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    // EPERM means the group exists but belongs to someone else: still alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone, which is what we want.
  }
}

/** Polls the group until it is empty or the deadline passes; returns whether it is gone. */
async function waitGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/**
 * Stops a process group: SIGTERM so code-server can flush its state, then SIGKILL for whatever is
 * left after `graceMs` (the extension host and language servers do not always follow their parent).
 */
export async function stopGroup(pgid: number, graceMs = 5_000): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  if (!(await waitGroupGone(pgid, graceMs))) {
    signalGroup(pgid, 'SIGKILL');
    await waitGroupGone(pgid, 2_000);
  }
  liveGroups.delete(pgid);
}

/** Records a detached child so the exit hooks can reap its group. */
export function trackGroup(child: ChildProcess): number {
  if (child.pid === undefined) throw new Error('trackGroup: the child has no pid (spawn failed)');
  installExitHooks();
  liveGroups.add(child.pid);
  return child.pid;
}

/** Extensions folders whose Ratchet run daemons go when everything is stopped (see stopRunDaemons). */
const daemonHomes = new Set<string>();

/** Stops every tracked group, then the run daemons of their extensions (signal hooks, suites' afterAll). */
export async function stopAllGroups(): Promise<void> {
  await Promise.all([...liveGroups].map((pgid) => stopGroup(pgid)));
  await Promise.all([...daemonHomes].map((dir) => stopRunDaemons(dir)));
}

/** The run daemons started from this extensions folder are stopped with everything else. */
export function trackRunDaemons(extensionsDir: string): void {
  daemonHomes.add(extensionsDir);
}

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // `exit` handlers must be synchronous: SIGKILL is the only thing that cannot be left half done.
  process.on('exit', () => {
    for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
  });
  // A signal's default action skips `exit` handlers, so catch the usual ones, stop the groups
  // politely, then exit with the conventional 128+n status. A second signal forces the exit.
  const onSignal = (signal: NodeJS.Signals, code: number) => {
    if (stopSignal) process.exit(code);
    stopSignal = signal;
    if (liveGroups.size > 0) console.error(`${signal}: stopping ${liveGroups.size} process group(s)…`);
    void stopAllGroups().finally(() => process.exit(code));
  };
  process.on('SIGINT', () => onSignal('SIGINT', 130));
  process.on('SIGTERM', () => onSignal('SIGTERM', 143));
  process.on('SIGHUP', () => onSignal('SIGHUP', 129));
}

/**
 * Ratchet's run daemon leaves code-server's process group on purpose (it must outlive a window
 * reload), so stopping the group does not stop it. It would end by itself after its keep-alive;
 * a test session or `npm start` stops the daemons its own extension started (their script lies
 * under its extensions folder) so nothing outlives it.
 */
export async function stopRunDaemons(extensionsDir: string): Promise<void> {
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const args = cmdline.split('\0');
    if (args.some((a) => a.startsWith(extensionsDir) && a.endsWith('runDaemon.js'))) {
      try {
        process.kill(Number(entry), 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  }
}
