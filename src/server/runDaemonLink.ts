/**
 * The language server's side of the run daemon (src/daemon): finds the workspace's daemon or
 * starts one, attaches to it, sends it runs, and answers what it asks of the editor. The daemon
 * outlives this process, so after a Reload Window the new server attaches again and takes over
 * the runs still going — their events, their statuses, their pending suggestions. It keeps no
 * record of the runs: the daemon owns their status, and runHost.ts what it shows of them.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, renameSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { hostname } from 'node:os';
import type { Socket } from 'node:net';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import type { MessageConnection, RequestType } from 'vscode-jsonrpc/node';
import { RatchetError } from '../core/errors';
import type { ChatRequest, ChatResponse } from '../core/llm/types';
import type { JournaledEvent } from '../core/journal/events';
import type { LiveRunStatus } from '../core/journal/runStatus';
import { ensureDaemonDir } from '../node/daemonAddress';
import type { DaemonAddress } from '../node/daemonAddress';
import { fromWireError, guarded, isConnectionLoss } from '../protocol/errors';
import { signalOf } from '../node/cancellation';
import { isOwnerAlive } from '../node/process';
import { AttachRequest, DaemonApplyRequest, DaemonDecideRequest, DaemonExitingNotification, DaemonLanguageModelRequest, DaemonRunEventNotification, DaemonRunStatusNotification, RUN_DAEMON_PROTOCOL } from '../protocol/runDaemon';
import type { DaemonRunIdentity, DaemonRunInfo } from '../protocol/runDaemon';
import type { Suggestion } from '../core/journal/control';

export interface DaemonHandlers {
  event(run: DaemonRunIdentity, event: JournaledEvent): void;
  /** The run's status changed (its end included: a status that is over). */
  status(run: DaemonRunIdentity, status: LiveRunStatus): void;
  decide(runId: string, suggestion: Suggestion, signal: AbortSignal): Promise<'accept' | 'reject'>;
  apply(runId: string, suggestion: Suggestion, by: 'autopilot' | 'user'): Promise<'applied' | 'stale'>;
  chat(req: ChatRequest, signal: AbortSignal): Promise<ChatResponse>;
  /** Runs already going when this server attached (after a reload): take them over. */
  adopted(runs: DaemonRunInfo[]): void;
  /**
   * The daemon went away (killed, crashed, or exiting with runs left): the runs it was executing
   * for this server stopped and can be resumed. `gone` settles once its process is gone too.
   */
  lost(why: string, gone: Promise<void>): void;
}

export interface RunDaemonLinkOptions {
  /** Where this workspace's daemon listens; known once the editor has said which folders are open. */
  address: () => DaemonAddress;
  /** The daemon's script (out/runDaemon.js next to out/server.js). */
  script: string;
  keepAliveMs: () => number;
  handlers: DaemonHandlers;
  log: (message: string) => void;
}

/** How long a daemon just spawned gets to start listening. */
const START_TIMEOUT_MS = 10_000;

export class RunDaemonLink {
  private connection: MessageConnection | undefined;
  private connecting: Promise<MessageConnection | undefined> | undefined;
  /** The daemon said it is going away (no runs left): a request it drops is sent to a new one. */
  private exiting = false;
  private daemonPid: number | undefined;

  constructor(private readonly o: RunDaemonLinkOptions) {}

  /** Attaches to the workspace's daemon if one is running (after a reload); never starts one. */
  async attachExisting(): Promise<void> {
    await this.open(false);
  }

  /** Sends a request to the daemon, starting it first when none runs. */
  async request<P, R, E>(type: RequestType<P, R, E>, params: P): Promise<R> {
    const wentAway = () => new RatchetError('internal', `The Ratchet run process went away (${type.method}); see ${this.o.address().log}.`);
    for (let attempt = 0; ; attempt++) {
      let connection: MessageConnection;
      try {
        connection = (await this.open(true))!;
      } catch (err) {
        // Lost while attaching (a daemon dying as we reached it): the request was never sent, so
        // it goes to a fresh daemon once; the raw wire error never reaches the user.
        if (attempt === 0 && isConnectionLoss(err)) continue;
        throw isConnectionLoss(err) ? wentAway() : err;
      }
      try {
        return await connection.sendRequest<R>(type.method, params);
      } catch (err) {
        // A daemon that was exiting (no runs) did not take the request: a new one will.
        if (attempt === 0 && this.exiting && isConnectionLoss(err)) continue;
        throw isConnectionLoss(err) ? wentAway() : fromWireError(err);
      }
    }
  }

  /** A keep-alive change reaches the daemon now; a later attach would carry it anyway. */
  async settingsChanged(): Promise<void> {
    if (this.connection) await this.connection.sendRequest(AttachRequest, this.attachParams()).catch(() => undefined);
  }

  dispose(): void {
    this.connection?.dispose();
    this.connection = undefined;
  }

  private attachParams() {
    return { protocol: RUN_DAEMON_PROTOCOL, keepAliveMs: this.o.keepAliveMs() };
  }

  private open(start: boolean): Promise<MessageConnection | undefined> {
    if (this.connection) return Promise.resolve(this.connection);
    this.connecting ??= this.connectAndAttach(start).finally(() => (this.connecting = undefined));
    return this.connecting.then((c) => c ?? (start ? this.open(true) : undefined));
  }

