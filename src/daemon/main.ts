/**
 * The run daemon: a detached process per workspace that executes Ratchet's runs, so that a run
 * outlives the extension host and its language server (a Reload Window restarts both). The
 * language server starts it on the first run and attaches to it again after a reload.
 *
 *   node runDaemon.js --socket <path> --keep-alive-ms <n>
 *
 * It goes away by itself: when it has had no run for IDLE_EXIT_MS, and when its runs have had no
 * client attached for the keep-alive time (the window closed for good). In the second case the
 * runs stop where they are; their journals say `interrupted` and the next window offers to
 * resume them.
 */
import { lstatSync, unlinkSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { ResponseError, ErrorCodes } from 'vscode-jsonrpc';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import { NodeFiles } from '../node/files';
import { guarded } from '../protocol/errors';
import { AttachRequest, DaemonCancelRequest, DaemonExitingNotification, DaemonListRunsRequest, DaemonResumeRequest, DaemonStartRequest, RUN_DAEMON_PROTOCOL } from '../protocol/runDaemon';
import { ClientLink } from './clientLink';
import { DaemonRuns } from './runs';

/** With no run left, the daemon lingers this long for the next one, then exits. */
const IDLE_EXIT_MS = 30_000;

const { values: args } = parseArgs({ options: { socket: { type: 'string' }, 'keep-alive-ms': { type: 'string' } } });
const socketPath = args.socket;
if (!socketPath) {
  console.error('ratchet run daemon: --socket <path> is required');
  process.exit(2);
}
let keepAliveMs = Number(args['keep-alive-ms'] ?? 120_000);

const log = (message: string) => console.log(`${new Date().toISOString()} ${message}`);
process.on('uncaughtException', (err) => log(`uncaught exception: ${err.stack ?? err.message}`));
process.on('unhandledRejection', (err) => log(`unhandled rejection: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));

let timer: NodeJS.Timeout | undefined;
const link = new ClientLink((attached) => {
  log(attached ? 'a client attached' : 'the client went away');
  lifetimeCheck();
});
const runs = new DaemonRuns(new NodeFiles(), link, () => lifetimeCheck());

function lifetimeCheck(): void {
  clearTimeout(timer);
  timer = undefined;
  if (runs.count === 0) timer = setTimeout(() => exit(`no run for ${IDLE_EXIT_MS / 1000} s`), IDLE_EXIT_MS);
  else if (!link.attached) {
    timer = setTimeout(() => exit(`${runs.count} run(s) had no editor attached for ${keepAliveMs / 1000} s; they stop here and can be resumed`), keepAliveMs);
  }
}

function exit(reason: string): void {
  log(`exiting: ${reason}`);
  link.notify(DaemonExitingNotification, { reason });
  server.close();
  // Journals are durable event by event: what a run wrote is kept, and it reads as interrupted.
  setTimeout(() => process.exit(0), 100);
}

const server = createServer((socket) => {
  socket.on('error', () => undefined); // a client that vanishes mid-write; the close below handles it
  const connection = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  connection.onRequest(AttachRequest, async (p) => {
    if (p.protocol !== RUN_DAEMON_PROTOCOL) throw new ResponseError(ErrorCodes.InvalidRequest, `protocol ${p.protocol} is not this daemon's ${RUN_DAEMON_PROTOCOL}`);
    keepAliveMs = p.keepAliveMs;
    link.attach(connection);
    // The questions the runs were waiting to ask (a pending suggestion's decide) go out to the new
    // client as the attach wakes them, a few promise turns later: answered after them, the attach
    // tells the client that what it has heard by then is everything that waits for it.
    await new Promise<void>((resolve) => setImmediate(resolve));
    return { pid: process.pid, runs: runs.list() };
  });
  connection.onRequest(
    DaemonStartRequest,
    guarded((p) => runs.start(p)),
  );
  connection.onRequest(
    DaemonResumeRequest,
    guarded((p) => runs.resume(p)),
  );
  connection.onRequest(DaemonCancelRequest, (p) => ({ cancelled: runs.cancel(p.runId) }));
  connection.onRequest(DaemonListRunsRequest, () => ({ runs: runs.list() }));
  connection.onClose(() => link.closed(connection));
  connection.listen();
});

/** A socket file left by a daemon that died is removed; a live daemon at the address wins. */
server.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EADDRINUSE') {
    log(`cannot listen on ${socketPath}: ${err.message}`);
    process.exit(1);
  }
  // Only a socket is ever probed or removed: connect() would follow a link planted at this path to
  // someone else's socket, and anything else here is not ours to delete.
  const kind = process.platform === 'win32' ? 'socket' : entryKind(socketPath);
  if (kind === 'gone') {
    server.listen(socketPath);
    return;
  }
  if (kind !== 'socket') {
    log(`cannot listen on ${socketPath}: ${kind === 'link' ? 'a symbolic link' : 'something other than a socket'} is there; remove it`);
    process.exit(1);
  }
  const probe = connect(socketPath);
  probe.on('connect', () => {
    log('another daemon already serves this workspace; exiting');
    probe.destroy();
    process.exit(0);
  });
  probe.on('error', () => {
    if (process.platform !== 'win32') unlinkSync(socketPath);
    server.listen(socketPath);
  });
});
function entryKind(path: string): 'socket' | 'link' | 'other' | 'gone' {
  try {
    const st = lstatSync(path);
    return st.isSocket() ? 'socket' : st.isSymbolicLink() ? 'link' : 'other';
  } catch {
    return 'gone';
  }
}
// Stopped by a signal (a logout, `kill`, a service manager): the same exit as an idle one, so the
// socket file goes with the server and the next daemon does not meet a stale one.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => exit(`${signal} received`));

server.on('listening', () => {
  log(`listening on ${socketPath} (pid ${process.pid})`);
  lifetimeCheck();
});
server.listen(socketPath);
