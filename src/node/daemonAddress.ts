/**
 * Where a workspace's run daemon listens. One daemon per set of workspace folders and extension
 * version: the window that comes back after a reload has the same folders and finds the daemon
 * its predecessor started, and an updated extension never talks to an older daemon (it starts its
 * own; the old one ends when its runs do).
 *
 * The socket lives in a per-user directory only its owner can enter, because the run settings
 * sent through it include the API key. That directory is `$XDG_RUNTIME_DIR/ratchet` where the
 * session has one (per-user and 0700 by the XDG spec, so nobody else can plant anything in it),
 * else `<tmpdir>/ratchet-<uid>` — and a shared /tmp is where another user can get there first.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { RatchetError } from '../core/errors';
import { RUN_DAEMON_PROTOCOL } from '../protocol/runDaemon';

export interface DaemonAddress {
  /** The socket path (a named pipe on Windows). */
  socket: string;
  /** The daemon's own log (its stdout and stderr), for when it fails with no client attached. */
  log: string;
}

export function daemonAddress(folders: readonly string[], version: string, env: NodeJS.ProcessEnv = process.env): DaemonAddress {
  const key = createHash('sha256')
    .update(JSON.stringify({ folders: folders.map((f) => normalize(f).replace(/(.)[\\/]+$/, '$1')).sort(), version, protocol: RUN_DAEMON_PROTOCOL }))
    .digest('hex')
    .slice(0, 16);
  const user = userName();
  const dir = daemonDir(user, env);
  // Unix socket paths are limited to ~104 bytes; this one stays short under any tmpdir we know.
  const socket = process.platform === 'win32' ? `\\\\.\\pipe\\ratchet-${user}-${key}` : join(dir, `${key}.sock`);
  return { socket, log: join(dir, `${key}.log`) };
}

function daemonDir(user: string, env: NodeJS.ProcessEnv): string {
  const runtime = env.XDG_RUNTIME_DIR;
  // A relative value is invalid per the spec (and would move with the cwd): ignored, as the spec says.
  // So is one that is not (or no longer) this user's private directory: a stale variable inherited
  // by `su`, a container or a CI job must not stop every run, when tmpdir serves as well.
  if (process.platform !== 'win32' && runtime !== undefined && isAbsolute(runtime) && isOwnPrivateDir(runtime)) return join(runtime, 'ratchet');
  return join(tmpdir(), `ratchet-${user}`);
}

function isOwnPrivateDir(path: string): boolean {
  try {
    const st = lstatSync(path);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/**
 * Creates the address's private directory (mode 0700) when missing, and refuses one it cannot
 * trust: a symbolic link (another user can plant `/tmp/ratchet-<uid>` pointing at a folder we own,
 * wait for us to accept and chmod it, then re-point it at their own), anything that is not a
 * directory, or a directory another user owns. One of ours left readable is closed.
 *
 * Only the last component is created here; its parent (tmpdir or XDG_RUNTIME_DIR) is the system's.
 * The checks are made on an fd opened with O_NOFOLLOW, so what is checked and chmod'ed is the very
 * directory that was opened, even if a link is swapped in after the lstat. The daemon and the
 * client later reach the socket by path again, which is safe only while nobody else can rename
 * entries in the parent: true of XDG_RUNTIME_DIR (the user's own) and of a sticky /tmp (only an
 * entry's owner may rename it), so a parent others can write to without the sticky bit is refused.
 * Not covered: the folders above the parent (a TMPDIR reached through another user's link).
 */
export function ensureDaemonDir(address: DaemonAddress): void {
  const dir = dirname(address.log);
  const uid = process.getuid?.();
  if (uid === undefined) {
    mkdirSync(dir, { recursive: true }); // Windows: the pipe and the user's temp folder are the user's
    return;
  }
  const parent = statSync(dirname(dir), { throwIfNoEntry: false });
  if (parent !== undefined && (parent.mode & 0o1002) === 0o002) {
    throw refused(dir, `is in ${dirname(dir)}, which anyone can write to and which lacks the sticky bit, so another user could swap the folder`, 'Point TMPDIR at a folder of your own.');
  }
  try {
    mkdirSync(dir, { mode: 0o700 }); // never follows a link: an existing one (dangling or not) is EEXIST
  } catch (err) {
    if (errCode(err) === 'ENOENT') throw refused(dir, `cannot be created: its parent ${dirname(dir)} does not exist`, 'Check TMPDIR and XDG_RUNTIME_DIR.');
    if (errCode(err) !== 'EEXIST') throw err;
  }
  check(dir, lstatSync(dir), uid);
  let fd: number;
  try {
    // O_NOFOLLOW refuses a link swapped in since the lstat; O_DIRECTORY anything else.
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (err) {
    if (errCode(err) === 'ELOOP' || errCode(err) === 'ENOTDIR') throw refused(dir, 'was replaced while Ratchet checked it', 'Remove it.');
    throw err;
  }
  try {
    const st = fstatSync(fd);
    check(dir, st, uid);
    if ((st.mode & 0o077) !== 0) fchmodSync(fd, 0o700);
  } finally {
    closeSync(fd);
  }
}

function check(dir: string, st: Stats, uid: number): void {
  if (st.isSymbolicLink()) throw refused(dir, 'is a symbolic link (someone may have planted it to redirect the socket)', 'Remove the link.');
  if (!st.isDirectory()) throw refused(dir, 'is not a directory', 'Remove it.');
  if (st.uid !== uid) throw refused(dir, `belongs to another user (uid ${st.uid})`, 'Remove it, or ask its owner or an administrator to.');
}

function refused(dir: string, why: string, next: string): RatchetError {
  return new RatchetError('internal', `Ratchet will not put its run socket (which carries your API key) in ${dir}: it ${why}. ${next}`, { file: dir });
}

function errCode(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
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