  private async connectAndAttach(start: boolean): Promise<MessageConnection | undefined> {
    const address = this.o.address();
    let socket = await tryConnect(address.socket);
    if (!socket) {
      if (!start) return undefined;
      this.spawnDaemon(address);
      const until = Date.now() + START_TIMEOUT_MS;
      while (!socket && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
        socket = await tryConnect(address.socket);
      }
      if (!socket) throw new RatchetError('internal', `The Ratchet run process did not start within ${START_TIMEOUT_MS / 1000} s; see ${address.log}.`);
    }
    const connection = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
    this.wire(connection);
    connection.listen();
    const attached = await connection.sendRequest(AttachRequest, this.attachParams());
    this.connection = connection;
    this.daemonPid = attached.pid;
    this.exiting = false;
    this.o.log(`Attached to the run process ${attached.pid}${attached.runs.length > 0 ? ` (${attached.runs.length} run(s) going on)` : ''}.`);
    if (attached.runs.length > 0) this.o.handlers.adopted(attached.runs);
    return connection;
  }

  private spawnDaemon(address: DaemonAddress): void {
    ensureDaemonDir(address);
    const out = openDaemonLog(address.log);
    try {
      // Detached, in its own process group: closing or reloading the window must not take it down.
      // The runs' memory is the daemon's: it gets the heap limit the server was given (and no debugger port).
      const heap = process.execArgv.filter((a) => a.startsWith('--max-old-space-size='));
      const child = spawn(process.execPath, [...heap, this.o.script, '--socket', address.socket, '--keep-alive-ms', String(this.o.keepAliveMs())], {
        detached: true,
        stdio: ['ignore', out, out],
        env: daemonEnv(process.env),
        windowsHide: true,
      });
      child.unref();
      this.o.log(`Started the run process ${child.pid ?? '?'} (log: ${address.log}).`);
    } finally {
      closeSync(out);
    }
  }

  private wire(connection: MessageConnection): void {
    const h = this.o.handlers;
    connection.onNotification(DaemonRunEventNotification, (p) => h.event(p.run, p.event));
    connection.onNotification(DaemonRunStatusNotification, (p) => h.status(p.run, p.status));
    connection.onNotification(DaemonExitingNotification.method, () => {
      this.exiting = true;
    });
    connection.onRequest(DaemonDecideRequest, async (p, token) => ({ answer: await h.decide(p.runId, p.suggestion, signalOf(token)) }));
    connection.onRequest(DaemonApplyRequest, async (p) => ({ outcome: await h.apply(p.runId, p.suggestion, p.by) }));
    connection.onRequest(
      DaemonLanguageModelRequest,
      guarded((req, token) => h.chat(req, signalOf(token))),
    );
    connection.onClose(() => {
      connection.dispose();
      if (this.connection !== connection) return;
      this.connection = undefined;
      const why = this.exiting ? 'the run process stopped them' : 'the run process stopped unexpectedly';
      // The socket closes as the daemon dies, a moment before the process is gone: until it is,
      // its runs would still list as running rather than resumable.
      h.lost(why, processGone(this.daemonPid, 3_000));
    });
  }
}

/**
 * What the daemon and every process it starts (evaluators, command scorers) may see of the
 * server's environment: where programs and temporary files are, the locale, the proxy and
 * certificate settings a network call needs — never a key. A run's keys travel in its request
 * (`DaemonRunSetup.endpoint`); a scorer that needs a variable names it in the run spec's `env`.
 * Names compare upper-cased: Windows spells `Path` and `SystemRoot` its own way.
 */
const DAEMON_ENV = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'XDG_RUNTIME_DIR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'NODE_USE_ENV_PROXY',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  // The evaluator sandbox's bubblewrap, or `off` (docs/sandbox.md).
  'RATCHET_BWRAP',
  // Where Node keeps the code it compiled from the shared bundle (the server's, serverHost.ts): the
  // daemon loads the same bundle. Programs the daemon runs do not get it (sandboxEnv.ts).
  'NODE_COMPILE_CACHE',
  // Windows: programs, profiles and the shell cannot start without these.
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
]);

export function daemonEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && DAEMON_ENV.has(e[0].toUpperCase())));
}

/** A log past this size is moved aside (one generation, `.old`) when the next daemon starts. */
const LOG_MAX_BYTES = 1 << 20;

/**
 * The daemon's log is appended to, not overwritten: the daemon that died (whose log the "went
 * away" error points at) is followed by the one started to resume its runs, and its last words
 * must still be there.
 */
function openDaemonLog(path: string): number {
  try {
    if (statSync(path).size > LOG_MAX_BYTES) renameSync(path, `${path}.old`);
  } catch {
    // no log yet
  }
  return openSync(path, 'a', 0o600);
}

function tryConnect(path: string): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      socket.on('error', () => undefined); // the connection's close handler takes it from here
      resolve(socket);
    });
    socket.once('error', () => resolve(undefined));
  });
}

async function processGone(pid: number | undefined, timeoutMs: number): Promise<void> {
  if (pid === undefined) return;
  const owner = { pid, host: hostname(), since: '' };
  const until = Date.now() + timeoutMs;
  while (isOwnerAlive(owner) === true && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
}
