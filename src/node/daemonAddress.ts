/**
 * Where a workspace's run daemon listens. One daemon per set of workspace folders and extension
 * version: the window that comes back after a reload has the same folders and finds the daemon
 * its predecessor started, and an updated extension never talks to an older daemon (it starts its
 * own; the old one ends when its runs do).
 *
 * The socket lives in a per-user directory only its owner can enter, because the run settings
 * sent through it include the API key.
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { RatchetError } from '../core/errors';
import { RUN_DAEMON_PROTOCOL } from '../protocol/runDaemon';

export interface DaemonAddress {
  /** The socket path (a named pipe on Windows). */
  socket: string;
  /** The daemon's own log (its stdout and stderr), for when it fails with no client attached. */
  log: string;
}

export function daemonAddress(folders: readonly string[], version: string): DaemonAddress {
  const key = createHash('sha256')
    .update(JSON.stringify({ folders: folders.map((f) => normalize(f).replace(/(.)[\\/]+$/, '$1')).sort(), version, protocol: RUN_DAEMON_PROTOCOL }))
    .digest('hex')
    .slice(0, 16);
  const user = userName();
  const dir = join(tmpdir(), `ratchet-${user}`);
  // Unix socket paths are limited to ~104 bytes; this one stays short under any tmpdir we know.
  const socket = process.platform === 'win32' ? `\\\\.\\pipe\\ratchet-${user}-${key}` : join(dir, `${key}.sock`);
  return { socket, log: join(dir, `${key}.log`) };
}

/**
 * Creates the address's private directory (mode 0700) when missing. One that another user made
 * (to read the keys passing through the socket) is refused; one left readable is closed.
 */
export function ensureDaemonDir(address: DaemonAddress): void {
  const dir = dirname(address.log);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const uid = process.getuid?.();
  if (uid === undefined) return; // Windows: the pipe and the user's temp folder are the user's
  const st = statSync(dir);
  if (st.uid !== uid) throw new RatchetError('internal', `${dir} belongs to another user (uid ${st.uid}); Ratchet will not put its run socket there. Remove it.`, { file: dir });
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

function userName(): string {
  const uid = process.getuid?.();
  if (uid !== undefined) return String(uid);
  try {
    return userInfo().username.replace(/[^A-Za-z0-9_.-]/g, '_');
  } catch {
    return 'user';
  }
}
