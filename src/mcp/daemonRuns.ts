/**
 * The live status of runs the editor's run daemon executes, for `run_status` and `list_runs`: the
 * workspace's daemon (its address: the workspace folders and Ratchet's version, as the editor's
 * language server computes it) is asked `daemon/listRuns` without attaching — the editor stays its
 * client. No daemon there (no editor open on the workspace, or another version): no live runs.
 * Never starts a daemon.
 */
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import type { LiveRunStatus } from '../core/journal/runStatus';
import { daemonAddress } from '../node/daemonAddress';
import { DaemonListRunsRequest } from '../protocol/runDaemon';

/** How long a daemon that took the connection may take to answer. */
const ANSWER_MS = 5_000;

/** The daemon's runs going on, by run id; empty when no daemon serves these folders. */
export async function daemonRunStatuses(folders: readonly string[], version: string): Promise<Map<string, LiveRunStatus>> {
  const socket = await new Promise<Socket | undefined>((resolve) => {
    const s = connect(daemonAddress(folders, version).socket);
    s.once('connect', () => resolve(s));
    s.once('error', () => resolve(undefined));
  });
  if (!socket) return new Map();
  socket.on('error', () => undefined);
  const connection = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  connection.listen();
  try {
    const answer = await Promise.race([connection.sendRequest(DaemonListRunsRequest, {}), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ANSWER_MS).unref())]);
    return new Map((answer?.runs ?? []).map((r) => [r.runId, r.status]));
  } catch {
    // An older daemon without the request, or one going away: nothing live to say.
    return new Map();
  } finally {
    connection.dispose();
    socket.destroy();
  }
}
