/**
 * The language server's process, forked by the extension itself the moment the server is to
 * start. The language client library is bundled apart and loaded in a later turn of the event
 * loop (lazyClient.ts); in traced window reloads it took 0.7–0.9 s from Ratchet's activation to
 * the library's own fork, with the server's Node booting only after that. Forked here, the
 * server boots while the library loads, and the client takes the process when it starts (client.ts).
 *
 * What the library did when it forked the server is done the same way: node IPC, the extension
 * host's pid for the server to watch (it exits if the host dies), Electron's run-as-node, the
 * debugger port while the extension host is being debugged. Its output, its exit and a kill if it
 * outlives its shutdown are the client's (client.ts) and the host's (serverHost.ts).
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

export interface ServerProcessOptions {
  /** out/server.js */
  module: string;
  execArgv: string[];
  /** Set on top of the extension host's environment. */
  env: Record<string, string>;
}

export function forkServer(o: ServerProcessOptions): ChildProcess {
  const debugged = process.execArgv.some((a) => /^--(inspect|debug)(-brk)?(=|$)/.test(a));
  return fork(o.module, ['--node-ipc', `--clientProcessId=${process.pid}`], {
    execArgv: debugged ? [...o.execArgv, '--nolazy', '--inspect=6011'] : o.execArgv,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', ELECTRON_NO_ASAR: '1', ...o.env },
    // stdin, stdout and stderr are pipes: the client writes stdout and stderr to the log (client.ts).
    silent: true,
  });
}

/** Whether `child` has neither exited nor been killed by a signal. */
export function isAlive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/**
 * The server's processes of one client: one forked ahead as the start begins, then the process
 * each start of the client takes. One forked ahead that ended before the client took it (a crash
 * as it booted) is not handed over: its channel closed before the client listened, and the client
 * would wait on it for ever. A fresh one is forked instead, whose end the client hears.
 */
export class ServerProcesses {
  private unclaimed: ChildProcess | undefined;
  /** The process the client took last. */
  current: ChildProcess | undefined;

  constructor(
    private readonly options: ServerProcessOptions,
    private readonly start: (o: ServerProcessOptions) => ChildProcess = forkServer,
  ) {}

  ahead(): void {
    this.unclaimed ??= this.start(this.options);
  }

  take(): ChildProcess {
    const ahead = this.unclaimed;
    this.unclaimed = undefined;
    const child = ahead !== undefined && isAlive(ahead) && ahead.connected ? ahead : this.start(this.options);
    this.current = child;
    return child;
  }

  /** Kills the process forked ahead if no start took it (the server stopped while the client loaded). */
  dropUnclaimed(): void {
    this.unclaimed?.kill();
    this.unclaimed = undefined;
  }
}
